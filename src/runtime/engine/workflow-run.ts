/**
 * Runs a workflow: its steps in order, each step's agent or team fed the
 * previous step's content, their events nested; returns the last step's content. Emits the
 * `Workflow*` / `Step*` events and builds the workflow run output.
 */
import type { WorkflowDefinition } from '../definitions.js';
import type { ModelResolver } from '../model/resolve.js';
import { runAgent, type AgentCheckpoint } from './agent-run.js';
import { createEvent, omitNulls, type RunEvent } from './events.js';
import { addTokens, metricsDict, NO_TOKENS, subtractTokens, type TokenCounts } from './metrics.js';
import type { RunOutcome } from './outcome.js';
import type { RunStatus, ToolAnswer } from './request.js';
import { createChildScope, scopeFields, type RunScope } from './scope.js';
import { runTeam, type TeamCheckpoint } from './team-run.js';
import { epochSeconds } from './time.js';

/** What a paused workflow run keeps to be continued: its own state and its paused step's. */
export interface WorkflowCheckpoint {
  readonly kind: 'workflow';
  readonly runId: string;
  readonly message: string;
  readonly startMs: number;
  readonly tokens: TokenCounts;
  readonly events: readonly RunEvent[];
  /** Results and executor runs of the steps before the paused one. */
  readonly stepResults: readonly Record<string, unknown>[];
  readonly executorRuns: readonly Record<string, unknown>[];
  /** The paused step: its position, ids, input, and its executor's checkpoint. */
  readonly stepIndex: number;
  readonly stepId: string;
  readonly stepRunId: string;
  readonly input: string;
  readonly executor: AgentCheckpoint | TeamCheckpoint;
}

/** Continuing a paused workflow run: its checkpoint and the results for its step's calls. */
export interface WorkflowResume {
  readonly checkpoint: WorkflowCheckpoint;
  readonly results: readonly ToolAnswer[];
}

/**
 * Runs `workflow` in `scope`. Order: `WorkflowStarted`, per step `StepStarted`, the executor's
 * events, `StepCompleted`; then `WorkflowCompleted`. A step that fails ends with `StepError` +
 * `WorkflowError`; one that pauses with `StepExecutorPaused` + `WorkflowPaused`; a cancel with
 * `WorkflowCancelled`. With `resume`: `WorkflowContinued`, the paused step's executor continues,
 * then the steps after it run as above.
 */
