/**
 * Schedules behind a real gateway (RBAC on, real RS256 JWTs, a real SQLite file, real HTTP).
 * The acceptance test: a schedule set to run every minute, created through the gateway, fires
 * when the runtime's clock reaches the minute; the run goes through the gateway with the
 * internal service token, completes, is in the schedule's history, and the gateway's admin
 * metrics count it as a request from `__scheduler__`. Then every built-in schedules route
 * with exactly its scope (real body) and without it (403).
 */
import t, { type Test } from 'tap';
import { startAdminServer } from '../../src/admin/server.js';
import { createReadiness } from '../../src/admin/health.js';
import { createGatewayExecutor } from '../../src/runtime/api/schedules/gateway-executor.js';
import type { SchedulerTimer } from '../../src/runtime/api/schedules/timer.js';
import { startRuntime } from '../../src/runtime/start.js';
import { httpCall } from '../fixtures/child.js';
import { bearer, send, type Answer } from '../fixtures/e2e.js';
import { captureTelemetry, parseMetrics, samplesOf } from '../fixtures/observability.js';
import { E2E_IDENTITY_SECRET, gatewayInFront, runtimeDir } from '../fixtures/runtime-stack.js';
import { createTestClock, goodToken, TEST_NOW } from '../fixtures/tokens.js';

const RUNTIME = {
  os_id: 'e2e-schedules',
  db: 'runtime.db',
  agents: [{ id: 'a1', name: 'Agent One' }],
};
const INTERNAL_TOKEN = 'internal-token-for-tests-0123456789';

/** A timer that never fires: the test ticks by hand. */
const HAND_TIMER: SchedulerTimer = { start: () => () => {} };

/** The runtime (its own clock, hand-ticked scheduler) behind a gateway with an admin listener. */
async function stack(t: Test) {
  const clock = createTestClock();
  const runtime = await startRuntime({
    settings: RUNTIME,
    dir: runtimeDir(t),
    host: '127.0.0.1',
    port: 0,
    clock,
    scheduleTimer: HAND_TIMER,
    identitySecret: E2E_IDENTITY_SECRET,
    replicaId: 'e2e-replica-1',
  });
  t.teardown(() => runtime.close());
  const { telemetry } = captureTelemetry();
  const gateway = await gatewayInFront(t, runtime.url, {
    authYaml: [`internal_service_token: ${INTERNAL_TOKEN}`],
    telemetry,
  });
  // What `scopegate serve` does once the gateway listens.
  runtime.scheduler.attach(
    createGatewayExecutor({
      url: gateway.url,
      token: INTERNAL_TOKEN,
      clock,
      sleep: () => new Promise((r) => setImmediate(r)),
      pollIntervalMs: 0,
    }),
  );
  const admin = await startAdminServer(
    {
      registry: telemetry.metrics.registry,
      readiness: createReadiness({ current: () => gateway.state, clock: createTestClock() }),
    },
    { host: '127.0.0.1', port: 0 },
  );
  t.teardown(() => admin.close());
  return { runtime, gateway, clock, adminUrl: `http://127.0.0.1:${admin.address().port}` };
}

