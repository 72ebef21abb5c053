/**
 * Runs a workflow (RUNTIME_API §4.2, §17): its steps in order, each step's agent or team fed the
 * previous step's content, their events nested; returns the last step's content. Emits the
 * `Workflow*` / `Step*` events and builds the workflow run output (§4.3).
 */
import type { WorkflowDefinition } from '../definitions.js';
import type { ModelResolver } from '../model/resolve.js';
import { runAgent } from './agent-run.js';
import { createEvent, omitNulls, type RunEvent } from './events.js';
import { addTokens, metricsDict, NO_TOKENS } from './metrics.js';
import type { RunOutcome } from './outcome.js';
import type { RunStatus } from './request.js';
import { createChildScope, scopeFields, type RunScope } from './scope.js';
import { runTeam } from './team-run.js';
import { epochSeconds } from './time.js';

/**
 * Runs `workflow` in `scope`. Order: `WorkflowStarted`, per step `StepStarted`, the executor's
 * events, `StepCompleted`; then `WorkflowCompleted`. A step that fails ends with `StepError` +
 * `WorkflowError`; one that pauses with `StepExecutorPaused` + `WorkflowPaused`; a cancel with
 * `WorkflowCancelled`.
 */
export async function* runWorkflow(
  workflow: WorkflowDefinition,
  scope: RunScope,
  models: ModelResolver,
): AsyncGenerator<RunEvent, RunOutcome, void> {
  const { deps } = scope;
  const now = (): number => deps.clock.now();
  const startMs = now();
  const common = {
    workflow_id: workflow.id,
    workflow_name: workflow.name,
    ...scopeFields(scope),
  };
  const events: RunEvent[] = [];
  const stepResults: Record<string, unknown>[] = [];
  const executorRuns: Record<string, unknown>[] = [];
  let tokens = NO_TOKENS;
  let input = scope.message;

  const emit = (name: string, fields: Record<string, unknown> = {}): RunEvent => {
    const event = createEvent(name, { created_at: epochSeconds(now()) }, common, fields);
    events.push(event);
    return event;
  };
  const finish = (
    status: RunStatus,
    text: string,
    paused: { readonly index: number; readonly name: string } | null = null,
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
    };
  };
  function* cancelled(): Generator<RunEvent, RunOutcome, void> {
    yield emit('WorkflowCancelled', { reason: `Run ${scope.runId} was cancelled` });
    return finish('CANCELLED', '');
  }

  yield emit('WorkflowStarted');
  for (const [index, step] of workflow.steps.entries()) {
    if (scope.cancel.cancelled) return yield* cancelled();
    const stepId = deps.newId();
    const stepRunId = deps.newId();
    const stepFields = { step_name: step.name, step_index: index, step_id: stepId };
    yield emit('StepStarted', stepFields);
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
    const outcome =
      executor.kind === 'agent'
        ? yield* runAgent(executor, stepScope, models(executor.model))
        : yield* runTeam(executor, stepScope, models);
    events.push(...outcome.events);
    executorRuns.push(outcome.output);
    tokens = addTokens(tokens, outcome.tokens);
    const ok = outcome.status === 'COMPLETED';
    stepResults.push(
      omitNulls({
        step_name: step.name,
        step_id: stepId,
        step_type: 'Step',
        executor_type: executor.kind,
        executor_name: executor.name,
        content: outcome.text,
        step_run_id: stepRunId,
        metrics: outcome.output['metrics'],
        success: ok,
        error: outcome.status === 'ERROR' ? outcome.text : null,
        stop: false,
      }),
    );
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
      case 'PAUSED':
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
        return finish('PAUSED', '', { index, name: step.name });
    }
  }
  yield emit('WorkflowCompleted', {
    content: input,
    content_type: 'str',
    step_results: [...stepResults],
  });
  return finish('COMPLETED', input);
}
