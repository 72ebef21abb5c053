/**
 * The documentation routes behind a real gateway with `authorization: true`: the
 * default `excluded_route_paths` leave `/openapi.json`, `/docs`, `/redoc` and
 * `/docs/oauth2-redirect` open, so a caller without a token gets the runtime's document and
 * pages; a route beside them still needs a token.
 */
import t from 'tap';
import { send } from '../fixtures/e2e.js';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';

const RUNTIME = {
  os_id: 'e2e-openapi',
  db: 'runtime.db',
  agents: [{ id: 'a1', name: 'Agent One' }],
  a2a_prefix: '/agents-a2a',
};

t.test('no token: the document and its pages come through the gateway', async (t) => {
  const { gateway } = await startRuntimeStack(t, RUNTIME);
  const get = (path: string) => send(gateway.url, { method: 'GET', path });

  const doc = await get('/openapi.json');
  t.equal(doc.status, 200);
  t.match(doc.headers['content-type'], /^application\/json/);
  t.match(doc.json, {
    openapi: '3.1.0',
    info: { title: 'Agno AgentOS', version: '2.7.2' },
    components: { schemas: { RunAgentInput: { type: 'object' } } },
  });
  const paths = (doc.json as { paths: Record<string, unknown> }).paths;
  t.ok('/agents-a2a/agents/{id}/v1/message:send' in paths, 'the A2A paths follow the prefix');
  t.ok('/agui' in paths);

  const docs = await get('/docs');
  t.equal(docs.status, 200);
  t.match(docs.headers['content-type'], /^text\/html/);
  t.match(docs.body, 'SwaggerUIBundle({');
  t.match(docs.body, 'url: "/openapi.json"');

  const redoc = await get('/redoc');
  t.equal(redoc.status, 200);
  t.match(redoc.headers['content-type'], /^text\/html/);
  t.match(redoc.body, '<redoc spec-url="/openapi.json"></redoc>');

  const redirect = await get('/docs/oauth2-redirect');
  t.equal(redirect.status, 200);
  t.match(redirect.headers['content-type'], /^text\/html/);
  t.match(redirect.body, 'swaggerUIRedirectOauth2');
});

t.test('no token: only those exact paths are open', async (t) => {
  const { gateway } = await startRuntimeStack(t, RUNTIME);
  for (const path of ['/config', '/docs/swagger-ui.css', '/openapi.json/x']) {
    const res = await send(gateway.url, { method: 'GET', path });
    t.equal(res.status, 401, path);
    t.same(
      res.json,
      { detail: 'Not authenticated: expected a bearer token in the Authorization header' },
      path,
    );
  }
});
