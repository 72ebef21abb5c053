/**
 * Sessions: the paginated list with its filters, sort and 422s, one
 * session's detail with its chat history, a session's runs, and the confinement of scoped
 * callers to their own sessions.
 */
import t, { type Test } from 'tap';
import type { SessionRecord } from '../../../../src/runtime/store/records.js';
import {
  contextHeader,
  form,
  FORM,
  runRecord,
  runtimeApp,
  sessionRecord,
  TEST_NOW,
  TEST_NOW_ISO,
  type TestRuntime,
} from '../../fixtures/runtime.js';

/** ISO of TEST_NOW + `s` seconds. */
const isoAt = (s: number): string =>
  new Date((TEST_NOW + s) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Four sessions (times are seconds after TEST_NOW):
 * | id      | type     | component | user  | name             | created | updated |
 * | s-alice | agent    | a1        | alice | Weather in Paris | 1       | 50      |
 * | s-bob   | agent    | a2        | bob   | paris trip       | 2       | 40      |
 * | s-team  | team     | t1        | alice | Team talk        | 3       | 30      |
 * | s-flow  | workflow | w1        | null  | null             | 4       | 20      |
 */
const SESSIONS: SessionRecord[] = [
  sessionRecord({
    session_id: 's-alice',
    user_id: 'alice',
    session_name: 'Weather in Paris',
    session_state: { city: 'Paris' },
    metadata: { source: 'test' },
    created_at: TEST_NOW + 1,
    updated_at: TEST_NOW + 50,
  }),
  sessionRecord({
    session_id: 's-bob',
    component_id: 'a2',
    user_id: 'bob',
    session_name: 'paris trip',
    created_at: TEST_NOW + 2,
    updated_at: TEST_NOW + 40,
  }),
  sessionRecord({
    session_id: 's-team',
    session_type: 'team',
    component_id: 't1',
    user_id: 'alice',
    session_name: 'Team talk',
    created_at: TEST_NOW + 3,
    updated_at: TEST_NOW + 30,
  }),
  sessionRecord({
    session_id: 's-flow',
    session_type: 'workflow',
    component_id: 'w1',
    created_at: TEST_NOW + 4,
    updated_at: TEST_NOW + 20,
  }),
];

async function seeded(t: Test): Promise<TestRuntime> {
  const rt = runtimeApp(t);
  for (const s of SESSIONS) await rt.store.putSession(s);
  return rt;
}

async function list(
  rt: TestRuntime,
  query: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { data: { session_id: string }[]; meta: unknown } }> {
  const res = await rt.app.inject({ url: `/sessions${query}`, headers });
  return { status: res.statusCode, body: res.json() };
}

t.test('SessionSchema: every field, nulls present, ISO times', async (t) => {
  const rt = await seeded(t);
  const { status, body } = await list(rt, '?component_id=a1');
  t.equal(status, 200);
  t.same(body.data, [
    {
      session_id: 's-alice',
      session_name: 'Weather in Paris',
      session_state: { city: 'Paris' },
      created_at: isoAt(1),
      updated_at: isoAt(50),
      session_type: 'agent',
      user_id: 'alice',
      agent_id: 'a1',
      team_id: null,
      workflow_id: null,
      session_summary: null,
      metrics: null,
      total_tokens: null,
      metadata: { source: 'test' },
    },
  ]);
  const kinds = await list(rt, '?sort_order=asc');
  t.same(
    kinds.body.data.map((s) => {
      const r = s as unknown as Record<string, unknown>;
      return [r.session_type, r.agent_id, r.team_id, r.workflow_id];
    }),
    [
      ['agent', 'a1', null, null],
      ['agent', 'a2', null, null],
      ['team', null, 't1', null],
      ['workflow', null, null, 'w1'],
    ],
    'the component id lands in the field of its kind',
  );
});

t.test('filters, sort and pages', async (t) => {
  const rt = await seeded(t);
  const rows = [
    { name: 'no filter: newest first', query: '', ids: ['s-flow', 's-team', 's-bob', 's-alice'] },
    { name: 'type=agent', query: '?type=agent', ids: ['s-bob', 's-alice'] },
    { name: 'type=team', query: '?type=team', ids: ['s-team'] },
    { name: 'type=workflow', query: '?type=workflow', ids: ['s-flow'] },
    { name: 'component_id', query: '?component_id=a2', ids: ['s-bob'] },
    { name: 'component_id unknown', query: '?component_id=zz', ids: [] },
    { name: 'user_id', query: '?user_id=alice', ids: ['s-team', 's-alice'] },
    {
      name: 'session_name: substring, any case',
      query: '?session_name=PARIS',
      ids: ['s-bob', 's-alice'],
    },
    {
      name: 'session_name empty: no filter',
      query: '?session_name=',
      ids: ['s-flow', 's-team', 's-bob', 's-alice'],
    },
    {
      name: 'filters combine',
      query: '?type=agent&user_id=alice&session_name=weather',
      ids: ['s-alice'],
    },
    {
      name: 'sort_order=asc',
      query: '?sort_order=asc',
      ids: ['s-alice', 's-bob', 's-team', 's-flow'],
    },
    {
      name: 'sort_order=desc',
      query: '?sort_order=desc',
      ids: ['s-flow', 's-team', 's-bob', 's-alice'],
    },
    {
      name: 'sort_by=updated_at',
      query: '?sort_by=updated_at',
      ids: ['s-alice', 's-bob', 's-team', 's-flow'],
    },
    {
      name: 'sort_by=updated_at asc',
      query: '?sort_by=updated_at&sort_order=asc',
      ids: ['s-flow', 's-team', 's-bob', 's-alice'],
    },
    {
      name: 'sort_by=session_name asc: unnamed first',
      query: '?sort_by=session_name&sort_order=asc',
      ids: ['s-flow', 's-team', 's-alice', 's-bob'],
    },
    {
      name: 'sort_by=created_at',
      query: '?sort_by=created_at',
      ids: ['s-flow', 's-team', 's-bob', 's-alice'],
    },
    {
      name: 'sort_by unknown: created_at',
      query: '?sort_by=bogus&sort_order=asc',
      ids: ['s-alice', 's-bob', 's-team', 's-flow'],
    },
  ];
  for (const row of rows) {
    const { status, body } = await list(rt, row.query);
    t.equal(status, 200, `${row.name}: 200`);
    t.same(
      body.data.map((s) => s.session_id),
      row.ids,
      row.name,
    );
    t.same(
      body.meta,
      {
        page: 1,
        limit: 20,
        total_pages: row.ids.length === 0 ? 0 : 1,
        total_count: row.ids.length,
        search_time_ms: 0,
      },
      `${row.name}: meta`,
    );
  }
});

t.test('limit and page: 1-based pages, page 0 is page 1', async (t) => {
  const rt = await seeded(t);
  const rows = [
    { query: '?limit=3', page: 1, limit: 3, ids: ['s-flow', 's-team', 's-bob'], pages: 2 },
    { query: '?limit=3&page=2', page: 2, limit: 3, ids: ['s-alice'], pages: 2 },
    { query: '?limit=3&page=3', page: 3, limit: 3, ids: [], pages: 2 },
    { query: '?limit=2&page=0', page: 1, limit: 2, ids: ['s-flow', 's-team'], pages: 2 },
    { query: '?limit=1&page=4', page: 4, limit: 1, ids: ['s-alice'], pages: 4 },
    {
      query: '?limit=100',
      page: 1,
      limit: 100,
      ids: ['s-flow', 's-team', 's-bob', 's-alice'],
      pages: 1,
    },
    { query: '?page=1000000', page: 1000000, limit: 20, ids: [], pages: 1 },
  ];
  for (const row of rows) {
    const { status, body } = await list(rt, row.query);
    t.equal(status, 200, `${row.query}: 200`);
    t.same(
      body.data.map((s) => s.session_id),
      row.ids,
      `${row.query}: rows`,
    );
    t.same(
      body.meta,
      {
        page: row.page,
        limit: row.limit,
        total_pages: row.pages,
        total_count: 4,
        search_time_ms: 0,
      },
      `${row.query}: meta`,
    );
  }
});

t.test('bad type and sort_order: 422 enum with FastAPI’s msg and ctx', async (t) => {
  const rt = await seeded(t);
  const rows = [
    {
      query: '?type=robot',
      detail: {
        type: 'enum',
        loc: ['query', 'type'],
        msg: "Input should be 'agent', 'team' or 'workflow'",
        input: 'robot',
        ctx: { expected: "'agent', 'team' or 'workflow'" },
      },
    },
    {
      query: '?type=Agent',
      detail: {
        type: 'enum',
        loc: ['query', 'type'],
        msg: "Input should be 'agent', 'team' or 'workflow'",
        input: 'Agent',
        ctx: { expected: "'agent', 'team' or 'workflow'" },
      },
    },
    {
      query: '?sort_order=up',
      detail: {
        type: 'enum',
        loc: ['query', 'sort_order'],
        msg: "Input should be 'asc' or 'desc'",
        input: 'up',
        ctx: { expected: "'asc' or 'desc'" },
      },
    },
    {
      query: '?sort_order=',
      detail: {
        type: 'enum',
        loc: ['query', 'sort_order'],
        msg: "Input should be 'asc' or 'desc'",
        input: '',
        ctx: { expected: "'asc' or 'desc'" },
      },
    },
  ];
  for (const row of rows) {
    const { status, body } = await list(rt, row.query);
    t.equal(status, 422, `${row.query}: 422`);
    t.same(body, { detail: [row.detail] }, `${row.query}: detail`);
  }
});

t.test('bad limit and page: 422 as pydantic words it', async (t) => {
  const rt = await seeded(t);
  const ge = (field: string, input: string) => ({
    type: 'greater_than_equal',
    loc: ['query', field],
    msg: 'Input should be greater than or equal to 1',
    input,
    ctx: { ge: 1 },
  });
  const notInt = (field: string, input: string) => ({
    type: 'int_parsing',
    loc: ['query', field],
    msg: 'Input should be a valid integer, unable to parse string as an integer',
    input,
  });
  const rows = [
    { query: '?limit=0', detail: ge('limit', '0') },
    { query: '?limit=-5', detail: ge('limit', '-5') },
    {
      query: '?limit=101',
      detail: {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be less than or equal to 100',
        input: '101',
        ctx: { le: 100 },
      },
    },
    { query: '?limit=x', detail: notInt('limit', 'x') },
    { query: '?limit=2.5', detail: notInt('limit', '2.5') },
    { query: '?page=-1', detail: ge('page', '-1') },
    { query: '?page=x', detail: notInt('page', 'x') },
  ];
  for (const row of rows) {
    const { status, body } = await list(rt, row.query);
    t.equal(status, 422, `${row.query}: 422`);
    t.same(body, { detail: [row.detail] }, `${row.query}: detail`);
  }
});

t.test('bad limit and page are refused with a 422 on the query field', async (t) => {
  // The shape checks that hold whatever wording is chosen; see the test above for the words.
  const rt = await seeded(t);
  for (const query of [
    '?limit=0',
    '?limit=101',
    '?limit=x',
    '?limit=',
    '?page=-1',
    '?page=x',
    '?page=1000001',
  ]) {
    const { status, body } = await list(rt, query);
    t.equal(status, 422, `${query}: 422`);
    const [field, input] = query.slice(1).split('=') as [string, string];
    t.match(body, { detail: [{ loc: ['query', field], input }] }, `${query}: names the field`);
    t.equal((body as unknown as { detail: unknown[] }).detail.length, 1);
  }
});

t.test('the db_id of the one database is accepted; another is 404', async (t) => {
  const rt = await seeded(t);
  const ok = await list(rt, '?db_id=runtime-db');
  t.equal(ok.status, 200);
  t.equal(ok.body.data.length, 4);
  const other = await rt.app.inject({ url: '/sessions?db_id=elsewhere' });
  t.equal(other.statusCode, 404);
  t.same(other.json(), { detail: "No database found with id 'elsewhere'" });
});

t.test('a scoped caller lists only its own sessions, whatever user_id it asks for', async (t) => {
  const rt = await seeded(t);
  const alice = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
  const rows = [
    { name: 'no filter', query: '', headers: alice, ids: ['s-team', 's-alice'] },
    { name: 'asking for bob', query: '?user_id=bob', headers: alice, ids: ['s-team', 's-alice'] },
    {
      name: 'with another filter',
      query: '?type=team&user_id=bob',
      headers: alice,
      ids: ['s-team'],
    },
    {
      name: 'a scoped user without sessions',
      query: '',
      headers: contextHeader({ user_id: 'carol', scoped_user_id: 'carol' }),
      ids: [],
    },
    {
      name: 'an unscoped admin filters as asked',
      query: '?user_id=bob',
      headers: contextHeader({ user_id: 'root', is_admin: true }),
      ids: ['s-bob'],
    },
    {
      name: 'an unscoped admin sees all',
      query: '',
      headers: contextHeader({ user_id: 'root', is_admin: true }),
      ids: ['s-flow', 's-team', 's-bob', 's-alice'],
    },
  ];
  for (const row of rows) {
    const { status, body } = await list(rt, row.query, row.headers);
    t.equal(status, 200, `${row.name}: 200`);
    t.same(
      body.data.map((s) => s.session_id),
      row.ids,
      row.name,
    );
    t.match(body.meta, { total_count: row.ids.length }, `${row.name}: counted after confinement`);
  }
});

t.test('one session: detail with <type>_session_id and the chat history', async (t) => {
  const rt = await seeded(t);
  await rt.store.putRun(
    runRecord({
      run_id: 'r-1',
      session_id: 's-alice',
      input: 'hello',
      output: { content: 'Echo: hello' },
      created_at: TEST_NOW + 1,
      updated_at: TEST_NOW + 2,
    }),
  );
  await rt.store.putRun(
    runRecord({
      run_id: 'r-2',
      session_id: 's-alice',
      status: 'ERROR',
      input: 'broken',
      output: {},
      created_at: TEST_NOW + 3,
      updated_at: TEST_NOW + 4,
    }),
  );
  await rt.store.putRun(
    runRecord({
      run_id: 'r-3',
      session_id: 's-alice',
      status: 'COMPLETED',
      input: 'structured',
      output: { content: { a: 1 } },
      created_at: TEST_NOW + 5,
      updated_at: TEST_NOW + 6,
    }),
  );
  const res = await rt.app.inject({ url: '/sessions/s-alice' });
  t.equal(res.statusCode, 200);
  t.same(res.json(), {
    session_id: 's-alice',
    session_name: 'Weather in Paris',
    session_state: { city: 'Paris' },
    created_at: isoAt(1),
    updated_at: isoAt(50),
    session_type: 'agent',
    user_id: 'alice',
    agent_id: 'a1',
    team_id: null,
    workflow_id: null,
    session_summary: null,
    metrics: null,
    total_tokens: null,
    metadata: { source: 'test' },
    agent_session_id: 's-alice',
    chat_history: [
      { role: 'user', content: 'hello', created_at: TEST_NOW + 1 },
      { role: 'assistant', content: 'Echo: hello', created_at: TEST_NOW + 2 },
      { role: 'user', content: 'broken', created_at: TEST_NOW + 3 },
      { role: 'user', content: 'structured', created_at: TEST_NOW + 5 },
    ],
  });
  for (const [id, key] of [
    ['s-team', 'team_session_id'],
    ['s-flow', 'workflow_session_id'],
  ] as const) {
    const other = await rt.app.inject({ url: `/sessions/${id}` });
    t.equal(other.statusCode, 200, `${id}: 200`);
    t.match(other.json(), { session_id: id, [key]: id, chat_history: [] }, `${id}: ${key}`);
  }
});

t.test('the detail of a session written by real runs', async (t) => {
  const rt = runtimeApp(t);
  for (const message of ['first question', '/error it broke', 'second question']) {
    const res = await rt.app.inject({
      method: 'POST',
      url: '/agents/a2/runs',
      headers: FORM,
      payload: form({ message, session_id: 'real', stream: 'false' }),
    });
    t.equal(res.statusCode, 200);
  }
  const res = await rt.app.inject({ url: '/sessions/real' });
  t.match(res.json(), {
    session_name: 'first question',
    created_at: TEST_NOW_ISO,
    chat_history: [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'Echo: first question' },
      { role: 'user', content: '/error it broke' },
      { role: 'assistant', content: 'it broke' },
      { role: 'user', content: 'second question' },
      { role: 'assistant', content: 'Echo: second question' },
    ],
  });
});

