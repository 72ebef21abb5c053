/**
 * The eval-run routes on a real app over a real store and engine: each eval
 * type run on the offline model, body validation in pydantic's words, Agno's 400/404 details,
 * list filters, pagination and sorting, rename and bulk delete. Eval runs are not user-owned:
 * confined callers see them all.
 */
import t, { type Test } from 'tap';
import { buildCatalogue } from '../../../../src/runtime/catalogue/resolve.js';
import { JUDGE_REASONS } from '../../../../src/runtime/api/evals/judge.js';
import type { EvalProbes } from '../../../../src/runtime/api/evals/performance.js';
import { buildRuntimeApp } from '../../../../src/runtime/app.js';
import type { EvalRunRecord } from '../../../../src/runtime/api/evals/table.js';
import { openRuntimeStore } from '../../../../src/runtime/store/store.js';
import { createTestClock, TEST_NOW } from '../../../fixtures/tokens.js';
import {
  contextHeader,
  runtimeApp,
  SETTINGS,
  signAnonymousByDefault,
  TEST_IDENTITY_SECRET,
  TEST_NOW_ISO,
} from '../../fixtures/runtime.js';

type App = ReturnType<typeof runtimeApp>['app'];

const post = (app: App, body: unknown, url = '/eval-runs') =>
  app.inject({ method: 'POST', url, payload: body as Record<string, unknown> });

/** A stored eval run; `overrides` replace fields. */
function evalRun(overrides: Partial<EvalRunRecord> = {}): EvalRunRecord {
  return {
    run_id: 'e-1',
    eval_type: 'accuracy',
    name: null,
    agent_id: 'a1',
    team_id: null,
    workflow_id: null,
    model_id: 'offline-echo',
    model_provider: 'offline',
    evaluated_component_name: 'Agent One',
    eval_data: { avg_score: 10 },
    eval_input: { input: 'q' },
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
    ...overrides,
  };
}

t.test(
  'accuracy on an agent: 200 EvalSchema, stored as answered, no session written',
  async (t) => {
    const { app, store } = runtimeApp(t);
    const res = await post(app, {
      agent_id: 'a1',
      eval_type: 'accuracy',
      input: 'The answer is 4',
      expected_output: 'answer IS 4',
      num_iterations: 2,
      name: 'Sum check',
      additional_context: 'maths',
      model_id: 'ignored',
    });
    t.equal(res.statusCode, 200);
    const result = {
      input: 'The answer is 4',
      output: 'Echo: The answer is 4',
      expected_output: 'answer IS 4',
      score: 10,
      reason: JUDGE_REASONS.matched,
    };
    const body = res.json();
    t.same(body, {
      id: body.id,
      agent_id: 'a1',
      model_id: 'offline-echo',
      model_provider: 'offline',
      team_id: null,
      workflow_id: null,
      name: 'Sum check',
      evaluated_component_name: 'Agent One',
      eval_type: 'accuracy',
      eval_data: {
        results: [result, result],
        avg_score: 10,
        mean_score: 10,
        min_score: 10,
        max_score: 10,
        std_dev_score: 0,
      },
      eval_input: {
        input: 'The answer is 4',
        expected_output: 'answer IS 4',
        additional_context: 'maths',
        num_iterations: 2,
      },
      created_at: TEST_NOW_ISO,
      updated_at: TEST_NOW_ISO,
    });
    const read = await app.inject({ method: 'GET', url: `/eval-runs/${body.id}` });
    t.equal(read.statusCode, 200);
    t.same(read.json(), body);
    t.equal(
      (await store.listSessions({ page: 1, limit: 10, sortBy: 'created_at', sortOrder: 'desc' }))
        .total,
      0,
    );
  },
);

t.test('accuracy that misses: score 1', async (t) => {
  const { app } = runtimeApp(t);
  const res = await post(app, {
    agent_id: 'a2',
    eval_type: 'accuracy',
    input: 'hi',
    expected_output: 'bye',
  });
  t.equal(res.statusCode, 200);
  t.match(res.json().eval_data, {
    results: [{ output: 'Echo: hi', score: 1, reason: JUDGE_REASONS.missed }],
    avg_score: 1,
  });
});

