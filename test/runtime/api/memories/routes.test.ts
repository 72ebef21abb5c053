/**
 * The memory routes: POST, GET (list and one), PATCH and DELETE (one and
 * bulk) of /memories, with their exact bodies, the 422 entries of bad input, pagination,
 * filters and sorting, who a memory belongs to, and two confined users never touching each
 * other's memories.
 */
import t, { type Test } from 'tap';
import type { MemoryRecord } from '../../../../src/runtime/api/memories/table.js';
import {
  contextHeader,
  runtimeApp,
  TEST_NOW,
  type TestRuntime,
  call,
  type Answer,
} from '../../fixtures/runtime.js';

const ALICE = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
const BOB = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
/** An admin identified without a user id (the security-key root). */
const ROOT = contextHeader({ user_id: null, is_admin: true, principal_type: 'security_key' });
const ADMIN = contextHeader({ user_id: 'root', is_admin: true });

/** ISO of TEST_NOW + `s` seconds. */
const isoAt = (s: number): string =>
  new Date((TEST_NOW + s) * 1000).toISOString().replace('.000Z', 'Z');

/** A stored memory; `overrides` replace fields. */
function memory(overrides: Partial<MemoryRecord> & { memory_id: string }): MemoryRecord {
  return {
    memory: `text of ${overrides.memory_id}`,
    topics: [],
    user_id: 'alice',
    agent_id: null,
    team_id: null,
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
    ...overrides,
  };
}

/** Alice's three memories (m1 oldest), bob's one. */
async function seeded(t: Test): Promise<TestRuntime> {
  const rt = runtimeApp(t);
  await rt.store.memories.put(
    memory({ memory_id: 'm1', memory: 'Likes Tea', topics: ['food', 'drink'], agent_id: 'a1' }),
  );
  await rt.store.memories.put(
    memory({
      memory_id: 'm2',
      memory: 'Lives in Oslo',
      topics: ['place'],
      updated_at: TEST_NOW + 10,
    }),
  );
  await rt.store.memories.put(
    memory({
      memory_id: 'm3',
      memory: 'Drinks coffee',
      topics: ['drink'],
      team_id: 't1',
      updated_at: TEST_NOW + 20,
    }),
  );
  await rt.store.memories.put(
    memory({
      memory_id: 'b1',
      memory: 'Bob likes tea too',
      user_id: 'bob',
      updated_at: TEST_NOW + 5,
    }),
  );
  return rt;
}

const ids = (answer: Answer): string[] =>
  (answer.body.data as { memory_id: string }[]).map((m) => m.memory_id);

t.test('POST /memories: 200 with UserMemorySchema, stored as answered', async (t) => {
  const rt = runtimeApp(t);
  const created = await call(rt, 'POST', '/memories?db_id=runtime-db', {
    json: { memory: 'Likes tea', topics: ['food'], user_id: 'carol' },
  });
  t.equal(created.status, 200);
  t.same(created.body, {
    memory_id: 'id-1',
    memory: 'Likes tea',
    topics: ['food'],
    agent_id: null,
    team_id: null,
    user_id: 'carol',
    updated_at: isoAt(0),
  });
  const read = await call(rt, 'GET', '/memories/id-1');
  t.same(read.body, created.body, 'GET answers what POST answered');
  const noTopics = await call(rt, 'POST', '/memories', {
    json: { memory: 'x', user_id: 'carol', topics: null, extra: 'ignored' },
  });
  t.same(noTopics.body.topics, [], 'null topics are none');
});

t.test('POST /memories: who the memory belongs to', async (t) => {
  const rt = runtimeApp(t);
  const rows: [string, Record<string, string>, string | undefined, number, unknown][] = [
    ['a confined caller, whatever the body says', ALICE, 'bob', 200, 'alice'],
    ['the context user of an unconfined caller', ADMIN, 'bob', 200, 'root'],
    ['the body for an admin without a user id', ROOT, 'bob', 200, 'bob'],
    ['the body for an anonymous caller', {}, 'bob', 200, 'bob'],
    [
      'an empty context user falls back to the body',
      contextHeader({ user_id: '' }),
      'dan',
      200,
      'dan',
    ],
  ];
  for (const [name, headers, userId, status, owner] of rows) {
    const res = await call(rt, 'POST', '/memories', {
      json: { memory: 'm', ...(userId === undefined ? {} : { user_id: userId }) },
      headers,
    });
    t.equal(res.status, status, name);
    t.equal(res.body.user_id, owner, name);
  }
  const none = await call(rt, 'POST', '/memories', { json: { memory: 'm' } });
  t.same([none.status, none.body], [400, { detail: 'User ID is required' }]);
  const rootNone = await call(rt, 'POST', '/memories', { json: { memory: 'm' }, headers: ROOT });
  t.same([rootNone.status, rootNone.body], [400, { detail: 'User ID is required' }]);
});

