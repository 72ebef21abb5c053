/**
 * `scopegate serve` starts the admin listener beside the gateway, and writes
 * the access log to stdout as JSON lines. Long-running cases are real processes; the refusal to
 * start runs in-process.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import {
  canBind,
  freePort,
  httpCall,
  occupy,
  spawnScopegate,
  type Child,
} from '../fixtures/child.js';
import { runCli } from '../fixtures/cli.js';
import { parseMetrics, samplesOf, valueOf } from '../fixtures/observability.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';

const KEY = 'a-root-key-for-admin-tests';

function configText(upstreamUrl: string, extra: string[] = []): string {
  return [
    `listen: { host: 127.0.0.1, port: 0 }`,
    'admin: { host: 127.0.0.1, port: 0 }',
    `upstream: { url: "${upstreamUrl}", timeout_ms: 5000 }`,
    'policies: []',
    `auth: { security_key: ${KEY}, service_accounts: { enabled: false } }`,
    ...extra,
    '',
  ].join('\n');
}

/** Starts `serve`; the gateway's and the admin listener's base URLs. */
async function serveWith(
  t: Test,
  text: string,
): Promise<{ child: Child; gateway: string; admin: string }> {
  const upstream = await startRecordingUpstream();
  t.teardown(() => upstream.close());
  const dir = t.testdir({ 'gateway.yaml': text.replace('UPSTREAM', upstream.url) });
  const child = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
  const listening = await child.errLine(/^scopegate listening on /);
  const admin = await child.errLine(/^admin listening on /);
  t.match(admin, /^admin listening on 127\.0\.0\.1:\d+ \(\/metrics, \/healthz, \/readyz\)$/);
  return {
    child,
    gateway: `http://127.0.0.1:${/:(\d+), forwarding/.exec(listening)?.[1]}`,
    admin: `http://127.0.0.1:${/:(\d+) \(/.exec(admin)?.[1]}`,
  };
}

t.test('serve: admin listener, process metrics, one access line per request', async (t) => {
  const { child, gateway, admin } = await serveWith(t, configText('UPSTREAM'));
  t.same(JSON.parse((await httpCall(`${admin}/healthz`)).body), { status: 'ok' });
  const jwks = await httpCall(`${admin}/.well-known/jwks.json`);
  t.equal(jwks.status, 404, 'no JWKS with identity tokens off');
  const ready = await httpCall(`${admin}/readyz`);
  t.equal(ready.status, 200, ready.body);
  t.same(JSON.parse(ready.body), { status: 'ready', checks: { config: 'ok', upstream: 'ok' } });

  t.equal(
    (await httpCall(`${gateway}/config?token=${KEY}`, { headers: { authorization: KEY } })).status,
    200,
  );
  t.equal((await httpCall(`${gateway}/config`)).status, 401);
  await child.line(/"status":401/);
  const lines = child
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  t.match(lines, [
    {
      level: 'info',
      msg: 'request completed',
      method: 'GET',
      route: 'unmatched',
      path: '/config',
      status: 200,
      decision: 'allow',
      principal_type: 'security_key',
    },
    { status: 401, decision: 'deny', reason: 'credential_missing' },
  ]);
  t.notOk((child.stdout() + child.stderr()).includes(KEY), 'the key is in no line');

  const samples = parseMetrics((await httpCall(`${admin}/metrics`)).body);
  const base = { method: 'GET', route: 'unmatched' };
  t.equal(
    valueOf(t, samples, 'scopegate_requests_total', { ...base, status: '200', decision: 'allow' }),
    1,
  );
  t.equal(
    valueOf(t, samples, 'scopegate_auth_failures_total', { reason: 'credential_missing' }),
    1,
  );
  t.equal(samplesOf(samples, 'process_cpu_user_seconds_total').length, 1, 'process metrics');
  t.equal(samplesOf(samples, 'nodejs_eventloop_lag_seconds').length, 1, 'event loop metrics');

  child.child.kill('SIGTERM');
  t.same(await child.exited, { code: 0, signal: null });
  t.notMatch(child.stderr(), /^(warning|error):/m, 'no warning or error');
  await t.rejects(httpCall(`${admin}/healthz`), { code: 'ECONNREFUSED' }, 'closed with serve');
});

t.test('log.access: false writes no access line; metrics still count', async (t) => {
  const { child, gateway, admin } = await serveWith(
    t,
    configText('UPSTREAM', ['log: { level: info, access: false }']),
  );
  t.equal((await httpCall(`${gateway}/config`)).status, 401);
  // The scrape after the answer: the record may land a moment after the client has its answer,
  // so wait for the counter rather than for time.
  let count = 0;
  while (count === 0) {
    const samples = parseMetrics((await httpCall(`${admin}/metrics`)).body);
    count = samplesOf(samples, 'scopegate_requests_total', { status: '401' }).length;
  }
  t.equal(count, 1);
  child.child.kill('SIGTERM');
  t.equal((await child.exited).code, 0);
  t.notMatch(child.stdout(), /^\{/m, 'no JSON line on stdout');
});

t.test('an admin port in use: exit 1, one line naming admin, nothing left open', async (t) => {
  const port = await occupy(t);
  const dir = t.testdir({
    'gateway.yaml': configText('http://127.0.0.1:9').replace(
      'admin: { host: 127.0.0.1, port: 0 }',
      `admin: { host: 127.0.0.1, port: ${port} }`,
    ),
  });
  const config = join(dir, 'gateway.yaml');
  const r = await runCli(['serve', '--config', config]);
  t.equal(r.code, 1);
  t.equal(r.out, '');
  t.match(
    r.err,
    new RegExp(
      `^error: ${config.replace(/\./g, '\\.')} admin: listen EADDRINUSE: .*:${port}\nthe gateway did not start$`,
    ),
  );
});

t.test('an admin port in use with the embedded runtime: it is stopped again', async (t) => {
  const port = await occupy(t);
  const runtimePort = await freePort();
  const dir = t.testdir({
    'gateway.yaml': configText(`http://127.0.0.1:${runtimePort}`, [
      'runtime: { db: ":memory:", agents: [{ id: a1, name: A }] }',
    ])
      .replace('admin: { host: 127.0.0.1, port: 0 }', `admin: { host: 127.0.0.1, port: ${port} }`)
      .replace('timeout_ms: 5000 }', 'timeout_ms: 5000, embedded: true }'),
  });
  const r = await runCli(['serve', '--config', join(dir, 'gateway.yaml')]);
  t.equal(r.code, 1);
  t.match(r.err, /^bundled runtime listening on http:\/\/127\.0\.0\.1:\d+ \(loopback only\)$/m);
  t.match(r.err, /admin: listen EADDRINUSE/);
  t.ok(await canBind(runtimePort, '127.0.0.1'), 'the runtime port is free again');
});
