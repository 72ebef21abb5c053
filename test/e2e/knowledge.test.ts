/**
 * The knowledge routes behind a real gateway: real JWTs (RS256), a real SQLite
 * file, real HTTP, and remote content fetched from a local server. A token holding exactly a
 * route's scope gets the real answer; a token without it gets 403. The status route, beyond
 * the built-in route table, is mapped to knowledge:read by policies/defaults.yaml.
 */
import t, { type Test } from 'tap';
import { bearer, send, type Answer } from '../fixtures/e2e.js';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';
import { goodToken } from '../fixtures/tokens.js';
import { contentServer, multipart, page } from '../runtime/fixtures/knowledge.js';

/** A runtime whose knowledge source is `base`, behind a gateway; the gateway's URL. */
async function stack(t: Test): Promise<{ url: string; server: string }> {
  const server = await contentServer(t, {
    '/docs/otters.txt': page('text/plain', 'Otters hold hands while they sleep.'),
  });
  const { gateway } = await startRuntimeStack(t, {
    os_id: 'e2e-knowledge',
    db: 'runtime.db',
    agents: [{ id: 'a1', name: 'Agent One' }],
    knowledge: {
      name: 'kb',
      // The content server is on loopback, which the guard opens only on purpose.
      fetch: { allow_hosts: ['127.0.0.1'] },
      sources: [{ id: 'docs', name: 'Docs', type: 'url', base_url: `${server.url}/docs/` }],
    },
  });
  return { url: gateway.url, server: server.url };
}

type Client = (
  method: string,
  path: string,
  body?: string | object,
  type?: string,
) => Promise<Answer>;

