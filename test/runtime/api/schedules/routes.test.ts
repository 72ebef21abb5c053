/**
 * The schedule routes on a real app and store: create with defaults and
 * validation (pydantic 422s, the string 422s for cron and zone, 409 for a taken name), list with
 * the enabled filter and pagination, read, patch (recomputing next_run_at), delete, enable and
 * disable, trigger (409 disabled, 503 without an executor), and the run history.
 */
import t, { type Test } from 'tap';
import { buildCatalogue } from '../../../../src/runtime/catalogue/resolve.js';
import type { ExecutionOutcome } from '../../../../src/runtime/api/schedules/executor.js';
import { createScheduler } from '../../../../src/runtime/api/schedules/scheduler.js';
import { buildRuntimeApp } from '../../../../src/runtime/app.js';
import type { RuntimeSettings } from '../../../../src/runtime/catalogue/definitions.js';
import { openRuntimeStore } from '../../../../src/runtime/store/store.js';
import { createTestClock, TEST_NOW } from '../../../fixtures/tokens.js';
import {
  runtimeApp,
  SETTINGS,
  signAnonymousByDefault,
  TEST_IDENTITY_SECRET,
} from '../../fixtures/runtime.js';

const SUCCESS: ExecutionOutcome = {
  status: 'success',
  statusCode: 202,
  runId: 'run-1',
  sessionId: 'ses-1',
  error: null,
  output: { status: 'COMPLETED', content: 'Echo: hi' },
  requirements: null,
};