t.test('an unknown or foreign session is 404 naming the id', async (t) => {
  const rt = await seeded(t);
  const bob = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
  const rows = [
    { name: 'unknown', id: 'nope', headers: {} },
    { name: 'another user’s, scoped', id: 's-alice', headers: bob },
    { name: 'ownerless, scoped', id: 's-flow', headers: bob },
  ];
  for (const row of rows) {
    const res = await rt.app.inject({ url: `/sessions/${row.id}`, headers: row.headers });
    t.equal(res.statusCode, 404, `${row.name}: 404`);
    t.same(res.json(), { detail: `Session with id '${row.id}' not found` }, `${row.name}: detail`);
  }
  const own = await rt.app.inject({ url: '/sessions/s-bob', headers: bob });
  t.equal(own.statusCode, 200, 'its own session');
  const admin = await rt.app.inject({
    url: '/sessions/s-alice',
    headers: contextHeader({ user_id: 'root', is_admin: true }),
  });
  t.equal(admin.statusCode, 200, 'an unscoped caller reads any session');
});

t.test('a given type selects the kind: another kind is 404', async (t) => {
  const rt = await seeded(t);
  const same = await rt.app.inject({ url: '/sessions/s-alice?type=agent' });
  t.equal(same.statusCode, 200);
  const other = await rt.app.inject({ url: '/sessions/s-alice?type=team' });
  t.equal(other.statusCode, 404);
  t.same(other.json(), { detail: "Team Session with id 's-alice' not found" });
});

