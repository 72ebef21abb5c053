/**
 * The reload machinery on its own: the state slot swaps one reference and closes a
 * replaced state's resources only after its last request, once each; the reloader builds on a
 * signal or a changed file (debounced, content-checked), never overlaps two builds, reports
 * every problem, and keeps the running generation on any failure.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import {
  createStateSlot,
  startReloader,
  type BuildOutcome,
  type Closable,
  type FolderWatcher,
  type Reloader,
  type ReloaderOptions,
  type ReloadResult,
} from '../../src/config/reload.js';
import type { Problem } from '../../src/shared/problem.js';

/** A resource that counts how often it was closed. */
function resource(name: string, close: () => unknown = () => undefined) {
  const r = {
    name,
    closes: 0,
    close() {
      r.closes += 1;
      return close();
    },
  };
  return r;
}

interface State {
  readonly name: string;
  readonly resources: readonly (Closable | null)[];
}

const stateOf = (name: string, ...resources: (Closable | null)[]): State => ({ name, resources });

t.test('slot: a swap is one step; the old state closes after its last request', async (t) => {
  const pool = resource('pool');
  const store = resource('store');
  const a = stateOf('a', pool, store, null);
  const slot = createStateSlot(a, (s: State) => s.resources);
  t.equal(slot.current(), a);
  t.equal(slot.live, 1);

  const held = slot.acquire();
  t.equal(held, a, 'acquire answers the current state');
  const newPool = resource('pool 2');
  const b = stateOf('b', newPool, store);
  slot.swap(b);
  t.equal(slot.current(), b, 'the next acquire gets the new state');
  t.equal(slot.acquire(), b);
  t.equal(slot.live, 2, 'a is still live: one request holds it');
  t.equal(pool.closes, 0, 'nothing of a closes while it serves a request');

  slot.release(a);
  await new Promise((r) => setImmediate(r));
  t.equal(slot.live, 1);
  t.equal(pool.closes, 1, 'a drained: its own pool closes');
  t.equal(store.closes, 0, 'the store b kept is not closed');

  slot.release(a);
  slot.release(stateOf('stranger'));
  t.equal(pool.closes, 1, 'a release of a state no longer held is ignored');
  slot.release(b);
  slot.release(b);
  t.equal(slot.live, 1, 'an extra release never goes below zero');

  slot.swap(b);
  t.equal(slot.live, 1, 'swapping in the current state changes nothing');

  await slot.close();
  t.same(
    [pool.closes, newPool.closes, store.closes],
    [1, 1, 1],
    'shutdown closes every resource once',
  );
  await slot.close();
  t.same([newPool.closes, store.closes], [1, 1], 'closing twice closes nothing twice');
});

t.test('slot: a shared resource closes only when no live state uses it', async (t) => {
  // a and b share the pool; c has its own. a serves a long request across two swaps.
  const pool = resource('pool');
  const poolC = resource('pool c');
  const a = stateOf('a', pool);
  const b = stateOf('b', pool);
  const c = stateOf('c', poolC);
  const slot = createStateSlot(a, (s: State) => s.resources);
  slot.acquire();
  slot.swap(b);
  slot.swap(c);
  await new Promise((r) => setImmediate(r));
  t.equal(slot.live, 2, 'b drained at once; a still serves');
  t.equal(pool.closes, 0, 'b drained but a still uses the pool');
  slot.release(a);
  await new Promise((r) => setImmediate(r));
  t.equal(pool.closes, 1, 'the last user of the pool drained');
  t.equal(slot.live, 1);

  // Swapping back to a state that is still live keeps counting its requests.
  const d = stateOf('d', resource('pool d'));
  const e = stateOf('e', resource('pool e'));
  slot.acquire();
  slot.swap(d);
  t.equal(slot.live, 2, 'c serves one request, d is current');
  slot.swap(c);
  t.equal(slot.live, 1, 'c is current again and d drained');
  slot.swap(e);
  t.equal(slot.live, 2, 'c still counts the request it held before');
  slot.release(c);
  t.equal(slot.live, 1);
  await slot.close();
  t.equal(poolC.closes, 1);
});

