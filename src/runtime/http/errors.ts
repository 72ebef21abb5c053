/**
 * The runtime's error bodies: `{"detail": "..."}`, and FastAPI-style 422 validation details,
 * and the one error handler that answers them.
 */
import type { FastifyInstance } from 'fastify';
import type { ValidationIssue } from '../../shared/validation-issue.js';

/** A handled error the runtime answers with `{"detail": …}`. */
export class HttpError extends Error {
  readonly status: number;
  readonly detail: string | readonly ValidationIssue[];

  constructor(status: number, detail: string | readonly ValidationIssue[]) {
    super(typeof detail === 'string' ? detail : 'Validation error');
    this.status = status;
    this.detail = detail;
  }
}

/** 422 for a required field that is missing. */
export function missingField(where: 'body' | 'query', field: string): HttpError {
  return new HttpError(422, [
    { type: 'missing', loc: [where, field], msg: 'Field required', input: null },
  ]);
}

/**
 * Answers every error a route or hook throws: an {@link HttpError} with its status and
 * `{detail}`; Fastify's own client errors (a body that does not parse, one too large) with their
 * status and message; anything else 500 `Internal runtime error`, its text never sent.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, _request, reply) => {
    if (error instanceof HttpError) return reply.code(error.status).send({ detail: error.detail });
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return reply.code(status).send({ detail: (error as Error).message });
    }
    return reply.code(500).send({ detail: 'Internal runtime error' });
  });
}