t.test('a session’s runs: RunSchema of each kind, oldest first', async (t) => {
  const rt = await seeded(t);
  await rt.store.putRun(
    runRecord({
      run_id: 'r-1',
      session_id: 's-alice',
      user_id: 'alice',
      input: 'hello',
      output: {
        content: 'Echo: hello',
        metrics: { total_tokens: 3 },
        events: [{ event: 'RunStarted' }],
      },
      created_at: TEST_NOW + 1,
    }),
  );
  await rt.store.putRun(
    runRecord({
      run_id: 'r-2',
      session_id: 's-alice',
      parent_run_id: 'r-1',
      status: 'ERROR',
      input: 'json',
      output: { content: { answer: 42 } },
      created_at: TEST_NOW + 2,
    }),
  );
  await rt.store.putRun(
    runRecord({
      run_id: 'r-3',
      session_id: 's-team',
      session_type: 'team',
      component_id: 't1',
      output: {},
    }),
  );
  await rt.store.putRun(
    runRecord({
      run_id: 'r-4',
      session_id: 's-flow',
      session_type: 'workflow',
      component_id: 'w1',
      output: { content: null },
    }),
  );
  const res = await rt.app.inject({ url: '/sessions/s-alice/runs' });
  t.equal(res.statusCode, 200);
  t.same(res.json(), [
    {
      run_id: 'r-1',
      parent_run_id: null,
      agent_id: 'a1',
      user_id: 'alice',
      status: 'COMPLETED',
      run_input: 'hello',
      content: 'Echo: hello',
      run_response_format: 'text',
      metrics: { total_tokens: 3 },
      events: [{ event: 'RunStarted' }],
      created_at: isoAt(1),
    },
    {
      run_id: 'r-2',
      parent_run_id: 'r-1',
      agent_id: 'a1',
      user_id: null,
      status: 'ERROR',
      run_input: 'json',
      content: { answer: 42 },
      run_response_format: 'json',
      metrics: null,
      events: [],
      created_at: isoAt(2),
    },
  ]);
  const team = await rt.app.inject({ url: '/sessions/s-team/runs' });
  t.match(team.json(), [
    { run_id: 'r-3', team_id: 't1', content: null, run_response_format: 'text' },
  ]);
  t.notOk('agent_id' in (team.json() as object[])[0]!, 'a team run has team_id, not agent_id');
  const flow = await rt.app.inject({ url: '/sessions/s-flow/runs' });
  t.match(flow.json(), [
    { run_id: 'r-4', workflow_id: 'w1', content: null, run_response_format: 'text' },
  ]);
  const empty = await rt.app.inject({ url: '/sessions/s-bob/runs' });
  t.same(empty.json(), [], 'a session without runs');
});

