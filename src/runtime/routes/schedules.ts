/**
 * Schedules: cron schedules that call a gateway endpoint, their run
 * history, enable/disable, and trigger-now. Validates and shapes HTTP only: cron rules live in
 * ../schedules/cron.ts, execution in the scheduler. Schedules are not user-owned. Never
 * checks scopes: the gateway did.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../shared/clock.js';
import { HttpError } from '../errors.js';
import { cronProblem, nextRunAfter, timezoneProblem } from '../schedules/cron.js';
import type { Scheduler } from '../schedules/scheduler.js';
import {
  SCHEDULE_METHODS,
  type ScheduleRecord,
  type ScheduleRunRecord,
  type ScheduleStore,
} from '../store/schedules.js';
import { parseBody } from '../validation.js';
import { boundedInt } from '../http/query.js';
import { paginated } from './list-query.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]*$/;

const fields = {
  name: z
    .string()
    .max(255)
    .regex(NAME, 'name starts with a letter or digit, then letters, digits, spaces or ._-'),
  cron_expr: z.string(),
  endpoint: z
    .string()
    .refine(
      (e) => e.startsWith('/') && !e.includes('://'),
      'endpoint is a path starting with "/" (no scheme or host)',
    ),
  method: z.enum(SCHEDULE_METHODS),
  description: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()).nullable(),
  timezone: z.string(),
  timeout_seconds: z.int().min(1).max(86_400),
  max_retries: z.int().min(0).max(10),
  retry_delay_seconds: z.int().min(1).max(3600),
};

const createBody = z.strictObject({
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
});

// Every field optional; an explicit null is refused except where null is a value.
const updateBody = z.strictObject(
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
  },
);

/** `ScheduleResponse`. */
export function scheduleResponse(s: ScheduleRecord): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    method: s.method,
    endpoint: s.endpoint,
    payload: s.payload,
    cron_expr: s.cron_expr,
    timezone: s.timezone,
    timeout_seconds: s.timeout_seconds,
    max_retries: s.max_retries,
    retry_delay_seconds: s.retry_delay_seconds,
    enabled: s.enabled,
    next_run_at: s.next_run_at,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** `ScheduleRunResponse`. */
export function scheduleRunResponse(r: ScheduleRunRecord): Record<string, unknown> {
  return {
    id: r.id,
    schedule_id: r.schedule_id,
    attempt: r.attempt,
    triggered_at: r.triggered_at,
    completed_at: r.completed_at,
    status: r.status,
    status_code: r.status_code,
    run_id: r.run_id,
    session_id: r.session_id,
    error: r.error,
    input: r.input,
    output: r.output,
    requirements: r.requirements,
    created_at: r.created_at,
  };
}

/** The hand-made 422 (a string detail) for a bad cron expression or time zone. */
function checkCron(expr: string, timezone: string): void {
  const problem = cronProblem(expr) ?? timezoneProblem(timezone);
  if (problem !== null) throw new HttpError(422, problem);
}

const BOOLEANS: Readonly<Record<string, boolean>> = {
  true: true,
  '1': true,
  yes: true,
  on: true,
  false: false,
  '0': false,
  no: false,
  off: false,
};

/** The `enabled` filter: absent → null, else a pydantic boolean (422 otherwise). */
function enabledQuery(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  const flag = BOOLEANS[value.toLowerCase()];
  if (flag !== undefined) return flag;
  throw new HttpError(422, [
    {
      type: 'bool_parsing',
      loc: ['query', 'enabled'],
      msg: 'Input should be a valid boolean, unable to interpret input',
      input: value,
    },
  ]);
}

type Query = Record<string, string | undefined>;

