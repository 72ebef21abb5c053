/**
 * The knowledge content routes over a real app, a real in-memory store and real HTTP fetches
 * from a local server: uploads (text, files, URLs) answered 202 and processed in the
 * background, the limits of remote fetches, remote sources, listing, reading, updating and
 * deleting contents.
 */
import t, { type Test } from 'tap';
import { contentServer, multipart, page, settled, stall } from '../../fixtures/knowledge.js';
import { DB_ID, FORM, form, runtimeApp, SETTINGS, TEST_NOW_ISO } from '../../fixtures/runtime.js';
import { INTERRUPTED } from '../../../../src/runtime/api/knowledge/routes.js';
import { eachStore } from '../../fixtures/stores.js';
import { closedPortUrl } from '../../../fixtures/e2e.js';
import { recordingListener } from '../../fixtures/outbound.js';

const LIMIT_BYTES = 64;

/**
 * A content server and an app whose knowledge fetches from it: 64 bytes at most, within
 * `timeoutMs` (only the time-limit test makes it small).
 */
async function setup(t: Test, timeoutMs = 30_000) {
  const server = await contentServer(t, {
    '/page.html': page(
      'text/html; charset=utf-8',
      '<html><style>p{}</style><p>Foxes &amp; hounds</p></html>',
    ),
    '/notes.txt': page('text/plain', 'plain notes'),
    '/big.txt': page('text/plain', 'x'.repeat(LIMIT_BYTES + 1)),
    '/streamed.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('y'.repeat(LIMIT_BYTES));
      res.end('y');
    },
    '/untyped': (_req, res) => {
      res.end('what am I');
    },
    '/slow.txt': stall,
    '/docs/guide.md': page('text/markdown', '# Guide\nRead me.'),
  });
  const rt = runtimeApp(t, {
    settings: {
      ...SETTINGS,
      knowledge: {
        max_fetch_bytes: LIMIT_BYTES,
        fetch_timeout_ms: timeoutMs,
        // The content server is on loopback, which the guard opens only on purpose.
        fetch: { allow_hosts: ['127.0.0.1'] },
        sources: [
          { id: 'docs', name: 'Docs', type: 'url', base_url: `${server.url}/docs` },
          { id: 'slash', name: 'Slash', type: 'url', base_url: `${server.url}/docs/` },
        ],
      },
    },
  });
  /** POSTs a urlencoded form to `url`. */
  const post = (fields: Record<string, string>, url = '/knowledge/content') =>
    rt.app.inject({ method: 'POST', url, headers: FORM, payload: form(fields) });
  return { ...rt, server, post };
}