t.test('a session’s runs: 404 for an unknown or foreign session', async (t) => {
  const rt = await seeded(t);
  await rt.store.putRun(runRecord({ run_id: 'r-1', session_id: 's-alice' }));
  const bob = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
  for (const row of [
    { name: 'unknown', id: 'nope', headers: {} },
    { name: 'another user’s, scoped', id: 's-alice', headers: bob },
  ]) {
    const res = await rt.app.inject({ url: `/sessions/${row.id}/runs`, headers: row.headers });
    t.equal(res.statusCode, 404, `${row.name}: 404`);
    t.same(res.json(), { detail: `Session with ID ${row.id} not found` }, `${row.name}: detail`);
  }
  const own = await rt.app.inject({
    url: '/sessions/s-alice/runs',
    headers: contextHeader({ user_id: 'alice', scoped_user_id: 'alice' }),
  });
  t.equal(own.statusCode, 200);
  t.match(own.json(), [{ run_id: 'r-1' }]);
});

/** Runs r-1..r-3 in s-alice (created at +10, +20, +30) and r-team in s-team. */
async function withRuns(t: Test): Promise<TestRuntime> {
  const rt = await seeded(t);
  for (const [run_id, at] of [
    ['r-1', 10],
    ['r-2', 20],
    ['r-3', 30],
  ] as const) {
    await rt.store.putRun(
      runRecord({ run_id, session_id: 's-alice', user_id: 'alice', created_at: TEST_NOW + at }),
    );
  }
  await rt.store.putRun(
    runRecord({
      run_id: 'r-team',
      session_id: 's-team',
      session_type: 'team',
      component_id: 't1',
      created_at: TEST_NOW + 5,
    }),
  );
  return rt;
}

