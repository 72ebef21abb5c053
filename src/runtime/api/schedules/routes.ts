/**
 * Schedules: cron schedules that call a gateway endpoint, their run
 * history, enable/disable, and trigger-now. Validates and shapes HTTP only: cron rules live in
 * ../schedules/cron.ts, execution in the scheduler. Schedules are not user-owned. Each route
 * declares its document part (schemas.ts); the handlers still check their own input.
 * Never checks scopes: the gateway did.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../../../shared/clock.js';
import { HttpError } from '../../http/errors.js';
import { cronProblem, nextRunAfter, timezoneProblem } from './cron.js';
import type { Scheduler } from './scheduler.js';
import type { ScheduleChanges, ScheduleRecord, ScheduleStore } from './table.js';
import { empty, errors, ok } from '../../http/openapi.js';
import { paginatedOf } from '../../http/openapi-shapes.js';
import { paginated } from '../../http/list-query.js';
import {
  createScheduleBody,
  listSchedulesQuery,
  scheduleParams,
  scheduleResponse,
  scheduleRunParams,
  scheduleRunResponse,
  scheduleRunSchema,
  scheduleRunsQuery,
  scheduleSchema,
  scheduleStateSchema,
  SCHEDULE_TAGS,
  updateScheduleBody,
} from './schemas.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';

/** The schemas of this file's routes (validation.ts). */
const { checked, documented } = sectionSchemas(SCHEDULE_TAGS);

/** The hand-made 422 (a string detail) for a bad cron expression or time zone. */
function checkCron(expr: string, timezone: string): void {
  const problem = cronProblem(expr) ?? timezoneProblem(timezone);
  if (problem !== null) throw new HttpError(422, problem);
}

