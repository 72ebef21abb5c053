/**
 * Trace routes over runs made through the real run routes: the list and its
 * filters, one trace or span, the filter schema, session stats, the DSL search with every
 * operator and its refusals, and isolation between two confined users.
 */
import t, { type Test } from 'tap';
import { contextHeader, form, FORM, runtimeApp, type TestRuntime } from '../../fixtures/runtime.js';

const ALICE = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
const BOB = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
const ADMIN = contextHeader({ user_id: 'root', is_admin: true });

type Json = Record<string, unknown>;
interface Page {
  data: Json[];
  meta: Json;
}

/** Runs `message` on `path` (non-streamed); the clock then moves a minute on. */
async function run(
  t: Test,
  rt: TestRuntime,
  path: string,
  message: string,
  headers: Record<string, string> = {},
): Promise<Json> {
  const res = await rt.app.inject({
    method: 'POST',
    url: path,
    headers: { ...FORM, ...headers },
    payload: form({ message, stream: 'false' }),
  });
  t.equal(res.statusCode, 200, `${path} ${message}`);
  rt.clock.advance(60_000);
  return res.json() as Json;
}

/**
 * Five runs a minute apart from 2030-01-01T00:00Z: alice a1 tool (00:00), bob a2 (00:01), an
 * anonymous team t1 run (00:02), alice a1 error (00:03), admin-as-carol... workflow w2 (00:04).
 */
async function seeded(t: Test) {
  const rt = runtimeApp(t);
  const tool = await run(t, rt, '/agents/a1/runs', '/tool add {"a":1,"b":2}', ALICE);
  const bobRun = await run(t, rt, '/agents/a2/runs', 'hello', BOB);
  const team = await run(t, rt, '/teams/t1/runs', 'hi');
  const failed = await run(t, rt, '/agents/a1/runs', '/error boom', ALICE);
  const flow = await run(t, rt, '/workflows/w2/runs', 'go', ADMIN);
  return { rt, tool, bobRun, team, failed, flow };
}

async function get(rt: TestRuntime, url: string, headers: Record<string, string> = {}) {
  return rt.app.inject({ url, headers });
}

async function page(t: Test, rt: TestRuntime, url: string, headers: Record<string, string> = {}) {
  const res = await get(rt, url, headers);
  t.equal(res.statusCode, 200, url);
  return res.json() as Page;
}

const runIds = (p: Page) => p.data.map((d) => d.run_id);

t.test('GET /traces lists every run, newest first, as TraceSummary', async (t) => {
  const { rt, tool, bobRun, team, failed, flow } = await seeded(t);
  const all = await page(t, rt, '/traces');
  t.same(
    runIds(all),
    [flow, failed, team, bobRun, tool].map((r) => r.run_id),
  );
  t.same(all.meta, { page: 1, limit: 20, total_pages: 1, total_count: 5, search_time_ms: 0 });
  const summary = all.data[4] as Json;
  t.same(Object.keys(summary).sort(), [
    'agent_id',
    'created_at',
    'duration',
    'end_time',
    'error_count',
    'input',
    'name',
    'run_id',
    'session_id',
    'start_time',
    'status',
    'total_spans',
    'trace_id',
    'user_id',
  ]);
  t.match(summary, {
    name: 'Agent One.run',
    status: 'OK',
    duration: '0ms',
    start_time: '2030-01-01T00:00:00.000Z',
    created_at: '2030-01-01T00:00:00.000Z',
    total_spans: 4,
    error_count: 0,
    input: '/tool add {"a":1,"b":2}',
    session_id: tool.session_id,
    user_id: 'alice',
    agent_id: 'a1',
  });
  t.match(summary.trace_id, /^[0-9a-f]{32}$/);
  t.match(all.data[2], { team_id: 't1', name: 'Team One.run' });
  t.notOk('user_id' in (all.data[2] as Json), 'null fields are dropped');
  t.match(all.data[0], { workflow_id: 'w2', user_id: 'root' });
  t.match(all.data[1], { status: 'ERROR', error_count: 1 });
});

