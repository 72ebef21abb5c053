/**
 * The session write routes: POST /sessions, POST /sessions/{id}/rename,
 * PATCH /sessions/{id}, DELETE /sessions/{id} and the bulk DELETE /sessions, each status with
 * its exact body, the 422 entries of bad bodies, the clock stamping `updated_at`, and confined
 * callers never touching another user's session.
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
  call,
  JSON_TYPE,
  type Answer,
} from '../../fixtures/runtime.js';

/** ISO of TEST_NOW + `s` seconds. */
const isoAt = (s: number): string =>
  new Date((TEST_NOW + s) * 1000).toISOString().replace('.000Z', 'Z');

const ALICE = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
const BOB = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
const ADMIN = contextHeader({ user_id: 'root', is_admin: true });

/** Two sessions of two users, and one without an owner; alice's has a run. */
async function seeded(t: Test): Promise<TestRuntime> {
  const rt = runtimeApp(t);
  await rt.store.putSession(
    sessionRecord({ session_id: 's-alice', user_id: 'alice', session_name: 'Alice’s' }),
  );
  await rt.store.putSession(
    sessionRecord({ session_id: 's-bob', user_id: 'bob', session_name: 'Bob’s' }),
  );
  await rt.store.putSession(
    sessionRecord({
      session_id: 's-team',
      session_type: 'team',
      component_id: 't1',
      user_id: null,
    }),
  );
  await rt.store.putRun(
    runRecord({
      run_id: 'r-alice',
      session_id: 's-alice',
      user_id: 'alice',
      input: 'hi',
      output: { content: 'Echo: hi' },
    }),
  );
  return rt;
}

/** The detail schema of a session without runs, as every write route answers it. */
function detail(fields: Partial<Record<string, unknown>> & { session_id: string }) {
  const type = (fields.session_type as string | undefined) ?? 'agent';
  return {
    session_name: null,
    session_state: {},
    created_at: TEST_NOW_ISO,
    updated_at: TEST_NOW_ISO,
    session_type: type,
    user_id: null,
    agent_id: null,
    team_id: null,
    workflow_id: null,
    session_summary: null,
    metrics: null,
    total_tokens: null,
    metadata: null,
    [`${type}_session_id`]: fields.session_id,
    chat_history: [],
    ...fields,
  };
}

t.test('POST /sessions: 201 with the detail schema, stored as answered', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    {
      name: 'type defaults to agent; the id is the runtime’s',
      url: '/sessions',
      json: { agent_id: 'a1' },
      expected: detail({ session_id: 'id-1', agent_id: 'a1' }),
    },
    {
      name: 'every field given',
      url: '/sessions?type=agent&db_id=runtime-db',
      json: {
        session_id: 'mine',
        session_name: 'Planning',
        session_state: { step: 1, nested: { a: [1] } },
        metadata: { tags: ['x'] },
        agent_id: 'a2',
        unknown_field: 'ignored, as pydantic does',
      },
      expected: detail({
        session_id: 'mine',
        session_name: 'Planning',
        session_state: { step: 1, nested: { a: [1] } },
        metadata: { tags: ['x'] },
        agent_id: 'a2',
      }),
    },
    {
      name: 'a team session',
      url: '/sessions?type=team',
      json: { team_id: 't1', agent_id: null, workflow_id: '' },
      expected: detail({ session_id: 'id-2', session_type: 'team', team_id: 't1' }),
    },
    {
      name: 'a workflow session; an empty session_id is none',
      url: '/sessions?type=workflow',
      json: { session_id: '', workflow_id: 'w1', session_name: null, metadata: null },
      expected: detail({ session_id: 'id-3', session_type: 'workflow', workflow_id: 'w1' }),
    },
  ];
  for (const row of rows) {
    const res = await call(rt, 'POST', row.url, { json: row.json });
    t.equal(res.status, 201, `${row.name}: 201`);
    t.same(res.body, row.expected, row.name);
    const stored = await call(rt, 'GET', `/sessions/${row.expected.session_id}`);
    t.same(stored.body, row.expected, `${row.name}: GET answers the same`);
  }
});