t.test('a session’s runs: created_after and created_before (epoch s, inclusive)', async (t) => {
  const rt = await withRuns(t);
  const rows = [
    { query: '', ids: ['r-1', 'r-2', 'r-3'] },
    { query: `?created_after=${TEST_NOW + 20}`, ids: ['r-2', 'r-3'] },
    { query: `?created_before=${TEST_NOW + 20}`, ids: ['r-1', 'r-2'] },
    { query: `?created_after=${TEST_NOW + 11}&created_before=${TEST_NOW + 29}`, ids: ['r-2'] },
    { query: `?created_after=${TEST_NOW + 31}`, ids: [] },
    { query: '?created_after=0&created_before=-1', ids: [] },
    { query: '?type=agent&user_id=alice&db_id=runtime-db', ids: ['r-1', 'r-2', 'r-3'] },
    {
      query: `?created_after=1&created_after=${TEST_NOW + 30}`,
      ids: ['r-3'],
      name: 'a repeated parameter counts with its last value, as FastAPI reads it',
    },
  ];
  for (const row of rows) {
    const res = await rt.app.inject({ url: `/sessions/s-alice/runs${row.query}` });
    t.equal(res.statusCode, 200, `${row.query}: 200`);
    t.same(
      (res.json() as { run_id: string }[]).map((r) => r.run_id),
      row.ids,
      row.name ?? row.query,
    );
  }
  for (const field of ['created_after', 'created_before']) {
    const res = await rt.app.inject({ url: `/sessions/s-alice/runs?${field}=yesterday` });
    t.equal(res.statusCode, 422, `${field}: 422`);
    t.same(res.json(), {
      detail: [
        {
          type: 'int_parsing',
          loc: ['query', field],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'yesterday',
        },
      ],
    });
  }
});