t.test('GET /traces filters and pages', async (t) => {
  const { rt, tool, bobRun, team, failed, flow } = await seeded(t);
  const cases: [string, Json[]][] = [
    [`run_id=${tool.run_id as string}`, [tool]],
    [`session_id=${bobRun.session_id as string}`, [bobRun]],
    ['user_id=alice', [failed, tool]],
    ['agent_id=a1', [failed, tool]],
    ['team_id=t1', [team]],
    ['workflow_id=w2', [flow]],
    ['status=ERROR', [failed]],
    ['start_time=2030-01-01T00:02:00Z', [flow, failed, team]],
    ['end_time=2030-01-01T01:01:00%2B01:00', [bobRun, tool]],
    ['agent_id=a1&status=OK', [tool]],
  ];
  for (const [query, expected] of cases) {
    t.same(
      runIds(await page(t, rt, `/traces?${query}`)),
      expected.map((r) => r.run_id),
      query,
    );
  }
  const second = await page(t, rt, '/traces?page=2&limit=2');
  t.same(runIds(second), [team.run_id, bobRun.run_id]);
  t.same(second.meta, { page: 2, limit: 2, total_pages: 3, total_count: 5, search_time_ms: 0 });
  t.same((await page(t, rt, '/traces?page=0&limit=1')).meta.page, 1);
  t.same(runIds(await page(t, rt, '/traces?db_id=runtime-db&page=9')), []);

  const bad = await get(rt, '/traces?start_time=2030-01-01T00:00:00');
  t.equal(bad.statusCode, 400);
  t.match(bad.json(), { detail: /^Invalid start_time format/ });
  t.equal((await get(rt, '/traces?end_time=yesterday')).statusCode, 400);
  const limit = await get(rt, '/traces?limit=101');
  t.equal(limit.statusCode, 422);
  t.match(limit.json(), { detail: [{ type: 'less_than_equal', loc: ['query', 'limit'] }] });
  const db = await get(rt, '/traces?db_id=other');
  t.equal(db.statusCode, 404);
  t.same(db.json(), { detail: "No database found with id 'other'" });
});

t.test('GET /traces/{id}: TraceDetail with the span tree, or one span', async (t) => {
  const { rt, tool, team } = await seeded(t);
  const [summary] = (await page(t, rt, `/traces?run_id=${tool.run_id as string}`)).data as [Json];
  const id = summary.trace_id as string;
  const res = await get(rt, `/traces/${id}`);
  t.equal(res.statusCode, 200);
  const detail = res.json() as Json & { tree: Json[] };
  t.match(detail, { ...summary, output: 'Tool add returned: 3' });
  t.notOk('error' in detail);
  t.equal(detail.tree.length, 1);
  const root = detail.tree[0] as Json & { spans: Json[] };
  t.match(root, { name: 'Agent One.run', type: 'AGENT', status: 'OK', duration: '0ms' });
  t.same(
    root.spans.map((s) => [s.type, s.name]),
    [
      ['LLM', 'offline-echo.invoke'],
      ['TOOL', 'add'],
      ['LLM', 'offline-echo.invoke'],
    ],
  );
  t.notOk('spans' in (root.spans[0] as Json), 'a leaf has no spans');

  const toolSpan = root.spans[1] as Json;
  const one = await get(
    rt,
    `/traces/${id}?span_id=${toolSpan.id as string}&run_id=${tool.run_id as string}`,
  );
  t.equal(one.statusCode, 200);
  t.same(one.json(), toolSpan);

  const [other] = (await page(t, rt, `/traces?run_id=${team.run_id as string}`)).data as [Json];
  const foreign = await get(
    rt,
    `/traces/${other.trace_id as string}?span_id=${toolSpan.id as string}`,
  );
  t.same([foreign.statusCode, foreign.json()], [404, { detail: 'Span not found' }]);
  const unknownSpan = await get(rt, `/traces/${id}?span_id=nope`);
  t.same([unknownSpan.statusCode, unknownSpan.json()], [404, { detail: 'Span not found' }]);
  for (const url of ['/traces/nope', `/traces/${id}?run_id=${team.run_id as string}`]) {
    const missing = await get(rt, url);
    t.same([missing.statusCode, missing.json()], [404, { detail: 'Trace not found' }], url);
  }
  t.equal((await get(rt, `/traces/${id}?db_id=other`)).statusCode, 404);
});

t.test('a member run and a workflow step nest in the detail tree', async (t) => {
  const { rt, team, flow } = await seeded(t);
  const detailOf = async (runId: unknown) => {
    const [s] = (await page(t, rt, `/traces?run_id=${runId as string}`)).data as [Json];
    return (await get(rt, `/traces/${s.trace_id as string}`)).json() as { tree: Json[] };
  };
  const names = (node: Json): unknown => [
    node.name,
    ...((node.spans as Json[] | undefined) ?? []).map(names),
  ];
  t.same(names((await detailOf(team.run_id)).tree[0] as Json), [
    'Team One.run',
    ['delegate_task_to_member', ['Agent One.run', ['offline-echo.invoke']]],
    ['delegate_task_to_member', ['Agent Two.run', ['offline-echo.invoke']]],
  ]);
  const flowTree = (await detailOf(flow.run_id)).tree[0] as Json;
  t.same(names(flowTree), ['Flow Two.run', ['only', ['Agent Two.run', ['offline-echo.invoke']]]]);
  t.match((flowTree.spans as Json[])[0], { type: 'WORKFLOW', step_type: 'Step' });
});

