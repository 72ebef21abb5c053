/**
 * `scopegate runtime --gateway-url URL`: the runtime alone runs its schedules through the gateway
 * in front of it, authenticated with the internal service token (from the config or
 * SCOPEGATE_INTERNAL_TOKEN, never printed); a bad URL or a missing token stops the start. Without
 * the flag it says schedules cannot run (runtime.test.ts).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from '../fixtures/cli.js';
import { httpCall, spawnScopegate } from '../fixtures/child.js';
import { contextHeader } from '../runtime/fixtures/runtime.js';

/** A config whose `runtime:` section hosts one agent in `rt.db` beside the config. */
const CONFIG = [
  'policies: []',
  'auth: { security_key: a-root-key-for-tests }',
  'runtime:',
  '  os_id: cli-runtime',
  '  db: rt.db',
  '  agents:',
  '    - { id: helper, name: Helper }',
  '',
].join('\n');

const SECRET = 'runtime-cli-identity-secret';
const WITH_SECRET = { SCOPEGATE_IDENTITY_SECRET: SECRET };

t.test(
  '--gateway-url: scheduled runs go through that gateway with the internal token',
  async (t) => {
    // A gateway stand-in that records what reaches it.
    const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
    const gateway = createServer((req, res) => {
      seen.push({ method: req.method as string, url: req.url as string, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => gateway.close(() => resolve())));
    const gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    const token = 'internal-token-for-the-runtime-test';

    const dir = t.testdir({ 'gateway.yaml': CONFIG });
    const child = spawnScopegate(
      t,
      [
        'runtime',
        '--config',
        join(dir, 'gateway.yaml'),
        '--port',
        '0',
        '--gateway-url',
        gatewayUrl,
      ],
      { ...WITH_SECRET, SCOPEGATE_INTERNAL_TOKEN: token },
    );
    const line = await child.line(/^scopegate runtime listening on /);
    const url = /listening on (http:\/\/\S+)/.exec(line)?.[1] ?? '';
    const operator = contextHeader(
      {
        authenticated: true,
        user_id: 'ops',
        principal_type: 'jwt',
        scopes: ['schedules:write'],
        authorization_enabled: true,
      },
      SECRET,
    );
    const json = { 'content-type': 'application/json', ...operator };
    const created = await httpCall(`${url}/schedules`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        name: 'probe',
        cron_expr: '0 3 * * *',
        endpoint: '/health',
        method: 'GET',
      }),
    });
    t.equal(created.status, 201, created.body);
    const { id } = JSON.parse(created.body) as { id: string };
    const triggered = await httpCall(`${url}/schedules/${id}/trigger`, {
      method: 'POST',
      headers: operator,
    });
    t.equal(triggered.status, 200, triggered.body);
    t.match(JSON.parse(triggered.body), { status: 'success' });
    t.match(seen, [
      { method: 'GET', url: '/health', headers: { authorization: `Bearer ${token}` } },
    ]);

    child.child.kill('SIGTERM');
    t.same(await child.exited, { code: 0, signal: null });
    t.notMatch(child.stdout() + child.stderr(), token, 'the token is never printed');
    t.notMatch(child.stdout(), /schedules cannot run/);
  },
);

t.test('--gateway-url: a URL and the internal token, or no start', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': CONFIG });
  const config = join(dir, 'gateway.yaml');
  const bad = await runCli(['runtime', '--config', config, '--gateway-url', 'localhost:8080']);
  t.equal(bad.code, 2, 'not a URL: a usage error');
  t.equal(
    bad.err,
    'scopegate runtime: --gateway-url must be an http:// or https:// URL (got "localhost:8080")',
  );
  const untokened = await runCli(
    ['runtime', '--config', config, '--gateway-url', 'http://127.0.0.1:8080'],
    WITH_SECRET,
  );
  t.equal(untokened.code, 1, 'no internal token: exit 1');
  t.equal(
    untokened.err,
    `error: scopegate runtime: --gateway-url needs the gateway's internal service token: set ` +
      `auth.internal_service_token in ${config} or the SCOPEGATE_INTERNAL_TOKEN environment variable`,
  );
  const empty = await runCli(
    ['runtime', '--config', config, '--gateway-url', 'http://127.0.0.1:8080'],
    { ...WITH_SECRET, SCOPEGATE_INTERNAL_TOKEN: '' },
  );
  t.equal(empty.code, 1, 'an empty SCOPEGATE_INTERNAL_TOKEN counts as none');
});
