/**
 * The knowledge search index over an asynchronous load: one load however many searches wait for
 * it, the changes made while it loads applied once it has, a clear during the load keeping the
 * stale build out, and a failed load retried by the next search.
 */
import t from 'tap';
import type { ChunkRecord } from '../../../../src/runtime/api/knowledge/table.js';
import { createKnowledgeIndex } from '../../../../src/runtime/api/knowledge/search-index.js';
import { deferred } from '../../fixtures/runtime.js';

const chunk = (content_id: string, text: string): ChunkRecord => ({ content_id, seq: 0, text });

/** An index whose loads wait for the test to hand each one its chunks (or an error). */
function gated() {
  const loads: ReturnType<typeof deferred<readonly ChunkRecord[]>>[] = [];
  const index = createKnowledgeIndex(() => {
    const load = deferred<readonly ChunkRecord[]>();
    loads.push(load);
    return load.promise;
  });
  const ids = async (query: string) => (await index.search(query, () => true)).map((hit) => hit.id);
  return { index, loads, ids };
}

t.test('searches wait for one load; changes made meanwhile apply after it', async (t) => {
  const { index, loads, ids } = gated();
  index.put('c-0', ['owl zero']);
  index.remove('c-1');
  t.equal(loads.length, 0, 'before the first search a change loads nothing');
  const first = ids('owl');
  const second = ids('owl');
  index.put('c-2', ['owl two']);
  index.remove('c-1');
  index.put('c-3', ['owl three']);
  t.equal(loads.length, 1, 'one load for both searches');
  (loads[0] as (typeof loads)[0]).resolve([chunk('c-1', 'owl one'), chunk('c-3', 'old text')]);
  t.same((await first).sort(), ['c-2_0', 'c-3_0'], 'the load, then the changes in order');
  t.same((await second).sort(), ['c-2_0', 'c-3_0']);
  t.same(await ids('old'), [], 'a replaced content keeps only its new chunks');
  index.remove('c-2');
  t.same(await ids('owl'), ['c-3_0'], 'a built index is changed at once');
  t.equal(loads.length, 1, 'the built index is kept');
});

t.test('a clear during the load: the stale build serves only who waited', async (t) => {
  const { index, loads, ids } = gated();
  const waiting = ids('owl');
  index.clear();
  index.put('c-9', ['owl nine']);
  (loads[0] as (typeof loads)[0]).resolve([chunk('c-1', 'owl one')]);
  t.same(await waiting, ['c-1_0'], 'the search that waited');
  const next = ids('owl');
  t.equal(loads.length, 2, 'the next search loads again');
  (loads[1] as (typeof loads)[0]).resolve([]);
  t.same(await next, [], 'from what the store holds now');
});

t.test('a failed load fails its searches and is retried by the next', async (t) => {
  const { index, loads, ids } = gated();
  const failing = ids('owl');
  (loads[0] as (typeof loads)[0]).resolve(Promise.reject(new Error('closed')) as never);
  await t.rejects(failing, new Error('closed'));
  const cleared = ids('owl');
  index.clear();
  (loads[1] as (typeof loads)[0]).resolve(Promise.reject(new Error('closed')) as never);
  await t.rejects(cleared, new Error('closed'), 'a failed load after a clear');
  const retried = ids('owl');
  (loads[2] as (typeof loads)[0]).resolve([chunk('c-1', 'owl one')]);
  t.same(await retried, ['c-1_0']);
});
