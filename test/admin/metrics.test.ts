/**
 * The metrics registry: the exact names and labels, an own
 * Registry per instance, bounded labels, and counting through the cached label children.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { register as globalRegistry } from 'prom-client';
import {
  createGatewayMetrics,
  MAX_CACHED_LABEL_SETS,
  methodLabel,
  type RequestObservation,
  type StoreSubject,
} from '../../src/admin/metrics.js';
import { parseMetrics, samplesOf, valueOf } from '../fixtures/observability.js';

const ALLOWED: RequestObservation = {
  method: 'GET',
  route: '/agents/*',
  status: 200,
  decision: 'allow',
  durationSeconds: 0.004,
  upstreamSeconds: 0.002,
};

async function scrape(metrics = createGatewayMetrics()) {
  return parseMetrics(await metrics.registry.metrics());
}

t.test('a new registry exports every series with its help and type', async (t) => {
  const metrics = createGatewayMetrics();
  const text = await metrics.registry.metrics();
  for (const [name, type] of [
    ['scopegate_requests_total', 'counter'],
    ['scopegate_request_duration_seconds', 'histogram'],
    ['scopegate_upstream_duration_seconds', 'histogram'],
    ['scopegate_auth_failures_total', 'counter'],
    ['scopegate_token_cache_hits_total', 'counter'],
    ['scopegate_token_cache_misses_total', 'counter'],
    ['scopegate_config_reloads_total', 'counter'],
    ['scopegate_build_info', 'gauge'],
  ]) {
    t.match(text, new RegExp(`^# HELP ${name} \\S`, 'm'), `${name} has help`);
    t.match(text, new RegExp(`^# TYPE ${name} ${type}$`, 'm'), `${name} is a ${type}`);
  }
  const samples = parseMetrics(text);
  t.equal(valueOf(t, samples, 'scopegate_token_cache_hits_total'), 0);
  t.equal(valueOf(t, samples, 'scopegate_token_cache_misses_total'), 0);
  t.equal(valueOf(t, samples, 'scopegate_config_reloads_total', { result: 'success' }), 0);
  t.equal(valueOf(t, samples, 'scopegate_config_reloads_total', { result: 'error' }), 0);
  t.equal(
    valueOf(t, samples, 'scopegate_build_info', {
      version: JSON.parse(readFileSync('package.json', 'utf8')).version,
      node: process.version,
    }),
    1,
    'the build: the package version and the Node.js version',
  );
  t.same(samplesOf(samples, 'scopegate_requests_total'), [], 'no request series before traffic');
  t.notMatch(text, /^process_|^nodejs_/m, 'no process metrics unless asked for');
});

t.test('each instance has its own registry, never the global one', async (t) => {
  const a = createGatewayMetrics();
  const b = createGatewayMetrics();
  t.not(a.registry, b.registry);
  t.not(a.registry, globalRegistry);
  a.observeRequest(ALLOWED);
  t.equal(samplesOf(await scrape(b), 'scopegate_requests_total').length, 0, 'b saw nothing');
  t.equal(globalRegistry.getSingleMetric('scopegate_requests_total'), undefined);
});

t.test('process metrics are collected into the own registry when asked', async (t) => {
  const metrics = createGatewayMetrics({ processMetrics: true });
  const samples = await scrape(metrics);
  t.ok(samplesOf(samples, 'process_cpu_user_seconds_total').length === 1, 'process CPU');
  t.ok(samplesOf(samples, 'nodejs_heap_size_used_bytes').length === 1, 'heap');
});

t.test('a request is counted and timed under its labels', async (t) => {
  const metrics = createGatewayMetrics();
  metrics.observeRequest(ALLOWED);
  metrics.observeRequest(ALLOWED);
  metrics.observeRequest({ ...ALLOWED, status: 401, decision: 'deny', upstreamSeconds: null });
  const samples = await scrape(metrics);
  const labels = { method: 'GET', route: '/agents/*' };
  t.equal(
    valueOf(t, samples, 'scopegate_requests_total', {
      ...labels,
      status: '200',
      decision: 'allow',
    }),
    2,
  );
  t.equal(
    valueOf(t, samples, 'scopegate_requests_total', { ...labels, status: '401', decision: 'deny' }),
    1,
  );
  t.equal(valueOf(t, samples, 'scopegate_request_duration_seconds_count', labels), 3);
  t.equal(
    valueOf(t, samples, 'scopegate_request_duration_seconds_bucket', { ...labels, le: '0.005' }),
    3,
    'each took 4 ms',
  );
  t.equal(
    valueOf(t, samples, 'scopegate_request_duration_seconds_bucket', { ...labels, le: '0.0025' }),
    0,
  );
  t.equal(
    valueOf(t, samples, 'scopegate_upstream_duration_seconds_count', { route: '/agents/*' }),
    2,
    'only forwarded requests are timed upstream',
  );
  t.equal(
    valueOf(t, samples, 'scopegate_upstream_duration_seconds_sum', { route: '/agents/*' }),
    0.004,
  );
});

t.test('methods outside the known set share the OTHER label', async (t) => {
  t.same(
    ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'get'].map(
      methodLabel,
    ),
    ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'OTHER', 'OTHER'],
  );
  const metrics = createGatewayMetrics();
  metrics.observeRequest({ ...ALLOWED, method: 'PROPFIND' });
  metrics.observeRequest({ ...ALLOWED, method: 'MKCOL' });
  const samples = await scrape(metrics);
  t.equal(
    valueOf(t, samples, 'scopegate_requests_total', {
      method: 'OTHER',
      route: '/agents/*',
      status: '200',
      decision: 'allow',
    }),
    2,
  );
});

t.test('past the label cache bound, counting goes on exactly', async (t) => {
  const metrics = createGatewayMetrics();
  for (let i = 0; i <= MAX_CACHED_LABEL_SETS; i++) {
    metrics.observeRequest({ ...ALLOWED, route: `/r${i}`, upstreamSeconds: null });
  }
  metrics.observeRequest({ ...ALLOWED, route: '/r0', upstreamSeconds: null });
  const samples = await scrape(metrics);
  const base = { method: 'GET', status: '200', decision: 'allow' };
  t.equal(valueOf(t, samples, 'scopegate_requests_total', { ...base, route: '/r0' }), 2);
  t.equal(valueOf(t, samples, 'scopegate_requests_total', { ...base, route: '/r1' }), 1);
  t.equal(samplesOf(samples, 'scopegate_requests_total').length, MAX_CACHED_LABEL_SETS + 1);
});

t.test('auth failures, token cache hits and misses, reloads', async (t) => {
  const metrics = createGatewayMetrics();
  metrics.countAuthFailure('token_expired');
  metrics.countAuthFailure('token_expired');
  metrics.countAuthFailure('credential_missing');
  metrics.tokenCache.hit();
  metrics.tokenCache.hit();
  metrics.tokenCache.miss();
  metrics.countConfigReload('error');
  const samples = await scrape(metrics);
  t.equal(valueOf(t, samples, 'scopegate_auth_failures_total', { reason: 'token_expired' }), 2);
  t.equal(
    valueOf(t, samples, 'scopegate_auth_failures_total', { reason: 'credential_missing' }),
    1,
  );
  t.equal(valueOf(t, samples, 'scopegate_token_cache_hits_total'), 2);
  t.equal(valueOf(t, samples, 'scopegate_token_cache_misses_total'), 1);
  t.equal(valueOf(t, samples, 'scopegate_config_reloads_total', { result: 'error' }), 1);
  t.equal(valueOf(t, samples, 'scopegate_config_reloads_total', { result: 'success' }), 0);
});

t.test('requests by principal: counted under principal, route pattern and status', async (t) => {
  const metrics = createGatewayMetrics();
  metrics.countRequestByPrincipal('__scheduler__', '/agents/*/runs', 202);
  metrics.countRequestByPrincipal('__scheduler__', '/agents/*/runs', 202);
  metrics.countRequestByPrincipal('none', 'invalid_path', 400);
  const samples = await scrape(metrics);
  const name = 'scopegate_requests_by_principal_total';
  t.equal(
    valueOf(t, samples, name, {
      principal: '__scheduler__',
      route: '/agents/*/runs',
      status: '202',
    }),
    2,
  );
  t.equal(
    valueOf(t, samples, name, { principal: 'none', route: 'invalid_path', status: '400' }),
    1,
  );
  t.match(
    await metrics.registry.metrics(),
    /^# TYPE scopegate_requests_by_principal_total counter$/m,
  );
});

