/**
 * Config reload: a state slot that swaps one reference and closes
 * what a replaced state holds only after its last in-flight request, and a reloader that builds
 * the next state on a signal or a watched file change, off the request path. Never builds a state
 * itself (the caller's `build` does), never serves a request, never half-applies a config.
 */
import { createHash } from 'node:crypto';
import { watch as watchFolder } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatProblem, type Problem } from '../shared/problem.js';
import { plural } from '../shared/text.js';

/** A resource a state holds (a connection pool, a database): closed once, when no state uses it. */
export interface Closable {
  close(): unknown;
}

/**
 * The current state and the states still serving requests that arrived before a swap. The
 * request path costs one counter increment and one decrement; no lock, no allocation.
 */
export interface StateSlot<S extends object> {
  /** The current state, without holding it (for code that serves no request). */
  current(): S;
  /** The current state, held until {@link StateSlot.release} is called with it. */
  acquire(): S;
  /** Ends one hold of `state` (from {@link StateSlot.acquire}); a state no longer held is ignored. */
  release(state: S): void;
  /**
   * Makes `next` current, atomically for every later `acquire`. The replaced state is retired:
   * once its last request is released, each of its resources that no live state uses is closed.
   */
  swap(next: S): void;
  /** States still live: the current one and every retired one with requests in flight. */
  readonly live: number;
  /** Shutdown: closes every resource of every live state, in flight or not, once each. */
  close(): Promise<void>;
}

/**
 * Creates the slot. `resourcesOf` lists what a state holds that must be closed; a resource
 * shared by two states (a pool kept across a reload) is closed only when neither is live.
 */
export function createStateSlot<S extends object>(
  initial: S,
  resourcesOf: (state: S) => readonly (Closable | null | undefined)[],
): StateSlot<S> {
  interface Held {
    inFlight: number;
  }
  let current = initial;
  let currentHeld: Held = { inFlight: 0 };
  const live = new Map<S, Held>([[initial, currentHeld]]);
  const closed = new Set<Closable>();
  const closing: Promise<unknown>[] = [];

  const closeUnused = (state: S): void => {
    for (const resource of resourcesOf(state)) {
      if (resource == null || closed.has(resource)) continue;
      const stillUsed = [...live.keys()].some((other) => resourcesOf(other).includes(resource));
      if (stillUsed) continue;
      closed.add(resource);
      // A resource that fails to close is gone either way; the error must not reach a request.
      closing.push(
        Promise.resolve()
          .then(() => resource.close())
          .catch(() => undefined),
      );
    }
  };
  const retireIfDone = (state: S, held: Held): void => {
    if (state === current || held.inFlight > 0) return;
    live.delete(state);
    closeUnused(state);
  };

  return {
    current: () => current,
    acquire() {
      currentHeld.inFlight += 1;
      return current;
    },
    release(state) {
      const held = state === current ? currentHeld : live.get(state);
      if (held === undefined || held.inFlight === 0) return;
      held.inFlight -= 1;
      retireIfDone(state, held);
    },
    swap(next) {
      if (next === current) return;
      const previous = current;
      const previousHeld = currentHeld;
      currentHeld = live.get(next) ?? { inFlight: 0 };
      live.set(next, currentHeld);
      current = next;
      retireIfDone(previous, previousHeld);
    },
    get live() {
      return live.size;
    },
    async close() {
      const states = [...live.keys()];
      live.clear();
      for (const state of states) closeUnused(state);
      await Promise.all(closing);
    },
  };
}

/** How a reload ended: the label of `scopegate_config_reloads_total{result}`. */
export type ReloadResult = 'success' | 'error';

/**
 * Called once per reload attempt that ran: `'success'` with no problems, or `'error'` with every
 * problem that rejected it. The metrics wiring point; it must not throw (a throw is ignored).
 */
export type ReloadHook = (result: ReloadResult, problems: readonly Problem[]) => void;

/** What building the next generation came to. */
export type BuildOutcome<G> =
  | { readonly ok: true; readonly next: G; readonly warnings: readonly Problem[] }
  | {
      readonly ok: false;
      readonly problems: readonly Problem[];
      readonly warnings: readonly Problem[];
    };

