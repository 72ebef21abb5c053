/**
 * The run engine's entry point: runs an agent, team or workflow, yielding Agno-style events as
 * they happen and returning the status, run output and session state.
 * The routes call this; the engine never touches HTTP or the store.
 */
import type {
  AgentDefinition,
  TeamDefinition,
  ToolDefinition,
  WorkflowDefinition,
} from '../catalogue/definitions.js';
import { resolveModel } from '../model/resolve.js';
import { runAgent, type AgentCheckpoint, type AgentResume } from './agent-run.js';
import type { RunEvent } from './events.js';
import type { Resume } from './ledger.js';
import type { EngineDeps, RunRequest, RunResult } from './request.js';
import { createRootScope, type RunScope } from './scope.js';
import { runTeam, type TeamCheckpoint, type TeamResume } from './team-run.js';
import { runWorkflow, type WorkflowCheckpoint, type WorkflowResume } from './workflow-run.js';

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

/** An agent, team or workflow. */
type Entity = AgentDefinition | TeamDefinition | WorkflowDefinition;

/** A stored checkpoint. `v` changes whenever the layout does; another `v` is not continued. */
export interface RootCheckpoint {
  readonly v: 1;
  readonly message: string;
  readonly clientTools: readonly ToolDefinition[];
  /** Absent in checkpoints written before dependencies existed. */
  readonly dependencies?: Readonly<Record<string, unknown>> | null;
  readonly run: AgentCheckpoint | TeamCheckpoint | WorkflowCheckpoint;
}

/**
 * Runs an agent, team or workflow: yields each event as it happens, returns the result. The
 * request's session state is copied, not changed; the result carries the new state. Set
 * `request.cancel.cancelled` to stop the run at its next delta (status CANCELLED).
 */
export async function* runEntity(
  entity: Entity,
  request: RunRequest,
  deps: EngineDeps,
): AsyncGenerator<RunEvent, RunResult, void> {
  return yield* runRoot(entity, createRootScope(request, deps), null);
}

/**
 * Runs the top-level `entity` in `scope`, or with `resume` continues it from its stored
 * checkpoint's run; a pause returns the root checkpoint: the run's input, client tools and
 * dependencies around the entity's own checkpoint.
 */
export async function* runRoot(
  entity: Entity,
  scope: RunScope,
  resume: Resume<RootCheckpoint['run']> | null,
): AsyncGenerator<RunEvent, RunResult, void> {
  const outcome =
    entity.kind === 'agent'
      ? yield* runAgent(entity, scope, resolveModel(entity.model), resume as AgentResume | null)
      : entity.kind === 'team'
        ? yield* runTeam(entity, scope, resolveModel, resume as TeamResume | null)
        : yield* runWorkflow(entity, scope, resolveModel, resume as WorkflowResume | null);
  const { status, output, sessionState, checkpoint } = outcome;
  if (checkpoint === null) return { status, output, sessionState, checkpoint };
  const { message, clientTools, dependencies } = scope;
  const run = checkpoint as RootCheckpoint['run'];
  const root: RootCheckpoint = { v: 1, message, clientTools, dependencies, run };
  return { status, output, sessionState, checkpoint: root };
}
