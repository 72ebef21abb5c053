/**
 * The learning routes, on SQLite and on PostgreSQL: create with deterministic ids, list with filters,
 * sorting and pagination, read, update, delete, the per-user listing and delete, their exact
 * bodies and errors, and isolation: a confined user sees its own and the shared learnings, is
 * refused (403) naming another user, finds another user's learning missing, and may not change
 * a shared one.
 */
import t, { type Test } from 'tap';
import type { LearningRecord } from '../../../../src/runtime/api/learnings/table.js';
import {
  contextHeader,
  runtimeApp,
  TEST_NOW,
  type TestRuntime,
  call,
  type Answer,
} from '../../fixtures/runtime.js';
import { eachStore, type Stores } from '../../fixtures/stores.js';

const ALICE = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
const BOB = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
const ADMIN = contextHeader({ user_id: 'root', is_admin: true });

function learning(overrides: Partial<LearningRecord> & { learning_id: string }): LearningRecord {
  return {
    learning_type: 'note',
    namespace: null,
    user_id: null,
    agent_id: null,
    team_id: null,
    session_id: null,
    entity_id: null,
    entity_type: null,
    content: { text: overrides.learning_id },
    metadata: null,
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
    ...overrides,
  };
}

/** Alice's two, bob's one, one shared. */
async function seeded(t: Test, stores: Stores): Promise<TestRuntime> {
  const rt = runtimeApp(t, { store: await stores.open() });
  const put = async (l: LearningRecord): Promise<void> => {
    await rt.store.learnings.insert(l);
  };
  await put(
    learning({
      learning_id: 'l-a1',
      user_id: 'alice',
      learning_type: 'user_profile',
      agent_id: 'a1',
    }),
  );
  await put(
    learning({ learning_id: 'l-a2', user_id: 'alice', session_id: 's1', updated_at: TEST_NOW + 3 }),
  );
  await put(
    learning({
      learning_id: 'l-b1',
      user_id: 'bob',
      namespace: 'ns',
      team_id: 't1',
      updated_at: TEST_NOW + 5,
    }),
  );
  await put(
    learning({
      learning_id: 'l-shared',
      entity_id: 'e1',
      entity_type: 'company',
      updated_at: TEST_NOW + 1,
    }),
  );
  return rt;
}

const ids = (answer: Answer): string[] =>
  (answer.body.data as { learning_id: string }[]).map((l) => l.learning_id);

eachStore(
  t,
  'POST /learnings: 201 with LearningResponse and deterministic ids',
  async (t, stores) => {
    const rt = runtimeApp(t, { store: await stores.open() });
    const rows: [string, Record<string, unknown>, string][] = [
      ['user_profile', { learning_type: 'user_profile', user_id: 'u1' }, 'user_profile_u1'],
      ['user_memory', { learning_type: 'user_memory', user_id: 'u1' }, 'memories_u1'],
      [
        'session_context',
        { learning_type: 'session_context', session_id: 's9' },
        'session_context_s9',
      ],
      [
        'entity_memory, global',
        { learning_type: 'entity_memory', entity_type: 'company', entity_id: 'acme' },
        'entity_global_company_acme',
      ],
      [
        'entity_memory, namespaced',
        {
          learning_type: 'entity_memory',
          namespace: 'crm',
          entity_type: 'company',
          entity_id: 'acme',
        },
        'entity_crm_company_acme',
      ],
      ['any other type: a fresh id', { learning_type: 'decision_log' }, 'id-1'],
    ];
    for (const [name, fields, id] of rows) {
      const res = await call(rt, 'POST', '/learnings', {
        json: { content: { k: name }, ...fields },
      });
      t.equal(res.status, 201, name);
      t.equal(res.body.learning_id, id, name);
    }
    const full = await call(rt, 'POST', '/learnings?db_id=runtime-db', {
      json: {
        learning_type: 'note',
        content: { a: [1] },
        namespace: 'n',
        user_id: 'u2',
        agent_id: 'a1',
        team_id: 't1',
        session_id: 's1',
        entity_id: 'e',
        entity_type: 'et',
        metadata: { m: true },
      },
    });
    t.same(full.body, {
      learning_id: 'id-2',
      learning_type: 'note',
      namespace: 'n',
      user_id: 'u2',
      agent_id: 'a1',
      team_id: 't1',
      session_id: 's1',
      entity_id: 'e',
      entity_type: 'et',
      content: { a: [1] },
      metadata: { m: true },
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
    });
    t.same((await call(rt, 'GET', '/learnings/id-2')).body, full.body, 'stored as answered');
  },
);

