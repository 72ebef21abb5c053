/**
 * End to end (issue #6, the admin listener): a real gateway with RS256 JWTs and a service-account
 * store, its admin listener on port 0, and real HTTP. /metrics after mixed traffic (labels are
 * route patterns, never ids), /readyz following the upstream and the store, one access-log line
 * per request, and no credential in any log line or metric.
 */
import { createServer, request, type Server } from 'node:http';
import t, { type Test } from 'tap';
import { createReadiness, PROBE_CACHE_MS } from '../../src/admin/health.js';
import { startAdminServer } from '../../src/admin/server.js';
import type { MintedAccount } from '../../src/gateway/service-accounts/render.js';
import type { Telemetry } from '../../src/gateway/stages/record.js';
import { httpCall } from '../fixtures/child.js';
import { bearer, startPair, yamlOf, type Pair } from '../fixtures/e2e.js';
import { RSA_KEY, RSA_KEY_2 } from '../fixtures/keys.js';
import {
  captureTelemetry,
  parseMetrics,
  samplesOf,
  valueOf,
  type LogCapture,
} from '../fixtures/observability.js';
import {
  createTestClock,
  expiredToken,
  goodToken,
  TEST_SERVICE_ID,
  type TestClock,
} from '../fixtures/tokens.js';

const STORE = 'data/sa.db';

/** The shipped policies, RBAC on, RS256 JWTs (header or cookie) and a service-account store. */
async function startObserved(
  t: Test,
  telemetry: Telemetry,
  auth: Record<string, unknown> = {},
  clock: TestClock = createTestClock(),
): Promise<Pair> {
  return startPair(t, {
    clock,
    telemetry,
    yaml: yamlOf({
      service_id: TEST_SERVICE_ID,
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        algorithm: 'RS256',
        authorization: true,
        service_accounts: { enabled: true, store: `sqlite:${STORE}` },
        ...auth,
      },
    }),
  });
}

/** The admin listener over a pair's state and registry; its base URL. */
async function startAdmin(t: Test, pair: Pair, telemetry: Telemetry, clock: TestClock) {
  const admin = await startAdminServer(
    {
      registry: telemetry.metrics.registry,
      readiness: createReadiness({ current: () => pair.gateway.state, clock }),
    },
    { host: '127.0.0.1', port: 0 },
  );
  t.teardown(() => admin.close());
  return `http://127.0.0.1:${admin.address().port}`;
}

async function scrape(t: Test, adminUrl: string) {
  const answer = await httpCall(`${adminUrl}/metrics`);
  t.equal(answer.status, 200, 'scraped');
  return { text: answer.body, samples: parseMetrics(answer.body) };
}

