/**
 * The shapes of the approval routes: their path and query parameters, the resolve body (checked
 * by the lifecycle, pydantic's 422) and their answers (ApprovalResponse, the
 * count, the status), as zod schemas the routes declare and the OpenAPI document is generated
 * from. Pure: never reads the store or the caller.
 */
import { z } from 'zod';
import {
  EPOCH,
  NULLABLE_STRING,
  pageQuery,
  pathParam,
  QUERY_STRING,
  USER_ID,
} from '../../http/openapi-shapes.js';

/** The document's section of the approval routes. */
export const APPROVAL_TAGS = ['Approvals'] as const;

const json = z.record(z.string(), z.unknown());

/** `POST /approvals/{approval_id}/resolve`. */
export const resolveApprovalBody = z
  .object({
    status: z.enum(['approved', 'rejected']),
    resolved_by: NULLABLE_STRING.optional(),
    resolution_data: json.nullable().optional(),
  })
  .meta({ id: 'ApprovalResolve' });

/** `/approvals/{approval_id}`. */
export const approvalParams = pathParam('approval_id', 'Approval id');

/** The query of `GET /approvals`: its equality filters, then the page. */
export const listApprovalsQuery = z.object({
  status: QUERY_STRING,
  source_type: QUERY_STRING,
  approval_type: QUERY_STRING,
  pause_type: QUERY_STRING,
  agent_id: QUERY_STRING,
  team_id: QUERY_STRING,
  workflow_id: QUERY_STRING,
  user_id: USER_ID,
  schedule_id: QUERY_STRING,
  run_id: QUERY_STRING,
  ...pageQuery(100, 1000),
});

/** The query of `GET /approvals/count`. */
export const countApprovalsQuery = z.object({ user_id: USER_ID });

/** `ApprovalResponse`: every field of the record, nulls included (the record's type). */
export const approvalSchema = z
  .object({
    id: z.string(),
    run_id: z.string(),
    session_id: z.string(),
    // Only a `pending` approval can be resolved.
    status: z.enum(['pending', 'approved', 'rejected', 'expired', 'cancelled']),
    source_type: z.enum(['agent', 'team', 'workflow']),
    approval_type: z.enum(['required', 'audit']),
    // Null for an audit record of a call that ran without pausing.
    pause_type: z.enum(['confirmation', 'user_input', 'external_execution']).nullable(),
    tool_name: NULLABLE_STRING,
    tool_args: json.nullable(),
    expires_at: EPOCH.nullable(),
    agent_id: NULLABLE_STRING,
    team_id: NULLABLE_STRING,
    workflow_id: NULLABLE_STRING,
    user_id: NULLABLE_STRING,
    schedule_id: NULLABLE_STRING,
    schedule_run_id: NULLABLE_STRING,
    source_name: NULLABLE_STRING,
    requirements: z.array(json),
    context: json,
    resolution_data: json.nullable(),
    resolved_by: NULLABLE_STRING,
    resolved_at: EPOCH.nullable(),
    created_at: EPOCH,
    updated_at: EPOCH,
    run_status: NULLABLE_STRING,
  })
  .meta({ id: 'Approval' });

/** What `GET /approvals/count` answers: the pending approvals. */
export const approvalCountSchema = z.object({ count: z.int() }).meta({ id: 'ApprovalCount' });

/** What `GET /approvals/{approval_id}/status` answers. */
export const approvalStatusSchema = z
  .object({
    approval_id: z.string(),
    status: z.string(),
    run_id: z.string(),
    resolved_at: EPOCH.nullable(),
    resolved_by: NULLABLE_STRING,
  })
  .meta({ id: 'ApprovalStatus' });
