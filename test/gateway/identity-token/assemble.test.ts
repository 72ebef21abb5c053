/**
 * `upstream.identity_token` in assembly: a key file that cannot be used is a problem naming the
 * key and its line (no state), and a reload (the running ring passed in) keeps the ring.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { loadConfig } from '../../../src/config/load.js';
import { assembleGateway } from '../../../src/gateway/assemble.js';
import { captureTelemetry } from '../../fixtures/observability.js';
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

t.test(
  'jwks_file: written at start; unwritable at start is a problem, on reload a log line',
  async (t) => {
    const clock = createTestClock();
    const dir = t.testdir({
      'good.yaml': YAML('{ enabled: true, jwks_file: out/jwks.json }'),
      'bad.yaml': YAML('{ enabled: true, jwks_file: nowhere/jwks.json }'),
      out: {},
    });
    const bad = await assembleGateway(loadConfig(join(dir, 'bad.yaml'), { env: {} }), { clock });
    t.equal(bad.state, null, 'the gateway does not start');
    t.match(bad.problems, [
      {
        key: 'upstream.identity_token.jwks_file',
        line: 2,
        message: `cannot write ${join(dir, 'nowhere/jwks.json')}: ENOENT`,
      },
    ]);
    const checked = await assembleGateway(loadConfig(join(dir, 'bad.yaml'), { env: {} }), {
      clock,
      checkOnly: true,
    });
    t.same(checked.problems, [], '`check` writes no file, so it finds nothing to refuse');

    const { telemetry, log } = captureTelemetry();
    const first = await assembleGateway(loadConfig(join(dir, 'good.yaml'), { env: {} }), {
      clock,
      telemetry,
    });
    t.teardown(() => first.state?.upstream.pool.destroy());
    const ring = first.state!.identityKeys!;
    t.same(JSON.parse(readFileSync(join(dir, 'out/jwks.json'), 'utf8')), ring.jwks(), 'written');
    const reload = await assembleGateway(loadConfig(join(dir, 'bad.yaml'), { env: {} }), {
      clock,
      telemetry,
      previousUpstream: first.state!.upstream,
      previousIdentityKeys: ring,
    });
    t.ok(reload.state, 'a reload still serves');
    t.match(log.lines(), [
      {
        level: 'error',
        key: 'upstream.identity_token.jwks_file',
        msg: `cannot write ${join(dir, 'nowhere/jwks.json')}: ENOENT`,
      },
    ]);
    const quiet = await assembleGateway(loadConfig(join(dir, 'bad.yaml'), { env: {} }), {
      clock,
      previousUpstream: first.state!.upstream,
      previousIdentityKeys: ring,
    });
    t.ok(quiet.state, 'without a logger too');
  },
);