t.test('a session’s runs: type and user_id select the session like GET does', async (t) => {
  const rt = await withRuns(t);
  for (const query of ['?type=team', '?user_id=bob', '?db_id=elsewhere']) {
    const res = await rt.app.inject({ url: `/sessions/s-alice/runs${query}` });
    t.equal(res.statusCode, 404, `${query}: 404`);
  }
  const wrong = await rt.app.inject({ url: '/sessions/s-alice/runs?type=team' });
  t.same(wrong.json(), { detail: 'Session with ID s-alice not found' });
  const bad = await rt.app.inject({ url: '/sessions/s-alice/runs?type=bot' });
  t.equal(bad.statusCode, 422);
  t.match(bad.json(), { detail: [{ type: 'enum', loc: ['query', 'type'], input: 'bot' }] });
});

t.test('one run of a session: its RunSchema; 404 outside the session', async (t) => {
  const rt = await withRuns(t);
  const res = await rt.app.inject({ url: '/sessions/s-alice/runs/r-2' });
  t.equal(res.statusCode, 200);
  t.same(res.json(), {
    run_id: 'r-2',
    parent_run_id: null,
    agent_id: 'a1',
    user_id: 'alice',
    status: 'COMPLETED',
    run_input: 'hello',
    content: 'Echo: hello',
    run_response_format: 'text',
    metrics: null,
    events: [],
    created_at: isoAt(20),
  });
  const team = await rt.app.inject({ url: '/sessions/s-team/runs/r-team?type=team' });
  t.match(team.json(), { run_id: 'r-team', team_id: 't1' });

  const alice = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
  const bob = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
  const rows = [
    {
      name: 'an unknown run',
      url: '/sessions/s-alice/runs/nope',
      headers: {},
      detail: 'Run with ID nope not found in session s-alice',
    },
    {
      name: 'a run of another session',
      url: '/sessions/s-alice/runs/r-team',
      headers: {},
      detail: 'Run with ID r-team not found in session s-alice',
    },
    {
      name: 'an unknown session',
      url: '/sessions/nope/runs/r-1',
      headers: {},
      detail: 'Session with ID nope not found',
    },
    {
      name: 'a session of another kind',
      url: '/sessions/s-alice/runs/r-1?type=workflow',
      headers: {},
      detail: 'Session with ID s-alice not found',
    },
    {
      name: 'another user’s session, confined',
      url: '/sessions/s-alice/runs/r-1',
      headers: bob,
      detail: 'Session with ID s-alice not found',
    },
    {
      name: 'another user’s session, confined, naming the owner',
      url: '/sessions/s-alice/runs/r-1?user_id=alice',
      headers: bob,
      detail: 'Session with ID s-alice not found',
    },
    {
      name: 'the ownerless session, confined',
      url: '/sessions/s-flow/runs/r-1',
      headers: alice,
      detail: 'Session with ID s-flow not found',
    },
  ];
  for (const row of rows) {
    const miss = await rt.app.inject({ url: row.url, headers: row.headers });
    t.equal(miss.statusCode, 404, `${row.name}: 404`);
    t.same(miss.json(), { detail: row.detail }, `${row.name}: detail`);
  }
  const own = await rt.app.inject({ url: '/sessions/s-alice/runs/r-1', headers: alice });
  t.equal(own.statusCode, 200, 'the owner reads it');
  const other = await rt.app.inject({ url: '/sessions/s-alice/runs/r-1?db_id=x' });
  t.same(other.json(), { detail: "No database found with id 'x'" });
});

