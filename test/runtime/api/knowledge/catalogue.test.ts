/**
 * `POST /knowledge/search` (BM25 ranking over stored chunks, filters, pagination),
 * `GET /knowledge/config`, and the remote sources with their file listings, over a real app
 * and store.
 */
import t, { type Test } from 'tap';
import { settled } from '../../fixtures/knowledge.js';
import { DB_ID, FORM, form, runtimeApp, SETTINGS } from '../../fixtures/runtime.js';

const SOURCES = [
  { id: 'docs', name: 'Docs', type: 'url', base_url: 'http://docs.test/base/' },
  { id: 'wiki', name: 'Wiki', type: 'url', base_url: 'http://wiki.test' },
];

const KB_SETTINGS = {
  ...SETTINGS,
  knowledge: { name: 'kb', description: 'Animal facts', sources: SOURCES },
};

/** An app with two sources and a described instance, and an upload helper. */
function setup(t: Test) {
  const rt = runtimeApp(t, { settings: KB_SETTINGS });
  const add = async (fields: Record<string, string>): Promise<string> => {
    const answer = await rt.app.inject({
      method: 'POST',
      url: '/knowledge/content',
      headers: FORM,
      payload: form(fields),
    });
    const { id } = answer.json() as { id: string };
    await settled(rt.app, id);
    return id;
  };
  const search = (payload: unknown) =>
    rt.app.inject({ method: 'POST', url: '/knowledge/search', payload: payload as object });
  return { ...rt, add, search };
}

type Hits = { data: { id: string; content_id: string; content: string }[]; meta: unknown };

t.test('the more relevant document ranks first', async (t) => {
  const { add, search } = setup(t);
  const passing = await add({
    text_content: 'Gardening notes: tomatoes, beans, and once a fox walked by.',
    name: 'garden',
  });
  const focused = await add({
    text_content: 'The red fox is a fox of the northern hemisphere; fox cubs stay with the fox.',
    name: 'fox facts',
    metadata: '{"topic":"fox","level":1}',
  });
  await add({ text_content: 'Nothing about that animal here.', name: 'other' });
  const answer = await search({ query: 'fox' });
  t.equal(answer.statusCode, 200);
  const body = answer.json() as Hits & { meta: { search_time_ms: number } };
  t.same(
    body.data.map((d) => d.content_id),
    [focused, passing],
  );
  t.same(body.data[0], {
    id: `${focused}_0`,
    content: 'The red fox is a fox of the northern hemisphere; fox cubs stay with the fox.',
    name: 'fox facts',
    meta_data: { topic: 'fox', level: 1, chunk: 1, chunk_size: 76 },
    usage: null,
    reranking_score: null,
    content_id: focused,
    content_origin: null,
    size: 76,
  });
  t.match(body.meta, { page: 1, limit: 20, total_pages: 1, total_count: 2 });
  t.ok(body.meta.search_time_ms >= 0, 'search_time_ms is set');

  for (const search_type of ['vector', 'hybrid', 'keyword']) {
    const typed = (await search({ query: 'fox', search_type })).json() as Hits;
    t.same(
      typed.data.map((d) => d.content_id),
      [focused, passing],
      `${search_type} is answered with keyword ranking`,
    );
  }
  const filtered = (await search({ query: 'fox', filters: { topic: 'fox' } })).json() as Hits;
  t.same(
    filtered.data.map((d) => d.content_id),
    [focused],
    'filters match content metadata',
  );
  const none = (await search({ query: 'fox', filters: { level: 2 } })).json() as Hits;
  t.same(none.data, []);
  const capped = (await search({ query: 'fox', max_results: 1 })).json() as Hits;
  t.same(
    capped.data.map((d) => d.content_id),
    [focused],
  );
  const zebra = (await search({ query: 'zebra' })).json() as Hits;
  t.same(zebra.data, []);
  t.match(zebra.meta, { page: 1, limit: 20, total_pages: 0, total_count: 0 });
});

