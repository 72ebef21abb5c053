/**
 * The knowledge search index over its source: built on the first search, one load however many
 * searches of one revision wait for it, built again once the revision moves (whichever runtime
 * moved it), chunks indexed in content-id order, and a failed load retried by the next search.
 */
import t from 'tap';
import type { ChunkRecord } from '../../../../src/runtime/api/knowledge/table.js';
import { createKnowledgeIndex } from '../../../../src/runtime/api/knowledge/search-index.js';
import { deferred } from '../../fixtures/runtime.js';

const chunk = (content_id: string, text: string): ChunkRecord => ({ content_id, seq: 0, text });

/** An index whose loads wait for the test to hand each one its chunks (or an error). */
function gated() {
  const loads: ReturnType<typeof deferred<readonly ChunkRecord[]>>[] = [];
  let revision = 0;
  const index = createKnowledgeIndex({
    revision: async () => revision,
    chunks: () => {
      const load = deferred<readonly ChunkRecord[]>();
      loads.push(load);
      return load.promise;
    },
  });
  const ids = async (query: string) => (await index.search(query, () => true)).map((hit) => hit.id);
  return { loads, ids, move: () => void (revision += 1) };
}

t.test('searches of one revision share one load; a moved revision loads again', async (t) => {
  const { loads, ids, move } = gated();
  t.equal(loads.length, 0, 'nothing is loaded before the first search');
  const first = ids('owl');
  const second = ids('owl');
  await new Promise((r) => setImmediate(r));
  t.equal(loads.length, 1, 'one load for both searches');
  loads[0]!.resolve([chunk('c-1', 'owl one'), chunk('c-3', 'old text')]);
  t.same(await first, ['c-1_0']);
  t.same(await second, ['c-1_0']);
  t.same(await ids('old'), ['c-3_0'], 'the built index is kept');
  t.equal(loads.length, 1);
  move();
  const moved = ids('owl');
  await new Promise((r) => setImmediate(r));
  t.equal(loads.length, 2, 'the moved revision loads again');
  loads[1]!.resolve([chunk('c-2', 'owl two'), chunk('c-3', 'owl three')]);
  t.same((await moved).sort(), ['c-2_0', 'c-3_0'], 'what the store holds now');
  t.same(await ids('one'), [], 'nothing of the earlier build is left');
});

t.test('a failed load fails its searches and is retried by the next', async (t) => {
  const { loads, ids } = gated();
  const failing = ids('owl');
  await new Promise((r) => setImmediate(r));
  loads[0]!.resolve(Promise.reject(new Error('closed')) as never);
  await t.rejects(failing, new Error('closed'));
  const retried = ids('owl');
  await new Promise((r) => setImmediate(r));
  loads[1]!.resolve([chunk('c-1', 'owl one')]);
  t.same(await retried, ['c-1_0']);
});