/** Where the reloader prints (a command's console). */
export interface ReloadLog {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** A folder watcher, as node:fs `watch` returns it (injected in tests). */
export interface FolderWatcher {
  close(): void;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/** What {@link startReloader} needs. `G` is one generation: a state and what built it. */
export interface ReloaderOptions<G> {
  /** The generation serving now. */
  readonly initial: G;
  /** The config file as given (named in log lines). */
  readonly file: string;
  /** Builds the next generation from the files on disk. Should not throw (a throw is an error). */
  build(running: G): Promise<BuildOutcome<G>>;
  /** Puts `next` in service: one reference swap. Called only for a successful build. */
  install(next: G, previous: G): void;
  /** Absolute paths of the files a generation was built from: their folders are watched. */
  filesOf(generation: G): readonly string[];
  /** Quiet time after the last file event before the files are checked (default 250 ms). */
  readonly debounceMs?: number | undefined;
  /** Signals that force a reload (serve: SIGHUP). Default none. */
  readonly signals?: readonly NodeJS.Signals[] | undefined;
  readonly log: ReloadLog;
  readonly onReload?: ReloadHook | undefined;
  /** Watches one folder (default: node:fs `watch`; {@link Reloader.close} closes it). */
  readonly watch?: ((folder: string, onEvent: () => void) => FolderWatcher) | undefined;
}

/** A running reloader. */
export interface Reloader<G> {
  /**
   * Reloads now, as the signal does. A reload already running is never interrupted: this one
   * runs after it, and requests made meanwhile share that one run. Null once closed.
   */
  reload(reason?: string): Promise<ReloadResult | null>;
  /** The generation serving now. */
  current(): G;
  /** Successful builds so far, plus one: the initial generation is 1. */
  readonly generation: number;
  /** The folders watched now. */
  watchedFolders(): readonly string[];
  /**
   * Resolves once no file check waits for quiet and no reload runs: after a file event, the
   * moment its check (and any reload it started) is over.
   */
  idle(): Promise<void>;
  /** Stops watching and listening for signals; waits for a reload that is running. */
  close(): Promise<void>;
}

/** Default quiet time after a file event: editors write a file in bursts (write, rename, chmod). */
export const DEFAULT_RELOAD_DEBOUNCE_MS = 250;

const defaultWatch = (folder: string, onEvent: () => void): FolderWatcher =>
  watchFolder(folder, onEvent);

/** SHA-256 of a file's bytes, or why it cannot be read: a change of either is a change. */
async function digestOf(path: string): Promise<string> {
  try {
    return createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
  } catch (err) {
    return `unreadable:${String((err as { code?: unknown }).code)}`;
  }
}

interface Job {
  /** Reload even when no watched file changed (a signal or an explicit request). */
  force: boolean;
  reason: string;
  readonly waiters: ((result: ReloadResult | null) => void)[];
}

/**
 * Starts reloading on `signals` and on changes to the files of the current generation. File
 * events are only hints: after `debounceMs` of quiet the files are hashed, and a reload runs only
 * when one's content changed (so a database written beside the config, or a `..data` symlink
 * swap of a Kubernetes volume, are told apart correctly). Reloads never overlap; requests that
 * arrive while one runs are coalesced into one more run. After a successful reload the watch
 * list is re-read from the new generation.
 */
export async function startReloader<G>(options: ReloaderOptions<G>): Promise<Reloader<G>> {
  const { log, file } = options;
  const debounceMs = options.debounceMs ?? DEFAULT_RELOAD_DEBOUNCE_MS;
  const watch = options.watch ?? defaultWatch;
  let current = options.initial;
  let generation = 1;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let pending: Job | null = null;
  /** Whether {@link drain} is running; set and cleared synchronously, never left stale. */
  let active = false;
  let running: Promise<void> = Promise.resolve();
  /** Digest of each watched file as last built from. */
  let digests = new Map<string, string>();
  const watchers = new Map<string, FolderWatcher>();
  const idleWaiters: (() => void)[] = [];
  const resolveIfIdle = (): void => {
    if ((timer !== null || active) && !closed) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  };

  const onFileEvent = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void enqueue(false, 'file change');
    }, debounceMs);
  };

  const watchFolders = (files: readonly string[]): void => {
    const wanted = new Set(files.map((f) => dirname(f)));
    for (const [folder, watcher] of watchers) {
      if (wanted.has(folder)) continue;
      watcher.close();
      watchers.delete(folder);
    }
    for (const folder of wanted) {
      if (watchers.has(folder)) continue;
      let watcher: FolderWatcher;
      try {
        watcher = watch(folder, onFileEvent);
      } catch {
        // A folder that does not exist (yet): the next successful reload, or SIGHUP, retries.
        continue;
      }
      // A folder removed or unreadable later stops reporting; the next reload re-watches it.
      watcher.on('error', () => {
        watcher.close();
        if (watchers.get(folder) === watcher) watchers.delete(folder);
      });
      watchers.set(folder, watcher);
    }
  };

  const digestAll = async (files: readonly string[]): Promise<Map<string, string>> =>
    new Map(await Promise.all(files.map(async (f) => [f, await digestOf(f)] as const)));

  const callHook = (result: ReloadResult, problems: readonly Problem[]): void => {
    try {
      options.onReload?.(result, problems);
    } catch {
      // The hook counts; a failure to count must never stop the next reload.
    }
  };

  const runJob = async (job: Job): Promise<ReloadResult | null> => {
    const files = options.filesOf(current);
    // Hashed before the build reads them: a change landing during the build triggers again.
    const before = await digestAll(files);
    const changed = files.filter((f) => before.get(f) !== digests.get(f));
    if (!job.force && changed.length === 0) return null;
    digests = before;
    log.out(
      `scopegate: ${job.force ? job.reason : `${changed.join(', ')} changed`}, reloading ${file}`,
    );
    let outcome: BuildOutcome<G>;
    try {
      outcome = await options.build(current);
    } catch (err) {
      const message = `reload failed: ${(err as Error).message}`;
      outcome = { ok: false, problems: [{ file, key: '', message }], warnings: [] };
    }
    for (const warning of outcome.warnings) log.err(`warning: ${formatProblem(warning)}`);
    if (!outcome.ok) {
      for (const problem of outcome.problems) log.err(`error: ${formatProblem(problem)}`);
      log.err(
        `scopegate: reload rejected (${plural(outcome.problems.length, 'problem')}); ` +
          `the running config (generation ${generation}) keeps serving`,
      );
      callHook('error', outcome.problems);
      return 'error';
    }
    const previous = current;
    current = outcome.next;
    options.install(current, previous);
    generation += 1;
    const nextFiles = options.filesOf(current);
    const added = nextFiles.filter((f) => !digests.has(f));
    const addedDigests = await digestAll(added);
    digests = new Map(nextFiles.map((f) => [f, digests.get(f) ?? (addedDigests.get(f) as string)]));
    if (!closed) watchFolders(nextFiles);
    log.out(`scopegate: config reloaded from ${file} (generation ${generation})`);
    callHook('success', []);
    return 'success';
  };

  const drain = async (): Promise<void> => {
    while (pending !== null && !closed) {
      const job = pending;
      pending = null;
      const result = await runJob(job);
      for (const resolve of job.waiters) resolve(result);
    }
    // Cleared in the same turn as the last `pending` check: a request queued by a waiter that
    // resumes next starts a new drain instead of waiting behind one that already ended.
    active = false;
    resolveIfIdle();
  };

  const enqueue = (force: boolean, reason: string): Promise<ReloadResult | null> => {
    if (closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      if (pending === null) pending = { force, reason, waiters: [] };
      else if (force && !pending.force) Object.assign(pending, { force, reason });
      pending.waiters.push(resolve);
      if (!active) {
        active = true;
        running = drain();
      }
    });
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    void enqueue(true, signal);
  };
  const signals = options.signals ?? [];
  const initialFiles = options.filesOf(current);
  digests = await digestAll(initialFiles);
  watchFolders(initialFiles);
  for (const signal of signals) process.on(signal, onSignal);

  return {
    reload: (reason = 'reload requested') => enqueue(true, reason),
    current: () => current,
    get generation() {
      return generation;
    },
    watchedFolders: () => [...watchers.keys()],
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        resolveIfIdle();
      }),
    async close() {
      closed = true;
      for (const signal of signals) process.off(signal, onSignal);
      if (timer !== null) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      await running;
      const left = pending as Job | null;
      pending = null;
      for (const resolve of left?.waiters ?? []) resolve(null);
      resolveIfIdle();
    },
  };
}