t.test(
  'POST /sessions: the owner is the context’s user, never a confined caller’s pick',
  async (t) => {
    const rt = runtimeApp(t);
    const rows = [
      { name: 'anonymous: the body’s user_id', headers: {}, userId: 'carol', owner: 'carol' },
      { name: 'anonymous without one', headers: {}, userId: undefined, owner: null },
      { name: 'confined: forced to itself', headers: ALICE, userId: 'bob', owner: 'alice' },
      { name: 'confined, none given', headers: ALICE, userId: undefined, owner: 'alice' },
      { name: 'unconfined: the context user wins', headers: ADMIN, userId: 'bob', owner: 'root' },
      {
        name: 'authenticated without a user: nobody',
        headers: contextHeader({}),
        userId: 'bob',
        owner: null,
      },
      {
        name: 'a reserved id from an authenticated caller is not used, so not refused',
        headers: ADMIN,
        userId: 'sa:bot',
        owner: 'root',
      },
    ];
    for (const row of rows) {
      const res = await call(rt, 'POST', '/sessions', {
        json: { agent_id: 'a1', ...(row.userId === undefined ? {} : { user_id: row.userId }) },
        headers: row.headers,
      });
      t.equal(res.status, 201, `${row.name}: 201`);
      const { session_id, user_id } = res.body as { session_id: string; user_id: unknown };
      t.equal(user_id, row.owner, row.name);
      t.equal((await rt.store.getSession(session_id))?.user_id, row.owner, `${row.name}: stored`);
    }
    const reserved = await call(rt, 'POST', '/sessions', {
      json: { agent_id: 'a1', user_id: 'sa:bot' },
    });
    t.equal(reserved.status, 403);
    t.same(reserved.body, { detail: 'Client-supplied user_id may not claim a reserved principal' });
  },
);

t.test('POST /sessions: a taken session_id is 409 and the stored session is kept', async (t) => {
  const rt = await seeded(t);
  const before = await rt.store.getSession('s-bob');
  for (const [name, headers] of [
    ['unconfined', {}],
    ['confined, another user’s', ALICE],
    ['confined, its own', BOB],
  ] as const) {
    const res = await call(rt, 'POST', '/sessions', {
      json: { session_id: 's-bob', agent_id: 'a2', session_name: 'hijack' },
      headers,
    });
    t.equal(res.status, 409, `${name}: 409`);
    t.same(res.body, { detail: "Session with id 's-bob' already exists" }, `${name}: detail`);
  }
  t.strictSame(await rt.store.getSession('s-bob'), before, 'nothing was written');
});

