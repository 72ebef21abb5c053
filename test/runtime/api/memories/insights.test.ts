/**
 * GET /memory_topics, GET /user_memory_stats and POST /optimize-memories: exact bodies, pagination, the offline optimization applied or only reported, and a
 * confined caller only ever seeing or optimizing its own memories.
 */
import t, { type Test } from 'tap';
import type { MemoryRecord } from '../../../../src/runtime/api/memories/table.js';
import {
  contextHeader,
  runtimeApp,
  TEST_NOW,
  type TestRuntime,
  call,
} from '../../fixtures/runtime.js';

const ALICE = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
const BOB = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });

const isoAt = (s: number): string =>
  new Date((TEST_NOW + s) * 1000).toISOString().replace('.000Z', 'Z');

function memory(overrides: Partial<MemoryRecord> & { memory_id: string }): MemoryRecord {
  return {
    memory: overrides.memory_id,
    topics: [],
    user_id: 'alice',
    agent_id: null,
    team_id: null,
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
    ...overrides,
  };
}

/** Alice: three memories, one a near-duplicate; bob: one; carol: one, changed last. */
async function seeded(t: Test): Promise<TestRuntime> {
  const rt = runtimeApp(t);
  const put = (m: MemoryRecord): Promise<void> => rt.store.memories.put(m);
  await put(memory({ memory_id: 'm1', memory: 'Likes green tea', topics: ['food', 'drink'] }));
  await put(
    memory({
      memory_id: 'm2',
      memory: ' likes  GREEN tea ',
      topics: ['drink'],
      updated_at: TEST_NOW + 1,
    }),
  );
  await put(
    memory({
      memory_id: 'm3',
      memory: 'Lives in Oslo',
      topics: ['place'],
      updated_at: TEST_NOW + 2,
    }),
  );
  await put(
    memory({
      memory_id: 'b1',
      memory: 'Bob cycles',
      user_id: 'bob',
      topics: ['sport'],
      updated_at: TEST_NOW + 5,
    }),
  );
  await put(
    memory({ memory_id: 'c1', memory: 'Carol sings', user_id: 'carol', updated_at: TEST_NOW + 9 }),
  );
  return rt;
}

t.test('GET /memory_topics: distinct topics, sorted; user_id filters', async (t) => {
  const rt = await seeded(t);
  const all = await call(rt, 'GET', '/memory_topics?db_id=runtime-db');
  t.same([all.status, all.body], [200, ['drink', 'food', 'place', 'sport']]);
  t.same((await call(rt, 'GET', '/memory_topics?user_id=bob')).body, ['sport']);
  t.same((await call(rt, 'GET', '/memory_topics?user_id=nobody')).body, []);
  t.same(
    (await call(rt, 'GET', '/memory_topics?user_id=bob', { headers: ALICE })).body,
    ['drink', 'food', 'place'],
    'a confined caller sees its own topics only',
  );
  t.equal((await call(rt, 'GET', '/memory_topics?db_id=x')).status, 404);
});

t.test('GET /user_memory_stats: per-user counts, newest change first, paginated', async (t) => {
  const rt = await seeded(t);
  const all = await call(rt, 'GET', '/user_memory_stats');
  t.equal(all.status, 200);
  t.same(all.body, {
    data: [
      { user_id: 'carol', total_memories: 1, last_memory_updated_at: isoAt(9) },
      { user_id: 'bob', total_memories: 1, last_memory_updated_at: isoAt(5) },
      { user_id: 'alice', total_memories: 3, last_memory_updated_at: isoAt(2) },
    ],
    meta: { page: 1, limit: 20, total_pages: 1, total_count: 3, search_time_ms: 0 },
  });
  const page = await call(rt, 'GET', '/user_memory_stats?limit=2&page=2');
  t.same(page.body, {
    data: [{ user_id: 'alice', total_memories: 3, last_memory_updated_at: isoAt(2) }],
    meta: { page: 2, limit: 2, total_pages: 2, total_count: 3, search_time_ms: 0 },
  });
  const bob = await call(rt, 'GET', '/user_memory_stats?user_id=bob');
  t.same(bob.body.data, [{ user_id: 'bob', total_memories: 1, last_memory_updated_at: isoAt(5) }]);
  const confined = await call(rt, 'GET', '/user_memory_stats?user_id=bob', { headers: ALICE });
  t.same(
    [confined.body.data.map((r: { user_id: string }) => r.user_id), confined.body.meta.total_count],
    [['alice'], 1],
    'a confined caller sees its own row only',
  );
  t.equal((await call(rt, 'GET', '/user_memory_stats?limit=0')).status, 422);
  t.equal((await call(rt, 'GET', '/user_memory_stats?db_id=x')).status, 404);
});

t.test('POST /optimize-memories: apply=true replaces the memories with one summary', async (t) => {
  const rt = await seeded(t);
  rt.clock.advance(30_000);
  const res = await call(rt, 'POST', '/optimize-memories', { json: { user_id: 'alice' } });
  t.equal(res.status, 200);
  t.same(res.body, {
    memories: [
      {
        memory_id: 'id-1',
        memory: 'Likes green tea Lives in Oslo',
        topics: ['drink', 'food', 'place'],
        agent_id: null,
        team_id: null,
        user_id: 'alice',
        updated_at: isoAt(30),
      },
    ],
    memories_before: 3,
    memories_after: 1,
    tokens_before: 9,
    tokens_after: 6,
    tokens_saved: 3,
    reduction_percentage: 33.33,
  });
  const left = await rt.store.memories.ofUser('alice');
  t.same(
    left.map((m) => [m.memory_id, m.memory]),
    [['id-1', 'Likes green tea Lives in Oslo']],
  );
  t.equal((await rt.store.memories.ofUser('bob')).length, 1, 'other users keep theirs');
});

t.test('POST /optimize-memories: apply=false only reports', async (t) => {
  const rt = await seeded(t);
  const res = await call(rt, 'POST', '/optimize-memories?db_id=runtime-db', {
    json: { user_id: 'alice', apply: false, model: 'openai:gpt-4o-mini' },
  });
  t.equal(res.status, 200);
  t.match(res.body, { memories_before: 3, memories_after: 1, tokens_saved: 3 });
  t.equal((await rt.store.memories.ofUser('alice')).length, 3, 'nothing changed');
});

t.test('POST /optimize-memories: 404, 422, and a confined caller', async (t) => {
  const rt = await seeded(t);
  const none = await call(rt, 'POST', '/optimize-memories', { json: { user_id: 'zed' } });
  t.same([none.status, none.body], [404, { detail: 'No memories found for user zed' }]);
  const missing = await call(rt, 'POST', '/optimize-memories', { json: { apply: 'maybe' } });
  t.same(
    [missing.status, missing.body],
    [
      422,
      {
        detail: [
          { type: 'missing', loc: ['body', 'user_id'], msg: 'Field required', input: null },
          {
            type: 'bool_type',
            loc: ['body', 'apply'],
            msg: 'Input should be a valid boolean',
            input: 'maybe',
          },
        ],
      },
    ],
  );
  const confined = await call(rt, 'POST', '/optimize-memories', {
    json: { user_id: 'alice' },
    headers: BOB,
  });
  t.equal(confined.status, 200);
  t.match(confined.body, {
    memories_before: 1,
    memories: [{ user_id: 'bob', memory: 'Bob cycles' }],
  });
  t.equal((await rt.store.memories.ofUser('alice')).length, 3, 'alice’s are untouched');
});