t.test('one session: a bad type is 422; user_id filters for unconfined callers', async (t) => {
  const rt = await seeded(t);
  const bad = await rt.app.inject({ url: '/sessions/s-alice?type=robot' });
  t.equal(bad.statusCode, 422);
  t.same(bad.json(), {
    detail: [
      {
        type: 'enum',
        loc: ['query', 'type'],
        msg: "Input should be 'agent', 'team' or 'workflow'",
        input: 'robot',
        ctx: { expected: "'agent', 'team' or 'workflow'" },
      },
    ],
  });
  const other = await rt.app.inject({ url: '/sessions/s-alice?user_id=bob' });
  t.equal(other.statusCode, 404);
  t.same(other.json(), { detail: "Session with id 's-alice' not found" });
  const typed = await rt.app.inject({ url: '/sessions/nope?type=workflow' });
  t.same(typed.json(), { detail: "Workflow Session with id 'nope' not found" });
  const own = await rt.app.inject({ url: '/sessions/s-alice?user_id=alice' });
  t.equal(own.statusCode, 200);
});

t.test('the list and the detail render a stored summary', async (t) => {
  const rt = await seeded(t);
  await rt.store.putSession({
    ...SESSIONS[0]!,
    session_summary: { summary: 'About Paris.', topics: ['weather'], updated_at: TEST_NOW + 7 },
  });
  const summary = { summary: 'About Paris.', topics: ['weather'], updated_at: isoAt(7) };
  const listed = await list(rt, '?user_id=alice&type=agent');
  t.match(listed.body.data, [{ session_id: 's-alice', session_summary: summary }]);
  const one = await rt.app.inject({ url: '/sessions/s-alice' });
  t.same((one.json() as { session_summary: unknown }).session_summary, summary);
});