t.test('POST /sessions: bad bodies are 422 with every problem, in field order', async (t) => {
  const rt = runtimeApp(t);
  const body = (...path: (string | number)[]) => ['body', ...path];
  const rows: {
    name: string;
    url?: string;
    json?: unknown;
    raw?: string;
    headers?: object;
    detail: unknown[];
  }[] = [
    {
      name: 'no body: no agent_id',
      detail: [{ type: 'missing', loc: body('agent_id'), msg: 'Field required', input: null }],
    },
    {
      name: 'an empty JSON body: no agent_id',
      raw: '',
      headers: JSON_TYPE,
      detail: [{ type: 'missing', loc: body('agent_id'), msg: 'Field required', input: null }],
    },
    {
      name: 'JSON null: no agent_id',
      raw: 'null',
      headers: JSON_TYPE,
      detail: [{ type: 'missing', loc: body('agent_id'), msg: 'Field required', input: null }],
    },
    {
      name: '{}: no agent_id',
      json: {},
      detail: [{ type: 'missing', loc: body('agent_id'), msg: 'Field required', input: {} }],
    },
    {
      name: 'agent_id null',
      json: { agent_id: null },
      detail: [
        {
          type: 'missing',
          loc: body('agent_id'),
          msg: 'Field required',
          input: { agent_id: null },
        },
      ],
    },
    {
      name: 'agent_id empty',
      json: { agent_id: '' },
      detail: [
        {
          type: 'string_too_short',
          loc: body('agent_id'),
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
      ],
    },
    {
      name: 'agent_id not a string',
      json: { agent_id: 7 },
      detail: [
        {
          type: 'string_type',
          loc: body('agent_id'),
          msg: 'Input should be a valid string',
          input: 7,
        },
      ],
    },
    {
      name: 'type=team with an agent_id: wrong kind, and no team_id',
      url: '/sessions?type=team',
      json: { agent_id: 'a1' },
      detail: [
        {
          type: 'value_error',
          loc: body('agent_id'),
          msg: 'Value error, agent_id does not apply to a session of type team',
          input: 'a1',
          ctx: { error: 'agent_id does not apply to a session of type team' },
        },
        { type: 'missing', loc: body('team_id'), msg: 'Field required', input: { agent_id: 'a1' } },
      ],
    },
    {
      name: 'type=workflow with a team_id too',
      url: '/sessions?type=workflow',
      json: { workflow_id: 'w1', team_id: 't1' },
      detail: [
        {
          type: 'value_error',
          loc: body('team_id'),
          msg: 'Value error, team_id does not apply to a session of type workflow',
          input: 't1',
          ctx: { error: 'team_id does not apply to a session of type workflow' },
        },
      ],
    },
    {
      name: 'every field of the wrong type',
      json: {
        session_id: 1,
        session_name: true,
        session_state: [],
        metadata: 'x',
        user_id: {},
        agent_id: 'a1',
        team_id: 2,
      },
      detail: [
        {
          type: 'string_type',
          loc: body('session_id'),
          msg: 'Input should be a valid string',
          input: 1,
        },
        {
          type: 'string_type',
          loc: body('session_name'),
          msg: 'Input should be a valid string',
          input: true,
        },
        {
          type: 'dict_type',
          loc: body('session_state'),
          msg: 'Input should be a valid dictionary',
          input: [],
        },
        {
          type: 'dict_type',
          loc: body('metadata'),
          msg: 'Input should be a valid dictionary',
          input: 'x',
        },
        {
          type: 'string_type',
          loc: body('user_id'),
          msg: 'Input should be a valid string',
          input: {},
        },
        {
          type: 'string_type',
          loc: body('team_id'),
          msg: 'Input should be a valid string',
          input: 2,
        },
      ],
    },
    {
      name: 'a JSON array',
      json: [{ agent_id: 'a1' }],
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: [{ agent_id: 'a1' }],
        },
      ],
    },
    {
      name: 'a JSON string',
      json: 'a1',
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: 'a1',
        },
      ],
    },
    {
      name: 'plain text',
      raw: 'agent_id=a1',
      headers: { 'content-type': 'text/plain' },
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: 'agent_id=a1',
        },
      ],
    },
    {
      name: 'a form, as the run routes take',
      raw: form({ agent_id: 'a1' }),
      headers: FORM,
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: null,
        },
      ],
    },
    {
      name: 'a bad type in the query',
      url: '/sessions?type=robot',
      json: { agent_id: 'a1' },
      detail: [
        {
          type: 'enum',
          loc: ['query', 'type'],
          msg: "Input should be 'agent', 'team' or 'workflow'",
          input: 'robot',
          ctx: { expected: "'agent', 'team' or 'workflow'" },
        },
      ],
    },
  ];
  for (const row of rows) {
    const res = await call(rt, 'POST', row.url ?? '/sessions', {
      ...(row.json === undefined ? {} : { json: row.json }),
      ...(row.raw === undefined ? {} : { raw: row.raw }),
      headers: (row.headers ?? {}) as Record<string, string>,
    });
    t.equal(res.status, 422, `${row.name}: 422`);
    t.same(res.body, { detail: row.detail }, row.name);
  }
  t.same(
    (await rt.store.listSessions({ page: 1, limit: 10, sortBy: 'created_at', sortOrder: 'asc' }))
      .total,
    0,
  );
});

t.test('POST /sessions: malformed JSON is Fastify’s 400; another database is 404', async (t) => {
  const rt = runtimeApp(t);
  const bad = await call(rt, 'POST', '/sessions', { raw: '{"agent_id":', headers: JSON_TYPE });
  t.equal(bad.status, 400);
  t.same(bad.body, {
    detail: "Body is not valid JSON but content-type is set to 'application/json'",
  });
  const other = await call(rt, 'POST', '/sessions?db_id=elsewhere', { json: { agent_id: 'a1' } });
  t.equal(other.status, 404);
  t.same(other.body, { detail: "No database found with id 'elsewhere'" });
});