eachStore(t, 'POST /learnings: 409, 422 string details and 422 entries', async (t, stores) => {
  const rt = runtimeApp(t, { store: await stores.open() });
  const body = { learning_type: 'user_profile', user_id: 'u1', content: {} };
  t.equal((await call(rt, 'POST', '/learnings', { json: body })).status, 201);
  const again = await call(rt, 'POST', '/learnings', { json: body });
  t.same(again, {
    status: 409,
    body: {
      detail:
        "Learning 'user_profile_u1' already exists. Use PATCH /learnings/user_profile_u1 to update it.",
    },
  });
  const missing: [Record<string, unknown>, string][] = [
    [{ learning_type: 'user_profile' }, "user_id is required for learning_type 'user_profile'"],
    [
      { learning_type: 'user_memory', user_id: '' },
      "user_id is required for learning_type 'user_memory'",
    ],
    [
      { learning_type: 'session_context' },
      "session_id is required for learning_type 'session_context'",
    ],
    [
      { learning_type: 'entity_memory', entity_id: 'x' },
      "entity_type is required for learning_type 'entity_memory'",
    ],
    [
      { learning_type: 'entity_memory', entity_type: 'x' },
      "entity_id is required for learning_type 'entity_memory'",
    ],
  ];
  for (const [fields, detail] of missing) {
    const res = await call(rt, 'POST', '/learnings', { json: { content: {}, ...fields } });
    t.same(res, { status: 422, body: { detail } }, detail);
  }
  const bad = await call(rt, 'POST', '/learnings', { json: { content: [], user_id: 3 } });
  t.same(bad, {
    status: 422,
    body: {
      detail: [
        { type: 'missing', loc: ['body', 'learning_type'], msg: 'Field required', input: null },
        {
          type: 'dict_type',
          loc: ['body', 'content'],
          msg: 'Input should be a valid dictionary',
          input: [],
        },
        {
          type: 'string_type',
          loc: ['body', 'user_id'],
          msg: 'Input should be a valid string',
          input: 3,
        },
      ],
    },
  });
});

eachStore(t, 'GET /learnings: pagination, filters, sorting', async (t, stores) => {
  const rt = await seeded(t, stores);
  const all = await call(rt, 'GET', '/learnings');
  t.equal(all.status, 200);
  t.same(ids(all), ['l-b1', 'l-a2', 'l-shared', 'l-a1']);
  t.same(all.body.meta, { page: 1, limit: 100, total_pages: 1, total_count: 4, search_time_ms: 0 });
  const page = await call(rt, 'GET', '/learnings?limit=3&page=2');
  t.same([ids(page), page.body.meta.total_pages], [['l-a1'], 2]);
  const rows: [string, string[]][] = [
    ['learning_type=user_profile', ['l-a1']],
    ['user_id=alice', ['l-a2', 'l-a1']],
    ['agent_id=a1', ['l-a1']],
    ['team_id=t1', ['l-b1']],
    ['session_id=s1', ['l-a2']],
    ['namespace=ns', ['l-b1']],
    ['entity_id=e1&entity_type=company', ['l-shared']],
    ['sort_by=learning_id&sort_order=asc', ['l-a1', 'l-a2', 'l-b1', 'l-shared']],
    ['sort_by=bogus&sort_order=asc', ['l-a1', 'l-shared', 'l-a2', 'l-b1']],
    ['db_id=runtime-db&table=agno_learnings', ['l-b1', 'l-a2', 'l-shared', 'l-a1']],
  ];
  for (const [query, expected] of rows) {
    const res = await call(rt, 'GET', `/learnings?${query}`);
    t.same([res.status, ids(res)], [200, expected], query);
  }
  const tooMany = await call(rt, 'GET', '/learnings?limit=1001');
  t.same(tooMany.body.detail[0].ctx, { le: 1000 });
  t.equal((await call(rt, 'GET', '/learnings?sort_order=sideways')).status, 422);
  t.equal((await call(rt, 'GET', '/learnings?db_id=x')).status, 404);
});

