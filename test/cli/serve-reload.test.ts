/**
 * `scopegate serve` reloads as a real process: SIGHUP rebuilds from the files
 * on disk and changes decisions, a bad config is rejected with file:line key lines while the
 * running one keeps serving, and a watched file change reloads without any signal.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { httpCall, spawnScopegate, type Child } from '../fixtures/child.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';

/** A gateway whose only credential is a security key; `/public` is excluded or not. */
function configText(upstreamUrl: string, excluded: readonly string[], extra = ''): string {
  return [
    'service_id: serve-reload-test',
    'listen: { host: 127.0.0.1, port: 0 }',
    'admin: { host: 127.0.0.1, port: 0 }',
    `upstream: { url: "${upstreamUrl}", timeout_ms: 5000 }`,
    'policies: []',
    'auth:',
    '  security_key: a-root-key-for-tests',
    '  service_accounts: { enabled: false }',
    `  excluded_route_paths: ${JSON.stringify(excluded)}`,
    extra,
    '',
  ].join('\n');
}

/**
 * The first stderr line matching `re` printed after the first line matching `marker`, both
 * printed after `from` (an offset into stderr taken before the action).
 */
async function lineAfter(served: Child, from: number, marker: RegExp, re: RegExp): Promise<string> {
  const stderr = served.child.stderr;
  if (stderr === null) throw new Error('no stderr');
  // Bounded: each try waits for more output; the test's own time-out ends a silent child.
  for (let tries = 0; tries < 10_000; tries++) {
    const lines = served.stderr().slice(from).split('\n').slice(0, -1);
    const at = lines.findIndex((l) => marker.test(l));
    const found = at === -1 ? undefined : lines.slice(at + 1).find((l) => re.test(l));
    if (found !== undefined) return found;
    await new Promise((r) => stderr.once('data', r));
  }
  throw new Error(`no ${re} after ${marker}`);
}

t.test(
  'SIGHUP reloads a running serve; a bad config is rejected and the old one serves',
  async (t) => {
    const up = await startRecordingUpstream();
    t.teardown(() => up.close());
    const dir = t.testdir({ 'gateway.yaml': configText(up.url, []) });
    const config = join(dir, 'gateway.yaml');
    const replace = (text: string): void => {
      writeFileSync(`${config}.tmp`, text);
      renameSync(`${config}.tmp`, config);
    };
    const served = spawnScopegate(t, ['serve', '--config', config]);
    const listening = await served.errLine(/^scopegate listening on /);
    const port = Number(/:(\d+), forwarding to /.exec(listening)?.[1]);
    const publicUrl = `http://127.0.0.1:${port}/public`;
    t.equal((await httpCall(publicUrl)).status, 401, 'generation 1: /public needs a credential');

    // SIGHUP: /public becomes an excluded route.
    let from = served.stderr().length;
    replace(configText(up.url, ['/public']));
    served.child.kill('SIGHUP');
    const reloaded = await lineAfter(
      served,
      from,
      /^scopegate: SIGHUP, reloading /,
      /^scopegate: config reloaded from /,
    );
    t.match(
      reloaded,
      new RegExp(`^scopegate: config reloaded from ${config} \\(generation \\d\\)$`),
    );
    t.equal((await httpCall(publicUrl)).status, 200, 'the new decision: excluded');
    t.equal(up.received.at(-1)?.url, '/public');

    // A bad config: rejected with the file, line and key; the running config keeps serving.
    replace(configText(up.url, [], '  algoritm: ES256'));
    served.child.kill('SIGHUP');
    // Only this step's config has that key: its line can only come from this reload.
    const error = await served.errLine(/^error: .* auth\.algoritm: /);
    t.match(error, new RegExp(`^error: ${config}:10 auth\\.algoritm: unknown key`));
    await served.errLine(/^scopegate: reload rejected \(1 problem\); the running config/);
    t.equal((await httpCall(publicUrl)).status, 200, 'the old decision stands');

    // No signal: the watched file changing is enough.
    from = served.stderr().length;
    replace(configText(up.url, []));
    await lineAfter(
      served,
      from,
      /gateway\.yaml changed, reloading /,
      /^scopegate: config reloaded /,
    );
    t.equal((await httpCall(publicUrl)).status, 401, 'the file change applied');

    served.child.kill('SIGTERM');
    t.same(await served.exited, { code: 0, signal: null });
    t.match(served.stderr(), /^scopegate: SIGTERM, closing$/m);
  },
);