t.test('slot: a resource whose close fails is still gone, and nobody sees the error', async (t) => {
  const throwing = resource('sync', () => {
    throw new Error('close failed');
  });
  const rejecting = resource('async', () => Promise.reject(new Error('close failed')));
  const slot = createStateSlot(stateOf('a', throwing, rejecting), (s: State) => s.resources);
  slot.swap(stateOf('b'));
  await slot.close();
  t.same([throwing.closes, rejecting.closes], [1, 1]);
});

/** A generation for the reloader tests: a number and the files it was built from. */
interface Gen {
  readonly n: number;
  readonly files: readonly string[];
}

interface Harness {
  readonly reloader: Reloader<Gen>;
  readonly out: string[];
  readonly err: string[];
  readonly hooks: { result: ReloadResult; problems: readonly Problem[] }[];
  readonly installed: [Gen, Gen][];
  builds: number;
}

type Build = (running: Gen) => Promise<BuildOutcome<Gen>>;

const succeed =
  (files?: readonly string[]): Build =>
  async (running) => ({
    ok: true,
    next: { n: running.n + 1, files: files ?? running.files },
    warnings: [],
  });

async function harness(
  t: Test,
  options: { files: readonly string[]; build?: Build } & Partial<ReloaderOptions<Gen>>,
): Promise<Harness> {
  const h: Omit<Harness, 'reloader'> = {
    out: [],
    err: [],
    hooks: [],
    installed: [],
    builds: 0,
  };
  const build = options.build ?? succeed();
  const reloader = await startReloader<Gen>({
    debounceMs: 5,
    ...options,
    initial: { n: 1, files: options.files },
    file: 'gateway.yaml',
    build: (running) => {
      h.builds += 1;
      return build(running);
    },
    install: (next, previous) => h.installed.push([next, previous]),
    filesOf: (g) => g.files,
    log: { out: (l) => h.out.push(l), err: (l) => h.err.push(l) },
    onReload: (result, problems) => h.hooks.push({ result, problems }),
  });
  t.teardown(() => reloader.close());
  return Object.assign(h, { reloader });
}

t.test('reload(): a good build is installed, counted and logged', async (t) => {
  const h = await harness(t, { files: [] });
  t.equal(h.reloader.generation, 1);
  t.equal(await h.reloader.reload(), 'success');
  t.equal(h.reloader.generation, 2);
  t.equal(h.reloader.current().n, 2);
  t.same(
    h.installed.map(([next, previous]) => [next.n, previous.n]),
    [[2, 1]],
  );
  t.same(h.hooks, [{ result: 'success', problems: [] }]);
  t.same(h.out, [
    'scopegate: reload requested, reloading gateway.yaml',
    'scopegate: config reloaded from gateway.yaml (generation 2)',
  ]);
  t.same(h.err, []);
});

t.test('a bad build changes nothing: one line per problem, the hook gets them', async (t) => {
  const problems: Problem[] = [
    { file: 'gateway.yaml', key: 'auth.algoritm', line: 7, message: 'unknown key' },
    { file: 'p.yaml', key: '', message: 'cannot read the policy file' },
  ];
  const warning: Problem = {
    file: 'gateway.yaml',
    key: 'auth.validate',
    line: 3,
    message: 'signatures are not checked',
    code: 'SGWRN007',
  };
  const h = await harness(t, {
    files: [],
    build: async () => ({ ok: false, problems, warnings: [warning] }),
  });
  t.equal(await h.reloader.reload('SIGHUP'), 'error');
  t.equal(h.reloader.current().n, 1, 'the running generation stays');
  t.equal(h.reloader.generation, 1);
  t.same(h.installed, []);
  t.same(h.hooks, [{ result: 'error', problems }]);
  t.same(h.out, ['scopegate: SIGHUP, reloading gateway.yaml']);
  t.same(h.err, [
    'warning: gateway.yaml:3 auth.validate: signatures are not checked [SGWRN007]',
    'error: gateway.yaml:7 auth.algoritm: unknown key',
    'error: p.yaml: cannot read the policy file',
    'scopegate: reload rejected (2 problems); the running config (generation 1) keeps serving',
  ]);
});