t.test('agent_as_judge on a team: binary by default, numeric with a threshold', async (t) => {
  const { app } = runtimeApp(t);
  const binary = await post(app, {
    team_id: 't1',
    eval_type: 'agent_as_judge',
    input: 'hello',
    criteria: 'Echo: hello',
  });
  t.equal(binary.statusCode, 200);
  const data = binary.json().eval_data;
  t.match(binary.json(), {
    agent_id: null,
    team_id: 't1',
    evaluated_component_name: 'Team One',
    model_id: 'offline-echo',
    eval_type: 'agent_as_judge',
  });
  t.same(data, {
    run_id: data.run_id,
    results: [
      {
        input: 'hello',
        output: 'Echo: hello\n\nEcho: hello',
        criteria: 'Echo: hello',
        score: null,
        reason: JUDGE_REASONS.matched,
        passed: true,
      },
    ],
    avg_score: null,
    min_score: null,
    max_score: null,
    std_dev_score: null,
    pass_rate: 100,
  });
  t.type(data.run_id, 'string');
  t.not(data.run_id, binary.json().id);

  const numeric = await post(app, {
    agent_id: 'a2',
    eval_type: 'agent_as_judge',
    input: 'hello',
    criteria: 'polite',
    scoring_strategy: 'numeric',
    threshold: 1,
    num_iterations: 2,
  });
  t.match(numeric.json().eval_data, {
    results: [
      { score: 1, passed: true },
      { score: 1, passed: true },
    ],
    avg_score: 1,
    pass_rate: 100,
  });
  t.match(numeric.json().eval_input, { scoring_strategy: 'numeric', threshold: 1 });
});

t.test('reliability: the run tool calls against the expected ones', async (t) => {
  const { app } = runtimeApp(t);
  const passed = await post(app, {
    agent_id: 'a1',
    eval_type: 'reliability',
    input: '/tool add {"a":2,"b":3}',
    expected_tool_calls: ['add'],
    expected_tool_call_arguments: { add: { a: 2 } },
  });
  t.equal(passed.statusCode, 200);
  t.same(passed.json().eval_data, {
    eval_status: 'PASSED',
    failed_tool_calls: [],
    passed_tool_calls: ['add'],
    additional_tool_calls: [],
    missing_tool_calls: [],
    failed_argument_checks: [],
    passed_argument_checks: ['add'],
  });
  const team = await post(app, {
    team_id: 't2',
    eval_type: 'reliability',
    input: 'hi',
    expected_tool_calls: ['add'],
  });
  t.same(team.json().eval_data, {
    eval_status: 'FAILED',
    failed_tool_calls: ['add', 'delegate_task_to_member'],
    passed_tool_calls: [],
    additional_tool_calls: ['delegate_task_to_member'],
    missing_tool_calls: ['add'],
    failed_argument_checks: [],
    passed_argument_checks: [],
  });
});

/** An app over a fresh store whose performance probes are scripted: each run takes 250 ms. */
function probedApp(t: Test) {
  const built = buildCatalogue(SETTINGS);
  const store = openRuntimeStore(':memory:');
  let time = 0;
  let heap = 1024 * 1024;
  const probes: EvalProbes = {
    // Read twice per measured run (start, end): 250 ms apart.
    now: () => (time += 125),
    // Read twice per measured run: the heap grows 1 MiB over each.
    heapUsed: () => (heap += 512 * 1024),
  };
  let ids = 0;
  const app = buildRuntimeApp({
    settings: built.settings!,
    store,
    deps: { clock: createTestClock(), newId: () => `id-${++ids}`, sleep: async () => {} },
    startedAt: new Date(0),
    evalProbes: probes,
    identitySecret: TEST_IDENTITY_SECRET,
  });
  signAnonymousByDefault(app);
  t.teardown(async () => {
    await app.close();
    store.close();
  });
  return app;
}

