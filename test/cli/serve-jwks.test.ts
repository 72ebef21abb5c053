/**
 * `scopegate serve` with `auth.jwks_url` (issue #6 item 2), as a real process: a JWKS endpoint
 * that is down at start does not stop the gateway; it warns (SGWRN008), logs the failed fetch,
 * answers 401, and once the endpoint answers (retried at the cool-down) it logs that and accepts
 * tokens.
 */
import { join } from 'node:path';
import t from 'tap';
import { httpCall, spawnScopegate } from '../fixtures/child.js';
import { startJwksServer } from '../fixtures/jwks-server.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { mintTestToken } from '../fixtures/tokens.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';

t.test('down at start: warning, 401, then the keys arrive and tokens pass', async (t) => {
  const up = await startRecordingUpstream();
  t.teardown(() => up.close());
  const jwks = await startJwksServer(t, [RSA_KEY.publicJwk]);
  jwks.fail(503);
  const dir = t.testdir({
    'gateway.yaml': [
      'service_id: jwks-test',
      'listen: { host: 127.0.0.1, port: 0 }',
      'admin: { host: 127.0.0.1, port: 0 }',
      `upstream: { url: "${up.url}", embedded: false, timeout_ms: 5000 }`,
      'policies: []',
      'auth:',
      `  jwks_url: "${jwks.url}"`,
      '  jwks_cooldown_seconds: 1',
      '  service_accounts: { enabled: false }',
      '',
    ].join('\n'),
  });
  const child = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
  const closed = new Promise<void>((r) => child.child.once('close', () => r()));
  const listening = await child.errLine(/^scopegate listening on /);
  const port = Number(/:(\d+), forwarding to /.exec(listening)?.[1]);
  t.match(child.stderr(), /^scopegate: auth\.jwks_url: fetch failed \(HTTP 503\)$/m);

  const token = await mintTestToken({ now: Math.floor(Date.now() / 1000), aud: 'jwks-test' });
  const call = () =>
    httpCall(`http://127.0.0.1:${port}/config`, { headers: { authorization: `Bearer ${token}` } });
  t.equal((await call()).status, 401, 'no keys yet: 401');

  jwks.serve([RSA_KEY.publicJwk]);
  await child.errLine(/^scopegate: auth\.jwks_url: fetched again$/);
  t.equal((await call()).status, 200, 'the keys arrived: accepted');

  child.child.kill('SIGTERM');
  t.same(await child.exited, { code: 0, signal: null });
  // Read once the output is closed: stderr and stdout are separate pipes, in no order.
  await closed;
  t.match(
    child.stderr(),
    /^warning: .*gateway\.yaml:7 auth\.jwks_url: the JWK set cannot be fetched \(HTTP 503\): .* retried every 1 s \[SGWRN008\]$/m,
  );
});
