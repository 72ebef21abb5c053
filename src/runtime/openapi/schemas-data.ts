/**
 * The OpenAPI schemas of the runtime's data APIs: memories,
 * learnings, knowledge, metrics, evals, traces, schedules and approvals, their records and their
 * request bodies. Data only.
 */
import {
  ANY,
  arrayOf,
  INTEGER,
  ISO_TIME,
  nullable,
  object,
  OBJECT,
  ref,
  STRING,
  type Json,
} from './parts.js';

const NSTRING = nullable(STRING);
const EVAL_TYPE = {
  type: 'string',
  enum: ['accuracy', 'agent_as_judge', 'performance', 'reliability'],
};
const IDS = { type: 'array', items: STRING, minItems: 1 };

const TOKEN_METRICS = object({
  input_tokens: INTEGER,
  output_tokens: INTEGER,
  total_tokens: INTEGER,
  audio_tokens: INTEGER,
  input_audio_tokens: INTEGER,
  output_audio_tokens: INTEGER,
  cached_tokens: INTEGER,
  cache_write_tokens: INTEGER,
  reasoning_tokens: INTEGER,
});

const TRACE_SUMMARY_FIELDS: Json = {
  trace_id: STRING,
  name: STRING,
  status: { type: 'string', enum: ['OK', 'ERROR', 'UNSET'] },
  duration: { type: 'string', description: 'e.g. 123ms or 1.5s' },
  start_time: ISO_TIME,
  end_time: ISO_TIME,
  total_spans: INTEGER,
  error_count: INTEGER,
  input: NSTRING,
  run_id: NSTRING,
  session_id: NSTRING,
  user_id: NSTRING,
  agent_id: NSTRING,
  team_id: NSTRING,
  workflow_id: NSTRING,
  created_at: ISO_TIME,
};

/** Data-API schemas by name. */
export const DATA_SCHEMAS: Readonly<Record<string, Json>> = {
  DayMetrics: object(
    {
      id: STRING,
      agent_runs_count: INTEGER,
      agent_sessions_count: INTEGER,
      team_runs_count: INTEGER,
      team_sessions_count: INTEGER,
      workflow_runs_count: INTEGER,
      workflow_sessions_count: INTEGER,
      users_count: INTEGER,
      token_metrics: TOKEN_METRICS,
      model_metrics: arrayOf(object({ model_id: STRING, model_provider: STRING, count: INTEGER })),
      date: { type: 'string', format: 'date' },
      created_at: ISO_TIME,
      updated_at: ISO_TIME,
    },
    ['id', 'date'],
  ),
  MetricsResponse: object({ metrics: arrayOf(ref('DayMetrics')), updated_at: nullable(ISO_TIME) }, [
    'metrics',
  ]),
  EvalRun: object(
    {
      id: STRING,
      agent_id: NSTRING,
      model_id: NSTRING,
      model_provider: NSTRING,
      team_id: NSTRING,
      workflow_id: NSTRING,
      name: NSTRING,
      evaluated_component_name: NSTRING,
      eval_type: EVAL_TYPE,
      eval_data: OBJECT,
      eval_input: nullable(OBJECT),
      created_at: ISO_TIME,
      updated_at: ISO_TIME,
    },
    ['id', 'eval_type', 'eval_data'],
  ),
  EvalCreate: object(
    {
      agent_id: NSTRING,
      team_id: NSTRING,
      model_id: NSTRING,
      model_provider: NSTRING,
      eval_type: EVAL_TYPE,
      input: STRING,
      additional_guidelines: NSTRING,
      additional_context: NSTRING,
      num_iterations: { type: 'integer', minimum: 1, maximum: 100, default: 1 },
      name: NSTRING,
      expected_output: NSTRING,
      criteria: NSTRING,
      scoring_strategy: { type: 'string', enum: ['binary', 'numeric'], default: 'binary' },
      threshold: { type: 'integer', minimum: 1, maximum: 10, default: 7 },
      warmup_runs: { type: 'integer', minimum: 0, default: 0 },
      expected_tool_calls: nullable(arrayOf(STRING)),
      allow_additional_tool_calls: { type: 'boolean', default: false },
      expected_tool_call_arguments: nullable(OBJECT),
    },
    ['eval_type', 'input'],
  ),
  EvalUpdate: object({ name: { type: 'string', minLength: 1, maxLength: 255 } }, ['name']),
  EvalsDelete: object({ eval_run_ids: IDS }, ['eval_run_ids']),
  TraceSummary: object(TRACE_SUMMARY_FIELDS, ['trace_id']),
  TraceDetail: object(
    {
      ...TRACE_SUMMARY_FIELDS,
      output: ANY,
      error: NSTRING,
      tree: arrayOf(ref('TraceNode')),
    },
    ['trace_id', 'tree'],
  ),
  TraceNode: object(
    {
      id: STRING,
      name: STRING,
      type: { type: 'string', enum: ['AGENT', 'TEAM', 'WORKFLOW', 'LLM', 'TOOL'] },
      duration: STRING,
      start_time: ISO_TIME,
      end_time: ISO_TIME,
      status: STRING,
      input: ANY,
      output: ANY,
      error: NSTRING,
      spans: arrayOf(ref('TraceNode')),
      step_type: NSTRING,
      metadata: nullable(OBJECT),
      extra_data: nullable(OBJECT),
    },
    ['id', 'name', 'type'],
  ),
  TraceSessionStats: object(
    {
      session_id: STRING,
      user_id: NSTRING,
      agent_id: NSTRING,
      team_id: NSTRING,
      workflow_id: NSTRING,
      total_traces: INTEGER,
      first_trace_at: ISO_TIME,
      last_trace_at: ISO_TIME,
    },
    ['session_id', 'total_traces'],
  ),
  TraceFilterSchema: object({
    fields: arrayOf(
      object({ key: STRING, label: STRING, type: STRING, operators: arrayOf(STRING), values: ANY }),
    ),
    logical_operators: arrayOf(STRING),
  }),
  TraceSearchRequest: object({
    filter: {
      type: 'object',
      description:
        'Leaf {op: EQ|NEQ|GT|GTE|LT|LTE|IN|CONTAINS|STARTSWITH, key, value}, ' +
        '{op: AND|OR, conditions: [...]}, or {op: NOT, condition}',
    },
    group_by: { type: 'string', enum: ['run', 'session'], default: 'run' },
    page: { type: 'integer', minimum: 1, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  }),
};
