/**
 * The run engine's entry point: runs an agent, team or workflow, yielding Agno-style events as
 * they happen and returning the status, run output and session state.
 * The routes call this; the engine never touches HTTP or the store.
 */
import type {
  AgentDefinition,
  TeamDefinition,
  WorkflowDefinition,
} from '../catalogue/definitions.js';
import { resolveModel } from '../model/resolve.js';
import { runAgent } from './agent-run.js';
import type { RunEvent } from './events.js';
import type { EngineDeps, RunRequest, RunResult } from './request.js';
import { rootCheckpoint } from './root-checkpoint.js';
import { createRootScope } from './scope.js';
import { runTeam } from './team-run.js';
import { runWorkflow } from './workflow-run.js';

export type { RunEvent } from './events.js';
export type {
  ContinueRequest,
  EngineDeps,
  RunRequest,
  RunResult,
  RunStatus,
  ToolAnswer,
  ToolConfirmation,
  ToolResult,
  ToolUserInput,
} from './request.js';

/**
 * Runs an agent, team or workflow: yields each event as it happens, returns the result. The
 * request's session state is copied, not changed; the result carries the new state. Set
 * `request.cancel.cancelled` to stop the run at its next delta (status CANCELLED).
 */
export async function* runEntity(
  entity: AgentDefinition | TeamDefinition | WorkflowDefinition,
  request: RunRequest,
  deps: EngineDeps,
): AsyncGenerator<RunEvent, RunResult, void> {
  const scope = createRootScope(request, deps);
  const outcome =
    entity.kind === 'agent'
      ? yield* runAgent(entity, scope, resolveModel(entity.model))
      : entity.kind === 'team'
        ? yield* runTeam(entity, scope, resolveModel)
        : yield* runWorkflow(entity, scope, resolveModel);
  return {
    status: outcome.status,
    output: outcome.output,
    sessionState: outcome.sessionState,
    checkpoint: rootCheckpoint(scope, outcome.checkpoint),
  };
}