t.test('chunks honour chunk_size and chunk_overlap and page through meta', async (t) => {
  const { add, search } = setup(t);
  const id = await add({
    text_content: 'owl '.repeat(10).trim(),
    chunk_size: '12',
    chunk_overlap: '4',
    name: 'owls',
  });
  const all = (await search({ query: 'owl' })).json() as Hits;
  t.same(
    all.data.map((d) => d.id).sort(),
    [0, 1, 2, 3, 4].map((n) => `${id}_${n}`),
  );
  const inOrder = [...all.data].sort((a, b) => a.id.localeCompare(b.id));
  t.same(
    inOrder.map((d) => d.content),
    ['owl owl owl ', 'owl owl owl ', 'owl owl owl ', 'owl owl owl ', 'owl owl'],
    'windows of 12 characters, each starting 8 after the previous one',
  );
  const second = (await search({ query: 'owl', meta: { limit: 2, page: 2 } })).json() as Hits;
  t.equal(second.data.length, 2);
  t.same(second.meta, {
    page: 2,
    limit: 2,
    total_pages: 3,
    total_count: 5,
    search_time_ms: (second.meta as { search_time_ms: number }).search_time_ms,
  });
  const zero = (await search({ query: 'owl', meta: { limit: 1, page: 0 } })).json() as Hits;
  t.match(zero.meta, { page: 1, limit: 1, total_pages: 5 });
});

t.test('the index is built from the store: a new app over it finds the same', async (t) => {
  const first = setup(t);
  const id = await first.add({ text_content: 'herons wade', name: 'herons' });
  const second = runtimeApp(t, { settings: KB_SETTINGS, store: first.store });
  const answer = await second.app.inject({
    method: 'POST',
    url: '/knowledge/search',
    payload: { query: 'herons' },
  });
  t.match(answer.json(), { data: [{ content_id: id, name: 'herons', content: 'herons wade' }] });
});

t.test("contents of an earlier instance name are not this instance's", async (t) => {
  const first = setup(t);
  const id = await first.add({ text_content: 'cranes dance', name: 'cranes' });
  const renamed = runtimeApp(t, { store: first.store });
  const get = await renamed.app.inject({ url: `/knowledge/content/${id}` });
  t.equal(get.statusCode, 404);
  t.same(get.json(), { detail: `Content not found: ${id}` });
  t.same((await renamed.app.inject({ url: '/knowledge/content' })).json(), {
    data: [],
    meta: { page: 1, limit: 20, total_pages: 0, total_count: 0, search_time_ms: 0 },
  });
  const deleted = await renamed.app.inject({ method: 'DELETE', url: `/knowledge/content/${id}` });
  t.same(deleted.json(), { id });
  t.match(await first.store.knowledge.get(id), { name: 'cranes' }, 'left in place');
  const found = await first.search({ query: 'cranes' });
  t.match(found.json(), { data: [{ content_id: id }] });
});

t.test('search refusals', async (t) => {
  const { search } = setup(t);
  const missing = await search({});
  t.equal(missing.statusCode, 422);
  t.same(missing.json(), {
    detail: [{ type: 'missing', loc: ['body', 'query'], msg: 'Field required', input: null }],
  });
  const type = await search({ query: 'x', search_type: 'semantic' });
  t.equal(type.statusCode, 422);
  t.match(type.json(), { detail: [{ type: 'enum', loc: ['body', 'search_type'] }] });
  const max = await search({ query: 'x', max_results: 1001 });
  t.equal(max.statusCode, 422);
  t.match(max.json(), { detail: [{ loc: ['body', 'max_results'] }] });
  const kb = await search({ query: 'x', knowledge_id: 'other' });
  t.equal(kb.statusCode, 404);
  t.same(kb.json(), { detail: "Knowledge base 'other' not found" });
  t.equal((await search({ query: 'x', knowledge_id: 'kb', db_id: DB_ID })).statusCode, 200);
});