t.test('text content: 202 processing, then completed, read back whole', async (t) => {
  const { app, post } = await setup(t);
  const answer = await post({ text_content: 'Foxes live in dens.', name: 'Foxes' });
  t.equal(answer.statusCode, 202);
  const body = answer.json() as { id: string };
  t.same(body, {
    id: body.id,
    name: 'Foxes',
    description: null,
    metadata: null,
    status: 'processing',
  });
  t.match(body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  t.same(await settled(app, body.id), { id: body.id, status: 'completed', status_message: null });
  t.same((await app.inject({ url: `/knowledge/content/${body.id}` })).json(), {
    id: body.id,
    name: 'Foxes',
    description: null,
    type: 'text/plain',
    size: '19',
    linked_to: null,
    metadata: null,
    access_count: null,
    status: 'completed',
    status_message: null,
    created_at: TEST_NOW_ISO,
    updated_at: TEST_NOW_ISO,
  });
  const again = await post({ text_content: 'Foxes live in dens.', name: 'Foxes' });
  t.equal((again.json() as { id: string }).id, body.id, 'the same content has the same id');
  const other = await post({ text_content: 'Foxes live in dens.', name: 'Other' });
  t.not((other.json() as { id: string }).id, body.id, 'another name, another id');
  await settled(app, body.id);
  const list = (await app.inject({ url: '/knowledge/content' })).json() as { data: unknown[] };
  t.equal(list.data.length, 2, 'a re-upload replaces the content');
});

t.test('files: text-like types are read, anything else fails with the reason', async (t) => {
  const { app } = await setup(t);
  const upload = async (parts: Parameters<typeof multipart>[0]) => {
    const answer = await app.inject({
      method: 'POST',
      url: '/knowledge/content',
      ...multipart(parts),
    });
    t.equal(answer.statusCode, 202);
    return answer.json() as { id: string; name: string; metadata: unknown };
  };
  const md = await upload([
    { name: 'file', filename: 'guide.md', type: 'text/markdown', data: '# Guide\nFoxes.' },
    { name: 'description', value: 'The guide' },
    { name: 'metadata', value: '{"topic":"animals"}' },
  ]);
  t.same(md.metadata, { topic: 'animals' });
  t.equal(md.name, 'guide.md', 'named after the file');
  t.equal((await settled(app, md.id)).status, 'completed');
  t.match((await app.inject({ url: `/knowledge/content/${md.id}` })).json(), {
    type: 'text/markdown',
    size: '14',
    description: 'The guide',
    metadata: { topic: 'animals' },
  });

  const csv = await upload([
    { name: 'file', filename: 'rows.CSV', type: 'application/octet-stream', data: 'a,b\n1,2' },
    { name: 'metadata', value: 'not json' },
  ]);
  t.same(csv.metadata, { value: 'not json' }, 'non-JSON metadata is kept as a value');
  await settled(app, csv.id);
  t.match((await app.inject({ url: `/knowledge/content/${csv.id}` })).json(), {
    type: 'text/csv',
  });

  const json = await upload([
    { name: 'file', filename: 'data', type: 'application/ld+json', data: '{"a":1}' },
    { name: 'metadata', value: '[1, 2]' },
  ]);
  t.same(json.metadata, { value: [1, 2] }, 'JSON that is not an object is kept as a value');
  t.equal((await settled(app, json.id)).status, 'completed');

  const png = await upload([
    { name: 'file', filename: 'fox.png', type: 'image/png', data: Buffer.from([0x89, 0x50]) },
  ]);
  t.same(await settled(app, png.id), {
    id: png.id,
    status: 'failed',
    status_message:
      "Unsupported content type 'image/png': only text, Markdown, CSV, JSON and HTML are read",
  });
  const unknown = await upload([
    { name: 'file', filename: 'blob', type: 'application/octet-stream', data: 'zz' },
  ]);
  t.match(await settled(app, unknown.id), {
    status: 'failed',
    status_message: /^Unsupported content type 'application\/octet-stream'/,
  });
});

t.test('HTML is read as text; reader_id html strips a page served as text', async (t) => {
  const { app, post } = await setup(t);
  const html = (
    await app.inject({
      method: 'POST',
      url: '/knowledge/content',
      ...multipart([
        {
          name: 'file',
          filename: 'p.html',
          type: 'text/html',
          data: '<p>Dens &lt;deep&gt; &#70;ox<script>var x = 1;</script><!-- hidden --></p>',
        },
        { name: 'chunk_size', value: '100' },
      ]),
    })
  ).json() as { id: string };
  await settled(app, html.id);
  const found = await app.inject({
    method: 'POST',
    url: '/knowledge/search',
    payload: { query: 'dens' },
  });
  t.match(found.json(), { data: [{ content: 'Dens <deep> Fox', content_id: html.id }] });

  const forced = (
    await post({ text_content: '<b>bold</b> claim', reader_id: 'html', name: 'forced' })
  ).json() as { id: string };
  await settled(app, forced.id);
  const search = await app.inject({
    method: 'POST',
    url: '/knowledge/search',
    payload: { query: 'claim' },
  });
  t.match(search.json(), { data: [{ content: 'bold claim' }] });
});

t.test('upload refusals name the field at fault', async (t) => {
  const { app, post } = await setup(t);
  const cases: [string, Record<string, string>, number, unknown, string?][] = [
    ['nothing', { name: 'x' }, 400, 'No content provided: send a file, a url or text_content'],
    [
      'two sources',
      { text_content: 'a', url: 'http://h/' },
      400,
      'Send only one of file, url and text_content',
    ],
    [
      'unknown reader',
      { text_content: 'a', reader_id: 'pdf' },
      400,
      "Invalid reader_id 'pdf': the readers are text, markdown, csv, json, html",
    ],
    [
      'unknown chunker',
      { text_content: 'a', chunker: 'SemanticChunker' },
      400,
      "Invalid chunker 'SemanticChunker': the only chunker is FixedSizeChunker",
    ],
    [
      'chunk_size not an integer',
      { text_content: 'a', chunk_size: 'big' },
      422,
      [
        {
          type: 'int_parsing',
          loc: ['body', 'chunk_size'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'big',
        },
      ],
    ],
    [
      'chunk_size below 1',
      { text_content: 'a', chunk_size: '0' },
      422,
      [
        {
          type: 'greater_than_equal',
          loc: ['body', 'chunk_size'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
      ],
    ],
    [
      'overlap not below size',
      { text_content: 'a', chunk_size: '10', chunk_overlap: '10' },
      400,
      'chunk_overlap (10) must be less than chunk_size (10)',
    ],
    [
      'ftp url',
      { url: 'ftp://h/x' },
      400,
      'Invalid url "ftp://h/x": only http and https URLs are fetched',
    ],
    [
      'no url',
      { url: 'just words' },
      400,
      'Invalid url "just words": only http and https URLs are fetched',
    ],
    ['bad url list', { url: '[nope' }, 400, 'Invalid JSON in url field'],
    ['empty url list', { url: '[]' }, 400, 'url must be a URL or a JSON array of 1 to 20 URLs'],
    [
      'object url list',
      { url: ' [{"a":1}]' },
      400,
      'Invalid url {"a":1}: only http and https URLs are fetched',
    ],
    [
      'too many urls',
      { url: JSON.stringify(Array.from({ length: 21 }, (_, i) => `http://h/${i}`)) },
      400,
      'url must be a URL or a JSON array of 1 to 20 URLs',
    ],
  ];
  for (const [name, fields, status, detail] of cases) {
    const answer = await post(fields);
    t.equal(answer.statusCode, status, name);
    t.same(answer.json(), { detail }, name);
  }
  const list = (await app.inject({ url: '/knowledge/content' })).json() as { data: unknown[] };
  t.same(list.data, [], 'nothing was stored');
});

t.test('a text_content over the multipart field limit is refused, not cut', async (t) => {
  const { app } = await setup(t);
  const answer = await app.inject({
    method: 'POST',
    url: '/knowledge/content',
    ...multipart([{ name: 'text_content', value: 'a'.repeat(1024 * 1024 + 1) }]),
  });
  t.equal(answer.statusCode, 413);
  t.same(answer.json(), { detail: "Form field 'text_content' is too large" });
});

t.test('knowledge_id and db_id select the one instance; others are 404', async (t) => {
  const { app, post } = await setup(t);
  const config = (await app.inject({ url: '/config' })).json() as {
    knowledge: { knowledge_instances: { id: string }[] };
  };
  const id = (config.knowledge.knowledge_instances[0] as { id: string }).id;
  for (const query of [`knowledge_id=${id}`, 'knowledge_id=knowledge', `db_id=${DB_ID}`]) {
    t.equal((await app.inject({ url: `/knowledge/content?${query}` })).statusCode, 200, query);
  }
  const wrong = await post({ text_content: 'a' }, '/knowledge/content?knowledge_id=kb9');
  t.equal(wrong.statusCode, 404);
  t.same(wrong.json(), { detail: "Knowledge base 'kb9' not found" });
  const wrongDb = await app.inject({ url: '/knowledge/content?db_id=other' });
  t.same(wrongDb.json(), { detail: "Knowledge base 'other' not found" });
});

t.test('URLs are fetched within the size and time limits', async (t) => {
  const { app, post, server } = await setup(t);
  const status = async (url: string, more: Record<string, string> = {}) => {
    const answer = await post({ url, ...more });
    t.equal(answer.statusCode, 202, url);
    return settled(app, (answer.json() as { id: string }).id);
  };
  const ok = await post({ url: `${server.url}/page.html` });
  t.match(ok.json(), { name: `${server.url}/page.html`, status: 'processing' });
  const okId = (ok.json() as { id: string }).id;
  t.same(await settled(app, okId), { id: okId, status: 'completed', status_message: null });
  t.match((await app.inject({ url: `/knowledge/content/${okId}` })).json(), {
    type: 'text/html',
    size: '56',
  });
  const both = await post({
    url: JSON.stringify([`${server.url}/notes.txt`, `${server.url}/docs/guide.md`]),
    name: 'both',
  });
  const bothId = (both.json() as { id: string }).id;
  t.equal((await settled(app, bothId)).status, 'completed');
  t.match((await app.inject({ url: `/knowledge/content/${bothId}` })).json(), {
    type: 'text/plain',
    size: '27',
  });
  const search = await app.inject({
    method: 'POST',
    url: '/knowledge/search',
    payload: { query: 'notes guide' },
  });
  t.match(search.json(), {
    data: [
      {
        content: 'plain notes\n\n# Guide\nRead me.',
        content_origin: `${server.url}/notes.txt ${server.url}/docs/guide.md`,
      },
    ],
  });

  t.same(await status(`${server.url}/missing`), {
    id: (await post({ url: `${server.url}/missing` })).json().id,
    status: 'failed',
    status_message: `${server.url}/missing could not be fetched`,
  });
  t.match(await status(`${server.url}/big.txt`), {
    status: 'failed',
    status_message: `${server.url}/big.txt is larger than max_fetch_bytes (64 bytes)`,
  });
  t.match(await status(`${server.url}/streamed.txt`), {
    status: 'failed',
    status_message: `${server.url}/streamed.txt is larger than max_fetch_bytes (64 bytes)`,
  });
  t.match(await status(`${server.url}/untyped`), {
    status: 'failed',
    status_message: /^Unsupported content type 'application\/octet-stream'/,
  });
  t.match(await status(JSON.stringify([`${server.url}/notes.txt`, `${server.url}/missing`])), {
    status: 'failed',
    status_message: `${server.url}/missing could not be fetched`,
  });
  t.match(await status(JSON.stringify([`${server.url}/notes.txt`, `${server.url}/untyped`])), {
    status: 'failed',
    status_message: /^Unsupported content type/,
  });
  const closed = await closedPortUrl();
  t.match(await status(`${closed}/x`), {
    status: 'failed',
    status_message: `${closed}/x could not be fetched`,
  });
});

t.test('without allow_hosts, loopback URLs and sources are refused, never reached', async (t) => {
  const listener = await recordingListener(t);
  const { app } = runtimeApp(t, {
    settings: {
      ...SETTINGS,
      knowledge: {
        sources: [{ id: 'local', name: 'Local', type: 'url', base_url: `${listener.url}/docs/` }],
      },
    },
  });
  const rows: [string, string, Record<string, string>, string][] = [
    ['a loopback URL', '/knowledge/content', { url: `${listener.url}/` }, `${listener.url}/`],
    [
      'localhost',
      '/knowledge/content',
      { url: `http://localhost:${listener.port}/` },
      `http://localhost:${listener.port}/`,
    ],
    [
      'a remote source on loopback',
      '/knowledge/remote-content',
      { config_id: 'local', path: 'a.txt' },
      `${listener.url}/docs/a.txt`,
    ],
  ];
  for (const [name, url, fields, fetched] of rows) {
    const answer = await app.inject({ method: 'POST', url, headers: FORM, payload: form(fields) });
    t.equal(answer.statusCode, 202, name);
    t.same(
      await settled(app, (answer.json() as { id: string }).id),
      {
        id: (answer.json() as { id: string }).id,
        status: 'failed',
        status_message: `${fetched} could not be fetched`,
      },
      name,
    );
  }
  t.equal(listener.connections(), 0, 'the listener accepted no connection');
});

t.test('allow_hosts opens a loopback listener on purpose: reached and indexed', async (t) => {
  const listener = await recordingListener(t);
  const { app } = runtimeApp(t, {
    settings: { ...SETTINGS, knowledge: { fetch: { allow_hosts: ['127.0.0.1'] } } },
  });
  const answer = await app.inject({
    method: 'POST',
    url: '/knowledge/content',
    headers: FORM,
    payload: form({ url: `${listener.url}/opened.txt` }),
  });
  const { id } = answer.json() as { id: string };
  t.same(await settled(app, id), { id, status: 'completed', status_message: null });
  t.same(listener.paths, ['/opened.txt']);
  const found = await app.inject({
    method: 'POST',
    url: '/knowledge/search',
    payload: { query: 'reached' },
  });
  t.match(found.json(), { data: [{ content: 'reached', content_id: id }] });
});

t.test('a fetch slower than fetch_timeout_ms fails with the uniform text', async (t) => {
  const { app, post, server } = await setup(t, 100);
  const answer = await post({ url: `${server.url}/slow.txt` });
  t.match(await settled(app, (answer.json() as { id: string }).id), {
    status: 'failed',
    status_message: `${server.url}/slow.txt could not be fetched`,
  });
});

t.test('remote content: a configured source fetches paths below its base_url', async (t) => {
  const { app, post, server } = await setup(t);
  const remote = (fields: Record<string, string>) => post(fields, '/knowledge/remote-content');
  const answer = await remote({ config_id: 'docs', path: '/guide.md', metadata: '{"k":"v"}' });
  t.equal(answer.statusCode, 202);
  const body = answer.json() as { id: string };
  t.same(body, {
    id: body.id,
    name: '/guide.md',
    description: null,
    metadata: { k: 'v' },
    status: 'processing',
  });
  t.equal((await settled(app, body.id)).status, 'completed');
  t.match((await app.inject({ url: `/knowledge/content/${body.id}` })).json(), {
    type: 'text/markdown',
  });
  t.equal(server.hits.get('/docs/guide.md'), 1);
  const slash = await remote({ config_id: 'slash', path: 'guide.md', name: 'Guide' });
  t.match(slash.json(), { name: 'Guide', status: 'processing' });
  t.equal((await settled(app, (slash.json() as { id: string }).id)).status, 'completed');
  t.equal(server.hits.get('/docs/guide.md'), 2);
  const missing = await remote({ config_id: 'docs', path: 'nope.md', source_params: '{}' });
  t.match(await settled(app, (missing.json() as { id: string }).id), {
    status: 'failed',
    status_message: `${server.url}/docs/nope.md could not be fetched`,
  });

  const refusals: [string, Record<string, string>, number, unknown][] = [
    [
      'no config_id',
      { path: 'x' },
      422,
      [{ type: 'missing', loc: ['body', 'config_id'], msg: 'Field required', input: null }],
    ],
    [
      'no path',
      { config_id: 'docs' },
      422,
      [{ type: 'missing', loc: ['body', 'path'], msg: 'Field required', input: null }],
    ],
    [
      'bad params',
      { config_id: 'docs', path: 'x', source_params: '{' },
      400,
      'Invalid JSON in source_params field',
    ],
    [
      'list params',
      { config_id: 'docs', path: 'x', source_params: '[]' },
      400,
      'source_params must be a JSON object',
    ],
    ['unknown source', { config_id: 's3', path: 'x' }, 400, "Unknown remote content source 's3'"],
    [
      'dot-dot',
      { config_id: 'docs', path: '../page.html' },
      400,
      "path '../page.html' leaves the base_url of source 'docs'",
    ],
    [
      'encoded dot-dot',
      { config_id: 'docs', path: '%2e%2e/page.html' },
      400,
      "path '%2e%2e/page.html' leaves the base_url of source 'docs'",
    ],
    [
      'absolute',
      { config_id: 'docs', path: 'http://evil.test/x' },
      400,
      "path 'http://evil.test/x' leaves the base_url of source 'docs'",
    ],
    [
      'unparsable',
      { config_id: 'docs', path: 'http://[x' },
      400,
      "path 'http://[x' leaves the base_url of source 'docs'",
    ],
    [
      'bad chunker',
      { config_id: 'docs', path: 'x', chunker: 'no' },
      400,
      "Invalid chunker 'no': the only chunker is FixedSizeChunker",
    ],
  ];
  for (const [name, fields, status, detail] of refusals) {
    const refused = await remote(fields);
    t.equal(refused.statusCode, status, name);
    t.same(refused.json(), { detail }, name);
  }
  t.equal(server.hits.get('/page.html'), undefined, 'nothing outside the source was fetched');
});

t.test('GET /knowledge/content pages and sorts', async (t) => {
  const { app, post, clock } = await setup(t);
  const ids: string[] = [];
  for (const name of ['b', 'c', 'a']) {
    ids.push(((await post({ text_content: name, name })).json() as { id: string }).id);
    clock.advance(1000);
  }
  for (const id of ids) await settled(app, id);
  const names = async (query: string) => {
    const answer = (await app.inject({ url: `/knowledge/content${query}` })).json() as {
      data: { name: string }[];
      meta: unknown;
    };
    return { names: answer.data.map((c) => c.name), meta: answer.meta };
  };
  t.same(await names(''), {
    names: ['a', 'c', 'b'],
    meta: { page: 1, limit: 20, total_pages: 1, total_count: 3, search_time_ms: 0 },
  });
  t.same(await names('?limit=2&page=2'), {
    names: ['b'],
    meta: { page: 2, limit: 2, total_pages: 2, total_count: 3, search_time_ms: 0 },
  });
  t.same((await names('?sort_by=name&sort_order=asc')).names, ['a', 'b', 'c']);
  t.same((await names('?sort_by=updated_at&sort_order=asc&page=0')).names, ['b', 'c', 'a']);
  t.same((await names('?sort_by=size')).names, ['a', 'c', 'b'], 'unknown sort_by ignored');
  const bad = await app.inject({ url: '/knowledge/content?sort_order=up' });
  t.equal(bad.statusCode, 422);
  t.match(bad.json(), { detail: [{ type: 'enum', loc: ['query', 'sort_order'] }] });
  const badLimit = await app.inject({ url: '/knowledge/content?limit=0' });
  t.equal(badLimit.statusCode, 422);
});

t.test('PATCH updates the named fields and keeps the chunks', async (t) => {
  const { app, post, clock } = await setup(t);
  const id = ((await post({ text_content: 'badgers dig', name: 'old' })).json() as { id: string })
    .id;
  await settled(app, id);
  clock.advance(5000);
  const patch = (fields: Record<string, string>, target = id) =>
    app.inject({
      method: 'PATCH',
      url: `/knowledge/content/${target}`,
      headers: FORM,
      payload: form(fields),
    });
  const patched = await patch({
    name: 'new',
    description: 'About badgers',
    metadata: '{"kind":"animal"}',
    reader_id: 'markdown',
  });
  t.equal(patched.statusCode, 200);
  t.match(patched.json(), {
    id,
    name: 'new',
    description: 'About badgers',
    metadata: { kind: 'animal' },
    status: 'completed',
    created_at: TEST_NOW_ISO,
    updated_at: '2030-01-01T00:00:05Z',
  });
  const kept = await patch({});
  t.match(kept.json(), { name: 'new', description: 'About badgers', metadata: { kind: 'animal' } });
  const search = await app.inject({
    method: 'POST',
    url: '/knowledge/search',
    payload: { query: 'badgers' },
  });
  t.match(search.json(), { data: [{ name: 'new', meta_data: { kind: 'animal', chunk: 1 } }] });
  const cases: [Record<string, string>, string, number, string][] = [
    [{ metadata: '{' }, id, 400, 'Invalid JSON in metadata field'],
    [{ metadata: '"text"' }, id, 400, 'metadata must be a JSON object'],
    [
      { reader_id: 'pdf' },
      id,
      400,
      "Invalid reader_id 'pdf': the readers are text, markdown, csv, json, html",
    ],
    [{ name: 'x' }, 'nope', 404, 'Content not found: nope'],
  ];
  for (const [fields, target, status, detail] of cases) {
    const answer = await patch(fields, target);
    t.equal(answer.statusCode, status, detail);
    t.same(answer.json(), { detail });
  }
});

t.test('DELETE one content, then all of them', async (t) => {
  const { app, post } = await setup(t);
  const first = ((await post({ text_content: 'otters swim', name: '1' })).json() as { id: string })
    .id;
  const second = ((await post({ text_content: 'otters nap', name: '2' })).json() as { id: string })
    .id;
  await settled(app, first);
  await settled(app, second);
  const search = async () =>
    (
      (
        await app.inject({ method: 'POST', url: '/knowledge/search', payload: { query: 'otters' } })
      ).json() as { data: { content_id: string }[] }
    ).data.map((d) => d.content_id);
  t.same((await search()).sort(), [first, second].sort());
  const deleted = await app.inject({ method: 'DELETE', url: `/knowledge/content/${first}` });
  t.equal(deleted.statusCode, 200);
  t.same(deleted.json(), { id: first });
  const gone = await app.inject({ url: `/knowledge/content/${first}` });
  t.equal(gone.statusCode, 404);
  t.same(gone.json(), { detail: `Content not found: ${first}` });
  t.equal((await app.inject({ url: `/knowledge/content/${first}/status` })).statusCode, 404);
  t.same(await search(), [second], 'its chunks left the index');
  const all = await app.inject({ method: 'DELETE', url: '/knowledge/content' });
  t.equal(all.statusCode, 200);
  t.equal(all.headers['content-type'], 'application/json; charset=utf-8');
  t.equal(all.body, '"success"');
  t.same(await search(), []);
  t.same((await app.inject({ url: '/knowledge/content' })).json(), {
    data: [],
    meta: { page: 1, limit: 20, total_pages: 0, total_count: 0, search_time_ms: 0 },
  });
});

eachStore(t, 'a restart marks contents left processing as failed', async (t, stores) => {
  const store = await stores.open();
  await store.knowledge.put({
    id: 'c-1',
    knowledge_id: 'k',
    name: null,
    description: null,
    type: null,
    size: null,
    metadata: null,
    status: 'processing',
    status_message: null,
    reader_id: null,
    chunker: 'FixedSizeChunker',
    chunk_size: 10,
    chunk_overlap: 0,
    origin: null,
    created_at: 1,
    updated_at: 1,
  });
  // The sweep is issued as the app is built and done by the time it is ready.
  await runtimeApp(t, { store }).app.ready();
  t.match(await store.knowledge.get('c-1'), { status: 'failed', status_message: INTERRUPTED });
  t.equal(INTERRUPTED, 'Processing was interrupted: the runtime stopped before it finished');
});