eachStore(t, 'GET, PATCH, DELETE /learnings/{id}', async (t, stores) => {
  const rt = await seeded(t, stores);
  const one = await call(rt, 'GET', '/learnings/l-a1?db_id=runtime-db');
  t.match(one, {
    status: 200,
    body: { learning_id: 'l-a1', user_id: 'alice', content: { text: 'l-a1' } },
  });
  t.same(await call(rt, 'GET', '/learnings/nope'), {
    status: 404,
    body: { detail: 'Learning not found' },
  });

  rt.clock.advance(7_000);
  const patched = await call(rt, 'PATCH', '/learnings/l-a1', {
    json: { content: { text: 'new' } },
  });
  t.match(patched, {
    status: 200,
    body: {
      content: { text: 'new' },
      metadata: null,
      created_at: TEST_NOW,
      updated_at: TEST_NOW + 7,
    },
  });
  const meta = await call(rt, 'PATCH', '/learnings/l-a1', { json: { metadata: { x: 1 } } });
  t.match(meta.body, { content: { text: 'new' }, metadata: { x: 1 } }, 'content kept');
  const cleared = await call(rt, 'PATCH', '/learnings/l-a1', { json: { metadata: null } });
  t.equal(cleared.body.metadata, null, 'metadata: null clears it');
  t.same(await call(rt, 'PATCH', '/learnings/l-a1', { json: { content: null } }), {
    status: 422,
    body: {
      detail: [
        {
          type: 'dict_type',
          loc: ['body', 'content'],
          msg: 'Input should be a valid dictionary',
          input: null,
        },
      ],
    },
  });
  t.equal((await call(rt, 'PATCH', '/learnings/nope', { json: {} })).status, 404);

  t.same(await call(rt, 'DELETE', '/learnings/l-a1'), { status: 204, body: '' });
  t.equal(await rt.store.learnings.get('l-a1'), null);
  t.same(await call(rt, 'DELETE', '/learnings/l-a1'), {
    status: 404,
    body: { detail: 'Learning not found' },
  });
});

eachStore(t, 'GET /learnings/users and DELETE /learnings/users/{user_id}', async (t, stores) => {
  const rt = await seeded(t, stores);
  const users = await call(rt, 'GET', '/learnings/users');
  t.same(users, {
    status: 200,
    body: {
      data: [
        { user_id: 'bob', last_learning_updated_at: TEST_NOW + 5 },
        { user_id: 'alice', last_learning_updated_at: TEST_NOW + 3 },
      ],
      meta: { page: 1, limit: 20, total_pages: 1, total_count: 2, search_time_ms: 0 },
    },
  });
  const typed = await call(rt, 'GET', '/learnings/users?learning_type=user_profile');
  t.same(typed.body.data, [{ user_id: 'alice', last_learning_updated_at: TEST_NOW }]);
  const one = await call(rt, 'GET', '/learnings/users?user_id=bob&limit=1');
  t.same([one.body.data.length, one.body.meta.total_count], [1, 1]);
  t.equal((await call(rt, 'GET', '/learnings/users?db_id=x')).status, 404);

  const typedDelete = await call(rt, 'DELETE', '/learnings/users/alice?learning_type=user_profile');
  t.equal(typedDelete.status, 204);
  t.same(ids(await call(rt, 'GET', '/learnings?user_id=alice')), ['l-a2'], 'only that type went');
  t.equal((await call(rt, 'DELETE', '/learnings/users/alice?db_id=runtime-db')).status, 204);
  t.same(ids(await call(rt, 'GET', '/learnings?user_id=alice')), []);
  t.equal((await call(rt, 'DELETE', '/learnings/users/alice?db_id=x')).status, 404);
});