t.test('an error run is an ERROR trace with its message', async (t) => {
  const { rt, failed } = await seeded(t);
  const [s] = (await page(t, rt, `/traces?run_id=${failed.run_id as string}`)).data as [Json];
  const detail = (await get(rt, `/traces/${s.trace_id as string}`)).json() as Json;
  t.match(detail, { status: 'ERROR', error: 'boom', error_count: 1 });
  t.notOk('output' in detail);
});

t.test('GET /traces/filter-schema', async (t) => {
  const rt = runtimeApp(t);
  const body = (await get(rt, '/traces/filter-schema')).json() as {
    fields: Json[];
    logical_operators: string[];
  };
  t.same(body.logical_operators, ['AND', 'OR']);
  t.same(
    body.fields.find((f) => f.key === 'status'),
    {
      key: 'status',
      label: 'Status',
      type: 'enum',
      operators: ['EQ', 'NEQ', 'IN'],
      values: ['OK', 'ERROR', 'UNSET'],
    },
  );
  t.same(body.fields.find((f) => f.key === 'agent_id')?.operators, [
    'EQ',
    'NEQ',
    'IN',
    'CONTAINS',
    'STARTSWITH',
  ]);
  t.equal(body.fields.length, 15);
});

t.test('GET /trace_session_stats groups traces by session', async (t) => {
  const { rt, tool, failed, bobRun } = await seeded(t);
  // A second run in alice's first session.
  await rt.app.inject({
    method: 'POST',
    url: '/agents/a1/runs',
    headers: { ...FORM, ...ALICE },
    payload: form({ message: 'again', stream: 'false', session_id: tool.session_id as string }),
  });
  const alice = await page(t, rt, '/trace_session_stats?user_id=alice');
  t.same(alice.data, [
    {
      session_id: tool.session_id,
      user_id: 'alice',
      agent_id: 'a1',
      total_traces: 2,
      first_trace_at: '2030-01-01T00:00:00.000Z',
      last_trace_at: '2030-01-01T00:05:00.000Z',
    },
    {
      session_id: failed.session_id,
      user_id: 'alice',
      agent_id: 'a1',
      total_traces: 1,
      first_trace_at: '2030-01-01T00:03:00.000Z',
      last_trace_at: '2030-01-01T00:03:00.000Z',
    },
  ]);
  t.equal(alice.meta.total_count, 2);
  const all = await page(t, rt, '/trace_session_stats?limit=1&page=2');
  t.same(all.meta, { page: 2, limit: 1, total_pages: 5, total_count: 5, search_time_ms: 0 });
  const early = await page(t, rt, '/trace_session_stats?end_time=2030-01-01T00:01:30Z&agent_id=a2');
  t.same(
    early.data.map((d) => d.session_id),
    [bobRun.session_id],
  );
  t.equal((await get(rt, '/trace_session_stats?start_time=x')).statusCode, 400);
  t.equal((await get(rt, '/trace_session_stats?db_id=x')).statusCode, 404);
});

/** POST /traces/search with `body`. */
async function search(rt: TestRuntime, body: unknown, headers: Record<string, string> = {}) {
  return rt.app.inject({ method: 'POST', url: '/traces/search', headers, payload: body as Json });
}