t.test('/metrics after traffic: every series, labelled by pattern', async (t) => {
  const clock = createTestClock();
  const { telemetry, log } = captureTelemetry();
  const pair = await startObserved(t, telemetry, {}, clock);
  const adminUrl = await startAdmin(t, pair, telemetry, clock);
  const reader = await goodToken({ sub: 'reader-1', scopes: ['agents:read'] });
  const expired = await expiredToken();

  const sent: [string, string, Record<string, string>, number][] = [
    ['GET', '/agents/agent-one', bearer(reader), 200], // miss, then cached
    ['GET', '/agents/agent-two', bearer(reader), 200], // hit
    ['GET', '/agents/agent-three', {}, 401],
    ['GET', '/agents/agent-four', bearer(expired), 401], // miss
    ['POST', '/agents/agent-one/runs', bearer(reader), 403], // hit
    ['GET', '/status/404', bearer(reader), 404], // hit; unmapped, the upstream's 404
    ['GET', '/health', {}, 200],
    ['GET', '/agents/../config', bearer(reader), 400],
  ];
  for (const [method, path, headers, status] of sent) {
    const answer = await pair.send({ method, path, headers });
    t.equal(answer.status, status, `${method} ${path}: ${status}`);
  }
  const lines = await log.count(sent.length);
  const { text, samples } = await scrape(t, adminUrl);

  const requests = (labels: Record<string, string>) =>
    valueOf(t, samples, 'scopegate_requests_total', labels);
  t.equal(requests({ method: 'GET', route: '/agents/*', status: '200', decision: 'allow' }), 2);
  t.equal(requests({ method: 'GET', route: '/agents/*', status: '401', decision: 'deny' }), 2);
  t.equal(
    requests({ method: 'POST', route: '/agents/*/runs', status: '403', decision: 'deny' }),
    1,
  );
  t.equal(requests({ method: 'GET', route: 'unmatched', status: '404', decision: 'allow' }), 1);
  t.equal(
    requests({ method: 'GET', route: 'exempt:/health', status: '200', decision: 'exempt' }),
    1,
  );
  t.equal(requests({ method: 'GET', route: 'invalid_path', status: '400', decision: 'deny' }), 1);
  t.equal(samplesOf(samples, 'scopegate_requests_total').length, 6, 'no other series');

  const routes = new Set(
    samples.filter((s) => s.name.startsWith('scopegate_')).map((s) => s.labels['route']),
  );
  routes.delete(undefined);
  t.same(
    [...routes].sort(),
    ['/agents/*', '/agents/*/runs', 'exempt:/health', 'invalid_path', 'unmatched'],
    'route labels are patterns or fixed words',
  );
  t.notMatch(text, /agent-(one|two|three|four)|status\/404|\.\./, 'no raw path in any label');

  t.equal(
    valueOf(t, samples, 'scopegate_request_duration_seconds_count', {
      method: 'GET',
      route: '/agents/*',
    }),
    4,
  );
  for (const [route, count] of [
    ['/agents/*', 2],
    ['unmatched', 1],
    ['exempt:/health', 1],
  ] as const) {
    t.equal(
      valueOf(t, samples, 'scopegate_upstream_duration_seconds_count', { route }),
      count,
      `upstream timed: ${route}`,
    );
  }
  t.same(
    samplesOf(samples, 'scopegate_upstream_duration_seconds_count', { route: '/agents/*/runs' }),
    [],
    'refused requests are never timed upstream',
  );
  t.equal(
    valueOf(t, samples, 'scopegate_auth_failures_total', { reason: 'credential_missing' }),
    1,
  );
  t.equal(valueOf(t, samples, 'scopegate_auth_failures_total', { reason: 'token_expired' }), 1);
  t.equal(samplesOf(samples, 'scopegate_auth_failures_total').length, 2);
  t.same(
    Object.fromEntries(
      samplesOf(samples, 'scopegate_denials_total').map((s) => [s.labels['reason'], s.value]),
    ),
    { credential_missing: 1, token_expired: 1, insufficient_scope: 1, path_dot_segment: 1 },
    'every refusal counted once by its reason, authentication or not',
  );
  t.equal(valueOf(t, samples, 'scopegate_token_cache_misses_total'), 2);
  t.equal(valueOf(t, samples, 'scopegate_token_cache_hits_total'), 3);
  t.equal(valueOf(t, samples, 'scopegate_config_reloads_total', { result: 'success' }), 0);
  t.equal(valueOf(t, samples, 'scopegate_config_reloads_total', { result: 'error' }), 0);

  t.match(lines, [
    {
      level: 'info',
      msg: 'request completed',
      req_id: String,
      method: 'GET',
      route: '/agents/*',
      path: '/agents/agent-one',
      status: 200,
      decision: 'allow',
      reason: 'scopes_satisfied',
      principal_type: 'jwt',
      user_id: 'reader-1',
      latency_ms: Number,
      upstream_latency_ms: Number,
      aborted: false,
    },
    { path: '/agents/agent-two', status: 200 },
    {
      path: '/agents/agent-three',
      status: 401,
      decision: 'deny',
      reason: 'credential_missing',
      principal_type: null,
      user_id: null,
      upstream_latency_ms: null,
    },
    { status: 401, reason: 'token_expired' },
    {
      method: 'POST',
      route: '/agents/*/runs',
      status: 403,
      decision: 'deny',
      reason: 'insufficient_scope',
      user_id: 'reader-1',
      required_scopes: ['agents:run'],
      held_scopes: Array,
    },
    { route: 'unmatched', path: '/status/404', status: 404, reason: 'unmapped_allowed' },
    { route: 'exempt:/health', status: 200, decision: 'exempt', reason: 'excluded_route' },
    {
      route: 'invalid_path',
      path: '/agents/../config',
      status: 400,
      reason: 'path_dot_segment',
    },
  ]);
  const ids = lines.map((l) => l['req_id']);
  t.equal(new Set(ids).size, sent.length, 'one line per request');
});

t.test('the request id in the log is the one the client saw', async (t) => {
  const { telemetry, log } = captureTelemetry();
  const pair = await startObserved(t, telemetry);
  const answer = await pair.send({ path: '/agents/x', headers: { 'x-request-id': 'trace-42' } });
  t.equal(answer.headers['x-request-id'], 'trace-42');
  const [line] = await log.count(1);
  t.match(line, { req_id: 'trace-42', status: 401 });
});

