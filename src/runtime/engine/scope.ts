/**
 * Where a run sits — at the top, as a team member or as a workflow step — and the fields its
 * events carry because of that. Pure.
 */
import type { ToolDefinition } from '../catalogue/definitions.js';
import type { EngineDeps, RunRequest } from './request.js';

/** The workflow step a nested run executes; copied into every event of that run. */
export interface WorkflowLink {
  readonly workflow_id: string;
  readonly workflow_run_id: string;
  readonly step_id: string;
  readonly step_name: string;
  readonly step_index: number;
}

/** Everything one run (top-level or nested) needs besides its entity. */
export interface RunScope {
  readonly runId: string;
  readonly sessionId: string;
  readonly userId: string | null;
  readonly message: string;
  readonly cancel: { readonly cancelled: boolean };
  /** The session state, shared and changed in place by every run of one request. */
  readonly state: Record<string, unknown>;
  readonly deps: EngineDeps;
  /** 0 at the top; a team's members and a workflow's step executors are one deeper. */
  readonly depth: number;
  /** The team run a member run belongs to. */
  readonly parentRunId: string | null;
  readonly workflow: WorkflowLink | null;
  /** Tools the client executes for this run (AG-UI), offered to every agent in it. */
  readonly clientTools: readonly ToolDefinition[];
  /** The run's dependencies, shared by every agent in it; null when none. */
  readonly dependencies?: Readonly<Record<string, unknown>> | null;
}

/** The scope of a top-level run; the session state is copied so the request's stays untouched. */
export function createRootScope(request: RunRequest, deps: EngineDeps): RunScope {
  return {
    runId: request.runId,
    sessionId: request.sessionId,
    userId: request.userId,
    message: request.message,
    cancel: request.cancel,
    state: structuredClone(request.sessionState),
    deps,
    depth: 0,
    parentRunId: null,
    workflow: null,
    clientTools: request.clientTools ?? [],
    dependencies: request.dependencies ?? null,
  };
}

/** The scope of a run nested one level below `parent`, sharing its session, state and cancel flag. */
export function createChildScope(
  parent: RunScope,
  child: {
    readonly runId: string;
    readonly message: string;
    readonly parentRunId: string | null;
    readonly workflow: WorkflowLink | null;
  },
): RunScope {
  return { ...parent, ...child, depth: parent.depth + 1 };
}

/** The payload fields every event of a run in this scope carries (nulls are dropped by createEvent). */
export function scopeFields(scope: RunScope): Record<string, unknown> {
  return {
    run_id: scope.runId,
    session_id: scope.sessionId,
    parent_run_id: scope.parentRunId,
    ...scope.workflow,
    nested_depth: scope.depth,
  };
}