/** An app whose scheduler executes with a scripted success; ids `id-1`, `id-2`, … */
function appWithExecutor(t: Test) {
  const store = openRuntimeStore(':memory:');
  const clock = createTestClock();
  let ids = 0;
  const deps = { clock, newId: () => `id-${++ids}`, sleep: async () => {} };
  const scheduler = createScheduler({ store: store.schedules, replicaId: 'replica-a', ...deps });
  scheduler.attach(async () => SUCCESS);
  const app = buildRuntimeApp({
    settings: buildCatalogue(SETTINGS).settings as RuntimeSettings,
    store,
    deps,
    startedAt: new Date(),
    scheduler,
    identitySecret: TEST_IDENTITY_SECRET,
  });
  signAnonymousByDefault(app);
  t.teardown(async () => {
    await app.close();
    store.close();
  });
  return { app, store, clock, scheduler };
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const BODY = { name: 'Daily report', cron_expr: '0 9 * * *', endpoint: '/agents/a1/runs' };

t.test('POST /schedules: 201 with defaults and the next run computed', async (t) => {
  const { app } = runtimeApp(t);
  const res = await app.inject({ method: 'POST', url: '/schedules', payload: BODY });
  t.equal(res.statusCode, 201);
  t.same(res.json(), {
    id: 'id-1',
    name: 'Daily report',
    description: null,
    method: 'POST',
    endpoint: '/agents/a1/runs',
    payload: null,
    cron_expr: '0 9 * * *',
    timezone: 'UTC',
    timeout_seconds: 3600,
    max_retries: 0,
    retry_delay_seconds: 60,
    enabled: true,
    next_run_at: TEST_NOW + 9 * 3600,
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
  });
  const all = await app.inject({
    method: 'POST',
    url: '/schedules',
    payload: {
      name: 'Every 5',
      cron_expr: '*/5 * * * *',
      endpoint: '/memories',
      method: 'GET',
      description: 'd',
      payload: { a: 1 },
      timezone: 'Europe/Stockholm',
      timeout_seconds: 10,
      max_retries: 2,
      retry_delay_seconds: 3,
    },
  });
  t.equal(all.statusCode, 201);
  t.match(all.json(), { method: 'GET', payload: { a: 1 }, next_run_at: TEST_NOW + 300 });
  const taken = await app.inject({ method: 'POST', url: '/schedules', payload: BODY });
  t.same(
    [taken.statusCode, taken.json()],
    [409, { detail: "Schedule with name 'Daily report' already exists" }],
  );
});

t.test('POST /schedules: validation', async (t) => {
  const { app } = runtimeApp(t);
  const post = (payload: unknown) =>
    app.inject({
      method: 'POST',
      url: '/schedules',
      payload: payload as object,
      headers: JSON_HEADERS,
    });
  const cases: [string, Record<string, unknown>, unknown][] = [
    ['bad cron', { cron_expr: '* * *' }, 'Invalid cron expression: * * *'],
    ['six fields', { cron_expr: '* * * * * *' }, 'Invalid cron expression: * * * * * *'],
    ['bad zone', { timezone: 'Mars/Olympus' }, 'Invalid timezone: Mars/Olympus'],
  ];
  for (const [name, change, detail] of cases) {
    const res = await post({ ...BODY, ...change });
    t.same([res.statusCode, res.json()], [422, { detail }], name);
  }
  const fields: [string, Record<string, unknown>, string][] = [
    ['name pattern', { name: '-x' }, 'name'],
    ['name length', { name: 'x'.repeat(256) }, 'name'],
    ['endpoint without slash', { endpoint: 'agents/a1/runs' }, 'endpoint'],
    ['endpoint with a scheme', { endpoint: '/http://evil/' }, 'endpoint'],
    ['method', { method: 'TRACE' }, 'method'],
    ['timeout 0', { timeout_seconds: 0 }, 'timeout_seconds'],
    ['timeout too big', { timeout_seconds: 86_401 }, 'timeout_seconds'],
    ['retries', { max_retries: 11 }, 'max_retries'],
    ['retry delay', { retry_delay_seconds: 3601 }, 'retry_delay_seconds'],
    ['unknown field', { color: 'red' }, 'color'],
  ];
  for (const [name, change, field] of fields) {
    const res = await post({ ...BODY, ...change });
    t.equal(res.statusCode, 422, name);
    t.match(res.json(), { detail: [{ loc: ['body', field] }] }, name);
  }
  const missing = await post({});
  t.match(missing.json(), {
    detail: [
      { type: 'missing', loc: ['body', 'name'] },
      { type: 'missing', loc: ['body', 'cron_expr'] },
      { type: 'missing', loc: ['body', 'endpoint'] },
    ],
  });
});

t.test('GET /schedules: enabled filter and pagination', async (t) => {
  const { app, clock } = runtimeApp(t);
  for (const name of ['one', 'two', 'three']) {
    await app.inject({ method: 'POST', url: '/schedules', payload: { ...BODY, name } });
    clock.advance(1000);
  }
  await app.inject({ method: 'POST', url: '/schedules/id-2/disable' });
  const all = await app.inject({ url: '/schedules' });
  t.same(
    all.json().data.map((s: { name: string }) => s.name),
    ['three', 'two', 'one'],
    'newest first',
  );
  t.same(all.json().meta, {
    page: 1,
    limit: 100,
    total_pages: 1,
    total_count: 3,
    search_time_ms: 0,
  });
  const enabled = await app.inject({ url: '/schedules?enabled=true' });
  t.same(
    enabled.json().data.map((s: { name: string }) => s.name),
    ['three', 'one'],
  );
  const disabled = await app.inject({ url: '/schedules?enabled=no' });
  t.same(
    disabled.json().data.map((s: { name: string }) => s.name),
    ['two'],
  );
  const page = await app.inject({ url: '/schedules?limit=2&page=2' });
  t.same(
    page.json().data.map((s: { name: string }) => s.name),
    ['one'],
  );
  t.match(page.json().meta, { page: 2, limit: 2, total_pages: 2, total_count: 3 });
  const bad = await app.inject({ url: '/schedules?enabled=maybe' });
  t.same(bad.json(), {
    detail: [
      {
        type: 'bool_parsing',
        loc: ['query', 'enabled'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'maybe',
      },
    ],
  });
  const tooMany = await app.inject({ url: '/schedules?limit=1001' });
  t.match(tooMany.json(), { detail: [{ type: 'less_than_equal', ctx: { le: 1000 } }] });
});

t.test('GET, PATCH, DELETE /schedules/{id}', async (t) => {
  const { app, clock } = runtimeApp(t);
  await app.inject({ method: 'POST', url: '/schedules', payload: BODY });
  await app.inject({ method: 'POST', url: '/schedules', payload: { ...BODY, name: 'Other' } });
  t.match((await app.inject({ url: '/schedules/id-1' })).json(), { name: 'Daily report' });
  const unknown = await app.inject({ url: '/schedules/nope' });
  t.same([unknown.statusCode, unknown.json()], [404, { detail: 'Schedule not found' }]);

  clock.advance(60_000);
  const renamed = await app.inject({
    method: 'PATCH',
    url: '/schedules/id-1',
    payload: { name: 'Renamed', description: null, payload: { message: 'x' } },
  });
  t.equal(renamed.statusCode, 200);
  t.match(renamed.json(), {
    name: 'Renamed',
    payload: { message: 'x' },
    next_run_at: TEST_NOW + 9 * 3600,
    updated_at: TEST_NOW + 60,
  });
  const recron = await app.inject({
    method: 'PATCH',
    url: '/schedules/id-1',
    payload: { cron_expr: '* * * * *', name: 'Renamed' },
  });
  t.match(recron.json(), { cron_expr: '* * * * *', next_run_at: TEST_NOW + 120 });
  const rezone = await app.inject({
    method: 'PATCH',
    url: '/schedules/id-1',
    payload: { cron_expr: '0 0 * * *', timezone: 'Europe/Stockholm' },
  });
  t.match(rezone.json(), { next_run_at: TEST_NOW + 23 * 3600 });
  const checks: [string, unknown, number, unknown][] = [
    ['taken name', { name: 'Other' }, 409, { detail: "Schedule with name 'Other' already exists" }],
    ['bad cron', { cron_expr: 'x' }, 422, { detail: 'Invalid cron expression: x' }],
    ['bad zone', { timezone: 'Nowhere' }, 422, { detail: 'Invalid timezone: Nowhere' }],
    [
      'null on a required field',
      { name: null },
      422,
      {
        detail: [
          {
            type: 'string_type',
            loc: ['body', 'name'],
            msg: 'Input should be a valid string',
            input: null,
          },
        ],
      },
    ],
  ];
  for (const [name, payload, status, body] of checks) {
    const res = await app.inject({
      method: 'PATCH',
      url: '/schedules/id-1',
      payload: payload as object,
    });
    t.same([res.statusCode, res.json()], [status, body], name);
  }
  const missing = await app.inject({ method: 'PATCH', url: '/schedules/nope', payload: {} });
  t.equal(missing.statusCode, 404);

  const deleted = await app.inject({ method: 'DELETE', url: '/schedules/id-1' });
  t.same([deleted.statusCode, deleted.body], [204, '']);
  const again = await app.inject({ method: 'DELETE', url: '/schedules/id-1' });
  t.same([again.statusCode, again.json()], [404, { detail: 'Schedule not found' }]);
});

t.test(
  'enable and disable; trigger refuses a disabled schedule and one with no executor',
  async (t) => {
    const { app, clock } = runtimeApp(t);
    await app.inject({
      method: 'POST',
      url: '/schedules',
      payload: { ...BODY, cron_expr: '* * * * *' },
    });
    clock.advance(600_000);
    const off = await app.inject({ method: 'POST', url: '/schedules/id-1/disable' });
    t.same(off.json(), {
      id: 'id-1',
      name: 'Daily report',
      enabled: false,
      next_run_at: TEST_NOW + 60,
      updated_at: TEST_NOW + 600,
    });
    const refused = await app.inject({ method: 'POST', url: '/schedules/id-1/trigger' });
    t.same([refused.statusCode, refused.json()], [409, { detail: 'Schedule is disabled' }]);
    const on = await app.inject({ method: 'POST', url: '/schedules/id-1/enable' });
    t.same(on.json(), {
      id: 'id-1',
      name: 'Daily report',
      enabled: true,
      next_run_at: TEST_NOW + 660,
      updated_at: TEST_NOW + 600,
    });
    const unavailable = await app.inject({ method: 'POST', url: '/schedules/id-1/trigger' });
    t.equal(unavailable.statusCode, 503);
    t.match(unavailable.json(), { detail: /auth\.internal_service_token/ });
    t.equal((await app.inject({ method: 'POST', url: '/schedules/x/enable' })).statusCode, 404);
  },
);

t.test('trigger runs now and answers the run; the history lists and reads runs', async (t) => {
  const { app } = appWithExecutor(t);
  await app.inject({
    method: 'POST',
    url: '/schedules',
    payload: { ...BODY, payload: { message: 'hi' } },
  });
  const triggered = await app.inject({ method: 'POST', url: '/schedules/id-1/trigger' });
  t.equal(triggered.statusCode, 200);
  t.same(triggered.json(), {
    id: 'id-2',
    schedule_id: 'id-1',
    attempt: 1,
    triggered_at: TEST_NOW,
    completed_at: TEST_NOW,
    status: 'success',
    status_code: 202,
    run_id: 'run-1',
    session_id: 'ses-1',
    error: null,
    input: { message: 'hi' },
    output: { status: 'COMPLETED', content: 'Echo: hi' },
    requirements: null,
    created_at: TEST_NOW,
  });
  await app.inject({ method: 'POST', url: '/schedules/id-1/trigger' });
  const runs = await app.inject({ url: '/schedules/id-1/runs?limit=1' });
  t.same(
    runs.json().data.map((r: { id: string }) => r.id),
    ['id-3'],
    'newest first',
  );
  t.match(runs.json().meta, { page: 1, limit: 1, total_pages: 2, total_count: 2 });
  const one = await app.inject({ url: '/schedules/id-1/runs/id-2' });
  t.match(one.json(), { id: 'id-2', status: 'success' });
  const none = await app.inject({ url: '/schedules/id-1/runs/nope' });
  t.same([none.statusCode, none.json()], [404, { detail: 'Schedule run not found' }]);
  const noSchedule = await app.inject({ url: '/schedules/nope/runs' });
  t.same([noSchedule.statusCode, noSchedule.json()], [404, { detail: 'Schedule not found' }]);
  const badPage = await app.inject({ url: '/schedules/id-1/runs?page=0' });
  t.equal(badPage.statusCode, 422);
});