t.test('a build that throws is a rejected reload, not a crash', async (t) => {
  const h = await harness(t, {
    files: [],
    build: async () => {
      throw new Error('a bug in assembly');
    },
  });
  t.equal(await h.reloader.reload(), 'error');
  t.same(h.hooks, [
    {
      result: 'error',
      problems: [{ file: 'gateway.yaml', key: '', message: 'reload failed: a bug in assembly' }],
    },
  ]);
  t.match(h.err.at(-1), /reload rejected \(1 problem\)/);
});

t.test('a hook that throws never stops the next reload', async (t) => {
  let calls = 0;
  const reloader = await startReloader<Gen>({
    initial: { n: 1, files: [] },
    file: 'gateway.yaml',
    build: succeed(),
    install: () => undefined,
    filesOf: (g) => g.files,
    log: { out: () => undefined, err: () => undefined },
    onReload: () => {
      calls += 1;
      throw new Error('metrics are down');
    },
  });
  t.teardown(() => reloader.close());
  t.equal(await reloader.reload(), 'success');
  t.equal(await reloader.reload(), 'success');
  t.equal(calls, 2);
});

/** A build that waits until released, to hold a reload open. */
function heldBuild(): { build: Build; release(): void; started: Promise<void> } {
  let release: () => void = () => undefined;
  let started: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const startedP = new Promise<void>((r) => (started = r));
  let first = true;
  return {
    build: async (running) => {
      if (first) {
        first = false;
        started();
        await gate;
      }
      return succeed()(running);
    },
    release: () => release(),
    started: startedP,
  };
}

t.test('reloads never overlap: requests made meanwhile share one more run', async (t) => {
  const held = heldBuild();
  const h = await harness(t, { files: [], build: held.build });
  const first = h.reloader.reload();
  await held.started;
  const second = h.reloader.reload();
  const third = h.reloader.reload();
  held.release();
  t.same(await Promise.all([first, second, third]), ['success', 'success', 'success']);
  t.equal(h.builds, 2, 'one build for the first request, one for both that waited');
  t.equal(h.reloader.generation, 3);
  // A request made by a waiter as it resumes starts a new run (no stale "running" flag).
  t.equal(await h.reloader.reload(), 'success');
  t.equal(h.builds, 3);
});

/** A fake folder watcher: the test fires events and errors by hand. */
function fakeWatch() {
  const watched = new Map<string, { fire(): void; emitter: EventEmitter; closed: boolean }>();
  const missing = new Set<string>();
  const watch = (folder: string, onEvent: () => void): FolderWatcher => {
    if (missing.has(folder)) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    const emitter = new EventEmitter();
    const entry = { fire: onEvent, emitter, closed: false };
    watched.set(folder, entry);
    return {
      close: () => {
        entry.closed = true;
      },
      on: (event, listener) => emitter.on(event, listener),
    };
  };
  return { watch, watched, missing };
}

t.test('a file event reloads only when a watched file changed', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': 'a: 1\n', 'other.db': 'x' });
  const config = join(dir, 'gateway.yaml');
  const fake = fakeWatch();
  const h = await harness(t, { files: [config], watch: fake.watch });
  t.same(h.reloader.watchedFolders(), [dir]);
  const folder = fake.watched.get(dir);
  if (folder === undefined) throw new Error('not watched');

  writeFileSync(join(dir, 'other.db'), 'y');
  folder.fire();
  await h.reloader.idle();
  t.equal(h.builds, 0, 'another file in the folder: no reload');

  writeFileSync(config, 'a: 1\n');
  folder.fire();
  await h.reloader.idle();
  t.equal(h.builds, 0, 'the same content written again: no reload');

  writeFileSync(config, 'a: 2\n');
  folder.fire();
  folder.fire();
  folder.fire();
  await h.reloader.idle();
  t.equal(h.builds, 1, 'a burst of events is one reload');
  t.same(h.out[0], `scopegate: ${config} changed, reloading gateway.yaml`);
  t.same(h.hooks, [{ result: 'success', problems: [] }]);

  await h.reloader.idle();
  t.pass('idle answers at once when nothing is pending');
});

