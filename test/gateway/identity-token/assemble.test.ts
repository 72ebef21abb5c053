/**
 * `upstream.identity_token` in assembly: a key file that cannot be used is a problem naming the
 * key and its line (no state), and a reload (the running ring passed in) keeps the ring.
 */
import { join } from 'node:path';
import t from 'tap';
import { loadConfig } from '../../../src/config/load.js';
import { assembleGateway } from '../../../src/gateway/assemble.js';
import { createTestClock } from '../../fixtures/tokens.js';

const YAML = (tokenSettings: string) =>
  [
    'policies: []',
    `upstream: { url: "http://127.0.0.1:9", identity_token: ${tokenSettings} }`,
    'auth: { allow_anonymous: true }',
    '',
  ].join('\n');

t.test('a bad key file is a problem; a good config keeps the ring on reload', async (t) => {
  const clock = createTestClock();
  const dir = t.testdir({
    'bad.yaml': YAML('{ enabled: true, key_file: missing.json }'),
    'good.yaml': YAML('{ enabled: true }'),
  });
  const bad = await assembleGateway(loadConfig(join(dir, 'bad.yaml'), { env: {} }), {
    clock,
    checkOnly: true,
  });
  t.equal(bad.state, null);
  t.match(bad.problems, [
    { key: 'upstream.identity_token.key_file', line: 2, message: /cannot read .*missing\.json/ },
  ]);
  const loaded = loadConfig(join(dir, 'good.yaml'), { env: {} });
  const first = await assembleGateway(loaded, { clock });
  t.teardown(() => first.state?.upstream.pool.destroy());
  const ring = first.state?.identityKeys;
  t.ok(ring, 'a ring');
  const second = await assembleGateway(loaded, {
    clock,
    previousUpstream: first.state!.upstream,
    previousIdentityKeys: ring,
  });
  t.equal(second.state?.identityKeys, ring, 'the same ring after a reload');
});