t.test('performance: timings and memory from the injected probes', async (t) => {
  const app = probedApp(t);
  const res = await post(app, {
    agent_id: 'a1',
    eval_type: 'performance',
    input: 'hi',
    num_iterations: 3,
    warmup_runs: 2,
  });
  t.equal(res.statusCode, 200);
  t.same(res.json().eval_data, {
    run_times: [0.125, 0.125, 0.125],
    avg_run_time: 0.125,
    min_run_time: 0.125,
    max_run_time: 0.125,
    std_dev_run_time: 0,
    median_run_time: 0.125,
    p95_run_time: 0.125,
    memory_usages: [0.5, 0.5, 0.5],
    avg_memory_usage: 0.5,
    min_memory_usage: 0.5,
    max_memory_usage: 0.5,
    std_dev_memory_usage: 0,
    median_memory_usage: 0.5,
    p95_memory_usage: 0.5,
  });
  t.same(res.json().eval_input, { input: 'hi', num_iterations: 3, warmup_runs: 2 });
});

t.test('performance with the process probes: real, well-formed numbers', async (t) => {
  const { app } = runtimeApp(t);
  const res = await post(app, {
    team_id: 't2',
    eval_type: 'performance',
    input: 'hi',
    num_iterations: 2,
  });
  t.equal(res.statusCode, 200);
  const data = res.json().eval_data;
  t.equal(data.run_times.length, 2);
  t.equal(data.memory_usages.length, 2);
  t.ok(data.min_run_time <= data.median_run_time && data.median_run_time <= data.max_run_time);
  t.ok(data.min_memory_usage >= 0);
});

t.test('which entity: exactly one of agent_id and team_id, from the catalogue', async (t) => {
  const { app } = runtimeApp(t);
  const base = { eval_type: 'performance', input: 'x' };
  const rows: [name: string, body: Record<string, unknown>, status: number, detail: string][] = [
    [
      'both',
      { agent_id: 'a1', team_id: 't1' },
      400,
      'Only one of agent_id or team_id must be provided',
    ],
    ['neither', {}, 400, 'One of agent_id or team_id must be provided'],
    [
      'both empty',
      { agent_id: '', team_id: '' },
      400,
      'One of agent_id or team_id must be provided',
    ],
    ['unknown agent', { agent_id: 'zz' }, 404, "Agent with id 'zz' not found"],
    ['unknown team', { team_id: 'zz' }, 404, "Team with id 'zz' not found"],
    ['a workflow id is not a team', { team_id: 'w1' }, 404, "Team with id 'w1' not found"],
    ['another database', { agent_id: 'a1', db: 1 }, 200, ''],
  ];
  for (const [name, fields, status, detail] of rows) {
    const res = await post(app, { ...base, ...fields });
    t.equal(res.statusCode, status, name);
    if (detail !== '') t.same(res.json(), { detail }, name);
  }
  const empty = await post(app, { ...base, agent_id: '', team_id: 't2' });
  t.match(empty.json(), { agent_id: null, team_id: 't2' }, 'an empty agent_id counts as absent');
  const otherDb = await post(app, { agent_id: 'a1', ...base }, '/eval-runs?db_id=other');
  t.same(
    [otherDb.statusCode, otherDb.json()],
    [404, { detail: "No database found with id 'other'" }],
  );
  const sameDb = await post(app, { agent_id: 'a1', ...base }, '/eval-runs?db_id=runtime-db');
  t.equal(sameDb.statusCode, 200);
});

t.test('the field each eval type needs is a 400 after the entity is found', async (t) => {
  const { app } = runtimeApp(t);
  const rows: [Record<string, unknown>, string][] = [
    [{ eval_type: 'accuracy' }, 'expected_output is required for accuracy evaluation'],
    [{ eval_type: 'agent_as_judge' }, 'criteria is required for agent-as-judge evaluation'],
    [{ eval_type: 'reliability' }, 'expected_tool_calls is required for reliability evaluations'],
  ];
  for (const [fields, detail] of rows) {
    const res = await post(app, { agent_id: 'a1', input: 'q', ...fields });
    t.same([res.statusCode, res.json()], [400, { detail }], detail);
  }
  const unknown = await post(app, { agent_id: 'zz', input: 'q', eval_type: 'accuracy' });
  t.equal(unknown.statusCode, 404, 'the entity first');
});