/** Registers `/schedules…`. */
export function registerScheduleRoutes(
  app: FastifyInstance,
  deps: {
    readonly store: ScheduleStore;
    readonly scheduler: Scheduler;
    readonly clock: Clock;
    readonly newId: () => string;
  },
): void {
  const { store, scheduler, clock } = deps;
  const now = (): number => Math.floor(clock.now() / 1000);
  const found = (id: string): ScheduleRecord => {
    const schedule = store.get(id);
    if (schedule === null) throw new HttpError(404, 'Schedule not found');
    return schedule;
  };
  const duplicate = (name: string): HttpError =>
    new HttpError(409, `Schedule with name '${name}' already exists`);

  app.get<{ Querystring: Query }>('/schedules', async (request) => {
    const q = request.query;
    const enabled = enabledQuery(q.enabled);
    const limit = boundedInt(q.limit, 'limit', 100, 1000);
    const page = boundedInt(q.page, 'page', 1, Number.MAX_SAFE_INTEGER);
    const { rows, total } = store.list(enabled, page, limit);
    return paginated(rows.map(scheduleResponse), page, limit, total);
  });

  app.post('/schedules', async (request, reply) => {
    const body = parseBody(createBody, request.body);
    checkCron(body.cron_expr, body.timezone);
    const at = now();
    const schedule: ScheduleRecord = {
      id: deps.newId(),
      name: body.name,
      description: body.description ?? null,
      method: body.method,
      endpoint: body.endpoint,
      payload: body.payload ?? null,
      cron_expr: body.cron_expr,
      timezone: body.timezone,
      timeout_seconds: body.timeout_seconds,
      max_retries: body.max_retries,
      retry_delay_seconds: body.retry_delay_seconds,
      enabled: true,
      next_run_at: nextRunAfter(body.cron_expr, body.timezone, at),
      created_at: at,
      updated_at: at,
    };
    if (!store.insert(schedule)) throw duplicate(body.name);
    return reply.code(201).send(scheduleResponse(schedule));
  });

  app.get<{ Params: { id: string } }>('/schedules/:id', async (request) =>
    scheduleResponse(found(request.params.id)),
  );

  app.patch<{ Params: { id: string } }>('/schedules/:id', async (request) => {
    const schedule = found(request.params.id);
    const body = parseBody(updateBody, request.body);
    const next: ScheduleRecord = { ...schedule };
    for (const [key, value] of Object.entries(body)) {
      if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
    }
    checkCron(next.cron_expr, next.timezone);
    if (next.name !== schedule.name && store.byName(next.name) !== null) throw duplicate(next.name);
    const at = now();
    if (next.cron_expr !== schedule.cron_expr || next.timezone !== schedule.timezone) {
      next.next_run_at = nextRunAfter(next.cron_expr, next.timezone, at);
    }
    next.updated_at = at;
    store.update(next);
    return scheduleResponse(next);
  });

  app.delete<{ Params: { id: string } }>('/schedules/:id', async (request, reply) => {
    if (!store.delete(request.params.id)) throw new HttpError(404, 'Schedule not found');
    return reply.code(204).send();
  });

  for (const enabled of [true, false]) {
    app.post<{ Params: { id: string } }>(
      `/schedules/:id/${enabled ? 'enable' : 'disable'}`,
      async (request) => {
        const schedule = found(request.params.id);
        const at = now();
        // Enabling counts from now: the ticks of a disabled schedule were not missed.
        const next: ScheduleRecord = {
          ...schedule,
          enabled,
          next_run_at: enabled
            ? nextRunAfter(schedule.cron_expr, schedule.timezone, at)
            : schedule.next_run_at,
          updated_at: at,
        };
        store.update(next);
        return {
          id: next.id,
          name: next.name,
          enabled: next.enabled,
          next_run_at: next.next_run_at,
          updated_at: next.updated_at,
        };
      },
    );
  }

  app.post<{ Params: { id: string } }>('/schedules/:id/trigger', async (request) => {
    const schedule = found(request.params.id);
    if (!schedule.enabled) throw new HttpError(409, 'Schedule is disabled');
    if (!scheduler.canExecute) {
      throw new HttpError(
        503,
        'Schedule executor is not available: the runtime has no gateway to call ' +
          '(set auth.internal_service_token and run it embedded in `scopegate serve`)',
      );
    }
    return scheduleRunResponse(await scheduler.trigger(schedule));
  });

  app.get<{ Params: { id: string }; Querystring: Query }>(
    '/schedules/:id/runs',
    async (request) => {
      const schedule = found(request.params.id);
      const limit = boundedInt(request.query.limit, 'limit', 100, 1000);
      const page = boundedInt(request.query.page, 'page', 1, Number.MAX_SAFE_INTEGER);
      const { rows, total } = store.listRuns(schedule.id, page, limit);
      return paginated(rows.map(scheduleRunResponse), page, limit, total);
    },
  );

  app.get<{ Params: { id: string; run_id: string } }>(
    '/schedules/:id/runs/:run_id',
    async (request) => {
      const schedule = found(request.params.id);
      const run = store.getRun(schedule.id, request.params.run_id);
      if (run === null) throw new HttpError(404, 'Schedule run not found');
      return scheduleRunResponse(run);
    },
  );
}
