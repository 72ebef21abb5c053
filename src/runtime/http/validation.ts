/**
 * Request validation in FastAPI's words: a zod schema's issues become
 * pydantic-style 422 entries `{type, loc, msg, input, ctx?}`, `loc` starting with where the
 * value came from. Builds errors only; routes decide what to validate.
 */
import type { z } from 'zod';
import { validationIssues } from '../../shared/validation-issue.js';
import { HttpError } from './errors.js';

/** Parses a JSON body with `schema`; 422 with every problem otherwise. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? undefined, { reportInput: true });
  if (result.success) return result.data;
  throw new HttpError(422, validationIssues('body', result.error.issues));
}
