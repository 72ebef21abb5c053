/**
 * `GET /openapi.json`, `/docs`, `/redoc`, `/docs/oauth2-redirect` on the real runtime app,
 * and the route-coverage property both ways, over the routes the app's
 * `onRoute` hook collected: every route the app registers is in the document with its method
 * (a route added without documenting it fails here by name), and every documented operation is
 * served.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { buildRoutePaths, routesOf } from '../../../src/runtime/http/openapi.js';
import {
  buildOpenApiDocument,
  DOCS_ROUTES,
  type OpenApiDocument,
} from '../../../src/runtime/http/openapi-document.js';
import { REDOC_JS_URL } from '../../../src/runtime/http/docs-pages.js';
import { runtimeApp, SETTINGS } from '../fixtures/runtime.js';

const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** `METHOD /path` of every route the app registered (HEAD, which Fastify adds, left out). */
const registeredRoutes = (app: FastifyInstance): string[] =>
  routesOf(app).map((route) => `${route.method} ${route.url}`);

/** The document `app` serves. */
async function servedDocument(app: FastifyInstance): Promise<OpenApiDocument> {
  return (await app.inject({ url: '/openapi.json' })).json() as OpenApiDocument;
}

/**
 * `/agents/:id` and `/agents/{agent_id}` alike: parameter names do not matter; Fastify's escaped
 * colon (`message::send`) is a colon.
 */
const shapeOf = (path: string): string =>
  path
    .replace(/\{[^}]+\}/g, '{}')
    .replace(/(^|\/):[^/]+/g, '$1{}')
    .replaceAll('::', ':');

t.test(
  'GET /openapi.json: the document built for this runtime, the same bytes each time',
  async (t) => {
    const rt = runtimeApp(t, { settings: { ...SETTINGS, a2a_prefix: '/agents-a2a' } });
    const first = await rt.app.inject({ url: '/openapi.json' });
    const second = await rt.app.inject({ url: '/openapi.json' });
    t.equal(first.statusCode, 200);
    t.equal(first.headers['content-type'], 'application/json; charset=utf-8');
    t.same(first.json(), buildOpenApiDocument(buildRoutePaths(routesOf(rt.app))));
    t.equal(second.body, first.body);
    t.ok('/agents-a2a/message/send' in first.json().paths);
  },
);

t.test(
  'GET /docs: Swagger UI with swagger-ui-dist inline, nothing loaded from elsewhere',
  async (t) => {
    const rt = runtimeApp(t);
    const res = await rt.app.inject({ url: '/docs' });
    t.equal(res.statusCode, 200);
    t.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    t.match(res.body, /^<!DOCTYPE html>/);
    t.match(res.body, '<title>Agno AgentOS - Swagger UI</title>');
    t.ok(
      res.body.includes(readFileSync(join(SWAGGER_DIR, 'swagger-ui.css'), 'utf8')),
      'CSS inline',
    );
    t.ok(
      res.body.includes(readFileSync(join(SWAGGER_DIR, 'swagger-ui-bundle.js'), 'utf8')),
      'bundle inline',
    );
    t.match(res.body, 'url: "/openapi.json"');
    t.match(res.body, "oauth2RedirectUrl: window.location.origin + '/docs/oauth2-redirect'");
    t.notMatch(res.body, /<script src=|<link rel="stylesheet"/, 'no external script or stylesheet');
    t.match(res.body, '<link rel="shortcut icon" href="data:image/png;base64,');
    // A second app serves the page read once per process.
    const again = await runtimeApp(t).app.inject({ url: '/docs' });
    t.equal(again.body, res.body);
  },
);

t.test('GET /redoc: ReDoc from jsDelivr rendering /openapi.json', async (t) => {
  const rt = runtimeApp(t);
  const res = await rt.app.inject({ url: '/redoc' });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  t.match(res.body, '<title>Agno AgentOS - ReDoc</title>');
  t.match(res.body, '<redoc spec-url="/openapi.json"></redoc>');
  t.match(res.body, `<script src="${REDOC_JS_URL}"></script>`);
});

t.test('GET /docs/oauth2-redirect: Swagger UI redirect script inline', async (t) => {
  const rt = runtimeApp(t);
  const res = await rt.app.inject({ url: '/docs/oauth2-redirect' });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  t.ok(res.body.includes(readFileSync(join(SWAGGER_DIR, 'oauth2-redirect.js'), 'utf8')));
  t.notMatch(res.body, /<script src=/);
});

/**
 * The app's routes missing from `doc`, as `METHOD /path/{param}`; OPTIONS and the documentation
 * routes themselves are not asked for.
 */
function undocumentedRoutes(app: FastifyInstance, doc: OpenApiDocument): string[] {
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${shapeOf(path)}`),
    ),
  );
  const skipped = new Set<string>(DOCS_ROUTES);
  return registeredRoutes(app)
    .filter((route) => {
      const [method, path] = route.split(' ') as [string, string];
      if (method === 'OPTIONS' || skipped.has(path)) return false;
      return !documented.has(`${method} ${shapeOf(path)}`);
    })
    .map((route) => route.replace(/(^|\/):([^/]+)/g, '$1{$2}').replaceAll('::', ':'))
    .sort();
}

/** The operations of `doc` that `app` does not serve, as `METHOD /path/{param}`. */
function unservedOperations(app: FastifyInstance, doc: OpenApiDocument): string[] {
  const served = new Set(
    registeredRoutes(app).map((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return `${method} ${shapeOf(path)}`;
    }),
  );
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    .filter((op) => {
      const [method, path] = op.split(' ') as [string, string];
      return !served.has(`${method} ${shapeOf(path)}`);
    })
    .sort();
}

t.test('every registered route is documented with its method', async (t) => {
  for (const [name, settings, prefix, agui] of [
    ['with AG-UI, default prefix', SETTINGS, '/a2a', true],
    [
      'no agent (no AG-UI), custom prefix',
      { workflows: [], a2a_prefix: '/x/a2a' },
      '/x/a2a',
      false,
    ],
  ] as const) {
    const rt = runtimeApp(t, { settings });
    const doc = await servedDocument(rt.app);
    t.ok(registeredRoutes(rt.app).length > 80, `${name}: the routes were collected`);
    t.ok(`${prefix}/message/send` in doc.paths, `${name}: the A2A prefix`);
    t.equal('/agui' in doc.paths, agui, `${name}: AG-UI`);
    const missing = undocumentedRoutes(rt.app, doc);
    t.same(missing, [], `${name}: routes missing from /openapi.json: ${missing.join(', ')}`);
    const unserved = unservedOperations(rt.app, doc);
    t.same(unserved, [], `${name}: documented but not served: ${unserved.join(', ')}`);
  }
});

t.test('a route registered without documenting it is named, with its method', async (t) => {
  const rt = runtimeApp(t);
  rt.app.get('/undocumented/:thing', async () => ({}));
  rt.app.delete('/memories/:id/pin', async () => ({}));
  t.same(undocumentedRoutes(rt.app, await servedDocument(rt.app)), [
    'DELETE /memories/{id}/pin',
    'GET /undocumented/{thing}',
  ]);
});