t.test('rename: the new name, a fresh updated_at, the chat history; 404 as GET', async (t) => {
  const rt = await seeded(t);
  rt.clock.advance(90_000);
  const res = await call(rt, 'POST', '/sessions/s-alice/rename', {
    json: { session_name: 'Trip' },
  });
  t.equal(res.status, 200);
  t.same(
    res.body,
    detail({
      session_id: 's-alice',
      session_name: 'Trip',
      user_id: 'alice',
      agent_id: 'a1',
      updated_at: isoAt(90),
      chat_history: [
        { role: 'user', content: 'hi', created_at: TEST_NOW },
        { role: 'assistant', content: 'Echo: hi', created_at: TEST_NOW },
      ],
    }),
  );
  t.match(await rt.store.getSession('s-alice'), {
    session_name: 'Trip',
    updated_at: TEST_NOW + 90,
  });
  const typed = await call(rt, 'POST', '/sessions/s-team/rename?type=team', {
    json: { session_name: '' },
  });
  t.equal(typed.status, 200, 'a matching type; an empty name is a name');
  t.match(typed.body, { session_name: '', team_session_id: 's-team' });

  for (const [name, url] of [
    ['unknown', '/sessions/nope/rename'],
    ['of another kind', '/sessions/s-alice/rename?type=team'],
    ['of another owner, asked by an unconfined caller', '/sessions/s-alice/rename?user_id=bob'],
  ] as const) {
    const miss = await call(rt, 'POST', url, { json: { session_name: 'x' } });
    t.equal(miss.status, 404, `${name}: 404`);
    const id = url.split('/')[2] as string;
    t.same(miss.body, { detail: `Session with id '${id}' not found` }, `${name}: detail`);
  }
  const other = await call(rt, 'POST', '/sessions/s-alice/rename?db_id=x', {
    json: { session_name: 'x' },
  });
  t.same([other.status, other.body], [404, { detail: "No database found with id 'x'" }]);
});

t.test('rename: session_name is required and a string (422 before any lookup)', async (t) => {
  const rt = await seeded(t);
  const missing = {
    type: 'missing',
    loc: ['body', 'session_name'],
    msg: 'Field required',
    input: null,
  };
  const rows: {
    name: string;
    json?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    detail: unknown;
  }[] = [
    { name: 'no body', detail: missing },
    { name: '{}', json: {}, detail: missing },
    { name: 'null', json: { session_name: null }, detail: missing },
    { name: 'a JSON array', json: ['x'], detail: missing },
    { name: 'a form', raw: form({ session_name: 'x' }), headers: FORM, detail: missing },
    {
      name: 'a number',
      json: { session_name: 5 },
      detail: {
        type: 'string_type',
        loc: ['body', 'session_name'],
        msg: 'Input should be a valid string',
        input: 5,
      },
    },
  ];
  for (const row of rows) {
    for (const id of ['s-alice', 'nope']) {
      const res = await call(rt, 'POST', `/sessions/${id}/rename`, row);
      t.equal(res.status, 422, `${row.name} (${id}): 422`);
      t.same(res.body, { detail: [row.detail] }, `${row.name} (${id})`);
    }
  }
  const badType = await call(rt, 'POST', '/sessions/s-alice/rename?type=x', {
    json: { session_name: 'y' },
  });
  t.equal(badType.status, 422);
  t.match(badType.body, { detail: [{ type: 'enum', loc: ['query', 'type'], input: 'x' }] });
  t.equal((await rt.store.getSession('s-alice'))?.session_name, 'Alice’s', 'nothing was renamed');
});

