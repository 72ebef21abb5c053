/**
 * The shapes of the schedule routes: their path and query parameters, their JSON bodies (checked
 * by the lifecycle, pydantic's 422) and their answers (ScheduleResponse,
 * ScheduleRunResponse, the enable/disable state), as zod schemas the routes declare and the
 * OpenAPI document is generated from. Pure: never reads the store or the scheduler.
 */
import { z } from 'zod';
import { EPOCH, fieldsOf, limit, NULLABLE_STRING, pathParam } from '../../http/openapi-shapes.js';
import type { ScheduleRecord, ScheduleRunRecord } from './table.js';

/** The document's section of the schedule routes. */
export const SCHEDULE_TAGS = ['Schedules'] as const;

/** The HTTP methods a schedule may call. */
const SCHEDULE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]*$/;
const json = z.record(z.string(), z.unknown());

const fields = {
  name: z
    .string()
    .max(255)
    .regex(NAME, 'name starts with a letter or digit, then letters, digits, spaces or ._-'),
  cron_expr: z.string().meta({ description: '5-field cron expression' }),
  endpoint: z
    .string()
    .refine(
      (e) => e.startsWith('/') && !e.includes('://'),
      'endpoint is a path starting with "/" (no scheme or host)',
    )
    .meta({ description: 'A runtime path starting with /' }),
  method: z.enum(SCHEDULE_METHODS),
  description: z.string().nullable(),
  payload: json.nullable(),
  // An IANA time zone the cron fields are read in.
  timezone: z.string(),
  timeout_seconds: z.int().min(1).max(86_400),
  max_retries: z.int().min(0).max(10),
  retry_delay_seconds: z.int().min(1).max(3600),
};

/** `POST /schedules`: unknown fields refused. */
export const createScheduleBody = z
  .strictObject({
    name: fields.name,
    cron_expr: fields.cron_expr,
    endpoint: fields.endpoint,
    method: fields.method.default('POST'),
    description: fields.description.optional(),
    payload: fields.payload.optional(),
    timezone: fields.timezone.default('UTC'),
    timeout_seconds: fields.timeout_seconds.default(3600),
    max_retries: fields.max_retries.default(0),
    retry_delay_seconds: fields.retry_delay_seconds.default(60),
  })
  .meta({ id: 'ScheduleCreate' });

/**
 * `PATCH /schedules/{schedule_id}`: every field optional, unknown fields refused; an explicit
 * null is refused except where null is a value.
 */
export const updateScheduleBody = z
  .strictObject(
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
    },
  )
  .meta({ id: 'ScheduleUpdate' });

/** `/schedules/{schedule_id}`. */
export const scheduleParams = pathParam('schedule_id', 'Schedule id');

/** `/schedules/{schedule_id}/runs/{run_id}`. */
export const scheduleRunParams = z.object({
  schedule_id: z.string().meta({ description: 'Schedule id' }),
  run_id: z.string().meta({ description: 'Schedule run id' }),
});

/** `page` of the schedule listings: 1-based, 0 refused. */
const SCHEDULE_PAGE = z.int().min(1).default(1).meta({ description: 'Page (1-based)' });

/** The query of `GET /schedules/{schedule_id}/runs`. */
export const scheduleRunsQuery = z.object({ limit: limit(100, 1000), page: SCHEDULE_PAGE });

/** The query of `GET /schedules`. */
export const listSchedulesQuery = z.object({
  enabled: z.boolean().optional(),
  ...scheduleRunsQuery.shape,
});

/** `ScheduleResponse`: every field, in the bounds a schedule is written with. */
export const scheduleSchema = z
  .object({
    id: z.string(),
    ...fields,
    enabled: z.boolean(),
    // When the scheduler fires it next; null when it has no next time.
    next_run_at: EPOCH.nullable(),
    created_at: EPOCH,
    updated_at: EPOCH,
  })
  .meta({ id: 'Schedule' });

/** What enabling or disabling a schedule answers. */
export const scheduleStateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    next_run_at: EPOCH.nullable(),
    updated_at: EPOCH,
  })
  .meta({ id: 'ScheduleState' });

/** `ScheduleRunResponse`. */
export const scheduleRunSchema = z
  .object({
    id: z.string(),
    schedule_id: z.string(),
    // 1 for the first attempt, then 2, 3, … for retries.
    attempt: z.int(),
    triggered_at: EPOCH,
    completed_at: EPOCH.nullable(),
    status: z.enum(['running', 'success', 'failed', 'paused', 'cancelled']),
    // The HTTP status of the last response the executor read; null when none came.
    status_code: z.int().nullable(),
    run_id: NULLABLE_STRING,
    session_id: NULLABLE_STRING,
    error: NULLABLE_STRING,
    input: z.unknown(),
    output: z.unknown(),
    requirements: z.unknown(),
    created_at: EPOCH,
  })
  .meta({ id: 'ScheduleRun' });

/** A stored schedule as {@link scheduleSchema} writes it. */
export function scheduleResponse(s: ScheduleRecord): z.infer<typeof scheduleSchema> {
  return fieldsOf(scheduleSchema, s);
}

/** A stored run as {@link scheduleRunSchema} writes it. */
export function scheduleRunResponse(r: ScheduleRunRecord): z.infer<typeof scheduleRunSchema> {
  return fieldsOf(scheduleRunSchema, r);
}
