/**
 * The shapes of the memory routes: their JSON bodies, checked as pydantic
 * would (every problem one 422 entry, length limits in pydantic's words), and UserMemorySchema.
 * Pure: never reads the store or the caller.
 */
import { z } from 'zod';
import { HttpError } from '../errors.js';
import type { MemoryRecord } from '../store/memories.js';
import { isoOfSeconds } from '../engine/time.js';
import { type ValidationIssue, validationIssues } from '../../shared/validation-issue.js';

/** The longest memory text accepted. */
export const MAX_MEMORY_CHARS = 5000;

const optionalString = z.string().nullable().optional();

/** `POST /memories` and `PATCH /memories/{id}`: `{memory, user_id?, topics?}`. */
export const memoryBody = z.object({
  memory: z.string().min(1).max(MAX_MEMORY_CHARS),
  user_id: optionalString,
  topics: z.array(z.string()).nullable().optional(),
});

/** The bulk `DELETE /memories`: `{memory_ids: [≥1], user_id?}`. */
export const bulkDeleteBody = z.object({
  memory_ids: z.array(z.string()).min(1),
  user_id: optionalString,
});

/** `POST /optimize-memories`: `{user_id, model?, apply = true}`. */
export const optimizeBody = z.object({
  user_id: z.string(),
  model: optionalString,
  apply: z.boolean().default(true),
});

/** pydantic's words for a string or list outside its length bounds. */
function lengthDetail(issue: z.core.$ZodIssue): ValidationIssue | null {
  if (issue.code !== 'too_small' && issue.code !== 'too_big') return null;
  // Length limits sit on named fields only (never inside a list), so every step is a name.
  const loc = ['body', ...issue.path.map(String)];
  const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  if (issue.origin === 'array') {
    const length = (issue.input as unknown[]).length;
    return {
      type: 'too_short',
      loc,
      msg: `List should have at least ${bound} item after validation, not ${length}`,
      input: issue.input,
      ctx: { field_type: 'List', min_length: bound, actual_length: length },
    };
  }
  return issue.code === 'too_small'
    ? {
        type: 'string_too_short',
        loc,
        msg: `String should have at least ${bound} character`,
        input: issue.input,
        ctx: { min_length: bound },
      }
    : {
        type: 'string_too_long',
        loc,
        msg: `String should have at most ${bound} characters`,
        input: issue.input,
        ctx: { max_length: bound },
      };
}

/** Parses a JSON body with `schema`; 422 with every problem otherwise. */
export function parseMemoryBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? undefined, { reportInput: true });
  if (result.success) return result.data;
  throw new HttpError(
    422,
    result.error.issues.flatMap(
      (issue) => lengthDetail(issue) ?? validationIssues('body', [issue]),
    ),
  );
}

/** `UserMemorySchema`. */
export function memorySchema(m: MemoryRecord): Record<string, unknown> {
  return {
    memory_id: m.memory_id,
    memory: m.memory,
    topics: m.topics,
    agent_id: m.agent_id,
    team_id: m.team_id,
    user_id: m.user_id,
    updated_at: isoOfSeconds(m.updated_at),
  };
}