t.test('PATCH: given fields replace, null and absent ones stay, updated_at moves', async (t) => {
  const rt = await seeded(t);
  await rt.store.putSession(
    sessionRecord({
      session_id: 's-full',
      session_name: 'Old',
      session_state: { a: 1, b: 2 },
      metadata: { keep: true },
    }),
  );
  rt.clock.advance(10_000);
  const state = await call(rt, 'PATCH', '/sessions/s-full', {
    json: { session_state: { b: 3 }, session_name: null, metadata: null },
  });
  t.equal(state.status, 200);
  t.same(
    state.body,
    detail({
      session_id: 's-full',
      session_name: 'Old',
      session_state: { b: 3 },
      metadata: { keep: true },
      agent_id: 'a1',
      updated_at: isoAt(10),
    }),
    'session_state replaced whole, not merged',
  );
  rt.clock.advance(10_000);
  const rest = await call(rt, 'PATCH', '/sessions/s-full?type=agent', {
    json: {
      session_name: 'New',
      metadata: { other: 1 },
      summary: {
        summary: 'We planned.',
        topics: ['plans', 'dates'],
        updated_at: '2029-12-31T23:00:00Z',
      },
    },
  });
  t.equal(rest.status, 200);
  t.same(
    rest.body,
    detail({
      session_id: 's-full',
      session_name: 'New',
      session_state: { b: 3 },
      metadata: { other: 1 },
      agent_id: 'a1',
      session_summary: {
        summary: 'We planned.',
        topics: ['plans', 'dates'],
        updated_at: '2029-12-31T23:00:00Z',
      },
      updated_at: isoAt(20),
    }),
  );
  rt.clock.advance(10_000);
  const summary = await call(rt, 'PATCH', '/sessions/s-full', {
    json: { summary: { summary: 'Shorter.' } },
  });
  t.match(
    summary.body,
    { session_summary: { summary: 'Shorter.', updated_at: isoAt(30) }, updated_at: isoAt(30) },
    'a summary replaces the old one whole; no updated_at: the time of the request',
  );
  t.notOk(
    'topics' in (summary.body as { session_summary: object }).session_summary,
    'no topics: left out, as Agno’s to_dict does',
  );
  rt.clock.advance(10_000);
  const empty = await call(rt, 'PATCH', '/sessions/s-full', { json: {} });
  t.match(empty.body, {
    session_name: 'New',
    session_summary: { summary: 'Shorter.' },
    updated_at: isoAt(40),
  });
  const listed = await call(rt, 'GET', '/sessions?session_name=new');
  t.match(listed.body, {
    data: [
      { session_id: 's-full', session_summary: { summary: 'Shorter.' }, updated_at: isoAt(40) },
    ],
  });
});

t.test('PATCH: 404 as GET, 422 for bad bodies before any lookup', async (t) => {
  const rt = await seeded(t);
  for (const [name, url] of [
    ['unknown', '/sessions/nope'],
    ['of another kind', '/sessions/s-team?type=agent'],
    ['of another owner, asked by an unconfined caller', '/sessions/s-bob?user_id=alice'],
  ] as const) {
    const miss = await call(rt, 'PATCH', url, { json: { session_name: 'x' } });
    t.equal(miss.status, 404, `${name}: 404`);
    const id = (url.split('/')[2] as string).split('?')[0] as string;
    t.same(miss.body, { detail: `Session with id '${id}' not found` }, `${name}: detail`);
  }
  const attributes = {
    type: 'model_attributes_type',
    loc: ['body'],
    msg: 'Input should be a valid dictionary or object to extract fields from',
  };
  const rows: {
    name: string;
    json?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    detail: unknown[];
  }[] = [
    {
      name: 'no body',
      detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
    },
    { name: 'a JSON array', json: [], detail: [{ ...attributes, input: [] }] },
    {
      name: 'a form',
      raw: form({ session_name: 'x' }),
      headers: FORM,
      detail: [{ ...attributes, input: null }],
    },
    {
      name: 'every field of the wrong type',
      json: { session_name: 1, session_state: 'x', metadata: [], summary: 's' },
      detail: [
        {
          type: 'string_type',
          loc: ['body', 'session_name'],
          msg: 'Input should be a valid string',
          input: 1,
        },
        {
          type: 'dict_type',
          loc: ['body', 'session_state'],
          msg: 'Input should be a valid dictionary',
          input: 'x',
        },
        {
          type: 'dict_type',
          loc: ['body', 'metadata'],
          msg: 'Input should be a valid dictionary',
          input: [],
        },
        {
          type: 'dict_type',
          loc: ['body', 'summary'],
          msg: 'Input should be a valid dictionary',
          input: 's',
        },
      ],
    },
    {
      name: 'a summary without its text',
      json: { summary: { topics: ['a'] } },
      detail: [
        {
          type: 'missing',
          loc: ['body', 'summary', 'summary'],
          msg: 'Field required',
          input: { topics: ['a'] },
        },
      ],
    },
    {
      name: 'a summary with every field wrong',
      json: { summary: { summary: 1, topics: 'a', updated_at: true } },
      detail: [
        {
          type: 'string_type',
          loc: ['body', 'summary', 'summary'],
          msg: 'Input should be a valid string',
          input: 1,
        },
        {
          type: 'list_type',
          loc: ['body', 'summary', 'topics'],
          msg: 'Input should be a valid list',
          input: 'a',
        },
        {
          type: 'datetime_type',
          loc: ['body', 'summary', 'updated_at'],
          msg: 'Input should be a valid datetime',
          input: true,
        },
      ],
    },
    {
      name: 'a topic that is not a string; a date that is not one',
      json: { summary: { summary: 's', topics: ['a', 2, 'c', null], updated_at: 'yesterday' } },
      detail: [
        {
          type: 'string_type',
          loc: ['body', 'summary', 'topics', 1],
          msg: 'Input should be a valid string',
          input: 2,
        },
        {
          type: 'string_type',
          loc: ['body', 'summary', 'topics', 3],
          msg: 'Input should be a valid string',
          input: null,
        },
        {
          type: 'datetime_parsing',
          loc: ['body', 'summary', 'updated_at'],
          msg: 'Input should be a valid datetime, invalid datetime format',
          input: 'yesterday',
          ctx: { error: 'invalid datetime format' },
        },
      ],
    },
  ];
  for (const row of rows) {
    for (const id of ['s-alice', 'nope']) {
      const res = await call(rt, 'PATCH', `/sessions/${id}`, row);
      t.equal(res.status, 422, `${row.name} (${id}): 422`);
      t.same(res.body, { detail: row.detail }, `${row.name} (${id})`);
    }
  }
  t.equal((await rt.store.getSession('s-alice'))?.updated_at, TEST_NOW, 'nothing was written');
});

