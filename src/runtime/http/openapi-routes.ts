/**
 * `GET /openapi.json`, `/docs`, `/redoc` and `/docs/oauth2-redirect`. The
 * document is built once, when the app is ready (every route registered by then, in plugins
 * too), the pages when the app is built, and every request gets the same bytes. Never checks
 * anything: the gateway leaves these routes open.
 */
import type { FastifyInstance } from 'fastify';
import { buildRoutePaths, routesOf } from './openapi.js';
import { buildOpenApiDocument, TITLE } from './openapi-document.js';
import { buildDocsPages } from './docs-pages.js';

const HTML = 'text/html; charset=utf-8';

/**
 * Registers the document and its pages. The app must have called `registerRouteDocs` first; a
 * document that cannot be built fails the app's startup.
 */
export function registerOpenApiRoutes(app: FastifyInstance): void {
  let body = '';
  app.addHook('onReady', async () => {
    body = JSON.stringify(buildOpenApiDocument(buildRoutePaths(routesOf(app))));
  });
  const pages = buildDocsPages(TITLE, '/openapi.json');
  app.get('/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(body),
  );
  app.get('/docs', async (_request, reply) => reply.type(HTML).send(pages.swaggerUi));
  app.get('/redoc', async (_request, reply) => reply.type(HTML).send(pages.redoc));
  app.get('/docs/oauth2-redirect', async (_request, reply) =>
    reply.type(HTML).send(pages.oauth2Redirect),
  );
}