type OneSchedule = { Params: z.infer<typeof scheduleParams> };

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
  const checkedApp = app.withTypeProvider<CheckedTypes>();
  const { store, scheduler, clock } = deps;
  const now = (): number => Math.floor(clock.now() / 1000);
  const found = async (id: string): Promise<ScheduleRecord> => {
    const schedule = await store.get(id);
    if (schedule === null) throw new HttpError(404, 'Schedule not found');
    return schedule;
  };
  const duplicate = (name: string): HttpError =>
    new HttpError(409, `Schedule with name '${name}' already exists`);

  const listSchema = checked('List schedules', {
    querystring: listSchedulesQuery,
    response: { 200: ok('Schedules', paginatedOf(scheduleSchema)), ...errors('422', '503') },
  });
  checkedApp.get('/schedules', { schema: listSchema }, async (request) => {
    const { enabled, page, limit } = request.query;
    const { rows, total } = await store.list(enabled ?? null, page, limit);
    return paginated(rows.map(scheduleResponse), page, limit, total);
  });

  const createSchema = checked('Create a schedule', {
    body: createScheduleBody,
    response: { 201: ok('Created', scheduleSchema), ...errors('409', '422', '503') },
  });
  checkedApp.post('/schedules', { schema: createSchema }, async (request, reply) => {
    const body = request.body;
    checkCron(body.cron_expr, body.timezone);
    const at = now();
    const schedule: ScheduleRecord = {
      id: deps.newId(),
      ...body,
      description: body.description ?? null,
      payload: body.payload ?? null,
      enabled: true,
      next_run_at: nextRunAfter(body.cron_expr, body.timezone, at),
      created_at: at,
      updated_at: at,
    };
    if (!(await store.insert(schedule))) throw duplicate(body.name);
    return reply.code(201).send(scheduleResponse(schedule));
  });

  const getSchema = documented('One schedule', {
    params: scheduleParams,
    response: { 200: ok('The schedule', scheduleSchema), ...errors('404', '503') },
  });
  app.get<OneSchedule>('/schedules/:schedule_id', { schema: getSchema }, async (request) =>
    scheduleResponse(await found(request.params.schedule_id)),
  );

  const updateSchema = checked('Update a schedule', {
    params: scheduleParams,
    body: updateScheduleBody,
    response: { 200: ok('Updated', scheduleSchema), ...errors('404', '409', '422', '503') },
  });
  checkedApp.patch('/schedules/:schedule_id', { schema: updateSchema }, async (request) => {
    const schedule = await found(request.params.schedule_id);
    const body = request.body;
    const changes: ScheduleChanges = {};
    for (const [key, value] of Object.entries(body)) {
      if (value !== undefined) (changes as Record<string, unknown>)[key] = value;
    }
    const next: ScheduleRecord = { ...schedule, ...changes };
    checkCron(next.cron_expr, next.timezone);
    if (next.name !== schedule.name && (await store.byName(next.name)) !== null) {
      throw duplicate(next.name);
    }
    const at = now();
    if (next.cron_expr !== schedule.cron_expr || next.timezone !== schedule.timezone) {
      changes.next_run_at = next.next_run_at = nextRunAfter(next.cron_expr, next.timezone, at);
    }
    changes.updated_at = next.updated_at = at;
    // Only what changed is written: a slot claimed meanwhile keeps its new next_run_at.
    await store.update(schedule.id, changes);
    return scheduleResponse(next);
  });

  const deleteSchema = documented('Delete a schedule', {
    params: scheduleParams,
    response: { 204: empty('Deleted'), ...errors('404', '503') },
  });
  app.delete<OneSchedule>(
    '/schedules/:schedule_id',
    { schema: deleteSchema },
    async (request, reply) => {
      if (!(await store.delete(request.params.schedule_id))) {
        throw new HttpError(404, 'Schedule not found');
      }
      return reply.code(204).send();
    },
  );

  for (const enabled of [true, false]) {
    const stateSchema = documented(enabled ? 'Enable a schedule' : 'Disable a schedule', {
      params: scheduleParams,
      response: {
        200: ok(enabled ? 'Enabled' : 'Disabled', scheduleStateSchema),
        ...errors('404', '503'),
      },
    });
    app.post<OneSchedule>(
      `/schedules/:schedule_id/${enabled ? 'enable' : 'disable'}`,
      { schema: stateSchema },
      async (request) => {
        const schedule = await found(request.params.schedule_id);
        const at = now();
        // Enabling counts from now: the ticks of a disabled schedule were not missed.
        const changes: ScheduleChanges = enabled
          ? {
              enabled,
              next_run_at: nextRunAfter(schedule.cron_expr, schedule.timezone, at),
              updated_at: at,
            }
          : { enabled, updated_at: at };
        const next: ScheduleRecord = { ...schedule, ...changes };
        await store.update(schedule.id, changes);
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

  const triggerSchema = documented('Run a schedule now (through the gateway) and wait for it', {
    params: scheduleParams,
    response: { 200: ok('The schedule run', scheduleRunSchema), ...errors('404', '409', '503') },
  });
  app.post<OneSchedule>(
    '/schedules/:schedule_id/trigger',
    { schema: triggerSchema },
    async (request) => {
      const schedule = await found(request.params.schedule_id);
      if (!schedule.enabled) throw new HttpError(409, 'Schedule is disabled');
      if (!scheduler.canExecute) {
        throw new HttpError(
          503,
          'Schedule executor is not available: the runtime has no gateway to call ' +
            '(set auth.internal_service_token and run it embedded in `scopegate serve`)',
        );
      }
      return scheduleRunResponse(await scheduler.trigger(schedule));
    },
  );

  const runsSchema = checked("A schedule's run history", {
    params: scheduleParams,
    querystring: scheduleRunsQuery,
    response: {
      200: ok('Schedule runs', paginatedOf(scheduleRunSchema)),
      ...errors('404', '422', '503'),
    },
  });
  checkedApp.get('/schedules/:schedule_id/runs', { schema: runsSchema }, async (request) => {
    const schedule = await found(request.params.schedule_id);
    const { page, limit } = request.query;
    const { rows, total } = await store.listRuns(schedule.id, page, limit);
    return paginated(rows.map(scheduleRunResponse), page, limit, total);
  });

  const runSchema = documented('One schedule run', {
    params: scheduleRunParams,
    response: { 200: ok('The schedule run', scheduleRunSchema), ...errors('404', '503') },
  });
  app.get<{ Params: z.infer<typeof scheduleRunParams> }>(
    '/schedules/:schedule_id/runs/:run_id',
    { schema: runSchema },
    async (request) => {
      const schedule = await found(request.params.schedule_id);
      const run = await store.getRun(schedule.id, request.params.run_id);
      if (run === null) throw new HttpError(404, 'Schedule run not found');
      return scheduleRunResponse(run);
    },
  );
}