t.test('DELETE /sessions/{id}: 204 and the runs go too; unknown is 204 as well', async (t) => {
  const rt = await seeded(t);
  const res = await call(rt, 'DELETE', '/sessions/s-alice');
  t.same([res.status, res.body], [204, '']);
  t.equal(await rt.store.getSession('s-alice'), null);
  t.equal(await rt.store.getRun('r-alice'), null, 'its runs were deleted with it');
  const unknown = await call(rt, 'DELETE', '/sessions/s-alice');
  t.same([unknown.status, unknown.body], [204, ''], 'deleting again is no error');
  const filtered = await call(rt, 'DELETE', '/sessions/s-bob?user_id=alice');
  t.equal(filtered.status, 204);
  t.ok(
    await rt.store.getSession('s-bob'),
    'an unconfined user_id filter that does not match deletes nothing',
  );
  const other = await call(rt, 'DELETE', '/sessions/s-bob?db_id=elsewhere');
  t.same([other.status, other.body], [404, { detail: "No database found with id 'elsewhere'" }]);
  t.ok(await rt.store.getSession('s-bob'));
  t.ok(await rt.store.getSession('s-team'), 'the other sessions stay');
});

t.test('DELETE /sessions: each id with its kind; a pair of another kind is skipped', async (t) => {
  const rt = await seeded(t);
  await rt.store.putSession(
    sessionRecord({ session_id: 's-flow', session_type: 'workflow', component_id: 'w1' }),
  );
  const res = await call(rt, 'DELETE', '/sessions?db_id=runtime-db', {
    json: {
      session_ids: ['s-alice', 's-team', 's-flow', 'unknown'],
      session_types: ['agent', 'agent', 'workflow', 'team'],
    },
  });
  t.same([res.status, res.body], [204, '']);
  t.equal(await rt.store.getSession('s-alice'), null);
  t.equal(await rt.store.getRun('r-alice'), null);
  t.equal(await rt.store.getSession('s-flow'), null);
  t.ok(
    await rt.store.getSession('s-team'),
    'stored as a team session, named as an agent one: kept',
  );
  t.ok(await rt.store.getSession('s-bob'), 'not named: kept');
});