t.test('/service-accounts answered by the gateway is recorded with its outcome', async (t) => {
  const { telemetry, log } = captureTelemetry();
  const pair = await startObserved(t, telemetry);
  const manager = await goodToken({ sub: 'ops', scopes: ['service_accounts:read'] });
  t.equal((await pair.send({ path: '/service-accounts', headers: bearer(manager) })).status, 200);
  const notFound = await pair.send({
    method: 'DELETE',
    path: '/service-accounts/nope',
    headers: bearer(manager),
  });
  t.equal(notFound.status, 403, 'DELETE needs service_accounts:delete');
  const [listed, refused] = await log.count(2);
  t.match(listed, {
    route: '/service-accounts',
    status: 200,
    decision: 'allow',
    reason: 'scopes_satisfied',
    upstream_latency_ms: null,
  });
  t.match(refused, { route: '/service-accounts/*', status: 403, reason: 'insufficient_scope' });
});

t.test('a client that leaves while the upstream thinks: recorded once, 499', async (t) => {
  const { telemetry, metrics, log } = captureTelemetry();
  const pair = await startObserved(t, telemetry);
  const reader = await goodToken({ scopes: ['agents:read'] });
  const { port } = new URL(pair.gateway.url);
  const req = request({
    host: '127.0.0.1',
    port,
    path: '/hang/slow',
    headers: bearer(reader),
    agent: false,
  });
  req.on('error', () => {});
  req.end();
  await pair.upstream.receivedCount(1);
  req.destroy();
  const [line] = await log.count(1);
  t.match(line, {
    msg: 'request aborted',
    status: 499,
    decision: 'allow',
    route: 'unmatched',
    aborted: true,
    upstream_latency_ms: null,
  });
  await pair.upstream.aborted;
  const samples = parseMetrics(await metrics.registry.metrics());
  t.equal(
    valueOf(t, samples, 'scopegate_requests_total', {
      method: 'GET',
      route: 'unmatched',
      status: '499',
      decision: 'allow',
    }),
    1,
  );
});

/** Listens on `port` until closed; answers every request 200. */
async function listenOn(port: number): Promise<Server> {
  const server = createServer((_req, res) => res.end('{}'));
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return server;
}

t.test('/readyz follows the upstream and the service-account store', async (t) => {
  const clock = createTestClock();
  const { telemetry } = captureTelemetry();
  const pair = await startObserved(t, telemetry, {}, clock);
  const adminUrl = await startAdmin(t, pair, telemetry, clock);
  const readyz = async () => {
    const answer = await httpCall(`${adminUrl}/readyz`);
    return { status: answer.status, body: JSON.parse(answer.body) as unknown };
  };
  const ALL_OK = { config: 'ok', upstream: 'ok', service_account_store: 'ok' };
  t.same(await readyz(), { status: 200, body: { status: 'ready', checks: ALL_OK } });
  t.equal((await httpCall(`${adminUrl}/healthz`)).status, 200);

  const { port } = new URL(pair.upstream.url);
  await pair.upstream.close();
  clock.advance(PROBE_CACHE_MS);
  t.same(await readyz(), {
    status: 503,
    body: {
      status: 'not_ready',
      failing: ['upstream'],
      checks: { ...ALL_OK, upstream: 'failing' },
    },
  });
  t.equal((await httpCall(`${adminUrl}/healthz`)).status, 200, 'still alive');

  const back = await listenOn(Number(port));
  t.teardown(() => new Promise<void>((r) => back.close(() => r())));
  clock.advance(PROBE_CACHE_MS);
  t.same(await readyz(), { status: 200, body: { status: 'ready', checks: ALL_OK } });

  pair.gateway.state.serviceAccounts?.close();
  t.same(
    await readyz(),
    {
      status: 200,
      body: {
        status: 'ready',
        degraded: ['service_account_store'],
        checks: { ...ALL_OK, service_account_store: 'failing' },
      },
    },
    'a closed store: still ready (other credentials are served), the store named as down',
  );
  back.closeAllConnections();
});

/** Sends `requests`, then waits for exactly one access-log line each. */
async function runBatch(
  t: Test,
  pair: Pair,
  log: LogCapture,
  requests: readonly {
    path: string;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
  }[],
  already = 0,
): Promise<void> {
  for (const r of requests) await pair.send(r);
  const lines = await log.count(already + requests.length);
  t.equal(lines.length, already + requests.length, 'one line per request');
}