t.test('POST /traces/search: every operator and combinator', async (t) => {
  const { rt, tool, bobRun, team, failed, flow } = await seeded(t);
  const ids = (...runs: Json[]) => runs.map((r) => r.run_id);
  const cases: [string, unknown, unknown[] | 'invalid'][] = [
    ['EQ', { op: 'EQ', key: 'agent_id', value: 'a2' }, ids(bobRun)],
    ['EQ null', { op: 'EQ', key: 'user_id', value: null }, ids(team)],
    ['NEQ', { op: 'NEQ', key: 'status', value: 'OK' }, ids(failed)],
    ['NEQ null', { op: 'NEQ', key: 'team_id', value: null }, ids(team)],
    ['GT', { op: 'GT', key: 'start_time', value: '2030-01-01T00:03:00Z' }, ids(flow)],
    ['GTE', { op: 'GTE', key: 'start_time', value: '2030-01-01T00:03:00Z' }, ids(flow, failed)],
    ['LT', { op: 'LT', key: 'created_at', value: '2030-01-01T00:01:00Z' }, ids(tool)],
    ['LTE', { op: 'LTE', key: 'end_time', value: '2030-01-01T00:01:00Z' }, ids(bobRun, tool)],
    ['number', { op: 'GT', key: 'total_spans', value: 3 }, ids(flow, team, tool)],
    ['IN', { op: 'IN', key: 'agent_id', value: ['a2', 'zz'] }, ids(bobRun)],
    ['IN numbers', { op: 'IN', key: 'error_count', value: [1] }, ids(failed)],
    ['CONTAINS', { op: 'CONTAINS', key: 'name', value: 'TEAM' }, ids(team)],
    ['STARTSWITH', { op: 'STARTSWITH', key: 'input', value: 'x' }, 'invalid'],
    ['STARTSWITH', { op: 'STARTSWITH', key: 'name', value: 'Agent T' }, ids(bobRun)],
    [
      'AND',
      {
        op: 'AND',
        conditions: [
          { op: 'EQ', key: 'user_id', value: 'alice' },
          { op: 'EQ', key: 'status', value: 'OK' },
        ],
      },
      ids(tool),
    ],
    [
      'OR',
      {
        op: 'OR',
        conditions: [
          { op: 'EQ', key: 'team_id', value: 't1' },
          { op: 'EQ', key: 'workflow_id', value: 'w2' },
        ],
      },
      ids(flow, team),
    ],
    ['NOT', { op: 'NOT', condition: { op: 'IN', key: 'duration_ms', value: [0] } }, []],
    ['no filter', null, ids(flow, failed, team, bobRun, tool)],
  ];
  for (const [name, filter, expected] of cases) {
    const res = await search(rt, { filter });
    if (expected === 'invalid') {
      t.equal(res.statusCode, 400, name);
      continue;
    }
    t.equal(res.statusCode, 200, name);
    t.same(runIds(res.json() as Page), expected, name);
  }
  const details = (await search(rt, { limit: 1, page: 2 })).json() as Page;
  t.same(details.meta, { page: 2, limit: 1, total_pages: 5, total_count: 5, search_time_ms: 0 });
  t.match(details.data[0], { run_id: failed.run_id, error: 'boom', tree: [{ type: 'AGENT' }] });
  t.equal(((await search(rt, { page: 0 })).json() as Page).meta.page, 1);
  const sessions = (
    await search(rt, {
      group_by: 'session',
      filter: { op: 'EQ', key: 'user_id', value: 'alice' },
    })
  ).json() as Page;
  t.same(
    sessions.data.map((d) => d.session_id),
    [failed.session_id, tool.session_id],
  );
  t.match(sessions.data[0], { total_traces: 1, user_id: 'alice' });
});