t.test('DELETE /sessions: 400 for lengths that differ, 422 for bad bodies', async (t) => {
  const rt = await seeded(t);
  const lengths = await call(rt, 'DELETE', '/sessions', {
    json: { session_ids: ['s-alice', 's-bob'], session_types: ['agent'] },
  });
  t.equal(lengths.status, 400);
  t.same(lengths.body, { detail: 'Session IDs and session types must have the same length' });
  const rows: { name: string; json?: unknown; detail: unknown[] }[] = [
    {
      name: 'no body',
      detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
    },
    {
      name: '{}',
      json: {},
      detail: [
        { type: 'missing', loc: ['body', 'session_ids'], msg: 'Field required', input: {} },
        { type: 'missing', loc: ['body', 'session_types'], msg: 'Field required', input: {} },
      ],
    },
    {
      name: 'empty lists',
      json: { session_ids: [], session_types: [] },
      detail: ['session_ids', 'session_types'].map((field) => ({
        type: 'too_short',
        loc: ['body', field],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      })),
    },
    {
      name: 'not lists',
      json: { session_ids: 's-alice', session_types: null },
      detail: [
        {
          type: 'list_type',
          loc: ['body', 'session_ids'],
          msg: 'Input should be a valid list',
          input: 's-alice',
        },
        {
          type: 'missing',
          loc: ['body', 'session_types'],
          msg: 'Field required',
          input: { session_ids: 's-alice', session_types: null },
        },
      ],
    },
    {
      name: 'bad items',
      json: { session_ids: ['s-alice', 3], session_types: ['Agent', 'team'] },
      detail: [
        {
          type: 'string_type',
          loc: ['body', 'session_ids', 1],
          msg: 'Input should be a valid string',
          input: 3,
        },
        {
          type: 'enum',
          loc: ['body', 'session_types', 0],
          msg: "Input should be 'agent', 'team' or 'workflow'",
          input: 'Agent',
          ctx: { expected: "'agent', 'team' or 'workflow'" },
        },
      ],
    },
  ];
  for (const row of rows) {
    const res = await call(
      rt,
      'DELETE',
      '/sessions',
      row.json === undefined ? {} : { json: row.json },
    );
    t.equal(res.status, 422, `${row.name}: 422`);
    t.same(res.body, { detail: row.detail }, row.name);
  }
  const other = await call(rt, 'DELETE', '/sessions?db_id=elsewhere', {
    json: { session_ids: ['s-alice'], session_types: ['agent'] },
  });
  t.equal(other.status, 404);
  t.ok(await rt.store.getSession('s-alice'), 'nothing was deleted by any of these');
});

t.test('two confined users never touch each other’s sessions', async (t) => {
  const rt = await seeded(t);
  const before = (await rt.store.getSession('s-bob')) as SessionRecord;
  const notFound = { detail: "Session with id 's-bob' not found" };
  const reads: [string, Answer, unknown][] = [
    ['GET', await call(rt, 'GET', '/sessions/s-bob', { headers: ALICE }), notFound],
    [
      'GET, asking for bob by user_id',
      await call(rt, 'GET', '/sessions/s-bob?user_id=bob', { headers: ALICE }),
      notFound,
    ],
    [
      'rename',
      await call(rt, 'POST', '/sessions/s-bob/rename', {
        json: { session_name: 'x' },
        headers: ALICE,
      }),
      notFound,
    ],
    [
      'rename, asking for bob by user_id',
      await call(rt, 'POST', '/sessions/s-bob/rename?user_id=bob', {
        json: { session_name: 'x' },
        headers: ALICE,
      }),
      notFound,
    ],
    [
      'PATCH',
      await call(rt, 'PATCH', '/sessions/s-bob', { json: { metadata: { x: 1 } }, headers: ALICE }),
      notFound,
    ],
    [
      'runs',
      await call(rt, 'GET', '/sessions/s-bob/runs', { headers: ALICE }),
      { detail: 'Session with ID s-bob not found' },
    ],
    [
      'the ownerless session',
      await call(rt, 'PATCH', '/sessions/s-team', { json: { metadata: {} }, headers: ALICE }),
      { detail: "Session with id 's-team' not found" },
    ],
  ];
  for (const [name, res, body] of reads) {
    t.equal(res.status, 404, `${name}: 404`);
    t.same(res.body, body, `${name}: the same words as a missing session`);
  }
  const del = await call(rt, 'DELETE', '/sessions/s-bob?user_id=bob', { headers: ALICE });
  t.same([del.status, del.body], [204, ''], 'DELETE of another’s: 204');
  const bulk = await call(rt, 'DELETE', '/sessions', {
    json: {
      session_ids: ['s-bob', 's-team', 's-alice'],
      session_types: ['agent', 'team', 'agent'],
    },
    headers: ALICE,
  });
  t.equal(bulk.status, 204);
  t.strictSame(await rt.store.getSession('s-bob'), before, 'bob’s session is untouched');
  t.ok(await rt.store.getSession('s-team'), 'the ownerless session is untouched');
  t.equal(await rt.store.getSession('s-alice'), null, 'alice deleted her own');

  const own = await call(rt, 'POST', '/sessions/s-bob/rename', {
    json: { session_name: 'Mine' },
    headers: BOB,
  });
  t.equal(own.status, 200, 'bob renames his own');
  t.match(own.body, { session_name: 'Mine', user_id: 'bob' });
});

