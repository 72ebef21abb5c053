/**
 * The shapes of the eval-run routes as zod schemas the routes declare and the OpenAPI document
 * is generated from: their path and query parameters, their answer (`EvalSchema`) and their JSON
 * bodies, refused with pydantic's words through ../validation.ts; and what a valid
 * `POST /eval-runs` body asks for: the eval plan (400 when the field its eval type needs is
 * missing, as Agno answers) and the `eval_input` recorded with the run. Builds values only;
 * never runs or stores anything.
 */
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import type { EvalPlan } from './evaluate.js';
import {
  DB_QUERY,
  ISO_TIME,
  NULLABLE_STRING,
  pathParam,
  QUERY_STRING,
  sortedPageQuery,
} from '../../http/openapi-shapes.js';
import { EVAL_TYPES } from './table.js';

/** The document's section of the eval routes. */
export const EVAL_TAGS = ['Evals'] as const;

/** `/eval-runs/{eval_run_id}`. */
export const evalParams = pathParam('eval_run_id', 'Eval run id');

/** The query of `GET /eval-runs`: its filters, then page and sort. */
export const listEvalsQuery = z.object({
  agent_id: QUERY_STRING,
  team_id: QUERY_STRING,
  workflow_id: QUERY_STRING,
  model_id: QUERY_STRING,
  type: z.enum(['agent', 'team', 'workflow']).optional(),
  eval_types: QUERY_STRING.meta({ description: 'Comma-separated eval types' }),
  ...sortedPageQuery(20, 100, 'created_at'),
  ...DB_QUERY,
});

const json = z.record(z.string(), z.unknown());

/** `EvalSchema`: every field present, null when unset. */
export const evalRunSchema = z
  .object({
    id: z.string(),
    agent_id: NULLABLE_STRING,
    model_id: NULLABLE_STRING,
    model_provider: NULLABLE_STRING,
    team_id: NULLABLE_STRING,
    workflow_id: NULLABLE_STRING,
    name: NULLABLE_STRING,
    evaluated_component_name: NULLABLE_STRING,
    eval_type: z.enum(EVAL_TYPES),
    eval_data: json,
    eval_input: json.nullable(),
    created_at: ISO_TIME,
    updated_at: ISO_TIME,
  })
  .meta({ id: 'EvalRun' });

/** An eval run as the routes answer it. */
export type EvalRunResponse = z.infer<typeof evalRunSchema>;

const optionalText = z.string().nullable().optional();

/** `EvalRunInput`. Unknown fields are ignored, as pydantic ignores them. */
export const createEvalBody = z
  .object({
    agent_id: optionalText,
    team_id: optionalText,
    model_id: optionalText,
    model_provider: optionalText,
    eval_type: z.enum(EVAL_TYPES),
    input: z.string().min(1),
    additional_guidelines: optionalText,
    additional_context: optionalText,
    num_iterations: z.int().min(1).max(100).default(1),
    name: optionalText,
    expected_output: optionalText,
    criteria: optionalText,
    scoring_strategy: z.enum(['numeric', 'binary']).nullable().default('binary'),
    threshold: z.int().min(1).max(10).nullable().default(7),
    warmup_runs: z.int().min(0).max(10).default(0),
    expected_tool_calls: z.array(z.string()).nullable().optional(),
    allow_additional_tool_calls: z.boolean().default(false),
    expected_tool_call_arguments: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .nullable()
      .optional(),
  })
  .meta({ id: 'EvalCreate' });

/** A parsed `POST /eval-runs` body. */
export type CreateEvalBody = z.output<typeof createEvalBody>;

/** `UpdateEvalRunRequest`. */
export const renameEvalBody = z
  .object({ name: z.string().min(1).max(255) })
  .meta({ id: 'EvalUpdate' });

/** `DeleteEvalRunsRequest`. */
export const deleteEvalsBody = z
  .object({ eval_run_ids: z.array(z.string()).min(1) })
  .meta({ id: 'EvalsDelete' });

/**
 * The plan of a valid body. Like Agno, an empty `expected_output`, `criteria` or
 * `expected_tool_calls` counts as missing.
 *
 * @throws {HttpError} 400 naming the field the eval type needs
 */
export function evalPlanOf(body: CreateEvalBody): EvalPlan {
  const { input, num_iterations: iterations } = body;
  switch (body.eval_type) {
    case 'accuracy':
      if (!body.expected_output) {
        throw new HttpError(400, 'expected_output is required for accuracy evaluation');
      }
      return { evalType: 'accuracy', input, iterations, expectedOutput: body.expected_output };
    case 'agent_as_judge':
      if (!body.criteria) {
        throw new HttpError(400, 'criteria is required for agent-as-judge evaluation');
      }
      return {
        evalType: 'agent_as_judge',
        input,
        iterations,
        criteria: body.criteria,
        // An explicit null takes the default, as Agno's `or` does.
        scoring: { strategy: body.scoring_strategy ?? 'binary', threshold: body.threshold ?? 7 },
      };
    case 'performance':
      return { evalType: 'performance', input, iterations, warmups: body.warmup_runs };
    case 'reliability':
      if (!body.expected_tool_calls?.length) {
        throw new HttpError(400, 'expected_tool_calls is required for reliability evaluations');
      }
      return {
        evalType: 'reliability',
        input,
        expectation: {
          toolCalls: body.expected_tool_calls,
          allowAdditional: body.allow_additional_tool_calls,
          arguments: body.expected_tool_call_arguments ?? {},
        },
      };
  }
}

/** The fields of the body each eval type reads, recorded as the run's `eval_input`. */
const INPUT_FIELDS = {
  accuracy: [
    'input',
    'expected_output',
    'additional_guidelines',
    'additional_context',
    'num_iterations',
  ],
  agent_as_judge: [
    'input',
    'criteria',
    'scoring_strategy',
    'threshold',
    'additional_guidelines',
    'num_iterations',
  ],
  performance: ['input', 'num_iterations', 'warmup_runs'],
  reliability: [
    'input',
    'expected_tool_calls',
    'allow_additional_tool_calls',
    'expected_tool_call_arguments',
  ],
} as const satisfies Record<CreateEvalBody['eval_type'], readonly (keyof CreateEvalBody)[]>;

/** The `eval_input` of a body: the fields its eval type reads, absent and null ones left out. */
export function evalInputOf(body: CreateEvalBody): Record<string, unknown> {
  return Object.fromEntries(
    INPUT_FIELDS[body.eval_type]
      .map((field) => [field, body[field]] as const)
      .filter(([, value]) => value != null),
  );
}
