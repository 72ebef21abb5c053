/**
 * The shapes of the session routes as zod schemas the routes declare, the lifecycle checks their
 * input with, and the OpenAPI document is generated from: their path and query parameters, their
 * JSON bodies (read as pydantic reads them, every problem one 422 entry in its words) and their
 * answers (`SessionSchema`, the session detail, `RunSchema`, built by render.ts). Pure.
 */
import { z } from 'zod';
import {
  DB_QUERY,
  EPOCH,
  ISO_TIME,
  NULLABLE_STRING,
  pathParam,
  QUERY_STRING,
  sortedPageQuery,
  USER_ID,
} from '../../http/openapi-shapes.js';
import { Absent, pydanticIssue } from '../../../shared/validation-issue.js';

/** The document's section of the session routes. */
export const SESSION_TAGS = ['Sessions'] as const;

const KIND = z.enum(['agent', 'team', 'workflow']);
const json = z.record(z.string(), z.unknown());

/** `/sessions/{session_id}`. */
export const sessionParams = pathParam('session_id', 'Session id');

/** `/sessions/{session_id}/runs/{run_id}`. */
export const sessionRunParams = sessionParams.extend({
  run_id: z.string().meta({ description: 'Run id' }),
});

const TYPE = KIND.optional().meta({ description: 'Session kind' });

const PAGE_FROM_1 = {
  type: 'greater_than_equal',
  msg: 'Input should be greater than or equal to 1',
  ctx: { ge: 1 },
};

/** The query of `GET /sessions`. */
export const listSessionsQuery = z.object({
  type: TYPE,
  component_id: QUERY_STRING,
  user_id: USER_ID,
  session_name: QUERY_STRING.meta({ description: 'Substring of the name' }),
  ...sortedPageQuery(20, 100, 'created_at'),
  // The listing counts pages from 1 and reads 0 as 1: below that, the words of `ge 1`.
  page: z
    .int()
    .max(1_000_000)
    .refine((page) => page >= 0, { message: PAGE_FROM_1.msg, params: PAGE_FROM_1 })
    .default(1)
    .meta({ description: 'Page (1-based)', minimum: 0 }),
  ...DB_QUERY,
});

/** The query of `POST /sessions`. */
export const createSessionQuery = z.object({ type: TYPE, db_id: DB_QUERY.db_id });

/** The query of the routes that read or write one session of a kind. */
export const oneSessionQuery = z.object({ type: TYPE, user_id: USER_ID, ...DB_QUERY });

/** The query of the routes that delete sessions. */
export const deleteSessionsQuery = z.object({ user_id: USER_ID, ...DB_QUERY });

/** The query of `GET /sessions/{session_id}/runs`. */
export const sessionRunsQuery = z.object({
  type: TYPE,
  user_id: USER_ID,
  created_after: EPOCH.optional(),
  created_before: EPOCH.optional(),
  ...DB_QUERY,
});

/** FastAPI reads a body as JSON only for `application/json` and `application/*+json`. */
export const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * A body that arrived in a content type other than JSON and was not text (a form): pydantic
 * receives it as bytes, and its 422 names no input.
 */
export const NOT_JSON: unique symbol = Symbol('a body that is not JSON');

type Json = Record<string, unknown>;

const isJsonObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const MODEL_ATTRIBUTES = {
  type: 'model_attributes_type',
  msg: 'Input should be a valid dictionary or object to extract fields from',
};

/**
 * An object's fields as the session bodies read them: a `null` field counts as left out, and a
 * required field left out is `missing`, naming the object it is missing from.
 */
function fieldsOf(value: Json, shape: z.ZodRawShape): Json {
  const fields: Json = {};
  for (const [key, field] of Object.entries(value)) if (field !== null) fields[key] = field;
  for (const [key, field] of Object.entries(shape)) {
    if (fields[key] === undefined && field._zod.optin !== 'optional')
      fields[key] = new Absent(value);
  }
  return fields;
}

/** An object inside a body, its fields read as {@link fieldsOf} says. */
const nested = <S extends z.ZodObject>(schema: S) =>
  z.preprocess((value) => (isJsonObject(value) ? fieldsOf(value, schema.shape) : value), schema);

/**
 * A whole body read as pydantic reads a model: its fields as {@link fieldsOf} says; anything but
 * a JSON object (an array, a string, a form) is the 422 `model_attributes_type` at `["body"]`;
 * no body is left to `schema` (the `missing` body, or none where the body is optional).
 */
function model<S extends z.ZodObject>(schema: S) {
  const body = z.preprocess((value, ctx) => {
    if (value === undefined) return value;
    if (isJsonObject(value)) return fieldsOf(value, schema.shape);
    ctx.issues.push(pydanticIssue(value === NOT_JSON ? null : value, MODEL_ATTRIBUTES));
    return z.NEVER;
  }, schema);
  return body;
}

