/**
 * "An empty JSON body is no body": the JSON parser of the routes that take an optional JSON body
 * (Agno's FastAPI reads `Content-Type: application/json` with nothing after it as absent, where
 * Fastify's own parser answers 400). Registered per scope, only where a route needs it.
 */
import type { FastifyInstance } from 'fastify';

/** Makes `scope` read an empty `application/json` body as no body, and any other as JSON. */
export function acceptEmptyJsonBody(scope: FastifyInstance): void {
  const json = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    json(request, body as string, done);
  });
}
