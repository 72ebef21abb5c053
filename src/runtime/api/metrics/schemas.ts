/**
 * The shapes of the metrics routes: their query parameters and their answers (one day's
 * aggregates and the `{metrics, updated_at}` listing), as zod schemas the routes declare and the
 * OpenAPI document is generated from. Pure data.
 */
import { z } from 'zod';
import { DB_QUERY, ISO_TIME, NULLABLE_STRING } from '../../http/openapi-shapes.js';
import { TOKEN_SOURCES } from './table.js';

/** The document's section of the metrics routes. */
export const METRICS_TAGS = ['Metrics'] as const;

/** A `YYYY-MM-DD` date. */
const DATE = z.string().meta({ format: 'date' });

/** The query of `GET /metrics`: the date range (inclusive), then the database. */
export const metricsQuery = z.object({
  starting_date: DATE.optional().meta({ description: 'YYYY-MM-DD' }),
  ending_date: DATE.optional().meta({ description: 'YYYY-MM-DD' }),
  ...DB_QUERY,
});

/** One day's token counts. */
const tokenMetrics = z.object(Object.fromEntries(TOKEN_SOURCES.map(([name]) => [name, z.int()])));

/** One day's aggregates, times as ISO 8601 UTC. */
export const dayMetrics = z
  .object({
    id: z.string(),
    agent_runs_count: z.int(),
    agent_sessions_count: z.int(),
    team_runs_count: z.int(),
    team_sessions_count: z.int(),
    workflow_runs_count: z.int(),
    workflow_sessions_count: z.int(),
    users_count: z.int(),
    token_metrics: tokenMetrics,
    model_metrics: z.array(
      z.object({ model_id: z.string(), model_provider: NULLABLE_STRING, count: z.int() }),
    ),
    date: DATE,
    created_at: ISO_TIME,
    updated_at: ISO_TIME,
  })
  .meta({ id: 'DayMetrics' });

/** What `GET /metrics` answers: the days, and the last refresh (null when none is stored). */
export const metricsResponse = z
  .object({ metrics: z.array(dayMetrics), updated_at: ISO_TIME.nullable() })
  .meta({ id: 'MetricsResponse' });