t.test('a failed reload is not retried until a file changes again', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': 'a: 1\n' });
  const config = join(dir, 'gateway.yaml');
  const fake = fakeWatch();
  let ok = false;
  const h = await harness(t, {
    files: [config],
    watch: fake.watch,
    build: async (running) =>
      ok
        ? succeed()(running)
        : { ok: false, problems: [{ file: config, key: '', message: 'bad' }], warnings: [] },
  });
  const folder = fake.watched.get(dir);
  if (folder === undefined) throw new Error('not watched');
  writeFileSync(config, 'a: [\n');
  folder.fire();
  await h.reloader.idle();
  folder.fire();
  await h.reloader.idle();
  t.equal(h.builds, 1, 'the same bad content is tried once');
  ok = true;
  writeFileSync(config, 'a: 3\n');
  folder.fire();
  await h.reloader.idle();
  t.same(
    h.hooks.map((c) => c.result),
    ['error', 'success'],
  );
});

t.test('the watch list is re-read after a successful reload', async (t) => {
  const dir = t.testdir({ one: { 'gateway.yaml': 'x' }, two: { 'p.yaml': 'y' } });
  const [one, two, three] = ['one', 'two', 'three'].map((f) => join(dir, f)) as [
    string,
    string,
    string,
  ];
  const fake = fakeWatch();
  fake.missing.add(three);
  const config = join(one, 'gateway.yaml');
  const generations = [[config, join(two, 'p.yaml'), join(three, 'k.pem')], [join(two, 'p.yaml')]];
  const h = await harness(t, {
    files: [config, join(three, 'k.pem')],
    watch: fake.watch,
    build: async (running) => ({
      ok: true,
      next: { n: running.n + 1, files: generations[running.n - 1] as string[] },
      warnings: [],
    }),
  });
  t.same(h.reloader.watchedFolders(), [one], 'a missing folder is skipped');

  // A watcher that fails is dropped; the next reload watches the folder again.
  const failed = fake.watched.get(one);
  failed?.emitter.emit('error', new Error('EACCES'));
  t.same(h.reloader.watchedFolders(), []);
  t.equal(failed?.closed, true);

  fake.missing.delete(three);
  mkdirSync(three);
  t.equal(await h.reloader.reload(), 'success');
  t.same([...h.reloader.watchedFolders()].sort(), [one, three, two]);
  const replacement = fake.watched.get(one);
  t.not(replacement, failed, 'a new watcher for the folder');

  // A late error from the old watcher does not drop the folder's new one.
  failed?.emitter.emit('error', new Error('late'));
  t.equal(h.reloader.watchedFolders().length, 3);

  // The next generation reads only `two`: the other watchers close.
  t.equal(await h.reloader.reload(), 'success');
  t.same(h.reloader.watchedFolders(), [two]);
  t.equal(replacement?.closed, true, 'a folder no longer needed is no longer watched');
});

t.test('a real folder watch notices an editor-style replace (write, rename)', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': 'a: 1\n' });
  const config = join(dir, 'gateway.yaml');
  let done: (r: ReloadResult) => void = () => undefined;
  const reloaded = new Promise<ReloadResult>((r) => (done = r));
  const reloader = await startReloader<Gen>({
    initial: { n: 1, files: [config] },
    file: config,
    debounceMs: 10,
    build: succeed(),
    install: () => undefined,
    filesOf: (g) => g.files,
    log: { out: () => undefined, err: () => undefined },
    onReload: (result) => done(result),
  });
  t.teardown(() => reloader.close());
  writeFileSync(join(dir, 'gateway.yaml.tmp'), 'a: 2\n');
  renameSync(join(dir, 'gateway.yaml.tmp'), config);
  t.equal(await reloaded, 'success');
});

