/**
 * The runtime's error bodies: `{"detail": "..."}`, and FastAPI-style 422 validation details.
 * Builds bodies only; routes send them.
 */
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
