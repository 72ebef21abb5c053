/**
 * Continuing a paused run: restores the agent, team or workflow from the
 * checkpoint its pause returned and goes on with the client's tool results. Also says which
 * calls a checkpoint waits on. Pure like the rest of the engine: no I/O, no HTTP.
 */
import type {
  AgentDefinition,
  TeamDefinition,
  WorkflowDefinition,
} from '../catalogue/definitions.js';
import type { ModelToolCall } from '../model/model.js';
import type { AgentCheckpoint } from './agent-run.js';
import type { RunEvent } from './events.js';
import type { ContinueRequest, EngineDeps, RunResult } from './request.js';
import { runRoot, type RootCheckpoint } from './run.js';
import { createRootScope } from './scope.js';
import type { TeamCheckpoint } from './team-run.js';
import type { ToolExecution } from './tool-execution.js';
import { pauseKindOfExecution, type PauseKind, type unsettledReason } from './tool-gates.js';
import type { WorkflowCheckpoint } from './workflow-run.js';

/** One tool call a paused run waits on. */
export interface PendingCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly toolArgs: Record<string, unknown>;
}

/** One held call with what it waits for: its ToolExecution and RunRequirement as paused. */
export interface HeldCall extends PendingCall {
  readonly kind: PauseKind;
  readonly tool: ToolExecution;
  /** Null in checkpoints written before requirements were kept. */
  readonly requirement: Record<string, unknown> | null;
}

/** The paused agent deepest in a stored checkpoint (a team's member, a workflow's step). */
function pausedAgentOf(checkpoint: unknown): AgentCheckpoint | null {
  const root = checkpoint as RootCheckpoint | null;
  if (root?.v !== 1) return null;
  let run: AgentCheckpoint | TeamCheckpoint | WorkflowCheckpoint = root.run;
  while (run.kind !== 'agent') run = run.kind === 'team' ? run.member : run.executor;
  return run;
}

const pendingCall = ({ id, name, args }: ModelToolCall): PendingCall => ({
  toolCallId: id,
  toolName: name,
  toolArgs: args,
});

/** The calls a stored checkpoint waits on, in call order; `[]` for anything else. */
export function pendingCallsOf(checkpoint: unknown): readonly PendingCall[] {
  return (pausedAgentOf(checkpoint)?.pending ?? []).map(pendingCall);
}

/** {@link pendingCallsOf} with each call's kind, ToolExecution and RunRequirement. */
export function heldCallsOf(checkpoint: unknown): readonly HeldCall[] {
  const agent = pausedAgentOf(checkpoint);
  if (agent === null) return [];
  return agent.pending.map((call, index) => {
    // A checkpoint this engine did not write may lack its tools: such a call reads as one the
    // client executes, and continueEntity refuses the checkpoint itself.
    const tool: ToolExecution = agent.tools?.find((t) => t['tool_call_id'] === call.id) ?? {};
    return {
      ...pendingCall(call),
      kind: pauseKindOfExecution(tool),
      tool,
      requirement: agent.requirements?.[index] ?? null,
    };
  });
}

/**
 * Continues a paused run: yields its events (first `RunContinued`, `TeamRunContinued` or
 * `WorkflowContinued`) and returns its result, as {@link runEntity} does. `request.results`
 * holds one answer per call of {@link pendingCallsOf}, in that order, each settling its call
 * (see {@link unsettledReason}).
 *
 * @throws {TypeError} when the checkpoint is not one this engine wrote for this entity
 */
export async function* continueEntity(
  entity: AgentDefinition | TeamDefinition | WorkflowDefinition,
  request: ContinueRequest,
  deps: EngineDeps,
): AsyncGenerator<RunEvent, RunResult, void> {
  const root = request.checkpoint as RootCheckpoint | null;
  if (root?.v !== 1 || root.run.kind !== entity.kind || root.run.runId !== request.runId) {
    throw new TypeError(`Run ${request.runId} has no checkpoint to continue from`);
  }
  const { message, clientTools, dependencies } = root;
  const scope = createRootScope({ ...request, message, clientTools, dependencies }, deps);
  return yield* runRoot(entity, scope, { checkpoint: root.run, results: request.results });
}
