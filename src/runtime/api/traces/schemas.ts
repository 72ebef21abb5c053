/**
 * The shapes of the trace routes: their path and query parameters, the search body and their
 * answers (TraceSummary, TraceDetail with its span tree, TraceNode, TraceSessionStats, the filter
 * schema), as zod schemas the routes declare and the OpenAPI document is generated from. The
 * bodies themselves are built by render.ts, which leaves null fields out. Pure data.
 */
import { z } from 'zod';
import {
  DB_QUERY,
  ISO_TIME,
  limit,
  NULLABLE_STRING,
  PAGE,
  pathParam,
  QUERY_STRING,
  USER_ID,
} from '../../http/openapi-shapes.js';

/** The document's section of the trace routes. */
export const TRACE_TAGS = ['Traces'] as const;

/** Limit of every trace page. */
export const MAX_TRACE_LIMIT = 100;

/** `/traces/{trace_id}`. */
export const traceParams = pathParam('trace_id', 'Trace id');

const STATUS = z.enum(['OK', 'ERROR', 'UNSET']);
const ZONED_TIME = ISO_TIME.optional().meta({ description: 'ISO-8601 with a zone' });

/** The id filters both listings take. */
const ENTITY_FILTERS = {
  user_id: USER_ID,
  agent_id: QUERY_STRING,
  team_id: QUERY_STRING,
  workflow_id: QUERY_STRING,
};

/** The time range, page and database both listings take last (every other key is an id filter). */
export const RANGE_AND_PAGE = {
  start_time: ZONED_TIME,
  end_time: ZONED_TIME,
  page: PAGE,
  limit: limit(20, MAX_TRACE_LIMIT),
  db_id: DB_QUERY.db_id,
};

/** The query of `GET /traces`. */
export const listTracesQuery = z.object({
  run_id: QUERY_STRING,
  session_id: QUERY_STRING,
  ...ENTITY_FILTERS,
  status: STATUS.optional(),
  ...RANGE_AND_PAGE,
});

/** The query of `GET /trace_session_stats`. */
export const sessionStatsQuery = z.object({ ...ENTITY_FILTERS, ...RANGE_AND_PAGE });

/** The query of `GET /traces/{trace_id}`. */
export const traceQuery = z.object({
  span_id: QUERY_STRING,
  run_id: QUERY_STRING,
  db_id: DB_QUERY.db_id,
});

/** The query of `POST /traces/search`. */
export const searchQuery = z.object({ db_id: DB_QUERY.db_id });

/** `POST /traces/search` (no body reads as `{}`: the route's schema makes it optional). */
export const searchBody = z
  .object({
    filter: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .meta({
        description:
          'Leaf {op: EQ|NEQ|GT|GTE|LT|LTE|IN|CONTAINS|STARTSWITH, key, value}, ' +
          '{op: AND|OR, conditions: [...]}, or {op: NOT, condition}',
      }),
    group_by: z.enum(['run', 'session']).default('run'),
    page: z.int().min(0).default(1),
    limit: z.int().min(1).max(MAX_TRACE_LIMIT).default(20),
  })
  .meta({ id: 'TraceSearchRequest' });

/** A field left out when null. */
const OPTIONAL_STRING = NULLABLE_STRING.optional();

const SUMMARY_FIELDS = {
  trace_id: z.string(),
  name: z.string(),
  status: STATUS,
  duration: z.string().meta({ description: 'e.g. 123ms or 1.5s' }),
  start_time: ISO_TIME,
  end_time: ISO_TIME,
  total_spans: z.int(),
  error_count: z.int(),
  input: OPTIONAL_STRING,
  run_id: OPTIONAL_STRING,
  session_id: OPTIONAL_STRING,
  user_id: OPTIONAL_STRING,
  agent_id: OPTIONAL_STRING,
  team_id: OPTIONAL_STRING,
  workflow_id: OPTIONAL_STRING,
  created_at: ISO_TIME,
};

/** `TraceSummary`. */
export const traceSummarySchema = z.object(SUMMARY_FIELDS).meta({ id: 'TraceSummary' });

/** `TraceNode`: one span and the spans under it. */
export const traceNodeSchema: z.ZodType = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(['AGENT', 'TEAM', 'WORKFLOW', 'LLM', 'TOOL']),
    duration: z.string(),
    start_time: ISO_TIME,
    end_time: ISO_TIME,
    status: z.string(),
    input: z.unknown().optional(),
    output: z.unknown().optional(),
    error: OPTIONAL_STRING,
    get spans() {
      return z.array(traceNodeSchema).optional();
    },
    step_type: OPTIONAL_STRING,
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
    extra_data: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .meta({ id: 'TraceNode' });

/** `TraceDetail`: the summary, the root's output and error, and the span tree. */
export const traceDetailSchema = z
  .object({
    ...SUMMARY_FIELDS,
    output: z.unknown().optional(),
    error: OPTIONAL_STRING,
    tree: z.array(traceNodeSchema),
  })
  .meta({ id: 'TraceDetail' });

/** `TraceSessionStats`. */
export const traceSessionStatsSchema = z
  .object({
    session_id: z.string(),
    user_id: OPTIONAL_STRING,
    agent_id: OPTIONAL_STRING,
    team_id: OPTIONAL_STRING,
    workflow_id: OPTIONAL_STRING,
    total_traces: z.int(),
    first_trace_at: ISO_TIME,
    last_trace_at: ISO_TIME,
  })
  .meta({ id: 'TraceSessionStats' });

/** What `GET /traces/filter-schema` answers. */
export const filterSchemaSchema = z
  .object({
    fields: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        type: z.string(),
        operators: z.array(z.string()),
        values: z.unknown().optional(),
      }),
    ),
    logical_operators: z.array(z.string()),
  })
  .meta({ id: 'TraceFilterSchema' });
