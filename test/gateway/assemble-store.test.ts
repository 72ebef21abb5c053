/**
 * Assembling the service-account store from `auth.service_accounts.store` and `cluster`: a poll
 * that could never keep the feed fresh is refused; a Postgres server that cannot be reached yet
 * is a warning (the store opens unavailable, tokens 503), while refused credentials stop the
 * start naming the key; `check` never connects; a reload on the same URL keeps the store.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { loadConfig, type LoadedConfig } from '../../src/config/load.js';
import { assembleGateway, closeGatewayState } from '../../src/gateway/assemble.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGatewayMetrics } from '../../src/admin/metrics.js';
import { createLogger } from '../../src/shared/log.js';
import { closedPortUrl } from '../fixtures/e2e.js';
import { captureLog } from '../fixtures/observability.js';
import { startTestPostgres } from '../fixtures/postgres.js';

const CLOCK = { now: () => Date.now() };

function load(t: Test, store: string, cluster = ''): LoadedConfig {
  const dir = t.testdir({
    'gateway.yaml': [
      'upstream: { url: "http://127.0.0.1:9" }',
      'policies: []',
      'auth:',
      '  security_key: a-root-key-for-store-tests',
      `  service_accounts: { store: "${store}" }`,
      cluster,
      '',
    ].join('\n'),
  });
  return loadConfig(join(dir, 'gateway.yaml'), { env: {} });
}

t.test('a poll no faster than the staleness bound is refused, naming the key', async (t) => {
  const loaded = load(t, 'sqlite:sa.db', 'cluster: { max_staleness_ms: 500, feed_poll_ms: 500 }');
  const assembly = await assembleGateway(loaded, { clock: CLOCK });
  t.equal(assembly.state, null);
  t.match(assembly.problems, [
    {
      key: 'cluster.feed_poll_ms',
      line: 6,
      message: /^500 must be below cluster\.max_staleness_ms \(500\)/,
    },
  ]);
});

t.test('an unreachable Postgres server at start is a warning, not a refusal', async (t) => {
  const port = new URL(await closedPortUrl()).port;
  const url = `postgres://scopegate:s3cret-pw@127.0.0.1:${port}/scopegate`;
  const loaded = load(t, url, 'cluster: { replica_id: unit }');
  const assembly = await assembleGateway(loaded, { clock: CLOCK });
  const state = assembly.state;
  if (state === null) throw new Error(JSON.stringify(assembly.problems));
  t.teardown(() => closeGatewayState(state));
  t.same(assembly.problems, []);
  const warning = assembly.warnings.find((w) => w.code === 'SGWRN011');
  t.match(warning, {
    key: 'auth.service_accounts.store',
    message: `service-account store 'postgres://scopegate:***@127.0.0.1:${port}/scopegate' cannot be reached yet; service-account tokens get 503 until it can (it is tried again with backoff)`,
  });
  t.equal(state.serviceAccounts?.store.available, false);
  t.equal(JSON.stringify(assembly.warnings).includes('s3cret-pw'), false, 'no password');

  const checked = await assembleGateway(loaded, { clock: CLOCK, checkOnly: true });
  t.same(checked.problems, [], 'check does not connect');
});

t.test('refused credentials stop the start, naming the key and never the password', async (t) => {
  const server = await startTestPostgres(t);
  if (server === null) return;
  const good = await server.createDatabase();
  const wrong = new URL(good);
  wrong.password = 'not-the-password';
  const loaded = load(t, wrong.href);
  const assembly = await assembleGateway(loaded, { clock: CLOCK });
  t.equal(assembly.state, null);
  t.match(assembly.problems, [{ key: 'auth.service_accounts.store', line: 5 }]);
  t.equal(JSON.stringify(assembly.problems).includes('not-the-password'), false);

  // The right credentials: the store opens, and a reload on the same URL keeps it.
  const right = load(t, good);
  const first = await assembleGateway(right, { clock: CLOCK });
  const state = first.state;
  if (state === null) throw new Error(JSON.stringify(first.problems));
  t.teardown(() => closeGatewayState(state));
  t.equal(state.serviceAccounts?.store.kind, 'postgres');
  t.equal(state.serviceAccounts?.store.available, true);
  const again = await assembleGateway(right, { clock: CLOCK, previousAccounts: first.accounts });
  t.equal(again.accounts, first.accounts, 'the same store, feed and verifier');
  const againState = again.state;
  if (againState !== null) t.teardown(() => againState.upstream.pool.close());

  // A new TTL in a config that fails otherwise: nothing is built, the running store stays open.
  const broken = loadConfig(right.path, { env: {} });
  const failing = await assembleGateway(
    {
      ...broken,
      config: {
        ...broken.config,
        auth: {
          ...broken.config.auth,
          verification_keys: ['file:missing.pem'],
          service_accounts: { ...broken.config.auth.service_accounts, cache_ttl_seconds: 5 },
        },
      },
    },
    { clock: CLOCK, previousAccounts: first.accounts },
  );
  t.equal(failing.state, null);
  t.match(failing.problems, [{ key: 'auth.verification_keys[0]' }]);
  t.equal(state.serviceAccounts?.store.available, true, 'the running store is untouched');
});

t.test('the change feed logs its connection lost and back', async (t) => {
  const server = await startTestPostgres(t);
  if (server === null) return;
  const store = await server.createDatabase();
  const capture = captureLog();
  const log = createLogger({ destination: capture });
  const assembly = await assembleGateway(load(t, store, 'cluster: { replica_id: logged }'), {
    clock: CLOCK,
    telemetry: { metrics: createGatewayMetrics(), log },
  });
  const state = assembly.state;
  if (state === null) throw new Error(JSON.stringify(assembly.problems));
  t.teardown(() => closeGatewayState(state));
  const seen = async (re: RegExp): Promise<Record<string, unknown>> => {
    for (;;) {
      const line = capture.lines().find((l) => re.test(String(l['msg'])));
      if (line !== undefined) return line;
      await sleep(10);
    }
  };
  t.match(await seen(/change feed listening/), { level: 'info' });
  t.equal(await server.terminate('scopegate-feed:logged'), 1);
  const lost = await seen(/change feed lost its connection/);
  t.match(lost, { level: 'warn', store: /^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:/ });
  t.equal(JSON.stringify(capture.lines()).includes(new URL(store).password), false, 'no password');
});