t.test('scopegate_store_up follows the watched state at each scrape', async (t) => {
  const metrics = createGatewayMetrics();
  t.same(samplesOf(await scrape(metrics), 'scopegate_store_up'), [], 'nothing watched: no series');
  const store = { available: true };
  let current: StoreSubject | null = { serviceAccounts: { store } };
  metrics.watchStores(() => current);
  const rows: [string, () => void, number | null][] = [
    ['available: 1', () => {}, 1],
    ['unavailable: 0', () => (store.available = false), 0],
    ['back: 1', () => (store.available = true), 1],
    ['service accounts off: no series', () => (current = { serviceAccounts: null }), null],
    ['no state: no series', () => (current = null), null],
  ];
  for (const [name, change, expected] of rows) {
    change();
    const samples = await scrape(metrics);
    if (expected === null) t.same(samplesOf(samples, 'scopegate_store_up'), [], name);
    else
      t.equal(
        valueOf(t, samples, 'scopegate_store_up', { store: 'service_accounts' }),
        expected,
        name,
      );
  }
  t.match(await metrics.registry.metrics(), /# TYPE scopegate_store_up gauge/);
});

t.test('scopegate_feed_lag_seconds reads the change feed at each scrape', async (t) => {
  const metrics = createGatewayMetrics();
  let lag: number | null = null;
  let current: StoreSubject | null = {
    serviceAccounts: { store: { available: true }, feed: { lagSeconds: () => lag } },
  };
  metrics.watchStores(() => current);
  const rows: [string, () => void, number | null][] = [
    ['never read: no series', () => {}, null],
    ['read 0.25 s ago', () => (lag = 0.25), 0.25],
    ['falling behind', () => (lag = 7), 7],
    [
      'no feed: no series',
      () => (current = { serviceAccounts: { store: { available: true } } }),
      null,
    ],
    ['service accounts off: no series', () => (current = { serviceAccounts: null }), null],
  ];
  for (const [name, change, expected] of rows) {
    change();
    const samples = await scrape(metrics);
    if (expected === null) t.same(samplesOf(samples, 'scopegate_feed_lag_seconds'), [], name);
    else
      t.equal(
        valueOf(t, samples, 'scopegate_feed_lag_seconds', { store: 'service_accounts' }),
        expected,
        name,
      );
  }
});

t.test(
  'JWKS fetches are counted by document and result, every series from the start',
  async (t) => {
    const metrics = createGatewayMetrics();
    const text = await metrics.registry.metrics();
    t.match(text, /^# TYPE scopegate_jwks_fetches_total counter$/m);
    const series = (samples: Awaited<ReturnType<typeof scrape>>) =>
      samplesOf(samples, 'scopegate_jwks_fetches_total')
        .map((s) => `${s.labels['document']}/${s.labels['result']}=${s.value}`)
        .sort();
    t.same(series(parseMetrics(text)), [
      'discovery/error=0',
      'discovery/success=0',
      'jwks/error=0',
      'jwks/success=0',
    ]);
    metrics.countJwksFetch('discovery', 'success');
    metrics.countJwksFetch('jwks', 'error');
    metrics.countJwksFetch('jwks', 'error');
    t.same(series(await scrape(metrics)), [
      'discovery/error=0',
      'discovery/success=1',
      'jwks/error=2',
      'jwks/success=0',
    ]);
  },
);

t.test('the JWKS gauges read the watched remote set at each scrape', async (t) => {
  const metrics = createGatewayMetrics();
  let keys: { keys: unknown[] } | null = null;
  let lastSuccessMs: number | null = null;
  const remote = { snapshot: () => keys, lastSuccessMs: () => lastSuccessMs };
  let current: StoreSubject | null = null;
  metrics.watchStores(() => current);
  const KEYS = 'scopegate_jwks_keys';
  const LAST = 'scopegate_jwks_last_success_timestamp_seconds';
  const rows: [string, () => void, number | null, number | null][] = [
    ['no state: no series', () => {}, null, null],
    ['no jwks_url: no series', () => (current = { serviceAccounts: null, chain: {} }), null, null],
    [
      'before the first fetch: 0 keys, no time',
      () => (current = { serviceAccounts: null, chain: { remoteJwks: remote } }),
      0,
      null,
    ],
    [
      'fetched: its keys and the time in seconds',
      () => {
        keys = { keys: [{}, {}] };
        lastSuccessMs = 1_700_000_000_500;
      },
      2,
      1_700_000_000.5,
    ],
    ['stale: 0 keys, the time of the last success kept', () => (keys = null), 0, 1_700_000_000.5],
  ];
  for (const [name, change, keyCount, at] of rows) {
    change();
    const text = await metrics.registry.metrics();
    t.match(text, new RegExp(`^# TYPE ${KEYS} gauge$`, 'm'), `${name}: keys declared`);
    t.match(text, new RegExp(`^# HELP ${LAST} \\S`, 'm'), `${name}: time declared`);
    const samples = parseMetrics(text);
    if (keyCount === null) t.same(samplesOf(samples, KEYS), [], `${name}: keys`);
    else t.equal(valueOf(t, samples, KEYS), keyCount, `${name}: keys`);
    if (at === null) t.same(samplesOf(samples, LAST), [], `${name}: time`);
    else t.equal(valueOf(t, samples, LAST), at, `${name}: time`);
  }
  t.same(
    (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === KEYS)?.values,
    [{ labels: {}, value: 0 }],
    'the JSON form too',
  );
  metrics.registry.resetMetrics();
  t.equal(valueOf(t, await scrape(metrics), LAST), 1_700_000_000.5, 'a reset leaves it alone');
});

t.test('A2A JSON-RPC calls are counted by method, status and decision', async (t) => {
  const metrics = createGatewayMetrics();
  metrics.countA2aCall('GetTask', 200, 'allow');
  metrics.countA2aCall('GetTask', 200, 'allow');
  metrics.countA2aCall('invalid', 400, 'deny');
  const samples = await scrape(metrics);
  const name = 'scopegate_a2a_requests_total';
  t.equal(valueOf(t, samples, name, { method: 'GetTask', status: '200', decision: 'allow' }), 2);
  t.equal(valueOf(t, samples, name, { method: 'invalid', status: '400', decision: 'deny' }), 1);
});