t.test('POST /memories: bad bodies are 422 in pydantic’s words', async (t) => {
  const rt = runtimeApp(t);
  const long = 'x'.repeat(5001);
  const rows: [string, unknown, unknown[]][] = [
    [
      'memory missing',
      { user_id: 'u' },
      [{ type: 'missing', loc: ['body', 'memory'], msg: 'Field required', input: null }],
    ],
    [
      'memory empty',
      { memory: '', user_id: 'u' },
      [
        {
          type: 'string_too_short',
          loc: ['body', 'memory'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
      ],
    ],
    [
      'memory too long',
      { memory: long, user_id: 'u' },
      [
        {
          type: 'string_too_long',
          loc: ['body', 'memory'],
          msg: 'String should have at most 5000 characters',
          input: long,
          ctx: { max_length: 5000 },
        },
      ],
    ],
    [
      'wrong types, every one listed',
      { memory: 5, user_id: 7, topics: 'food' },
      [
        {
          type: 'string_type',
          loc: ['body', 'memory'],
          msg: 'Input should be a valid string',
          input: 5,
        },
        {
          type: 'string_type',
          loc: ['body', 'user_id'],
          msg: 'Input should be a valid string',
          input: 7,
        },
        {
          type: 'list_type',
          loc: ['body', 'topics'],
          msg: 'Input should be a valid list',
          input: 'food',
        },
      ],
    ],
  ];
  for (const [name, json, detail] of rows) {
    const res = await call(rt, 'POST', '/memories', { json });
    t.equal(res.status, 422, name);
    t.same(res.body, { detail }, name);
  }
  const noBody = await call(rt, 'POST', '/memories');
  t.same(noBody.body, {
    detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
  });
  const exactly = await call(rt, 'POST', '/memories', {
    json: { memory: 'y'.repeat(5000), user_id: 'u' },
  });
  t.equal(exactly.status, 200, '5000 characters are accepted');
  const otherDb = await call(rt, 'POST', '/memories?db_id=nope', {
    json: { memory: 'm', user_id: 'u' },
  });
  t.same([otherDb.status, otherDb.body], [404, { detail: "No database found with id 'nope'" }]);
});

t.test('GET /memories: pagination envelope, default order newest change first', async (t) => {
  const rt = await seeded(t);
  const all = await call(rt, 'GET', '/memories');
  t.equal(all.status, 200);
  t.same(ids(all), ['m3', 'm2', 'b1', 'm1']);
  t.same(all.body.meta, {
    page: 1,
    limit: 20,
    total_pages: 1,
    total_count: 4,
    search_time_ms: 0,
  });
  t.same(all.body.data[0], {
    memory_id: 'm3',
    memory: 'Drinks coffee',
    topics: ['drink'],
    agent_id: null,
    team_id: 't1',
    user_id: 'alice',
    updated_at: isoAt(20),
  });
  const page2 = await call(rt, 'GET', '/memories?limit=3&page=2');
  t.same(ids(page2), ['m1']);
  t.same(page2.body.meta, { page: 2, limit: 3, total_pages: 2, total_count: 4, search_time_ms: 0 });
  const page0 = await call(rt, 'GET', '/memories?limit=3&page=0');
  t.same([ids(page0), page0.body.meta.page], [['m3', 'm2', 'b1'], 1], 'page 0 is page 1');
  const past = await call(rt, 'GET', '/memories?page=9');
  t.same([past.body.data, past.body.meta.total_count], [[], 4], 'past the end: no rows');
});

t.test('GET /memories: filters and sorting', async (t) => {
  const rt = await seeded(t);
  const rows: [string, string, string[]][] = [
    ['user_id', 'user_id=bob', ['b1']],
    ['agent_id', 'agent_id=a1', ['m1']],
    ['team_id', 'team_id=t1', ['m3']],
    ['one topic', 'topics=drink', ['m3', 'm1']],
    ['any of several topics', 'topics=place,%20food', ['m2', 'm1']],
    ['blank topics filter nothing', 'topics=,', ['m3', 'm2', 'b1', 'm1']],
    ['search_content, any case', 'search_content=TEA', ['b1', 'm1']],
    ['empty search_content filters nothing', 'search_content=', ['m3', 'm2', 'b1', 'm1']],
    ['filters combine', 'user_id=alice&search_content=tea', ['m1']],
    ['sort_by memory asc', 'sort_by=memory&sort_order=asc', ['b1', 'm3', 'm1', 'm2']],
    [
      'sort_by created_at, ties by id',
      'sort_by=created_at&sort_order=asc',
      ['b1', 'm1', 'm2', 'm3'],
    ],
    ['unknown sort_by is ignored', 'sort_by=nonsense&sort_order=asc', ['m1', 'b1', 'm2', 'm3']],
    ['db_id of the runtime', 'db_id=runtime-db&table=any', ['m3', 'm2', 'b1', 'm1']],
  ];
  for (const [name, query, expected] of rows) {
    const res = await call(rt, 'GET', `/memories?${query}`);
    t.equal(res.status, 200, name);
    t.same(ids(res), expected, name);
  }
});

t.test('GET /memories: bad query parameters are 422', async (t) => {
  const rt = await seeded(t);
  const rows: [string, unknown][] = [
    [
      'sort_order=up',
      {
        type: 'enum',
        loc: ['query', 'sort_order'],
        msg: "Input should be 'asc' or 'desc'",
        input: 'up',
        ctx: { expected: "'asc' or 'desc'" },
      },
    ],
    [
      'limit=0',
      {
        type: 'greater_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
    ],
    [
      'limit=1001',
      {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be less than or equal to 1000',
        input: '1001',
        ctx: { le: 1000 },
      },
    ],
    [
      'page=x',
      {
        type: 'int_parsing',
        loc: ['query', 'page'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'x',
      },
    ],
  ];
  for (const [query, detail] of rows) {
    const res = await call(rt, 'GET', `/memories?${query}`);
    t.same([res.status, res.body], [422, { detail: [detail] }], query);
  }
  const otherDb = await call(rt, 'GET', '/memories?db_id=nope');
  t.equal(otherDb.status, 404);
});

t.test('GET /memories/{id}: 404 in Agno’s words; user_id is a filter', async (t) => {
  const rt = await seeded(t);
  t.equal((await call(rt, 'GET', '/memories/m1?user_id=alice&db_id=runtime-db')).status, 200);
  for (const url of ['/memories/nope', '/memories/m1?user_id=bob']) {
    const res = await call(rt, 'GET', url);
    const id = url.split('/')[2]?.split('?')[0];
    t.same([res.status, res.body], [404, { detail: `Memory with ID ${id} not found` }], url);
  }
});

t.test('PATCH /memories/{id}: replaces memory and topics, keeps the rest', async (t) => {
  const rt = await seeded(t);
  rt.clock.advance(60_000);
  const res = await call(rt, 'PATCH', '/memories/m1', {
    json: { memory: 'Prefers green tea', user_id: 'alice' },
  });
  t.equal(res.status, 200);
  t.same(res.body, {
    memory_id: 'm1',
    memory: 'Prefers green tea',
    topics: [],
    agent_id: 'a1',
    team_id: null,
    user_id: 'alice',
    updated_at: isoAt(60),
  });
  t.same((await rt.store.memories.get('m1'))?.created_at, TEST_NOW, 'created_at is kept');
  const topics = await call(rt, 'PATCH', '/memories/m1', {
    json: { memory: 'x', topics: ['t'] },
    headers: ALICE,
  });
  t.same(topics.body.topics, ['t']);
  const unknown = await call(rt, 'PATCH', '/memories/nope', {
    json: { memory: 'x', user_id: 'u' },
  });
  t.same([unknown.status, unknown.body], [404, { detail: 'Memory not found' }]);
  const noUser = await call(rt, 'PATCH', '/memories/m1', { json: { memory: 'x' } });
  t.same([noUser.status, noUser.body], [400, { detail: 'User ID is required' }]);
  const bad = await call(rt, 'PATCH', '/memories/m1', { json: { memory: '' } });
  t.equal(bad.status, 422, 'the body is checked first');
});

t.test('DELETE /memories/{id} and the bulk DELETE /memories: 204', async (t) => {
  const rt = await seeded(t);
  const one = await call(rt, 'DELETE', '/memories/m1?db_id=runtime-db');
  t.same([one.status, one.body], [204, '']);
  t.equal(await rt.store.memories.get('m1'), null);
  const unknown = await call(rt, 'DELETE', '/memories/nope');
  t.equal(unknown.status, 204, 'an unknown id is not an error');
  const filtered = await call(rt, 'DELETE', '/memories/m2?user_id=bob');
  t.equal(filtered.status, 204);
  t.not(await rt.store.memories.get('m2'), null, 'user_id filters what is deleted');

  const bulkOther = await call(rt, 'DELETE', '/memories', {
    json: { memory_ids: ['m2', 'm3'], user_id: 'bob' },
  });
  t.equal(bulkOther.status, 204);
  t.not(await rt.store.memories.get('m2'), null, 'the bulk user_id filters too');
  const bulk = await call(rt, 'DELETE', '/memories', {
    json: { memory_ids: ['m2', 'm3', 'nope'], user_id: null },
  });
  t.equal(bulk.status, 204);
  t.same(ids(await call(rt, 'GET', '/memories')), ['b1']);

  const empty = await call(rt, 'DELETE', '/memories', { json: { memory_ids: [] } });
  t.same(empty.body, {
    detail: [
      {
        type: 'too_short',
        loc: ['body', 'memory_ids'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      },
    ],
  });
  const missing = await call(rt, 'DELETE', '/memories', { json: {} });
  t.same(missing.body.detail, [
    { type: 'missing', loc: ['body', 'memory_ids'], msg: 'Field required', input: null },
  ]);
});

t.test('isolation: two confined users never touch each other’s memories', async (t) => {
  const rt = await seeded(t);
  const bobList = await call(rt, 'GET', '/memories?user_id=alice', { headers: BOB });
  t.same(ids(bobList), ['b1'], 'query user_id is replaced by the scoped user');
  t.equal(bobList.body.meta.total_count, 1);
  const aliceList = await call(rt, 'GET', '/memories', { headers: ALICE });
  t.same(ids(aliceList), ['m3', 'm2', 'm1']);

  const read = await call(rt, 'GET', '/memories/m1', { headers: BOB });
  t.same([read.status, read.body], [404, { detail: 'Memory with ID m1 not found' }]);
  const patch = await call(rt, 'PATCH', '/memories/m1', {
    json: { memory: 'hijacked' },
    headers: BOB,
  });
  t.same([patch.status, patch.body], [404, { detail: 'Memory not found' }]);

  const created = await call(rt, 'POST', '/memories', {
    json: { memory: 'planted', user_id: 'alice' },
    headers: BOB,
  });
  t.equal(created.body.user_id, 'bob', 'POST forces the scoped user');

  t.equal((await call(rt, 'DELETE', '/memories/m1', { headers: BOB })).status, 204);
  t.equal(
    (
      await call(rt, 'DELETE', '/memories', {
        json: { memory_ids: ['m2'], user_id: 'alice' },
        headers: BOB,
      })
    ).status,
    204,
  );
  t.same(
    ids(await call(rt, 'GET', '/memories', { headers: ALICE })),
    ['m3', 'm2', 'm1'],
    'alice still has all hers',
  );
  t.equal(
    (await call(rt, 'DELETE', '/memories', { json: { memory_ids: ['m1'] }, headers: ALICE }))
      .status,
    204,
  );
  t.equal(await rt.store.memories.get('m1'), null, 'her own go');
  t.equal((await call(rt, 'DELETE', '/memories/m2', { headers: ALICE })).status, 204);
  t.equal(await rt.store.memories.get('m2'), null);
});
