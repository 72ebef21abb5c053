/**
 * Background processing of knowledge contents over a real store (SQLite and PostgreSQL) and index:
 * jobs start after the current turn, a content deleted meanwhile stays deleted, close cancels
 * running fetches, and a job never crashes the process.
 */
import t, { type Test } from 'tap';
import { createKnowledgeIndex } from '../../../../src/runtime/api/knowledge/search-index.js';
import {
  createKnowledgeProcessor,
  type ProcessingJob,
} from '../../../../src/runtime/api/knowledge/processing.js';
import type { ContentRecord } from '../../../../src/runtime/api/knowledge/table.js';
import { createOutboundGuard } from '../../../../src/runtime/outbound/guard.js';
import { contentServer, stall } from '../../fixtures/knowledge.js';
import { createTestClock } from '../../../fixtures/tokens.js';
import { eachStore, type Stores } from '../../fixtures/stores.js';

const CONTENT: ContentRecord = {
  id: 'c-1',
  knowledge_id: 'kb',
  name: 'one',
  description: null,
  type: null,
  size: null,
  metadata: null,
  status: 'processing',
  status_message: null,
  reader_id: null,
  chunker: 'FixedSizeChunker',
  chunk_size: 100,
  chunk_overlap: 0,
  origin: null,
  created_at: 1,
  updated_at: 1,
};

const job = (fields: Partial<ProcessingJob> = {}): ProcessingJob => ({
  contentId: 'c-1',
  source: { kind: 'text', text: 'moles tunnel' },
  readerId: null,
  chunkSize: 100,
  chunkOverlap: 0,
  ...fields,
});

/** A store holding CONTENT (processing), its index and a processor over them. */
async function setup(t: Test, stores: Stores) {
  const store = await stores.open();
  await store.knowledge.put(CONTENT);
  const index = createKnowledgeIndex({
    revision: () => store.knowledge.revision('kb'),
    chunks: () => store.knowledge.chunks('kb'),
  });
  const outbound = createOutboundGuard({ allowHosts: ['127.0.0.1'] });
  t.teardown(() => outbound.close());
  const processor = createKnowledgeProcessor({
    store: store.knowledge,
    clock: createTestClock(),
    limits: { maxBytes: 1024, timeoutMs: 30_000 },
    // The content server is on loopback: opened on purpose.
    outbound: outbound.dispatcher,
  });
  const found = async () => (await index.search('moles', () => true)).map((hit) => hit.id);
  return { store, index, processor, found };
}

eachStore(t, 'a job runs after the current turn and indexes what it stored', async (t, stores) => {
  const { store, processor, found } = await setup(t, stores);
  t.same(await found(), [], 'the index is built (empty) before the job');
  processor.enqueue(job());
  t.equal((await store.knowledge.get('c-1'))?.status, 'processing', 'not yet');
  await processor.idle();
  t.match(await store.knowledge.get('c-1'), { status: 'completed', type: 'text/plain', size: 12 });
  t.same(await found(), ['c-1_0'], 'the built index was kept current');
});

eachStore(
  t,
  'a content deleted before its job finishes stays deleted and unindexed',
  async (t, stores) => {
    const { store, processor, found } = await setup(t, stores);
    t.same(await found(), []);
    processor.enqueue(job());
    await store.knowledge.delete('kb', 'c-1');
    await processor.idle();
    t.equal(await store.knowledge.get('c-1'), null);
    t.same(await store.knowledge.chunks('kb'), []);
    t.same(await found(), []);
  },
);

eachStore(t, 'a job that cannot chunk fails its content with the reason', async (t, stores) => {
  const { store, processor } = await setup(t, stores);
  processor.enqueue(job({ chunkSize: 4, chunkOverlap: 4 }));
  await processor.idle();
  t.match(await store.knowledge.get('c-1'), {
    status: 'failed',
    status_message: 'Processing failed: bad chunking: size 4, overlap 4',
  });
});

eachStore(t, 'a store closed under a job does not crash the process', async (t, stores) => {
  const { store, processor } = await setup(t, stores);
  processor.enqueue(job());
  const closed = store.close();
  await processor.idle();
  await closed;
  t.pass('idle resolved');
});

eachStore(t, 'close cancels a running fetch; its content fails', async (t, stores) => {
  const server = await contentServer(t, { '/slow': stall });
  const { store, processor } = await setup(t, stores);
  processor.enqueue(job({ source: { kind: 'urls', urls: [new URL(`${server.url}/slow`)] } }));
  while (server.hits.get('/slow') === undefined) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await processor.close();
  t.match(await store.knowledge.get('c-1'), {
    status: 'failed',
    status_message: `Fetching ${server.url}/slow was cancelled: the runtime stopped`,
  });
});
