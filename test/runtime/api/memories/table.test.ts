/**
 * The memory and learning stores on the query layer, on a real SQLite file and on PostgreSQL: a bulk delete larger
 * than one statement's share of ids is still one count and owner-confined, a replacement is one
 * transaction, and a closed store answers the routes with a 500, never a 200 with nothing.
 */
import t from 'tap';
import type { MemoryRecord } from '../../../../src/runtime/store/records.js';
import { call, runtimeApp } from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';

const memory = (memory_id: string, user_id: string): MemoryRecord => ({
  memory_id,
  memory: `text of ${memory_id}`,
  topics: [],
  user_id,
  agent_id: null,
  team_id: null,
  created_at: 1,
  updated_at: 1,
});

eachStore(t, 'a bulk delete of 1,201 ids counts once and keeps to the owner', async (t, stores) => {
  const store = await stores.open();
  const ids = Array.from({ length: 1201 }, (_, i) => `m${i}`);
  await store.memories.replaceUser('alice', [
    ...ids.map((id, i) => memory(id, i % 2 === 0 ? 'alice' : 'bob')),
  ]);
  t.equal(await store.memories.delete([...ids, 'nope', 'm0'], 'alice'), 601, 'alice’s only');
  t.equal((await store.memories.ofUser('bob')).length, 600, 'bob’s are kept');
  t.equal(await store.memories.delete(ids), 600, 'no owner: any');
  t.equal(await store.memories.delete([]), 0, 'no ids, nothing');
});

eachStore(t, 'a replacement that fails leaves the memories as they were', async (t, stores) => {
  const store = await stores.open();
  await store.memories.put(memory('m1', 'alice'));
  const bad = { ...memory('m2', 'alice'), memory: null } as unknown as MemoryRecord;
  await t.rejects(store.memories.replaceUser('alice', [memory('m3', 'alice'), bad]), {
    message: /NOT NULL|not-null/,
  });
  t.same(
    (await store.memories.ofUser('alice')).map((m) => m.memory_id),
    ['m1'],
    'rolled back',
  );
});

t.test('a closed store: the memory and learning routes answer 500, never a 200', async (t) => {
  const rt = runtimeApp(t);
  rt.store.close();
  const rows: [name: string, url: string][] = [
    ['GET /memories', '/memories'],
    ['GET /memories/{id}', '/memories/m1'],
    ['GET /memory_topics', '/memory_topics'],
    ['GET /user_memory_stats', '/user_memory_stats'],
    ['GET /learnings', '/learnings'],
    ['GET /learnings/{id}', '/learnings/l1'],
    ['GET /learnings/users', '/learnings/users'],
  ];
  for (const [name, url] of rows) {
    t.same(
      await call(rt, 'GET', url),
      { status: 500, body: { detail: 'Internal runtime error' } },
      name,
    );
  }
});
