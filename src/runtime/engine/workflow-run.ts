/**
 * Runs a workflow: its steps in order (the composite runner's children), each step's agent or
 * team fed the previous step's content, their events nested; returns the last step's content.
 * Emits the `Workflow*` / `Step*` events and builds the workflow run output. Never does I/O.
 */
import type { WorkflowDefinition } from '../catalogue/definitions.js';
import type { ModelResolver } from '../model/resolve.js';
import { runAgent, type AgentCheckpoint, type AgentResume } from './agent-run.js';
import { runChildren } from './composite-run.js';
import { omitNulls, type RunEvent } from './events.js';
import { RunLedger, type CheckpointHead, type Resume, type RunOutcome } from './ledger.js';
import type { RunStatus } from './request.js';
import { createChildScope, type RunScope } from './scope.js';
import { runTeam, type TeamCheckpoint, type TeamResume } from './team-run.js';
import { epochSeconds } from './time.js';

/** What a paused workflow run keeps to be continued: its own state and its paused step's. */
export interface WorkflowCheckpoint extends CheckpointHead {
  readonly kind: 'workflow';
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
export type WorkflowResume = Resume<WorkflowCheckpoint>;

type Step = WorkflowDefinition['steps'][number];

/** One step as it runs: its definition, ids, and the fields its own events carry. */
interface StepRun {
  readonly index: number;
  readonly step: Step;
  readonly stepId: string;
  readonly runId: string;
  readonly fields: Readonly<Record<string, unknown>>;
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
  const saved = resume?.checkpoint ?? null;
  const identity = { workflow_id: workflow.id, workflow_name: workflow.name };
  const ledger = new RunLedger(scope, identity, saved);
  const stepResults: Record<string, unknown>[] = [...(saved?.stepResults ?? [])];
  const executorRuns: Record<string, unknown>[] = [...(saved?.executorRuns ?? [])];
  /** The next step's input: the message, then each completed step's content. */
  let input = saved?.input ?? scope.message;

  const outcome = (
    status: RunStatus,
    text: string,
    paused: { readonly index: number; readonly name: string } | null = null,
    checkpoint: CheckpointHead | null = null,
  ): RunOutcome =>
    ledger.toOutcome(status, text, {
      checkpoint,
      output: (events) => ({
        run_id: scope.runId,
        ...identity,
        session_id: scope.sessionId,
        user_id: scope.userId,
        input: scope.message,
        content: text,
        content_type: 'str',
        status,
        created_at: epochSeconds(ledger.startMs),
        step_results: [...stepResults],
        step_executor_runs: [...executorRuns],
        metrics: ledger.metrics(),
        session_state: structuredClone(scope.state),
        events,
        paused_step_index: paused?.index,
        paused_step_name: paused?.name,
        pause_kind: paused && 'executor',
      }),
    });

  return yield* runChildren<StepRun, AgentCheckpoint | TeamCheckpoint>(
    {
      ledger,
      size: workflow.steps.length,
      *begin(continued) {
        yield ledger.emit(continued ? 'WorkflowContinued' : 'WorkflowStarted');
      },
      // The paused step keeps its ids; the others get new ones.
      *open(index, continued) {
        const step = workflow.steps[index] as Step;
        const paused = continued ? saved : null;
        const stepId = paused?.stepId ?? scope.deps.newId();
        const runId = paused?.stepRunId ?? scope.deps.newId();
        const fields = { step_name: step.name, step_index: index, step_id: stepId };
        if (paused === null) yield ledger.emit('StepStarted', fields);
        return { index, step, stepId, runId, fields };
      },
      run({ index, step, stepId, runId }, executorResume) {
        const stepScope = createChildScope(scope, {
          runId,
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
        return executor.kind === 'agent'
          ? runAgent(executor, stepScope, models(executor.model), executorResume as AgentResume)
          : runTeam(executor, stepScope, models, executorResume as TeamResume);
      },
      checkpoint: (stepRun, paused): WorkflowCheckpoint => ({
        kind: 'workflow',
        ...ledger.checkpointHead(),
        stepResults: [...stepResults],
        executorRuns: [...executorRuns],
        stepIndex: stepRun.index,
        stepId: stepRun.stepId,
        stepRunId: stepRun.runId,
        input,
        executor: paused.checkpoint as AgentCheckpoint | TeamCheckpoint,
      }),
      keep(stepRun, stepOutcome) {
        executorRuns.push(stepOutcome.output);
        stepResults.push(stepResult(stepRun, stepOutcome));
      },
      *paused({ index, step, runId, fields }, paused, checkpoint) {
        yield ledger.emit('StepExecutorPaused', {
          ...fields,
          executor_type: step.executor.kind,
          executor_name: step.executor.name,
          executor_run_id: runId,
          requirements: paused.pending?.requirements,
        });
        yield ledger.emit('WorkflowPaused', {
          status: 'PAUSED',
          paused_step_index: index,
          paused_step_name: step.name,
          pause_kind: 'executor',
          step_results: [...stepResults],
          content: '',
        });
        return outcome('PAUSED', '', { index, name: step.name }, checkpoint);
      },
      *failed({ fields }, { text }) {
        yield ledger.emit('StepError', { ...fields, error: text });
        yield ledger.emit('WorkflowError', { error: text });
        return outcome('ERROR', text);
      },
      *completed({ fields }, { text }) {
        yield ledger.emit('StepCompleted', { ...fields, content: text, content_type: 'str' });
        input = text;
      },
      *cancelled() {
        yield ledger.emitCancelled('WorkflowCancelled');
        return outcome('CANCELLED', '');
      },
      *finish() {
        const results = [...stepResults];
        yield ledger.emit('WorkflowCompleted', {
          content: input,
          content_type: 'str',
          step_results: results,
        });
        return outcome('COMPLETED', input);
      },
    },
    resume && {
      at: resume.checkpoint.stepIndex,
      checkpoint: resume.checkpoint.executor,
      results: resume.results,
    },
  );
}

/** A step's StepOutput dict. */
function stepResult(
  { step, stepId, runId }: StepRun,
  outcome: RunOutcome,
): Record<string, unknown> {
  return omitNulls({
    step_name: step.name,
    step_id: stepId,
    step_type: 'Step',
    executor_type: step.executor.kind,
    executor_name: step.executor.name,
    content: outcome.text,
    step_run_id: runId,
    metrics: outcome.output['metrics'],
    success: outcome.status === 'COMPLETED',
    error: outcome.status === 'ERROR' ? outcome.text : null,
    stop: false,
  });
}
