/**
 * Metrics: the stored daily aggregates between two dates, and their
 * recomputation from the stored sessions and runs. Metrics are not user-owned. Never checks
 * scopes: the gateway did (`metrics:read`, `metrics:write`). Each route declares its document
 * part (schemas.ts); the handlers still check their own input.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../../shared/clock.js';
import { HttpError } from '../../http/errors.js';
import type { DailyMetricsRecord } from './table.js';
import type { RuntimeStore } from '../../store/store.js';
import { errors, ok } from '../../http/openapi.js';
import { DB_ONLY } from '../../http/openapi-shapes.js';
import { scalarQuery, type RawQuery } from '../../http/query.js';
import { dayMetrics, METRICS_TAGS, metricsQuery, metricsResponse } from './schemas.js';
import { sectionSchemas } from '../../http/validation.js';

/** The schemas of this file's routes (validation.ts). */
const { documented } = sectionSchemas(METRICS_TAGS);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** One `Day` body: times as ISO 8601 UTC. */
export function dayOf(day: DailyMetricsRecord): Record<string, unknown> {
  return {
    ...day,
    created_at: new Date(day.created_at).toISOString(),
    updated_at: new Date(day.updated_at).toISOString(),
  };
}

/** A `YYYY-MM-DD` query date (null when absent); any other value fails the request. */
function dateQuery(value: string | undefined, field: string): string | null {
  if (value === undefined) return null;
  if (!DATE.test(value) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    throw new Error(`${field} must be a date as YYYY-MM-DD, got '${value}'`);
  }
  return value;
}

/** Registers `GET /metrics` and `POST /metrics/refresh`. */
export function registerMetricsRoutes(
  app: FastifyInstance,
  store: RuntimeStore,
  dbId: string,
  clock: Clock,
): void {
  /** Every failure is a 500 `Error getting metrics: …`, as Agno answers (even a bad db_id). */
  async function guarded<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw new HttpError(500, `Error getting metrics: ${(error as Error).message}`);
    }
  }
  const checkDb = (given: string | undefined): void => {
    if (given !== undefined && given !== dbId) {
      throw new Error(`No database found with id '${given}'`);
    }
  };

  const listSchema = documented('Daily aggregates of runs, sessions, users and tokens', {
    querystring: metricsQuery,
    response: { 200: ok('Daily metrics', metricsResponse), ...errors('422', '500') },
  });
  app.get<{ Querystring: RawQuery }>('/metrics', { schema: listSchema }, async (request) =>
    guarded(async () => {
      const q = scalarQuery(request.query);
      checkDb(q.db_id);
      const days = await store.dailyMetrics.list(
        dateQuery(q.starting_date, 'starting_date'),
        dateQuery(q.ending_date, 'ending_date'),
      );
      const updated = Math.max(...days.map((day) => day.updated_at));
      return {
        metrics: days.map(dayOf),
        updated_at: days.length === 0 ? null : new Date(updated).toISOString(),
      };
    }),
  );

  const refreshSchema = documented('Recompute the daily aggregates from stored sessions and runs', {
    querystring: DB_ONLY,
    response: { 200: ok('Daily metrics', z.array(dayMetrics)), ...errors('500') },
  });
  app.post<{ Querystring: RawQuery }>(
    '/metrics/refresh',
    { schema: refreshSchema },
    async (request) =>
      guarded(async () => {
        checkDb(scalarQuery(request.query).db_id);
        return (await store.dailyMetrics.refresh(clock.now())).map(dayOf);
      }),
  );
}