/** Accepted `updated_at` strings: an ISO-8601 date, optionally with a time and an offset. */
const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ]((?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Milliseconds JavaScript dates reach either side of the epoch. */
const MAX_DATE_MS = 8.64e15;

/** Whether year, month and day name a real calendar day (no 30 February). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Epoch seconds of a pydantic `datetime` input: a number or numeric string (epoch seconds), or
 * an ISO-8601 string; one without an offset is UTC. `null` when it is neither.
 */
function epochSecondsOf(value: string | number): number | null {
  let ms: number;
  if (typeof value === 'number' || /^-?\d+(\.\d+)?$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    const match = ISO_DATETIME.exec(value);
    if (match === null) return null;
    const [, year, month, day, time = '00:00', zone = 'Z'] = match as unknown as string[];
    if (!isCalendarDay(Number(year), Number(month), Number(day))) return null;
    ms = Date.parse(`${year}-${month}-${day}T${time}${zone.toUpperCase()}`);
  }
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? Math.floor(ms / 1000) : null;
}

/** A pydantic `datetime` read as epoch seconds (documented as the string it usually is). */
const DATETIME = z
  .unknown()
  .transform((value, ctx) => {
    if (typeof value !== 'string' && typeof value !== 'number') {
      ctx.issues.push(
        pydanticIssue(value, { type: 'datetime_type', msg: 'Input should be a valid datetime' }),
      );
      return z.NEVER;
    }
    const seconds = epochSecondsOf(value);
    if (seconds !== null) return seconds;
    ctx.issues.push(
      pydanticIssue(value, {
        type: 'datetime_parsing',
        msg: 'Input should be a valid datetime, invalid datetime format',
        ctx: { error: 'invalid datetime format' },
      }),
    );
    return z.NEVER;
  })
  .meta({ type: 'string' });

/**
 * `POST /sessions` (no body creates an empty session). Which id field the session's kind
 * requires depends on the query's `type`, so the route checks that itself.
 */
export const createSessionBody = model(
  z
    .object({
      session_id: z.string().optional(),
      session_name: z.string().optional(),
      session_state: json.optional(),
      metadata: json.optional(),
      user_id: z.string().optional(),
      agent_id: z.string().optional(),
      team_id: z.string().optional(),
      workflow_id: z.string().optional(),
    })
    .meta({ id: 'SessionCreate' }),
).optional();

const RENAME = z.object({ session_name: z.string() }).meta({ id: 'SessionRename' });

/**
 * `POST /sessions/{session_id}/rename`: `{"session_name": "…"}` (FastAPI `Body(embed=True)`).
 * A body that is not a JSON object has no `session_name`, so it is the same 422 `missing`
 * as leaving the field out.
 */
export const renameSessionBody = z.preprocess(
  (value) => (isJsonObject(value) && value['session_name'] !== null ? value : {}),
  RENAME,
);

/** `PATCH /sessions/{session_id}`: given fields replace; `null` leaves one as stored. */
export const updateSessionBody = model(
  z
    .object({
      session_name: z.string().optional(),
      session_state: json.optional(),
      metadata: json.optional(),
      summary: nested(
        z.object({
          summary: z.string(),
          topics: z.array(z.string()).optional(),
          updated_at: DATETIME.optional(),
        }),
      ).optional(),
    })
    .meta({ id: 'SessionUpdate' }),
);

/** The bulk `DELETE /sessions`: ids and their kinds, pairwise. */
export const deleteSessionsBody = model(
  z
    .object({
      session_ids: z.array(z.string()).min(1),
      session_types: z.array(KIND).min(1),
    })
    .meta({ id: 'SessionsDelete' }),
);

const SESSION_FIELDS = {
  session_id: z.string(),
  session_name: NULLABLE_STRING,
  session_state: z.unknown(),
  session_type: KIND,
  user_id: NULLABLE_STRING,
  agent_id: NULLABLE_STRING,
  team_id: NULLABLE_STRING,
  workflow_id: NULLABLE_STRING,
  session_summary: z.unknown(),
  metrics: z.unknown(),
  total_tokens: z.int().nullable(),
  metadata: z.unknown(),
  created_at: ISO_TIME,
  updated_at: ISO_TIME,
};

/** `SessionSchema`: a session as the listing answers it. */
export const sessionSchemaSchema = z.object(SESSION_FIELDS).meta({ id: 'SessionSchema' });

/** The detail every single-session route answers. */
export const sessionDetailSchema = z
  .object({
    ...SESSION_FIELDS,
    agent_session_id: z.string().optional(),
    team_session_id: z.string().optional(),
    workflow_session_id: z.string().optional(),
    chat_history: z.array(json),
  })
  .meta({
    id: 'SessionDetail',
    description:
      'An agent, team or workflow session in detail (SessionSchema, its id again as ' +
      '<type>_session_id, and the chat history of its runs)',
  });

/** `RunSchema` / `TeamRunSchema` / `WorkflowRunSchema`: a stored run as sessions list it. */
export const runSchemaSchema = z
  .object({
    run_id: z.string(),
    parent_run_id: NULLABLE_STRING,
    agent_id: z.string().optional(),
    team_id: z.string().optional(),
    workflow_id: z.string().optional(),
    user_id: NULLABLE_STRING,
    status: z.enum(['PENDING', 'RUNNING', 'COMPLETED', 'PAUSED', 'CANCELLED', 'ERROR']),
    run_input: z.string(),
    content: z.unknown(),
    run_response_format: z.enum(['json', 'text']),
    metrics: z.unknown(),
    events: z.array(json),
    created_at: ISO_TIME,
  })
  .meta({
    id: 'RunSchema',
    description: 'A stored run as sessions list it (RunSchema, TeamRunSchema, WorkflowRunSchema)',
  });