t.test('a Kubernetes-style volume update (a ..data symlink swap) is noticed', async (t) => {
  // The mounted file is a symlink through `..data`, which the kubelet swaps atomically; no
  // event ever names gateway.yaml itself.
  const dir = t.testdir({
    '..v1': { 'gateway.yaml': 'a: 1\n' },
    '..v2': { 'gateway.yaml': 'a: 2\n' },
    '..data': t.fixture('symlink', '..v1'),
    'gateway.yaml': t.fixture('symlink', '..data/gateway.yaml'),
  });
  const config = join(dir, 'gateway.yaml');
  let done: (r: ReloadResult) => void = () => undefined;
  const reloaded = new Promise<ReloadResult>((r) => (done = r));
  const out: string[] = [];
  const reloader = await startReloader<Gen>({
    initial: { n: 1, files: [config] },
    file: config,
    debounceMs: 10,
    build: succeed(),
    install: () => undefined,
    filesOf: (g) => g.files,
    log: { out: (l) => out.push(l), err: () => undefined },
    onReload: (result) => done(result),
  });
  t.teardown(() => reloader.close());
  symlinkSync('..v2', join(dir, '..data_tmp'));
  renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
  t.equal(await reloaded, 'success');
  t.equal(out[0], `scopegate: ${config} changed, reloading ${config}`);
});

t.test('a signal forces a reload; close stops listening for it', async (t) => {
  const before = process.listenerCount('SIGHUP');
  const h = await harness(t, { files: [], signals: ['SIGHUP'] });
  t.equal(process.listenerCount('SIGHUP'), before + 1);
  const hooked = new Promise<void>((resolve) => {
    const poll = (): void => {
      if (h.hooks.length > 0) resolve();
      else setImmediate(poll);
    };
    poll();
  });
  process.kill(process.pid, 'SIGHUP');
  await hooked;
  t.same(h.out[0], 'scopegate: SIGHUP, reloading gateway.yaml');
  t.equal(h.reloader.generation, 2);
  await h.reloader.close();
  t.equal(process.listenerCount('SIGHUP'), before);
});

t.test('a forced request upgrades a queued file check', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': 'a: 1\n' });
  const config = join(dir, 'gateway.yaml');
  const fake = fakeWatch();
  const held = heldBuild();
  const h = await harness(t, {
    files: [config],
    watch: fake.watch,
    build: held.build,
    debounceMs: 0,
  });
  const first = h.reloader.reload();
  await held.started;
  fake.watched.get(dir)?.fire();
  // Let the debounce timer queue its (unchanged-content) check behind the running reload.
  await new Promise((r) => setTimeout(r, 5));
  const forced = h.reloader.reload('SIGHUP');
  held.release();
  t.same(await Promise.all([first, forced]), ['success', 'success']);
  t.equal(h.builds, 2, 'the queued check became a forced reload');
  t.match(h.out, [
    'scopegate: reload requested, reloading gateway.yaml',
    /generation 2/,
    'scopegate: SIGHUP, reloading gateway.yaml',
    /generation 3/,
  ]);
});

t.test(
  'close: a queued request answers null, a running one finishes, later ones are null',
  async (t) => {
    const held = heldBuild();
    const h = await harness(t, { files: [], build: held.build });
    const first = h.reloader.reload();
    await held.started;
    const queued = h.reloader.reload();
    const closing = h.reloader.close();
    held.release();
    await closing;
    t.equal(await first, 'success', 'the running reload completed');
    t.equal(await queued, null, 'the queued one never ran');
    t.equal(await h.reloader.reload(), null);
    await h.reloader.idle();
    t.equal(h.builds, 1);
  },
);

t.test('close while a file check waits for quiet: the check never runs', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': 'a: 1\n' });
  const config = join(dir, 'gateway.yaml');
  const fake = fakeWatch();
  const h = await harness(t, { files: [config], watch: fake.watch, debounceMs: 10_000 });
  writeFileSync(config, 'a: 2\n');
  fake.watched.get(dir)?.fire();
  const idle = h.reloader.idle();
  await h.reloader.close();
  await idle;
  t.equal(h.builds, 0);
  t.equal(fake.watched.get(dir)?.closed, true, 'watchers close with the reloader');
});
