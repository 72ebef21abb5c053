/**
 * Approvals as runs make them: a run that pauses on tools declared
 * `approval_type: required` opens one pending approval (the id its held calls carry); every
 * finished call of an `audit` tool is recorded already resolved; a continue that answers a
 * pending approval's calls resolves it; each approval mirrors its run's status. Writes approvals
 * only; never writes runs or HTTP.
 */
import type { ToolAnswer } from '../../engine/request.js';
import { heldCallsOf } from '../../engine/continue.js';
import { pauseKindOfExecution } from '../../engine/tool-gates.js';
import type { ToolExecution } from '../../engine/tool-execution.js';
import type { ApprovalRecord } from './table.js';
import type { RunRecord } from '../../store/records.js';
import type { RuntimeStore } from '../../store/store.js';

/** The fields every approval of `run` shares. */
function approvalBase(
  run: RunRecord,
  sourceName: string,
  now: number,
): Omit<
  ApprovalRecord,
  | 'id'
  | 'status'
  | 'approval_type'
  | 'pause_type'
  | 'tool_name'
  | 'tool_args'
  | 'requirements'
  | 'context'
  | 'resolved_at'
> {
  return {
    run_id: run.run_id,
    session_id: run.session_id,
    source_type: run.session_type,
    expires_at: null,
    agent_id: run.session_type === 'agent' ? run.component_id : null,
    team_id: run.session_type === 'team' ? run.component_id : null,
    workflow_id: run.session_type === 'workflow' ? run.component_id : null,
    // The requester: the user the run is attributed to.
    user_id: run.user_id,
    schedule_id: null,
    schedule_run_id: null,
    source_name: sourceName,
    resolution_data: null,
    resolved_by: null,
    run_status: run.status,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The pending approval a PAUSED run opens: its first held call that needs approval names the
 * tool and pause type; the requirements and `context.tool_names` cover every such call. Null
 * when the run is not paused on one.
 */
export function pendingApprovalOf(
  run: RunRecord,
  sourceName: string,
  now: number,
): ApprovalRecord | null {
  const held = heldCallsOf(run.checkpoint).filter(
    (call) => call.tool['approval_type'] === 'required',
  );
  const first = held[0];
  if (first === undefined) return null;
  return {
    ...approvalBase(run, sourceName, now),
    id: first.tool['approval_id'] as string,
    status: 'pending',
    approval_type: 'required',
    pause_type: first.kind,
    tool_name: first.toolName,
    tool_args: first.toolArgs,
    requirements: held.flatMap((call) => (call.requirement === null ? [] : [call.requirement])),
    context: { tool_names: held.map((call) => call.toolName), source_name: sourceName },
    resolved_at: null,
  };
}

/** Every ToolExecution of a run output, its team members' and workflow steps' included. */
function toolsOf(output: Record<string, unknown>): ToolExecution[] {
  const nested = [
    ...((output['member_responses'] as Record<string, unknown>[] | undefined) ?? []),
    ...((output['step_executor_runs'] as Record<string, unknown>[] | undefined) ?? []),
  ];
  return [...((output['tools'] as ToolExecution[] | undefined) ?? []), ...nested.flatMap(toolsOf)];
}

/**
 * The audit records of a run's finished `audit` calls (ours: Agno records audits after a pause
 * is resolved; here a call that never paused is recorded too): `rejected` when the user
 * rejected the call, else `approved`; `pause_type` null for a call that ran without pausing.
 */
export function auditApprovalsOf(
  run: RunRecord,
  sourceName: string,
  now: number,
): ApprovalRecord[] {
  return toolsOf(run.output)
    .filter((tool) => tool['approval_type'] === 'audit' && typeof tool['approval_id'] === 'string')
    .map((tool) => {
      const paused =
        tool['requires_confirmation'] === true ||
        tool['requires_user_input'] === true ||
        tool['external_execution_required'] === true;
      const name = tool['tool_name'] as string;
      return {
        ...approvalBase(run, sourceName, now),
        id: tool['approval_id'] as string,
        status: tool['confirmed'] === false ? 'rejected' : 'approved',
        approval_type: 'audit',
        pause_type: paused ? pauseKindOfExecution(tool) : null,
        tool_name: name,
        tool_args: tool['tool_args'] as Record<string, unknown>,
        requirements: [],
        context: { tool_names: [name], source_name: sourceName },
        resolved_at: now,
      };
    });
}

/**
 * After `run` was stored: opens the approval of its pause, records its audited calls (each
 * once: a continued run lists its earlier calls again) and mirrors its status into them all.
 * A `fresh` run (its id made for it by this request) has no approvals but those inserted here,
 * which carry its status already: there is nothing to mirror, and no statement is spent on it.
 */
export async function recordRunApprovals(
  store: RuntimeStore,
  run: RunRecord,
  sourceName: string,
  now: number,
  fresh: boolean,
): Promise<void> {
  const pending = pendingApprovalOf(run, sourceName, now);
  if (pending !== null) await store.approvals.insert(pending);
  for (const audit of auditApprovalsOf(run, sourceName, now)) await store.approvals.insert(audit);
  if (!fresh) await store.approvals.setRunStatus(run.run_id, run.status, now);
}

/**
 * Before a paused run continues with `answers` (one per held call): its `pending` approval, as
 * read before the continue, is resolved by them — `rejected` when any call is rejected, else
 * `approved`. One resolved meanwhile stays as it was (the write is conditional on `pending`).
 */
export async function resolveByAnswers(
  store: RuntimeStore,
  pending: ApprovalRecord,
  answers: readonly ToolAnswer[],
  resolvedBy: string | null,
  now: number,
): Promise<void> {
  const rejected = answers.some((answer) => 'confirmed' in answer && !answer.confirmed);
  await store.approvals.resolve(pending.id, {
    status: rejected ? 'rejected' : 'approved',
    resolvedBy,
    resolutionData: null,
    at: now,
  });
}
