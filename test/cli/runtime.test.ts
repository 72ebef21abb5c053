/**
 * `scopegate runtime [--config F] [--port N] [--host H]`: started as a real process (with
 * SCOPEGATE_IDENTITY_SECRET set) it says where it listens (and whether that is loopback only),
 * serves signed requests, and closes on SIGTERM/SIGINT. The refusals that return before
 * listening run in-process. The identity secret and its switch: runtime-identity.test.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from '../fixtures/cli.js';
import { httpCall, occupy, spawnScopegate, type Child } from '../fixtures/child.js';
import { contextHeader } from '../runtime/fixtures/runtime.js';

// Real scopegate runtime processes, each loading the runtime: about a minute on a quiet 2-core
// machine, more than the suite's 120 s per file when the machine is busy.
t.setTimeout(300_000);

/** A config whose `runtime:` section hosts one agent in `rt.db` beside the config. */
const CONFIG = [
  'policies: []',
  'a2a: { prefix: /api/a2a }',
  'auth: { security_key: a-root-key-for-tests }',
  'runtime:',
  '  os_id: cli-runtime',
  '  db: rt.db',
  '  agents:',
  '    - { id: helper, name: Helper }',
  '',
].join('\n');

/** The secret the gateway in front would share, handed over in the environment. */
const SECRET = 'runtime-cli-identity-secret';
const WITH_SECRET = { SCOPEGATE_IDENTITY_SECRET: SECRET };

/** The signed anonymous context a gateway sends on an excluded route. */
const ANONYMOUS = contextHeader(
  { authenticated: false, authorization_enabled: false, principal_type: 'anonymous' },
  SECRET,
);

/** Waits for the listening line; returns it and the URL it names. */
async function listening(child: Child): Promise<{ line: string; url: string }> {
  const line = await child.line(/^scopegate runtime listening on /);
  const url = /^scopegate runtime listening on (http:\/\/\S+)/.exec(line)?.[1] ?? '';
  return { line, url };
}

t.test('runtime listens on loopback, serves, and closes on SIGTERM', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': CONFIG });
  const child = spawnScopegate(
    t,
    ['runtime', '--config', join(dir, 'gateway.yaml'), '--port', '0'],
    WITH_SECRET,
  );
  const { line, url } = await listening(child);
  t.match(line, /^scopegate runtime listening on http:\/\/127\.0\.0\.1:\d+ \(loopback only\)$/);
  const health = await httpCall(`${url}/health`);
  t.equal(health.status, 200);
  t.match(JSON.parse(health.body), { status: 'ok', instantiated_at: /^\d{4}-\d\d-\d\dT/ });
  const root = await httpCall(`${url}/`, { headers: ANONYMOUS });
  t.same(JSON.parse(root.body), { name: 'AgentOS API', id: 'cli-runtime', version: '1.0.0' });
  const unsigned = await httpCall(`${url}/`);
  t.equal(unsigned.status, 401, 'no context: refused');
  t.same(JSON.parse(unsigned.body), { detail: 'Missing identity context' });
  const run = await httpCall(`${url}/agents/helper/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...ANONYMOUS },
    body: 'message=hi&stream=false',
  });
  t.equal(run.status, 200, 'a run');
  t.match(JSON.parse(run.body), { agent_id: 'helper', content: 'Echo: hi', status: 'COMPLETED' });
  t.ok(existsSync(join(dir, 'rt.db')), 'the database sits beside the config');
  const card = await httpCall(`${url}/api/a2a/agents/helper/.well-known/agent-card.json`, {
    headers: ANONYMOUS,
  });
  t.equal(card.status, 200, "A2A under the config's a2a.prefix");
  t.match(JSON.parse(card.body), { url: `${url}/api/a2a/agents/helper/v1` });

  child.child.kill('SIGTERM');
  t.same(await child.exited, { code: 0, signal: null });
  t.match(child.stdout(), /\nscopegate runtime: SIGTERM, closing\n$/);
  t.match(
    child.stdout(),
    /^scopegate runtime: schedules cannot run: no --gateway-url .* POST \/schedules\/\{id\}\/trigger answers 503$/m,
    'without --gateway-url it says schedules cannot run, and what happens to them',
  );
  t.equal(child.stderr(), '');
  await t.rejects(httpCall(`${url}/health`), { code: 'ECONNREFUSED' }, 'no longer listening');
});

t.test('every loopback spelling says loopback only; SIGINT closes too', async (t) => {
  const rows = [
    { host: '::1', url: /^http:\/\/\[::1\]:\d+$/ },
    { host: 'localhost', url: /^http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/ },
  ];
  for (const row of rows) {
    const dir = t.testdir({ 'gateway.yaml': CONFIG });
    const child = spawnScopegate(
      t,
      ['runtime', '--config', join(dir, 'gateway.yaml'), '--port', '0', '--host', row.host],
      WITH_SECRET,
    );
    const { line, url } = await listening(child);
    t.match(url, row.url, `${row.host}: URL`);
    t.match(line, / \(loopback only\)$/, `${row.host}: loopback only`);
    t.equal((await httpCall(`${url}/health`)).status, 200, `${row.host}: serves`);
    child.child.kill('SIGINT');
    t.same(await child.exited, { code: 0, signal: null }, `${row.host}: exit 0`);
    t.match(child.stdout(), /^scopegate runtime: SIGINT, closing$/m);
  }
});

t.test('a wildcard host is NOT loopback, and says so', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': CONFIG });
  const child = spawnScopegate(
    t,
    ['runtime', '-c', join(dir, 'gateway.yaml'), '--port', '0', '--host', '0.0.0.0'],
    WITH_SECRET,
  );
  const { line, url } = await listening(child);
  t.match(
    line,
    /^scopegate runtime listening on http:\/\/\S+:\d+ — NOT loopback: put the gateway in front of it$/,
  );
  const port = new URL(url).port;
  t.equal((await httpCall(`http://127.0.0.1:${port}/health`)).status, 200, 'reachable');
  child.child.kill('SIGTERM');
  t.equal((await child.exited).code, 0);
});