t.test('no access-log line and no metric ever holds a credential', async (t) => {
  // Gateway A: JWTs from the header or the cookie, and service accounts.
  const a = captureTelemetry();
  const pair = await startObserved(t, a.telemetry, { token_source: 'BOTH' });
  const adminUrl = await startAdmin(t, pair, a.telemetry, createTestClock());
  const admin = await goodToken({ sub: 'root', scopes: ['agent_os:admin'] });
  const reader = await goodToken({ sub: 'reader', scopes: ['agents:read'] });
  const cookieJwt = await goodToken({ sub: 'jar-user', scopes: ['agents:read'] });
  const expired = await expiredToken();
  const foreign = await goodToken({ key: RSA_KEY_2.privateKey });
  const minted = await pair.send({
    method: 'POST',
    path: '/service-accounts',
    headers: { ...bearer(admin), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ci', scopes: [{ scope: 'agents:read' }] }),
  });
  t.equal(minted.status, 201, minted.body);
  const account = (minted.json as MintedAccount).token;
  const bogusAccount = 'svc_pat_' + 'Z'.repeat(43);
  await runBatch(
    t,
    pair,
    a.log,
    [
      { path: '/agents/a1', headers: bearer(reader) },
      { path: `/agents/a1?access_token=${reader}`, headers: bearer(reader) },
      { path: `/agents/a1?token=${account}&key=${bogusAccount}`, headers: bearer(reader) },
      { path: '/agents/a1', headers: { cookie: `theme=dark; access_token=${cookieJwt}` } },
      { path: '/agents/a1', headers: bearer(expired) },
      { path: '/agents/a1', headers: bearer(foreign) },
      { path: '/agents/a1', headers: bearer(account) },
      { path: '/agents/a1', headers: bearer(bogusAccount) },
      { path: '/config', headers: { authorization: account } },
      { path: '/agents/a1', headers: { authorization: 'Bearer not.a.jwt' } },
      { path: `/a/../b?access_token=${reader}` },
      { path: '/service-accounts', headers: bearer(admin) },
    ],
    1,
  );
  const scraped = await scrape(t, adminUrl);

  // Gateway B: the security key (only honoured without a JWT source).
  const b = captureTelemetry();
  const securityKey = 'sk-observability-test-0123456789';
  const keyed = await startPair(t, {
    telemetry: b.telemetry,
    yaml: yamlOf({
      auth: { security_key: securityKey, service_accounts: { enabled: false } },
    }),
  });
  for (const headers of [bearer(securityKey), bearer(`${securityKey}-wrong`)]) {
    await keyed.send({ path: '/config', headers });
  }
  await b.log.count(2);
  t.match(b.log.lines(), [
    { status: 200, principal_type: 'security_key' },
    { status: 401, reason: 'token_malformed' },
  ]);

  const logged = a.log.text() + b.log.text();
  const secrets = {
    admin,
    reader,
    cookieJwt,
    expired,
    foreign,
    account,
    bogusAccount,
    securityKey,
  };
  for (const [name, secret] of Object.entries(secrets)) {
    t.notOk(logged.includes(secret), `${name} is in no log line`);
    t.notOk(scraped.text.includes(secret), `${name} is in no metric`);
    // A JWT's signature alone (or a service-account token's secret part) is a credential too.
    const tail = secret.slice(-20);
    t.notOk(logged.includes(tail), `no part of ${name} is in a log line`);
  }
  t.notMatch(logged, /authorization|cookie|bearer|access_token|theme/i, 'no header or query');
  t.match(a.log.lines(), [
    { path: '/service-accounts', status: 201, user_id: 'root' },
    { status: 200, principal_type: 'jwt', user_id: 'reader' },
    { status: 200, path: '/agents/a1' },
    { status: 200, path: '/agents/a1' },
    { status: 200, user_id: 'jar-user' },
    { status: 401, reason: 'token_expired' },
    { status: 401, reason: 'signature_invalid' },
    { status: 200, principal_type: 'service_account', user_id: 'sa:ci' },
    { status: 401, reason: 'service_account_invalid' },
    { status: 403, user_id: 'sa:ci' },
    { status: 401, reason: 'token_malformed' },
    { status: 400, path: '/a/../b' },
    { status: 200, path: '/service-accounts' },
  ]);
});
