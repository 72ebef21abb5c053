/**
 * The knowledge tables on a real SQLite file and on PostgreSQL: contents replaced by id keeping
 * their creation time, chunks stored with completion and dropped with their content, paging and
 * orders, per-instance reads and deletes, and the failures a restart records.
 */
import t from 'tap';
import type { ContentRecord } from '../../../../src/runtime/api/knowledge/table.js';
import { call, runtimeApp } from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';

const content = (fields: Partial<ContentRecord> = {}): ContentRecord => ({
  id: 'c-1',
  knowledge_id: 'kb',
  name: 'one',
  description: null,
  type: 'text/plain',
  size: null,
  metadata: null,
  status: 'processing',
  status_message: null,
  reader_id: null,
  chunker: 'FixedSizeChunker',
  chunk_size: 10,
  chunk_overlap: 0,
  origin: null,
  created_at: 100,
  updated_at: 100,
  ...fields,
});

eachStore(
  t,
  'complete stores chunks; put replaces by id, keeping created_at',
  async (t, stores) => {
    const k = (await stores.open()).knowledge;
    await k.put(content({ metadata: { a: 1 } }));
    t.equal(
      await k.complete('c-1', { type: 'text/csv', size: 7, chunks: ['ab', 'cd'] }, 200),
      true,
    );
    t.same(await k.get('c-1'), {
      ...content({ metadata: { a: 1 } }),
      type: 'text/csv',
      size: 7,
      status: 'completed',
      updated_at: 200,
    });
    t.same(await k.chunks('kb'), [
      { content_id: 'c-1', seq: 0, text: 'ab' },
      { content_id: 'c-1', seq: 1, text: 'cd' },
    ]);
    t.same(await k.chunks('other'), [], 'chunks of one instance only');
    await k.put(content({ name: 'again', created_at: 300, updated_at: 300 }));
    t.match(await k.get('c-1'), {
      name: 'again',
      created_at: 100,
      updated_at: 300,
      status: 'processing',
    });
    t.same(await k.chunks('kb'), [], 'a replaced content loses its chunks');
    t.equal(await k.complete('c-9', { type: 'text/plain', size: 0, chunks: [] }, 1), false);
    t.equal(await k.get('c-9'), null);
  },
);

eachStore(t, 'update, fail and the failures of a restart', async (t, stores) => {
  const k = (await stores.open()).knowledge;
  await k.put(content());
  await k.put(content({ id: 'c-2' }));
  await k.complete('c-2', { type: 'text/plain', size: 1, chunks: ['x'] }, 150);
  await k.update({
    ...content(),
    name: 'renamed',
    description: 'd',
    metadata: { b: true },
    reader_id: 'text',
    status: 'failed',
    updated_at: 160,
  });
  t.match(await k.get('c-1'), {
    name: 'renamed',
    description: 'd',
    metadata: { b: true },
    reader_id: 'text',
    status: 'processing',
    updated_at: 160,
  });
  t.equal(await k.failProcessing('stopped', 170), 1, 'only processing contents');
  t.match(await k.get('c-1'), { status: 'failed', status_message: 'stopped', updated_at: 170 });
  t.match(await k.get('c-2'), { status: 'completed' });
  await k.fail('c-2', 'broken', 180);
  t.match(await k.get('c-2'), { status: 'failed', status_message: 'broken', updated_at: 180 });
  await k.update({ ...content(), metadata: null, updated_at: 190 });
  t.equal((await k.get('c-1'))?.metadata, null);
});

eachStore(t, 'list pages in each order; metadata keys; deletes', async (t, stores) => {
  const k = (await stores.open()).knowledge;
  await k.put(
    content({ id: 'a', name: 'z', created_at: 1, updated_at: 9, metadata: { x: 1, y: 2 } }),
  );
  await k.put(content({ id: 'b', name: 'y', created_at: 2, updated_at: 8, metadata: { y: 3 } }));
  await k.put(content({ id: 'c', name: 'x', created_at: 3, updated_at: 7 }));
  await k.put(content({ id: 'd', knowledge_id: 'other', metadata: { w: 1 } }));
  const ids = async (sortBy: 'created_at' | 'updated_at' | 'name', sortOrder: 'asc' | 'desc') =>
    (await k.list('kb', { page: 1, limit: 10, sortBy, sortOrder })).rows.map((r) => r.id);
  t.same(await ids('created_at', 'desc'), ['c', 'b', 'a']);
  t.same(await ids('created_at', 'asc'), ['a', 'b', 'c']);
  t.same(await ids('updated_at', 'asc'), ['c', 'b', 'a']);
  t.same(await ids('name', 'asc'), ['c', 'b', 'a']);
  const page = await k.list('kb', { page: 2, limit: 2, sortBy: 'created_at', sortOrder: 'asc' });
  t.same({ ids: page.rows.map((r) => r.id), total: page.total }, { ids: ['c'], total: 3 });
  t.same(await k.metadataKeys('kb'), ['x', 'y']);
  t.equal(await k.delete('other', 'a'), false, 'not of that instance');
  t.equal(await k.delete('kb', 'a'), true);
  t.equal(await k.delete('kb', 'a'), false);
  t.equal(await k.deleteAll('kb'), 2);
  t.same((await k.list('kb', { page: 1, limit: 10, sortBy: 'name', sortOrder: 'desc' })).total, 0);
  t.match(await k.get('d'), { knowledge_id: 'other' }, 'another instance is untouched');
});

eachStore(t, 'a closed store: the knowledge routes answer 500, never a 200', async (t, stores) => {
  const rt = runtimeApp(t, { store: await stores.open() });
  await rt.store.close();
  const rows: [name: string, method: 'GET' | 'POST', url: string, json?: unknown][] = [
    ['GET /knowledge/content', 'GET', '/knowledge/content'],
    ['GET /knowledge/content/{id}', 'GET', '/knowledge/content/c-1'],
    ['GET /knowledge/content/{id}/status', 'GET', '/knowledge/content/c-1/status'],
    ['GET /knowledge/config', 'GET', '/knowledge/config'],
    ['POST /knowledge/search', 'POST', '/knowledge/search', { query: 'x' }],
  ];
  for (const [name, method, url, json] of rows) {
    t.same(
      await call(rt, method, url, json === undefined ? {} : { json }),
      { status: 500, body: { detail: 'Internal runtime error' } },
      name,
    );
  }
});