t.test('GET /knowledge/config describes what is supported', async (t) => {
  const { app, add } = setup(t);
  await add({ text_content: 'a', metadata: '{"topic":"x","year":2020}', name: 'a' });
  await add({ text_content: 'b', metadata: '{"author":"y"}', name: 'b' });
  const config = await app.inject({ url: '/knowledge/config' });
  t.equal(config.statusCode, 200);
  t.match(config.json(), {
    readers: {
      text: { id: 'text', name: 'TextReader', chunkers: ['FixedSizeChunker'] },
      html: { id: 'html' },
      markdown: {},
      csv: {},
      json: {},
    },
    readersForType: { '.md': ['markdown'], '.html': ['html'], url: ['html', 'text'] },
    chunkers: {
      FixedSizeChunker: {
        key: 'FixedSizeChunker',
        metadata: { chunk_size: 5000, chunk_overlap: 0 },
      },
    },
    filters: ['author', 'topic', 'year'],
    vector_dbs: [{ id: 'minisearch', search_types: ['keyword', 'vector', 'hybrid'] }],
    remote_content_sources: [
      { id: 'docs', name: 'Docs', type: 'url', metadata: { base_url: 'http://docs.test/base/' } },
      { id: 'wiki', name: 'Wiki', type: 'url', metadata: { base_url: 'http://wiki.test' } },
    ],
  });
  t.equal((await app.inject({ url: '/knowledge/config?db_id=x' })).statusCode, 404);
});

t.test('/config lists the instance with its description', async (t) => {
  const { app } = setup(t);
  const config = (await app.inject({ url: '/config' })).json() as {
    knowledge: { knowledge_instances: Record<string, unknown>[] };
  };
  const instance = config.knowledge.knowledge_instances[0] as { id: string };
  t.same(config.knowledge.knowledge_instances, [
    {
      id: instance.id,
      name: 'kb',
      description: 'Animal facts',
      db_id: DB_ID,
      table: 'agno_knowledge',
    },
  ]);
  t.match(instance.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

t.test('sources and their (empty) file listings', async (t) => {
  const { app } = setup(t);
  const sources = await app.inject({ url: '/knowledge/kb/sources' });
  t.equal(sources.statusCode, 200);
  t.same(sources.json(), [
    { id: 'docs', name: 'Docs', type: 'url', metadata: { base_url: 'http://docs.test/base/' } },
    { id: 'wiki', name: 'Wiki', type: 'url', metadata: { base_url: 'http://wiki.test' } },
  ]);
  const unknownKb = await app.inject({ url: '/knowledge/kb9/sources' });
  t.equal(unknownKb.statusCode, 404);
  t.same(unknownKb.json(), { detail: "Knowledge base 'kb9' not found" });
  const files = await app.inject({ url: '/knowledge/kb/sources/docs/files' });
  t.equal(files.statusCode, 200);
  t.same(files.json(), {
    source_id: 'docs',
    source_name: 'Docs',
    prefix: '',
    folders: [],
    files: [],
    meta: { page: 1, limit: 100, total_pages: 0, total_count: 0 },
  });
  const paged = await app.inject({
    url: `/knowledge/kb/sources/wiki/files?prefix=a/&limit=5&page=2&db_id=${DB_ID}`,
  });
  t.match(paged.json(), { source_id: 'wiki', prefix: 'a/', meta: { page: 2, limit: 5 } });
  const unknown = await app.inject({ url: '/knowledge/kb/sources/s3/files' });
  t.equal(unknown.statusCode, 404);
  t.same(unknown.json(), { detail: "Content source 's3' not found" });
  const tooMany = await app.inject({ url: '/knowledge/kb/sources/docs/files?limit=1001' });
  t.equal(tooMany.statusCode, 422);
});
