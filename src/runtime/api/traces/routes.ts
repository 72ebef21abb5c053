/**
 * Traces: the list, one trace or span, the filter schema, per-session stats
 * and the DSL search, each confined to the caller's `scoped_user_id` when the gateway set one
 * . Query parameters become a filter expression compiled by filter.ts, so every route
 * reaches SQL the same, parameterised way. Each route declares its input and answer
 * (schemas.ts); the lifecycle checks the input before a handler runs. Never checks scopes: the
 * gateway did.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callerOf, type Caller } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import type { RuntimeStore } from '../../store/store.js';
import {
  compileFilter,
  FILTER_FIELDS,
  FilterError,
  parseZonedTime,
  type TraceCondition,
} from './filter.js';
import { sessionStats, traceDetail, traceNode, traceSummary } from './render.js';
import { paginated, pagingOf } from '../../http/list-query.js';
import { errors, ok } from '../../http/openapi.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';
import { paginatedOf } from '../../http/openapi-shapes.js';
import {
  filterSchemaSchema,
  listTracesQuery,
  RANGE_AND_PAGE,
  searchBody,
  searchQuery,
  sessionStatsQuery,
  TRACE_TAGS,
  traceDetailSchema,
  traceNodeSchema,
  traceParams,
  traceQuery,
  traceSessionStatsSchema,
  traceSummarySchema,
} from './schemas.js';

/** The schemas of this file's routes (validation.ts). */
const { checked } = sectionSchemas(TRACE_TAGS);

type Expression = Record<string, unknown>;

/** An equality per id query parameter given, and the time bounds; null when none is given. */
function queryExpression(q: Readonly<Record<string, unknown>>): Expression | null {
  const conditions: Expression[] = Object.keys(q)
    .filter((key) => !(key in RANGE_AND_PAGE) && q[key] !== undefined)
    .map((key) => ({ op: 'EQ', key, value: q[key] }));
  for (const [param, op, key] of [
    ['start_time', 'GTE', 'start_time'],
    ['end_time', 'LTE', 'end_time'],
  ] as const) {
    const value = q[param] as string | undefined;
    if (value === undefined) continue;
    if (parseZonedTime(value) === null) {
      throw new HttpError(
        400,
        `Invalid ${param} format. Use ISO 8601 format with a timezone (e.g. '2025-11-19T10:00:00Z')`,
      );
    }
    conditions.push({ op, key, value });
  }
  return conditions.length === 0 ? null : { op: 'AND', conditions };
}

/** The caller's filter, AND-ed with its own user id when confined. */
function confined(caller: Caller, filter: Expression | null): TraceCondition {
  const own =
    caller.scopedUserId === null ? null : { op: 'EQ', key: 'user_id', value: caller.scopedUserId };
  const both =
    own === null ? filter : filter === null ? own : { op: 'AND', conditions: [own, filter] };
  try {
    return compileFilter(both);
  } catch (error) {
    throw new HttpError(400, `Invalid filter expression: ${(error as FilterError).message}`);
  }
}

/** What `POST /traces/search` reads when it is sent no body. */
const NO_SEARCH = searchBody.parse({});

/** Registers the trace routes. */
export function registerTraceRoutes(parent: FastifyInstance, store: RuntimeStore): void {
  const app = parent.withTypeProvider<CheckedTypes>();
  const traces = store.traces;
  /** One page of per-session statistics over the traces `where` selects. */
  const statsPage = async (where: TraceCondition, page: number, limit: number) => {
    const { rows, total } = await traces.sessionStats(where, page, limit);
    return paginated(rows.map(sessionStats), page, limit, total);
  };

  const listSchema = checked('List traces', {
    querystring: listTracesQuery,
    response: {
      200: ok('Traces', paginatedOf(traceSummarySchema)),
      ...errors('400', '404', '422'),
    },
  });
  app.get('/traces', { schema: listSchema }, async (request) => {
    const q = request.query;
    const { page, limit } = pagingOf(q);
    const where = confined(callerOf(request), queryExpression(q));
    const { rows, total } = await traces.list(where, page, limit);
    return paginated(rows.map(traceSummary), page, limit, total);
  });

  const filterSchema = checked('The fields and operators POST /traces/search accepts', {
    response: { 200: ok('Filter schema', filterSchemaSchema) },
  });
  app.get('/traces/filter-schema', { schema: filterSchema }, async () => ({
    fields: FILTER_FIELDS,
    logical_operators: ['AND', 'OR'],
  }));

  const oneSchema = checked('One trace with its span tree (or one span)', {
    params: traceParams,
    querystring: traceQuery,
    response: {
      200: ok(
        'The trace, or the span when span_id is given',
        z.union([traceDetailSchema, traceNodeSchema]),
      ),
      ...errors('404'),
    },
  });
  app.get('/traces/:trace_id', { schema: oneSchema }, async (request) => {
    const q = request.query;
    const caller = callerOf(request);
    const trace = await traces.get(request.params.trace_id);
    // Another user's trace, or an ownerless one, looks missing to a confined caller.
    if (
      trace === null ||
      (q.run_id !== undefined && trace.run_id !== q.run_id) ||
      (caller.scopedUserId !== null && trace.user_id !== caller.scopedUserId)
    ) {
      throw new HttpError(404, 'Trace not found');
    }
    if (q.span_id !== undefined) {
      const span = await traces.span(q.span_id);
      if (span === null || span.trace_id !== trace.trace_id) {
        throw new HttpError(404, 'Span not found');
      }
      return traceNode(span);
    }
    return traceDetail(trace, await traces.spans(trace.trace_id));
  });

  const statsSchema = checked('Trace counts per session', {
    querystring: sessionStatsQuery,
    response: {
      200: ok('Per-session statistics', paginatedOf(traceSessionStatsSchema)),
      ...errors('400', '404', '422'),
    },
  });
  app.get('/trace_session_stats', { schema: statsSchema }, async (request) => {
    const q = request.query;
    const { page, limit } = pagingOf(q);
    const where = confined(callerOf(request), queryExpression(q));
    return statsPage(where, page, limit);
  });

  const searchSchema = checked('Search traces with a filter expression', {
    querystring: searchQuery,
    body: searchBody.optional(),
    response: {
      200: ok(
        'Traces (group_by=run) or per-session statistics (group_by=session)',
        paginatedOf(z.union([traceDetailSchema, traceSessionStatsSchema])),
      ),
      ...errors('400', '404', '422'),
    },
  });
  app.post('/traces/search', { schema: searchSchema }, async (request) => {
    const search = request.body ?? NO_SEARCH;
    const { filter, group_by: groupBy } = search;
    const { page, limit } = pagingOf(search);
    const where = confined(callerOf(request), filter ?? null);
    if (groupBy === 'session') return statsPage(where, page, limit);
    const { rows, total } = await traces.list(where, page, limit);
    const data: ReturnType<typeof traceDetail>[] = [];
    for (const trace of rows) data.push(traceDetail(trace, await traces.spans(trace.trace_id)));
    return paginated(data, page, limit, total);
  });
}
