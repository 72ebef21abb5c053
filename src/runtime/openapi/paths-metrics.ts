/**
 * OpenAPI paths of metrics, evals and traces. Data only.
 */
import {
  arrayOf,
  DB_ID,
  DB_PARAMS,
  empty,
  errors,
  ISO_TIME,
  jsonBody,
  limit,
  ok,
  PAGE,
  paginated,
  pathParam,
  query,
  ref,
  SORT_ORDER,
  sortBy,
  STRING,
  USER_ID,
  type Paths,
} from './parts.js';

const DATE = { type: 'string', format: 'date' };
const EVAL = pathParam('eval_run_id', 'Eval run id');
const ENTITY_FILTERS = [
  query('agent_id', STRING),
  query('team_id', STRING),
  query('workflow_id', STRING),
];
const TIME_RANGE = [
  query('start_time', ISO_TIME, 'ISO-8601 with a zone'),
  query('end_time', ISO_TIME, 'ISO-8601 with a zone'),
];

/** The metrics routes. */
export const METRICS_PATHS: Paths = {
  '/metrics': {
    get: {
      tags: ['Metrics'],
      summary: 'Daily aggregates of runs, sessions, users and tokens',
      parameters: [
        query('starting_date', DATE, 'YYYY-MM-DD'),
        query('ending_date', DATE, 'YYYY-MM-DD'),
        ...DB_PARAMS,
      ],
      responses: { '200': ok('Daily metrics', ref('MetricsResponse')), ...errors('422', '500') },
    },
  },
  '/metrics/refresh': {
    post: {
      tags: ['Metrics'],
      summary: 'Recompute the daily aggregates from stored sessions and runs',
      parameters: DB_PARAMS,
      responses: { '200': ok('Daily metrics', arrayOf(ref('DayMetrics'))), ...errors('500') },
    },
  },
};

/** The eval routes. */
export const EVAL_PATHS: Paths = {
  '/eval-runs': {
    get: {
      tags: ['Evals'],
      summary: 'List eval runs',
      parameters: [
        ...ENTITY_FILTERS,
        query('model_id', STRING),
        query('type', { type: 'string', enum: ['agent', 'team', 'workflow'] }),
        query('eval_types', STRING, 'Comma-separated eval types'),
        limit(20),
        PAGE,
        sortBy('created_at'),
        SORT_ORDER,
        ...DB_PARAMS,
      ],
      responses: { '200': ok('Eval runs', paginated(ref('EvalRun'))), ...errors('404', '422') },
    },
    post: {
      tags: ['Evals'],
      summary: 'Run an eval against an agent or team',
      parameters: DB_PARAMS,
      requestBody: jsonBody(ref('EvalCreate')),
      responses: { '200': ok('The eval run', ref('EvalRun')), ...errors('400', '404', '422') },
    },
    delete: {
      tags: ['Evals'],
      summary: 'Delete eval runs',
      parameters: DB_PARAMS,
      requestBody: jsonBody(ref('EvalsDelete')),
      responses: { '204': empty('Deleted'), ...errors('404', '422') },
    },
  },
  '/eval-runs/{eval_run_id}': {
    get: {
      tags: ['Evals'],
      summary: 'One eval run',
      parameters: [EVAL, ...DB_PARAMS],
      responses: { '200': ok('The eval run', ref('EvalRun')), ...errors('404') },
    },
    patch: {
      tags: ['Evals'],
      summary: 'Rename an eval run',
      parameters: [EVAL, ...DB_PARAMS],
      requestBody: jsonBody(ref('EvalUpdate')),
      responses: { '200': ok('Renamed', ref('EvalRun')), ...errors('404', '422') },
    },
  },
};

/** The trace routes. */
export const TRACE_PATHS: Paths = {
  '/traces': {
    get: {
      tags: ['Traces'],
      summary: 'List traces',
      parameters: [
        query('run_id', STRING),
        query('session_id', STRING),
        USER_ID,
        ...ENTITY_FILTERS,
        query('status', { type: 'string', enum: ['OK', 'ERROR', 'UNSET'] }),
        ...TIME_RANGE,
        PAGE,
        limit(20),
        DB_ID,
      ],
      responses: {
        '200': ok('Traces', paginated(ref('TraceSummary'))),
        ...errors('400', '404', '422'),
      },
    },
  },
  '/traces/filter-schema': {
    get: {
      tags: ['Traces'],
      summary: 'The fields and operators POST /traces/search accepts',
      responses: { '200': ok('Filter schema', ref('TraceFilterSchema')) },
    },
  },
  '/traces/{trace_id}': {
    get: {
      tags: ['Traces'],
      summary: 'One trace with its span tree (or one span)',
      parameters: [
        pathParam('trace_id', 'Trace id'),
        query('span_id', STRING),
        query('run_id', STRING),
        DB_ID,
      ],
      responses: {
        '200': ok('The trace, or the span when span_id is given', {
          anyOf: [ref('TraceDetail'), ref('TraceNode')],
        }),
        ...errors('404'),
      },
    },
  },
  '/trace_session_stats': {
    get: {
      tags: ['Traces'],
      summary: 'Trace counts per session',
      parameters: [USER_ID, ...ENTITY_FILTERS, ...TIME_RANGE, PAGE, limit(20), DB_ID],
      responses: {
        '200': ok('Per-session statistics', paginated(ref('TraceSessionStats'))),
        ...errors('400', '404', '422'),
      },
    },
  },
  '/traces/search': {
    post: {
      tags: ['Traces'],
      summary: 'Search traces with a filter expression',
      parameters: [DB_ID],
      requestBody: jsonBody(ref('TraceSearchRequest')),
      responses: {
        '200': ok(
          'Traces (group_by=run) or per-session statistics (group_by=session)',
          paginated({ anyOf: [ref('TraceDetail'), ref('TraceSessionStats')] }),
        ),
        ...errors('400', '404', '422'),
      },
    },
  },
};