export async function* runWorkflow(
  workflow: WorkflowDefinition,
  scope: RunScope,
  models: ModelResolver,
  resume: WorkflowResume | null = null,
): AsyncGenerator<RunEvent, RunOutcome, void> {
  const { deps } = scope;
  const now = (): number => deps.clock.now();
  const saved = resume?.checkpoint ?? null;
  const startMs = saved?.startMs ?? now();
  const common = {
    workflow_id: workflow.id,
    workflow_name: workflow.name,
    ...scopeFields(scope),
  };
  const events: RunEvent[] = [...(saved?.events ?? [])];
  const stepResults: Record<string, unknown>[] = [...(saved?.stepResults ?? [])];
  const executorRuns: Record<string, unknown>[] = [...(saved?.executorRuns ?? [])];
  let tokens = saved?.tokens ?? NO_TOKENS;
  let input = saved?.input ?? scope.message;

  const emit = (name: string, fields: Record<string, unknown> = {}): RunEvent => {
    const event = createEvent(name, { created_at: epochSeconds(now()) }, common, fields);
    events.push(event);
    return event;
  };
  const finish = (
    status: RunStatus,
    text: string,
    paused: { readonly index: number; readonly name: string } | null = null,
    checkpoint: WorkflowCheckpoint | null = null,
  ): RunOutcome => {
    const eventsSoFar = [...events];
    const output = omitNulls({
      run_id: scope.runId,
      workflow_id: workflow.id,
      workflow_name: workflow.name,
      session_id: scope.sessionId,
      user_id: scope.userId,
      input: scope.message,
      content: text,
      content_type: 'str',
      status,
      created_at: epochSeconds(startMs),
      step_results: [...stepResults],
      step_executor_runs: [...executorRuns],
      metrics: metricsDict(tokens, { durationMs: now() - startMs, timeToFirstTokenMs: null }, null),
      session_state: structuredClone(scope.state),
      events: eventsSoFar,
      paused_step_index: paused?.index,
      paused_step_name: paused?.name,
      pause_kind: paused && 'executor',
    });
    return {
      status,
      output,
      sessionState: scope.state,
      text,
      tokens,
      events: eventsSoFar,
      pending: null,
      checkpoint: checkpoint === null ? null : { ...checkpoint, events: eventsSoFar },
    };
  };
  function* cancelled(): Generator<RunEvent, RunOutcome, void> {
    yield emit('WorkflowCancelled', { reason: `Run ${scope.runId} was cancelled` });
    return finish('CANCELLED', '');
  }

  yield emit(saved === null ? 'WorkflowStarted' : 'WorkflowContinued');
  for (let index = saved?.stepIndex ?? 0; index < workflow.steps.length; index++) {
    const step = workflow.steps[index] as WorkflowDefinition['steps'][number];
    // The paused step continues under its own ids; the steps after it start afresh.
    const resumed = saved !== null && index === saved.stepIndex;
    if (scope.cancel.cancelled) return yield* cancelled();
    const stepId = resumed ? saved.stepId : deps.newId();
    const stepRunId = resumed ? saved.stepRunId : deps.newId();
    const stepFields = { step_name: step.name, step_index: index, step_id: stepId };
    if (!resumed) yield emit('StepStarted', stepFields);
    const stepScope = createChildScope(scope, {
      runId: stepRunId,
      message: input,
      parentRunId: null,
      workflow: {
        workflow_id: workflow.id,
        workflow_run_id: scope.runId,
        step_id: stepId,
        step_name: step.name,
        step_index: index,
      },
    });
    const { executor } = step;
    const results = resume?.results ?? [];
    const outcome =
      executor.kind === 'agent'
        ? yield* runAgent(
            executor,
            stepScope,
            models(executor.model),
            resumed ? { checkpoint: saved.executor as AgentCheckpoint, results } : null,
          )
        : yield* runTeam(
            executor,
            stepScope,
            models,
            resumed ? { checkpoint: saved.executor as TeamCheckpoint, results } : null,
          );
    const before = resumed ? saved.executor : null;
    events.push(...outcome.events.slice(before?.events.length ?? 0));
    tokens = addTokens(
      tokens,
      before === null ? outcome.tokens : subtractTokens(outcome.tokens, before.tokens),
    );
    if (outcome.status === 'PAUSED') {
      const checkpoint: WorkflowCheckpoint = {
        kind: 'workflow',
        runId: scope.runId,
        message: scope.message,
        startMs,
        tokens,
        events: [],
        stepResults: [...stepResults],
        executorRuns: [...executorRuns],
        stepIndex: index,
        stepId,
        stepRunId,
        input,
        executor: outcome.checkpoint as AgentCheckpoint | TeamCheckpoint,
      };
      executorRuns.push(outcome.output);
      stepResults.push(stepResult(step, stepId, stepRunId, outcome));
      yield emit('StepExecutorPaused', {
        ...stepFields,
        executor_type: executor.kind,
        executor_name: executor.name,
        executor_run_id: stepRunId,
        requirements: outcome.pending?.requirements,
      });
      yield emit('WorkflowPaused', {
        status: 'PAUSED',
        paused_step_index: index,
        paused_step_name: step.name,
        pause_kind: 'executor',
        step_results: [...stepResults],
        content: '',
      });
      return finish('PAUSED', '', { index, name: step.name }, checkpoint);
    }
    executorRuns.push(outcome.output);
    stepResults.push(stepResult(step, stepId, stepRunId, outcome));
    switch (outcome.status) {
      case 'COMPLETED':
        yield emit('StepCompleted', { ...stepFields, content: outcome.text, content_type: 'str' });
        input = outcome.text;
        break;
      case 'ERROR':
        yield emit('StepError', { ...stepFields, error: outcome.text });
        yield emit('WorkflowError', { error: outcome.text });
        return finish('ERROR', outcome.text);
      case 'CANCELLED':
        return yield* cancelled();
    }
  }
  yield emit('WorkflowCompleted', {
    content: input,
    content_type: 'str',
    step_results: [...stepResults],
  });
  return finish('COMPLETED', input);
}

/** A step's StepOutput dict. */
function stepResult(
  step: WorkflowDefinition['steps'][number],
  stepId: string,
  stepRunId: string,
  outcome: RunOutcome,
): Record<string, unknown> {
  return omitNulls({
    step_name: step.name,
    step_id: stepId,
    step_type: 'Step',
    executor_type: step.executor.kind,
    executor_name: step.executor.name,
    content: outcome.text,
    step_run_id: stepRunId,
    metrics: outcome.output['metrics'],
    success: outcome.status === 'COMPLETED',
    error: outcome.status === 'ERROR' ? outcome.text : null,
    stop: false,
  });
}