eachStore(
  t,
  'isolation: a confined user sees its own and the shared learnings',
  async (t, stores) => {
    const rt = await seeded(t, stores);
    t.same(ids(await call(rt, 'GET', '/learnings', { headers: ALICE })), [
      'l-a2',
      'l-shared',
      'l-a1',
    ]);
    t.same(ids(await call(rt, 'GET', '/learnings', { headers: BOB })), ['l-b1', 'l-shared']);
    t.same(
      ids(await call(rt, 'GET', '/learnings?user_id=alice', { headers: ALICE })),
      ['l-a2', 'l-a1'],
      'naming itself is a plain filter',
    );
    t.same(await call(rt, 'GET', '/learnings?user_id=bob', { headers: ALICE }), {
      status: 403,
      body: { detail: 'Cannot list learnings for another user' },
    });
    t.same(
      ids(await call(rt, 'GET', '/learnings', { headers: ADMIN })).length,
      4,
      'admin sees all',
    );

    t.same(await call(rt, 'GET', '/learnings/users?user_id=bob', { headers: ALICE }), {
      status: 403,
      body: { detail: 'Cannot list learnings for another user' },
    });
    const own = await call(rt, 'GET', '/learnings/users', { headers: ALICE });
    t.same(own.body.data, [{ user_id: 'alice', last_learning_updated_at: TEST_NOW + 3 }]);
    t.same(await call(rt, 'DELETE', '/learnings/users/bob', { headers: ALICE }), {
      status: 403,
      body: { detail: 'Cannot delete learnings for another user' },
    });
  },
);

eachStore(
  t,
  'isolation: reads and writes of another user’s or a shared learning',
  async (t, stores) => {
    const rt = await seeded(t, stores);
    const notFound = { status: 404, body: { detail: 'Learning not found' } };
    t.same(await call(rt, 'GET', '/learnings/l-b1', { headers: ALICE }), notFound);
    t.same(
      await call(rt, 'PATCH', '/learnings/l-b1', { json: { content: {} }, headers: ALICE }),
      notFound,
    );
    t.same(await call(rt, 'DELETE', '/learnings/l-b1', { headers: ALICE }), notFound);
    t.not(await rt.store.learnings.get('l-b1'), null, 'bob’s is untouched');

    t.equal((await call(rt, 'GET', '/learnings/l-shared', { headers: ALICE })).status, 200);
    const adminOnly = {
      status: 403,
      body: { detail: 'Only admins can modify learnings that have no owner (user_id is null)' },
    };
    t.same(
      await call(rt, 'PATCH', '/learnings/l-shared', { json: { content: {} }, headers: ALICE }),
      adminOnly,
    );
    t.same(await call(rt, 'DELETE', '/learnings/l-shared', { headers: ALICE }), adminOnly);
    t.equal(
      (await call(rt, 'PATCH', '/learnings/l-shared', { json: { content: {} }, headers: ADMIN }))
        .status,
      200,
    );

    t.equal(
      (await call(rt, 'PATCH', '/learnings/l-a1', { json: { content: {} }, headers: ALICE }))
        .status,
      200,
    );
    t.equal((await call(rt, 'DELETE', '/learnings/l-a2', { headers: ALICE })).status, 204);

    t.same(
      await call(rt, 'POST', '/learnings', {
        json: { learning_type: 'note', content: {}, user_id: 'bob' },
        headers: ALICE,
      }),
      { status: 403, body: { detail: 'Cannot create learnings for another user' } },
    );
    const self = await call(rt, 'POST', '/learnings', {
      json: { learning_type: 'user_profile', content: {}, user_id: 'alice' },
      headers: ALICE,
    });
    t.match(self, { status: 201, body: { learning_id: 'user_profile_alice', user_id: 'alice' } });
    const unnamed = await call(rt, 'POST', '/learnings', {
      json: { learning_type: 'user_memory', content: {}, user_id: null },
      headers: BOB,
    });
    t.match(
      unnamed,
      { status: 201, body: { learning_id: 'memories_bob', user_id: 'bob' } },
      'owned by the caller',
    );
    t.equal((await call(rt, 'DELETE', '/learnings/users/alice', { headers: ALICE })).status, 204);
    t.same(ids(await call(rt, 'GET', '/learnings', { headers: ALICE })), ['l-shared']);
  },
);