t.test('an unconfined caller acts on every user’s sessions', async (t) => {
  const rt = await seeded(t);
  for (const id of ['s-alice', 's-bob']) {
    const renamed = await call(rt, 'POST', `/sessions/${id}/rename`, {
      json: { session_name: `renamed ${id}` },
      headers: ADMIN,
    });
    t.equal(renamed.status, 200, `rename ${id}`);
    const patched = await call(rt, 'PATCH', `/sessions/${id}`, {
      json: { metadata: { by: 'root' } },
      headers: ADMIN,
    });
    t.match(patched.body, {
      session_id: id,
      session_name: `renamed ${id}`,
      metadata: { by: 'root' },
    });
    t.equal(
      (await rt.store.getSession(id))?.user_id,
      id === 's-alice' ? 'alice' : 'bob',
      'a write keeps the owner',
    );
  }
  const bulk = await call(rt, 'DELETE', '/sessions', {
    json: { session_ids: ['s-alice', 's-bob'], session_types: ['agent', 'agent'] },
    headers: ADMIN,
  });
  t.equal(bulk.status, 204);
  t.equal(await rt.store.getSession('s-alice'), null);
  t.equal(await rt.store.getSession('s-bob'), null);
  const one = await call(rt, 'DELETE', '/sessions/s-team', { headers: ADMIN });
  t.equal(one.status, 204);
  t.equal(await rt.store.getSession('s-team'), null);
});

t.test('a session created here runs, and a run keeps what PATCH set', async (t) => {
  const rt = runtimeApp(t);
  const created = await call(rt, 'POST', '/sessions', {
    json: { session_id: 'planned', agent_id: 'a2', session_name: 'Planned', metadata: { m: 1 } },
    headers: ALICE,
  });
  t.equal(created.status, 201);
  const run = await rt.app.inject({
    method: 'POST',
    url: '/agents/a2/runs',
    headers: { ...FORM, ...ALICE },
    payload: form({ message: 'hello', session_id: 'planned', stream: 'false' }),
  });
  t.equal(run.statusCode, 200);
  t.match(run.json(), { session_id: 'planned', user_id: 'alice' });
  const patched = await call(rt, 'PATCH', '/sessions/planned', {
    json: { summary: { summary: 'Said hello.' } },
    headers: ALICE,
  });
  t.equal(patched.status, 200);
  const second = await rt.app.inject({
    method: 'POST',
    url: '/agents/a2/runs',
    headers: { ...FORM, ...ALICE },
    payload: form({ message: 'again', session_id: 'planned', stream: 'false' }),
  });
  t.equal(second.statusCode, 200);
  t.match(await rt.store.getSession('planned'), {
    session_name: 'Planned',
    metadata: { m: 1 },
    session_summary: { summary: 'Said hello.' },
  });
  const wrongKind = await rt.app.inject({
    method: 'POST',
    url: '/agents/a1/runs',
    headers: { ...FORM, ...ALICE },
    payload: form({ message: 'x', session_id: 'planned', stream: 'false' }),
  });
  t.equal(wrongKind.statusCode, 404, 'a session of a2 is not a1’s to run in');
});

t.test('a bad query and a bad body: one 422 with both, the query first', async (t) => {
  const rt = await seeded(t);
  const res = await call(rt, 'PATCH', '/sessions/s-alice?type=robot', {
    json: { session_name: 1 },
  });
  t.equal(res.status, 422);
  t.same(res.body, {
    detail: [
      {
        type: 'enum',
        loc: ['query', 'type'],
        msg: "Input should be 'agent', 'team' or 'workflow'",
        input: 'robot',
        ctx: { expected: "'agent', 'team' or 'workflow'" },
      },
      {
        type: 'string_type',
        loc: ['body', 'session_name'],
        msg: 'Input should be a valid string',
        input: 1,
      },
    ],
  });
  t.equal((await rt.store.getSession('s-alice'))?.updated_at, TEST_NOW, 'nothing was written');
});
