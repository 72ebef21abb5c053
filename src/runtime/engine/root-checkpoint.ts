/**
 * The checkpoint a paused top-level run stores: the engine's version of its layout, the run's
 * input, client tools and dependencies, and the checkpoint of the agent, team or workflow
 * itself. Pure.
 */
import type { ToolDefinition } from '../catalogue/definitions.js';
import type { AgentCheckpoint } from './agent-run.js';
import type { RunScope } from './scope.js';
import type { TeamCheckpoint } from './team-run.js';
import type { WorkflowCheckpoint } from './workflow-run.js';

/** A stored checkpoint. `v` changes whenever the layout does; another `v` is not continued. */
export interface RootCheckpoint {
  readonly v: 1;
  readonly message: string;
  readonly clientTools: readonly ToolDefinition[];
  /** Absent in checkpoints written before dependencies existed. */
  readonly dependencies?: Readonly<Record<string, unknown>> | null;
  readonly run: AgentCheckpoint | TeamCheckpoint | WorkflowCheckpoint;
}

/** The root checkpoint of a run in `scope`, or null when the run did not pause. */
export function rootCheckpoint(scope: RunScope, run: unknown): RootCheckpoint | null {
  if (run === null) return null;
  return {
    v: 1,
    message: scope.message,
    clientTools: scope.clientTools,
    dependencies: scope.dependencies,
    run: run as RootCheckpoint['run'],
  };
}
