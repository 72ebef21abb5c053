/**
 * `GET /openapi.json`, `/docs`, `/redoc` and `/docs/oauth2-redirect`. The
 * document and the pages are built once, when the app is built, and every request gets the same
 * bytes. Never checks anything: the gateway leaves these routes open.
 */
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiOptions } from './document.js';
import { buildDocsPages } from './pages.js';

const HTML = 'text/html; charset=utf-8';

/** Registers the document and its pages; answers the document it serves. */
export function registerOpenApiRoutes(
  app: FastifyInstance,
  options: OpenApiOptions,
): OpenApiDocument {
  const document = buildOpenApiDocument(options);
  const body = JSON.stringify(document);
  const pages = buildDocsPages(document.info.title, '/openapi.json');
  app.get('/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(body),
  );
  app.get('/docs', async (_request, reply) => reply.type(HTML).send(pages.swaggerUi));
  app.get('/redoc', async (_request, reply) => reply.type(HTML).send(pages.redoc));
  app.get('/docs/oauth2-redirect', async (_request, reply) =>
    reply.type(HTML).send(pages.oauth2Redirect),
  );
  return document;
}