/** A JSON request through the gateway with `token`. */
function as(url: string, token: string) {
  return (method: string, path: string, body?: unknown): Promise<Answer> =>
    send(url, {
      method,
      path,
      headers: {
        ...bearer(token),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

t.test(
  'acceptance: an every-minute schedule fires through the gateway as __scheduler__',
  async (t) => {
    const { runtime, gateway, clock, adminUrl } = await stack(t);
    const writer = as(gateway.url, await goodToken({ sub: 'ops', scopes: ['schedules:write'] }));
    const reader = as(gateway.url, await goodToken({ sub: 'ops', scopes: ['schedules:read'] }));
    const created = await writer('POST', '/schedules', {
      name: 'minutely',
      cron_expr: '* * * * *',
      endpoint: '/agents/a1/runs',
      payload: { message: 'scheduled hello' },
    });
    t.equal(created.status, 201);
    const schedule = created.json as { id: string; next_run_at: number };
    t.equal(schedule.next_run_at, TEST_NOW + 60);

    await runtime.scheduler.tick();
    t.same((await reader('GET', `/schedules/${schedule.id}/runs`)).json, {
      data: [],
      meta: { page: 1, limit: 100, total_pages: 0, total_count: 0, search_time_ms: 0 },
    });
    clock.advance(60_000);
    await runtime.scheduler.tick();

    const history = await reader('GET', `/schedules/${schedule.id}/runs`);
    t.equal(history.status, 200);
    const runs = (history.json as { data: Record<string, unknown>[] }).data;
    t.equal(runs.length, 1);
    t.match(runs[0], {
      schedule_id: schedule.id,
      attempt: 1,
      status: 'success',
      status_code: 200,
      triggered_at: TEST_NOW + 60,
      error: null,
      input: { message: 'scheduled hello' },
      output: { status: 'COMPLETED', content: 'Echo: scheduled hello' },
    });
    const runId = runs[0]?.run_id as string;
    t.type(runId, 'string');
    const stored = await runtime.store.getRun(runId);
    t.match(stored, { status: 'COMPLETED', user_id: '__scheduler__' }, 'run as the scheduler');
    t.notOk('slot' in (runs[0] as object) || 'claimed_by' in (runs[0] as object), 'kept internal');
    t.match(
      (await runtime.store.schedules.listRuns(schedule.id, 1, 10)).rows,
      [{ slot: TEST_NOW + 60, claimed_by: 'e2e-replica-1' }],
      "stored with its slot and the claiming replica's name",
    );
    t.equal(
      ((await reader('GET', `/schedules/${schedule.id}`)).json as { next_run_at: number })
        .next_run_at,
      TEST_NOW + 120,
    );

    const scraped = await httpCall(`${adminUrl}/metrics`);
    const samples = parseMetrics(scraped.body);
    const scheduled = samplesOf(samples, 'scopegate_requests_by_principal_total', {
      principal: '__scheduler__',
      route: '/agents/*/runs',
    });
    t.same(
      scheduled.map((s) => [s.labels['status'], s.value]),
      [['202', 1]],
      'the run request, counted as __scheduler__',
    );
    t.ok(
      samplesOf(samples, 'scopegate_requests_by_principal_total', { principal: '__scheduler__' })
        .length >= 2,
      'and its polls',
    );
    t.equal(
      samplesOf(samples, 'scopegate_requests_by_principal_total', {
        principal: 'jwt',
        route: '/schedules',
      })[0]?.value,
      1,
      'the JWT caller is counted as jwt',
    );
    t.notMatch(scraped.body, INTERNAL_TOKEN, 'the token is nowhere in the metrics');
  },
);

t.test('every schedules route: its exact scope gets the real answer, none gets 403', async (t) => {
  const { gateway } = await stack(t);
  const scoped = async (scope: string) =>
    as(gateway.url, await goodToken({ sub: 'ops', scopes: [scope] }));
  const read = await scoped('schedules:read');
  const write = await scoped('schedules:write');
  const del = await scoped('schedules:delete');
  const none = await scoped('agents:read');

  const created = await write('POST', '/schedules', {
    name: 'nightly',
    cron_expr: '0 3 * * *',
    endpoint: '/agents/a1/runs',
    payload: { message: 'night' },
  });
  t.equal(created.status, 201);
  t.match(created.json, { name: 'nightly', enabled: true, next_run_at: TEST_NOW + 3 * 3600 });
  const id = (created.json as { id: string }).id;
  const triggered = await write('POST', `/schedules/${id}/trigger`);
  t.equal(triggered.status, 200);
  t.match(triggered.json, {
    schedule_id: id,
    status: 'success',
    output: { content: 'Echo: night' },
  });
  const runId = (triggered.json as { id: string }).id;

  const rows: [string, string, unknown, (a: Answer) => void][] = [
    [
      'GET',
      '/schedules',
      undefined,
      (a) => t.match(a.json, { data: [{ id }], meta: { total_count: 1 } }),
    ],
    ['GET', `/schedules/${id}`, undefined, (a) => t.match(a.json, { id, name: 'nightly' })],
    ['GET', `/schedules/${id}/runs`, undefined, (a) => t.match(a.json, { data: [{ id: runId }] })],
    [
      'GET',
      `/schedules/${id}/runs/${runId}`,
      undefined,
      (a) => t.match(a.json, { id: runId, status: 'success' }),
    ],
    [
      'POST',
      '/schedules',
      { name: 'other', cron_expr: '* * * * *', endpoint: '/health' },
      (a) => t.match(a.json, { name: 'other' }),
    ],
    [
      'PATCH',
      `/schedules/${id}`,
      { description: 'patched' },
      (a) => t.match(a.json, { description: 'patched' }),
    ],
    ['POST', `/schedules/${id}/disable`, undefined, (a) => t.match(a.json, { id, enabled: false })],
    ['POST', `/schedules/${id}/enable`, undefined, (a) => t.match(a.json, { id, enabled: true })],
    ['POST', `/schedules/${id}/trigger`, undefined, (a) => t.match(a.json, { status: 'success' })],
    ['DELETE', `/schedules/${id}`, undefined, (a) => t.equal(a.body, '')],
  ];
  const scopeOf = (method: string) => (method === 'DELETE' ? del : method === 'GET' ? read : write);
  for (const [method, path, body, check] of rows) {
    const refused = await none(method, path, body);
    t.equal(refused.status, 403, `${method} ${path} without its scope`);
    const answer = await scopeOf(method)(method, path, body);
    t.not(answer.status, 403, `${method} ${path} with its scope`);
    t.ok(answer.status < 300, `${method} ${path}: ${answer.status}`);
    check(answer);
  }
  const wrong = await read('DELETE', `/schedules/${id}`);
  t.equal(wrong.status, 403, 'read does not delete');
});