/** A client through the gateway with a token of exactly `scopes`. */
async function client(url: string, scopes: string[]): Promise<Client> {
  const token = await goodToken({ sub: 'alice', scopes });
  return (method, path, body, type) => {
    const text = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
    const contentType =
      type ?? (typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json');
    return send(url, {
      method,
      path,
      headers: { ...bearer(token), ...(text === undefined ? {} : { 'content-type': contentType }) },
      ...(text === undefined ? {} : { body: text }),
    });
  };
}

/** Polls the status route (knowledge:read, mapped by default) until processing is over. */
async function settled(reader: Client, id: string): Promise<unknown> {
  for (;;) {
    const answer = await reader('GET', `/knowledge/content/${id}/status`);
    if ((answer.json as { status: string }).status !== 'processing') return answer.json;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

t.test('each knowledge route answers a token with exactly its scope', async (t) => {
  const { url, server } = await stack(t);
  const reader = await client(url, ['knowledge:read']);
  const writer = await client(url, ['knowledge:write']);
  const deleter = await client(url, ['knowledge:delete']);

  // POST /knowledge/content (knowledge:write): a form and a multipart file.
  const text = await writer(
    'POST',
    '/knowledge/content',
    'text_content=Beavers+build+dams&name=beavers',
  );
  t.equal(text.status, 202);
  t.match(text.json, { name: 'beavers', status: 'processing' });
  const textId = (text.json as { id: string }).id;
  const file = multipart([
    {
      name: 'file',
      filename: 'owls.md',
      type: 'text/markdown',
      data: '# Owls\nOwls hunt at night.',
    },
  ]);
  const upload = await writer(
    'POST',
    '/knowledge/content',
    file.payload.toString(),
    file.headers['content-type'],
  );
  t.equal(upload.status, 202);
  t.match(upload.json, { name: 'owls.md', status: 'processing' });
  const fileId = (upload.json as { id: string }).id;

  // POST /knowledge/remote-content (knowledge:write)
  const remote = await writer(
    'POST',
    '/knowledge/remote-content',
    'config_id=docs&path=otters.txt',
  );
  t.equal(remote.status, 202);
  const remoteId = (remote.json as { id: string }).id;
  for (const id of [textId, fileId, remoteId]) {
    t.same(await settled(reader, id), { id, status: 'completed', status_message: null });
  }

  // GET /knowledge/content, GET /knowledge/content/{id} (knowledge:read)
  const list = await reader('GET', '/knowledge/content?sort_by=name&sort_order=asc');
  t.equal(list.status, 200);
  t.same(
    (list.json as { data: { name: string }[] }).data.map((c) => c.name),
    ['beavers', 'otters.txt', 'owls.md'],
  );
  const one = await reader('GET', `/knowledge/content/${remoteId}`);
  t.equal(one.status, 200);
  t.match(one.json, { id: remoteId, type: 'text/plain', size: '35', status: 'completed' });

  // POST /knowledge/search (knowledge:read)
  const search = await reader('POST', '/knowledge/search', { query: 'otters sleep' });
  t.equal(search.status, 200);
  t.match(search.json, {
    data: [
      {
        content: 'Otters hold hands while they sleep.',
        content_id: remoteId,
        content_origin: `${server}/docs/otters.txt`,
      },
    ],
    meta: { total_count: 1 },
  });

  // GET /knowledge/config, /knowledge/{kid}/sources, /knowledge/{kid}/sources/{sid}/files
  const config = await reader('GET', '/knowledge/config');
  t.equal(config.status, 200);
  t.match(config.json, {
    chunkers: { FixedSizeChunker: {} },
    remote_content_sources: [{ id: 'docs' }],
  });
  const sources = await reader('GET', '/knowledge/kb/sources');
  t.equal(sources.status, 200);
  t.same(sources.json, [
    { id: 'docs', name: 'Docs', type: 'url', metadata: { base_url: `${server}/docs/` } },
  ]);
  const files = await reader('GET', '/knowledge/kb/sources/docs/files');
  t.equal(files.status, 200);
  t.match(files.json, { source_id: 'docs', folders: [], files: [] });

  // PATCH /knowledge/content/{id} (knowledge:write)
  const patched = await writer('PATCH', `/knowledge/content/${textId}`, 'name=dams');
  t.equal(patched.status, 200);
  t.match(patched.json, { id: textId, name: 'dams' });

  // DELETE /knowledge/content/{id}, DELETE /knowledge/content (knowledge:delete)
  const deleted = await deleter('DELETE', `/knowledge/content/${textId}`);
  t.equal(deleted.status, 200);
  t.same(deleted.json, { id: textId });
  const all = await deleter('DELETE', '/knowledge/content');
  t.equal(all.status, 200);
  t.equal(all.json, 'success');
  t.same((await reader('GET', '/knowledge/content')).json, {
    data: [],
    meta: { page: 1, limit: 20, total_pages: 0, total_count: 0, search_time_ms: 0 },
  });
});

t.test('the gateway refuses each knowledge route without its scope (403)', async (t) => {
  const { url } = await stack(t);
  const reader = await client(url, ['knowledge:read']);
  const writer = await client(url, ['knowledge:write']);
  const deleter = await client(url, ['knowledge:delete']);
  const rows: [string, Client, string, string, (string | object)?][] = [
    ['list', writer, 'GET', '/knowledge/content'],
    ['read one', deleter, 'GET', '/knowledge/content/c1'],
    ['config', writer, 'GET', '/knowledge/config'],
    ['sources', writer, 'GET', '/knowledge/kb/sources'],
    ['files', deleter, 'GET', '/knowledge/kb/sources/docs/files'],
    ['status', writer, 'GET', '/knowledge/content/c1/status'],
    ['search', writer, 'POST', '/knowledge/search', { query: 'x' }],
    ['upload', reader, 'POST', '/knowledge/content', 'text_content=x'],
    ['remote', deleter, 'POST', '/knowledge/remote-content', 'config_id=docs&path=x'],
    ['patch', reader, 'PATCH', '/knowledge/content/c1', 'name=x'],
    ['delete one', writer, 'DELETE', '/knowledge/content/c1'],
    ['delete all', reader, 'DELETE', '/knowledge/content'],
  ];
  const scopes: Record<string, string> = {
    GET: 'knowledge:read',
    POST: 'knowledge:write',
    PATCH: 'knowledge:write',
    DELETE: 'knowledge:delete',
  };
  for (const [name, as, method, path, body] of rows) {
    const scope = name === 'search' ? 'knowledge:read' : (scopes[method] as string);
    const res = await as(method, path, body);
    t.equal(res.status, 403, `${name}: 403`);
    t.same(
      res.json,
      { detail: `Insufficient permissions. Required scope(s): ${scope}` },
      `${name}: names ${scope}`,
    );
  }
  t.same(
    (await reader('GET', '/knowledge/content')).json,
    {
      data: [],
      meta: { page: 1, limit: 20, total_pages: 0, total_count: 0, search_time_ms: 0 },
    },
    'nothing was written',
  );
});