t.test('a bad --port is a usage error: exit 2', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': CONFIG });
  for (const port of ['70000', '65536', '-1', 'x', '1.5', '0x']) {
    const r = await runCli(['runtime', '--config', join(dir, 'gateway.yaml'), `--port=${port}`]);
    t.equal(r.code, 2, `--port "${port}": exit 2`);
    t.equal(r.out, '');
    t.equal(r.err, `scopegate runtime: --port must be 0..65535 (got "${port}")`);
  }
  const unknown = await runCli(['runtime', '--portt', '1']);
  t.equal(unknown.code, 2);
  t.equal(unknown.err, "scopegate runtime: Unknown option '--portt'");
});

t.test('an empty or non-decimal --port is a usage error too, not port 0', async (t) => {
  // Number() reads '' and ' 0' as 0 and '0x0' as hex: run as a child, so that a runtime which
  // does start fails the test instead of waiting in-process for a signal.
  const dir = t.testdir({ 'gateway.yaml': CONFIG });
  for (const port of ['', ' 0', '0x0']) {
    const child = spawnScopegate(t, [
      'runtime',
      '--config',
      join(dir, 'gateway.yaml'),
      `--port=${port}`,
    ]);
    const started = child.line(/^scopegate runtime listening on /).then(
      (line) => line,
      () => null,
    );
    const outcome = await Promise.race([child.exited, started]);
    if (typeof outcome === 'string') {
      child.child.kill('SIGTERM');
      await child.exited;
    }
    t.same(outcome, { code: 2, signal: null }, `--port "${port}": exit 2 without listening`);
    t.equal(
      child.stderr(),
      `scopegate runtime: --port must be 0..65535 (got "${port}")\n`,
      `--port "${port}": says why`,
    );
  }
});

t.test('an invalid runtime section: exit 1 naming every problem', async (t) => {
  const dir = t.testdir({
    'gateway.yaml': [
      'policies: []',
      'runtime:',
      '  agents:',
      '    - { id: a1, name: A, tools: [nope] }',
      '  teams:',
      '    - { id: t1, name: T, members: [ghost] }',
      '',
    ].join('\n'),
  });
  const config = join(dir, 'gateway.yaml');
  const r = await runCli(['runtime', '--config', config, '--port', '0'], WITH_SECRET);
  t.equal(r.code, 1);
  t.equal(r.out, '');
  t.match(
    r.err,
    new RegExp(
      `^error: ${config.replace(/[.]/g, '\\.')} runtime: invalid runtime settings:\n` +
        ' {2}runtime\\.agents\\.0\\.tools\\.0: unknown built-in tool "nope" \\(known: [^)]*\\)\n' +
        ' {2}runtime\\.teams\\.0\\.members\\.0: no agent "ghost"$',
    ),
  );
  t.notOk(existsSync(join(dir, 'data')), 'no database was created');
});

t.test('a config that cannot be read or parsed: exit 1', async (t) => {
  const dir = t.testdir({ 'bad.yaml': 'runtime: [unclosed\n', 'typo.yaml': 'runtme: {}\n' });
  const missing = await runCli(['runtime', '--config', join(dir, 'none.yaml'), '--port', '0']);
  t.equal(missing.code, 1);
  t.match(missing.err, /^error: .*none\.yaml: cannot read the config file: ENOENT/);
  const broken = await runCli(['runtime', '--config', join(dir, 'bad.yaml'), '--port', '0']);
  t.equal(broken.code, 1);
  t.match(broken.err, /^error: .*bad\.yaml:\d+: /);
  const typo = await runCli(['runtime', '--config', join(dir, 'typo.yaml'), '--port', '0']);
  t.equal(typo.code, 1);
  t.match(typo.err, /^error: .*typo\.yaml:1 runtme: unknown key/);
});

t.test('a port in use: exit 1 with one error line, not a crash', async (t) => {
  const port = await occupy(t);
  const dir = t.testdir({ 'gateway.yaml': CONFIG });
  const config = join(dir, 'gateway.yaml');
  const r = await runCli(['runtime', '--config', config, '--port', String(port)], WITH_SECRET);
  t.equal(r.code, 1);
  t.equal(r.out, '');
  t.match(r.err, new RegExp(`^error: .*gateway\\.yaml runtime: listen EADDRINUSE: .*:${port}$`));
});