t.test(
  'POST /traces/search refuses invalid expressions with 400 and bad bodies with 422',
  async (t) => {
    const rt = runtimeApp(t);
    const deep = (n: number): unknown =>
      n === 0 ? { op: 'EQ', key: 'run_id', value: 'r' } : { op: 'NOT', condition: deep(n - 1) };
    const many = {
      op: 'OR',
      conditions: Array.from({ length: 201 }, () => ({ op: 'EQ', key: 'run_id', value: 'r' })),
    };
    const cases: [string, unknown, string][] = [
      [
        'unknown op',
        { op: 'LIKE', key: 'name', value: 'x' },
        '\'op\' must be one of EQ, NEQ, GT, GTE, LT, LTE, IN, CONTAINS, STARTSWITH, AND, OR, NOT, got "LIKE"',
      ],
      ['no op', { key: 'name' }, "'op' must be one of"],
      ['key not a string', { op: 'EQ', key: 5, value: 'x' }, 'unknown key 5'],
      ['unknown key', { op: 'EQ', key: 'password', value: 'x' }, 'unknown key "password"'],
      ['key injection', { op: 'EQ', key: 'name; DROP TABLE traces', value: 'x' }, 'unknown key'],
      [
        'operator per type',
        { op: 'CONTAINS', key: 'duration_ms', value: 1 },
        "operator CONTAINS does not apply to 'duration_ms'",
      ],
      [
        'GT on a string',
        { op: 'GT', key: 'name', value: 'a' },
        "operator GT does not apply to 'name'",
      ],
      ['string value', { op: 'EQ', key: 'name', value: 1 }, "'value' of 'name' must be a string"],
      [
        'null for CONTAINS',
        { op: 'CONTAINS', key: 'name', value: null },
        "'value' of 'name' must be a string",
      ],
      [
        'number value',
        { op: 'GT', key: 'total_spans', value: '3' },
        "'value' of 'total_spans' must be a number",
      ],
      [
        'datetime without zone',
        { op: 'GT', key: 'start_time', value: '2030-01-01T00:00:00' },
        "'value' of 'start_time' must be an ISO 8601 time with a zone",
      ],
      [
        'datetime out of range',
        { op: 'GT', key: 'start_time', value: '2030-13-45T00:00:00Z' },
        'ISO 8601',
      ],
      ['datetime number', { op: 'GT', key: 'end_time', value: 5 }, 'ISO 8601'],
      [
        'enum value',
        { op: 'EQ', key: 'status', value: 'FINE' },
        "'value' of 'status' must be one of OK, ERROR, UNSET",
      ],
      [
        'IN not a list',
        { op: 'IN', key: 'run_id', value: 'r' },
        "'value' of IN on 'run_id' must be a list of 1 to 100 values",
      ],
      ['IN empty', { op: 'IN', key: 'run_id', value: [] }, 'a list of 1 to 100'],
      [
        'IN too long',
        { op: 'IN', key: 'run_id', value: Array.from({ length: 101 }, () => 'r') },
        'a list of 1 to 100',
      ],
      ['AND without conditions', { op: 'AND' }, "'conditions' of AND must be a non-empty list"],
      ['OR empty', { op: 'OR', conditions: [] }, "'conditions' of OR must be a non-empty list"],
      ['NOT without condition', { op: 'NOT' }, 'each condition must be an object'],
      [
        'condition not an object',
        { op: 'AND', conditions: ['x'] },
        'each condition must be an object',
      ],
      ['too deep', deep(8), 'nesting is deeper than 8 levels'],
      ['too many', many, 'more than 200 conditions'],
    ];
    for (const [name, filter, message] of cases) {
      const res = await search(rt, { filter });
      t.equal(res.statusCode, 400, name);
      const detail = (res.json() as { detail: string }).detail;
      t.ok(
        detail.startsWith('Invalid filter expression: ') && detail.includes(message),
        `${name}: ${detail}`,
      );
    }
    t.equal((await search(rt, { filter: deep(7) })).statusCode, 200, '8 levels are allowed');
    for (const body of [
      { limit: 101 },
      { group_by: 'user' },
      { filter: 'status=OK' },
      { page: -1 },
    ]) {
      t.equal((await search(rt, body)).statusCode, 422, JSON.stringify(body));
    }
    const empty = await rt.app.inject({ method: 'POST', url: '/traces/search' });
    t.equal(empty.statusCode, 200, 'no body is an empty search');
    t.equal(
      (await rt.app.inject({ method: 'POST', url: '/traces/search?db_id=x', payload: {} }))
        .statusCode,
      404,
    );
  },
);

t.test('isolation: a confined caller sees only its own traces', async (t) => {
  const { rt, tool, failed, bobRun, team } = await seeded(t);
  t.same(runIds(await page(t, rt, '/traces', ALICE)), [failed.run_id, tool.run_id]);
  const widened = await page(t, rt, '/traces?user_id=bob', ALICE);
  t.same(widened.data, [], 'a user_id query is AND-ed with the caller, never widening it');
  t.same(runIds(await page(t, rt, '/traces', BOB)), [bobRun.run_id]);
  const stats = await page(t, rt, '/trace_session_stats', BOB);
  t.same(
    stats.data.map((d) => d.session_id),
    [bobRun.session_id],
  );
  const searched = (
    await search(rt, { filter: { op: 'EQ', key: 'user_id', value: 'bob' } }, ALICE)
  ).json() as Page;
  t.same(searched.data, [], "alice's search for bob's traces finds nothing");
  const sessions = (await search(rt, { group_by: 'session' }, ALICE)).json() as Page;
  t.equal(sessions.meta.total_count, 2);
  const all = await page(t, rt, '/traces');
  const traceOf = (run: Json) => all.data.find((d) => d.run_id === run.run_id)?.trace_id as string;
  for (const [name, run] of [
    ["bob's", bobRun],
    ['an ownerless', team],
  ] as const) {
    const res = await get(rt, `/traces/${traceOf(run)}`, ALICE);
    t.same([res.statusCode, res.json()], [404, { detail: 'Trace not found' }], `${name} trace`);
  }
  const own = await get(rt, `/traces/${traceOf(tool)}`, ALICE);
  t.equal(own.statusCode, 200);
  const admin = await get(rt, `/traces/${traceOf(bobRun)}`, ADMIN);
  t.equal(admin.statusCode, 200, 'an unconfined caller reads any trace');
});