t.test('POST body validation: pydantic 422 entries', async (t) => {
  const { app } = runtimeApp(t);
  const rows: [name: string, body: unknown, detail: Record<string, unknown>[]][] = [
    [
      'no body',
      undefined,
      [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
    ],
    [
      'missing eval_type and input',
      { agent_id: 'a1' },
      [
        { type: 'missing', loc: ['body', 'eval_type'], msg: 'Field required', input: null },
        { type: 'missing', loc: ['body', 'input'], msg: 'Field required', input: null },
      ],
    ],
    [
      'unknown eval_type, empty input',
      { agent_id: 'a1', eval_type: 'vibes', input: '' },
      [
        {
          type: 'enum',
          loc: ['body', 'eval_type'],
          msg: "Input should be 'accuracy', 'agent_as_judge', 'performance' or 'reliability'",
          input: 'vibes',
          ctx: { expected: "'accuracy', 'agent_as_judge', 'performance' or 'reliability'" },
        },
        {
          type: 'string_too_short',
          loc: ['body', 'input'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
      ],
    ],
    [
      'num_iterations 0, threshold 11, warmup_runs 11',
      {
        agent_id: 'a1',
        eval_type: 'performance',
        input: 'x',
        num_iterations: 0,
        threshold: 11,
        warmup_runs: 11,
      },
      [
        {
          type: 'greater_than_equal',
          loc: ['body', 'num_iterations'],
          msg: 'Input should be greater than or equal to 1',
          input: 0,
          ctx: { ge: 1 },
        },
        {
          type: 'less_than_equal',
          loc: ['body', 'threshold'],
          msg: 'Input should be less than or equal to 10',
          input: 11,
          ctx: { le: 10 },
        },
        {
          type: 'less_than_equal',
          loc: ['body', 'warmup_runs'],
          msg: 'Input should be less than or equal to 10',
          input: 11,
          ctx: { le: 10 },
        },
      ],
    ],
    [
      'num_iterations 101, threshold 0',
      { agent_id: 'a1', eval_type: 'performance', input: 'x', num_iterations: 101, threshold: 0 },
      [
        {
          type: 'less_than_equal',
          loc: ['body', 'num_iterations'],
          msg: 'Input should be less than or equal to 100',
          input: 101,
          ctx: { le: 100 },
        },
        {
          type: 'greater_than_equal',
          loc: ['body', 'threshold'],
          msg: 'Input should be greater than or equal to 1',
          input: 0,
          ctx: { ge: 1 },
        },
      ],
    ],
    [
      'wrong types',
      {
        agent_id: 1,
        eval_type: 'reliability',
        input: 'x',
        expected_tool_calls: 'add',
        allow_additional_tool_calls: 'yes',
      },
      [
        {
          type: 'string_type',
          loc: ['body', 'agent_id'],
          msg: 'Input should be a valid string',
          input: 1,
        },
        {
          type: 'list_type',
          loc: ['body', 'expected_tool_calls'],
          msg: 'Input should be a valid list',
          input: 'add',
        },
        {
          type: 'bool_type',
          loc: ['body', 'allow_additional_tool_calls'],
          msg: 'Input should be a valid boolean',
          input: 'yes',
        },
      ],
    ],
  ];
  for (const [name, body, detail] of rows) {
    const res = await app.inject({
      method: 'POST',
      url: '/eval-runs',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    t.same([res.statusCode, res.json()], [422, { detail }], name);
  }
  const broken = await app.inject({
    method: 'POST',
    url: '/eval-runs',
    headers: { 'content-type': 'application/json' },
    payload: '{"agent_id":',
  });
  t.equal(broken.statusCode, 400, 'JSON that does not parse');
});

/** An app with four stored eval runs, created at TEST_NOW + 0..3. */
async function seeded(t: Test) {
  const rt = runtimeApp(t);
  const runs = [
    evalRun({ run_id: 'acc', name: 'b', created_at: TEST_NOW }),
    evalRun({
      run_id: 'perf',
      name: 'a',
      eval_type: 'performance',
      model_id: 'm2',
      created_at: TEST_NOW + 1,
    }),
    evalRun({
      run_id: 'rel',
      name: 'd',
      agent_id: null,
      team_id: 't1',
      eval_type: 'reliability',
      created_at: TEST_NOW + 2,
    }),
    evalRun({
      run_id: 'judge',
      name: 'c',
      agent_id: null,
      workflow_id: 'w1',
      eval_type: 'agent_as_judge',
      created_at: TEST_NOW + 3,
    }),
  ];
  for (const run of runs) await rt.store.evals.put(run);
  return rt;
}

const listIds = async (app: App, query: string, headers: Record<string, string> = {}) => {
  const res = await app.inject({ method: 'GET', url: `/eval-runs${query}`, headers });
  t.equal(res.statusCode, 200, query);
  return (res.json().data as { id: string }[]).map((d) => d.id);
};

t.test('GET /eval-runs: filters', async (t) => {
  const { app } = await seeded(t);
  const rows: [query: string, expected: string[]][] = [
    ['', ['judge', 'rel', 'perf', 'acc']],
    ['?agent_id=a1', ['perf', 'acc']],
    ['?team_id=t1', ['rel']],
    ['?workflow_id=w1', ['judge']],
    ['?model_id=m2', ['perf']],
    ['?type=agent', ['perf', 'acc']],
    ['?type=team', ['rel']],
    ['?type=workflow', ['judge']],
    ['?eval_types=accuracy,reliability', ['rel', 'acc']],
    ['?eval_types=%20performance%20,%20agent_as_judge', ['judge', 'perf']],
    ['?eval_types=', ['judge', 'rel', 'perf', 'acc']],
    ['?agent_id=a1&eval_types=performance&type=agent', ['perf']],
    ['?agent_id=zz', []],
  ];
  for (const [query, expected] of rows) t.same(await listIds(app, query), expected, query);
});

t.test('GET /eval-runs: bad parameters', async (t) => {
  const { app } = await seeded(t);
  const badType = await app.inject({ method: 'GET', url: '/eval-runs?eval_types=accuracy,vibes' });
  t.same(
    [badType.statusCode, badType.json()],
    [
      422,
      {
        detail:
          "Invalid eval_type: 'vibes' is not a valid EvalType. Valid types: accuracy, agent_as_judge, performance, reliability",
      },
    ],
  );
  const kind = await app.inject({ method: 'GET', url: '/eval-runs?type=user' });
  t.match(
    [kind.statusCode, kind.json()],
    [422, { detail: [{ type: 'enum', loc: ['query', 'type'] }] }],
  );
  const order = await app.inject({ method: 'GET', url: '/eval-runs?sort_order=up' });
  t.same(
    [order.statusCode, order.json()],
    [
      422,
      {
        detail: [
          {
            type: 'enum',
            loc: ['query', 'sort_order'],
            msg: "Input should be 'asc' or 'desc'",
            input: 'up',
            ctx: { expected: "'asc' or 'desc'" },
          },
        ],
      },
    ],
  );
  const limit = await app.inject({ method: 'GET', url: '/eval-runs?limit=0' });
  t.match(
    [limit.statusCode, limit.json()],
    [422, { detail: [{ type: 'greater_than_equal', loc: ['query', 'limit'] }] }],
  );
  const page = await app.inject({ method: 'GET', url: '/eval-runs?page=x' });
  t.match(
    [page.statusCode, page.json()],
    [422, { detail: [{ type: 'int_parsing', loc: ['query', 'page'] }] }],
  );
  const db = await app.inject({ method: 'GET', url: '/eval-runs?db_id=other' });
  t.same([db.statusCode, db.json()], [404, { detail: "No database found with id 'other'" }]);
});

t.test('GET /eval-runs: pagination envelope and sorting', async (t) => {
  const { app } = await seeded(t);
  const res = await app.inject({
    method: 'GET',
    url: '/eval-runs?limit=3&page=2&db_id=runtime-db',
  });
  t.same(res.json().meta, { page: 2, limit: 3, total_pages: 2, total_count: 4, search_time_ms: 0 });
  t.same(
    (res.json().data as { id: string }[]).map((d) => d.id),
    ['acc'],
  );
  const zero = await app.inject({ method: 'GET', url: '/eval-runs?limit=3&page=0' });
  t.same(zero.json().meta.page, 1, 'page 0 is the first page');
  const rows: [query: string, expected: string[]][] = [
    ['?sort_order=asc', ['acc', 'perf', 'rel', 'judge']],
    ['?sort_by=name&sort_order=asc', ['perf', 'acc', 'judge', 'rel']],
    ['?sort_by=eval_type&sort_order=desc', ['rel', 'perf', 'judge', 'acc']],
    ['?sort_by=updated_at&sort_order=desc', ['rel', 'perf', 'judge', 'acc']],
    ['?sort_by=bogus&sort_order=asc', ['acc', 'perf', 'rel', 'judge']],
  ];
  for (const [query, expected] of rows) t.same(await listIds(app, query), expected, query);
});

t.test('eval runs are not user-owned: a confined caller sees every one', async (t) => {
  const { app } = await seeded(t);
  const headers = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
  t.same(await listIds(app, '', headers), ['judge', 'rel', 'perf', 'acc']);
  const one = await app.inject({ method: 'GET', url: '/eval-runs/acc', headers });
  t.equal(one.statusCode, 200);
});

t.test('GET /eval-runs/{id}: 404 in Agno words; db_id checked', async (t) => {
  const { app } = await seeded(t);
  const missing = await app.inject({ method: 'GET', url: '/eval-runs/nope' });
  t.same(
    [missing.statusCode, missing.json()],
    [404, { detail: "Eval run with id 'nope' not found" }],
  );
  const db = await app.inject({ method: 'GET', url: '/eval-runs/acc?db_id=x' });
  t.equal(db.statusCode, 404);
});

t.test('PATCH /eval-runs/{id}: renames and stamps updated_at', async (t) => {
  const { app, clock } = await seeded(t);
  clock.advance(60_000);
  const res = await app.inject({
    method: 'PATCH',
    url: '/eval-runs/acc',
    payload: { name: 'Renamed' },
  });
  t.equal(res.statusCode, 200);
  t.match(res.json(), {
    id: 'acc',
    name: 'Renamed',
    created_at: TEST_NOW_ISO,
    updated_at: '2030-01-01T00:01:00Z',
  });
  const missing = await app.inject({
    method: 'PATCH',
    url: '/eval-runs/nope',
    payload: { name: 'x' },
  });
  t.same(
    [missing.statusCode, missing.json()],
    [404, { detail: "Eval run with id 'nope' not found" }],
  );
  const rows: [name: string, body: unknown, type: string][] = [
    ['empty name', { name: '' }, 'string_too_short'],
    ['256 characters', { name: 'x'.repeat(256) }, 'string_too_long'],
    ['no name', {}, 'missing'],
  ];
  for (const [name, body, type] of rows) {
    const bad = await app.inject({
      method: 'PATCH',
      url: '/eval-runs/acc',
      payload: body as object,
    });
    t.match(
      [bad.statusCode, bad.json()],
      [422, { detail: [{ type, loc: ['body', 'name'] }] }],
      name,
    );
  }
  const long = await app.inject({
    method: 'PATCH',
    url: '/eval-runs/acc',
    payload: { name: 'y'.repeat(255) },
  });
  t.equal(long.statusCode, 200, '255 characters');
  const db = await app.inject({
    method: 'PATCH',
    url: '/eval-runs/acc?db_id=x',
    payload: { name: 'z' },
  });
  t.equal(db.statusCode, 404);
});

t.test('DELETE /eval-runs: 204, unknown ids skipped; validation', async (t) => {
  const { app, store } = await seeded(t);
  const res = await app.inject({
    method: 'DELETE',
    url: '/eval-runs',
    payload: { eval_run_ids: ['acc', 'nope', 'rel'] },
  });
  t.equal(res.statusCode, 204);
  t.equal(res.body, '');
  t.equal(await store.evals.get('acc'), null);
  t.same(await listIds(app, ''), ['judge', 'perf']);
  const empty = await app.inject({
    method: 'DELETE',
    url: '/eval-runs',
    payload: { eval_run_ids: [] },
  });
  t.same(
    [empty.statusCode, empty.json()],
    [
      422,
      {
        detail: [
          {
            type: 'too_short',
            loc: ['body', 'eval_run_ids'],
            msg: 'List should have at least 1 item after validation, not 0',
            input: [],
            ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
          },
        ],
      },
    ],
  );
  const nobody = await app.inject({
    method: 'DELETE',
    url: '/eval-runs',
    headers: { 'content-type': 'application/json' },
  });
  t.same(
    [nobody.statusCode, nobody.json()],
    [422, { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] }],
  );
  const db = await app.inject({
    method: 'DELETE',
    url: '/eval-runs?db_id=x',
    payload: { eval_run_ids: ['perf'] },
  });
  t.equal(db.statusCode, 404);
  t.not(await store.evals.get('perf'), null);
});
