/**
 * `scopegate serve --port N --admin-port N`: the command line's ports win over the file's, at
 * start-up and on every reload (a reload keeps running, with no restart-only complaint), and a
 * value that is no port is a usage error.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from '../fixtures/cli.js';
import { httpCall, occupy, spawnScopegate } from '../fixtures/child.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';

/** A security-key gateway whose file names ports that are taken (so only overrides can start it). */
function configText(upstreamUrl: string, port: number, adminPort: number, extra = ''): string {
  return [
    'service_id: serve-port-test',
    `listen: { host: 127.0.0.1, port: ${port} }`,
    `admin: { host: 127.0.0.1, port: ${adminPort} }`,
    `upstream: { url: "${upstreamUrl}", timeout_ms: 5000 }`,
    'policies: []',
    'auth:',
    '  security_key: a-root-key-for-tests',
    '  service_accounts: { enabled: false }',
    extra,
    '',
  ].join('\n');
}

t.test('--port 0 and --admin-port 0 override taken ports, and a reload keeps them', async (t) => {
  const up = await startRecordingUpstream();
  t.teardown(() => up.close());
  const taken = await occupy(t);
  const takenAdmin = await occupy(t);
  const dir = t.testdir({ 'gateway.yaml': configText(up.url, taken, takenAdmin) });
  const config = join(dir, 'gateway.yaml');
  const served = spawnScopegate(t, [
    'serve',
    '--config',
    config,
    '--port',
    '0',
    '--admin-port',
    '0',
  ]);
  const listening = await served.errLine(/^scopegate listening on /);
  const port = Number(/:(\d+), forwarding to /.exec(listening)?.[1]);
  t.not(port, taken, 'the gateway listens where --port says, not where the file says');
  const admin = await served.errLine(/^admin listening on /);
  const adminPort = Number(/:(\d+) \(/.exec(admin)?.[1]);
  t.not(adminPort, takenAdmin);
  t.equal((await httpCall(`http://127.0.0.1:${adminPort}/healthz`)).status, 200);
  t.equal((await httpCall(`http://127.0.0.1:${port}/x`)).status, 401);

  // The file changes (an excluded route); its listen and admin ports are unchanged, and so are
  // the overrides: the reload applies, with no restart-only problem.
  writeFileSync(
    `${config}.tmp`,
    configText(up.url, taken, takenAdmin, '  excluded_route_paths: [/x]'),
  );
  renameSync(`${config}.tmp`, config);
  served.child.kill('SIGHUP');
  await served.errLine(/^scopegate: config reloaded from /);
  t.equal((await httpCall(`http://127.0.0.1:${port}/x`)).status, 200, 'the reload applied');
  t.notMatch(served.stderr(), /only a restart applies/);
  served.child.kill('SIGTERM');
  t.same(await served.exited, { code: 0, signal: null });
});

t.test('a --port that is no port is a usage error', async (t) => {
  const rows: [string, string[], RegExp][] = [
    ['not a number', ['--port', 'http'], /--port must be an integer from 0 to 65535, not "http"/],
    ['too large', ['--admin-port', '65536'], /--admin-port must be an integer from 0 to 65535/],
    ['negative', ['--port=-1'], /--port must be an integer from 0 to 65535, not "-1"/],
  ];
  for (const [name, args, message] of rows) {
    const r = await runCli(['serve', '--config', 'no-such.yaml', ...args]);
    t.equal(r.code, 2, name);
    t.match(r.err, message, name);
    t.match(r.err, /usage: scopegate serve/, name);
    t.equal(r.out, '', name);
  }
  // A valid port (or none) goes on to load the config: here one that is not there, exit 1.
  for (const args of [['--port', '0'], ['--admin-port', '65535'], []]) {
    const r = await runCli(['serve', '--config', 'no-such.yaml', ...args]);
    t.equal(r.code, 1, args.join(' ') || 'no ports');
    t.match(r.err, /no-such\.yaml/);
  }
  t.match(
    (await runCli(['serve', '--help'])).out,
    /-p, --port N +listen on this port, over listen\.port/,
  );
});
