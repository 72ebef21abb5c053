/**
 * Approvals: list, count, read, resolve and delete the approvals runs
 * create; resolving one resumes its paused run through the run service. Confined callers
 * (`scoped_user_id`) see only their own and may not resolve or delete any. Never checks
 * scopes: the gateway did.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { resumeResolvedRun } from '../approval-resume.js';
import { callerOf } from '../caller.js';
import type { Catalogue } from '../definitions.js';
import { HttpError } from '../errors.js';
import type { RunService } from '../run-service.js';
import type { ApprovalFilter, ApprovalRecord } from '../store/approvals.js';
import type { RuntimeStore } from '../store/store.js';
import { parseBody } from '../validation.js';
import { boundedInt, scalarQuery, type RawQuery } from '../http/query.js';
import { paginated } from './list-query.js';

const NOT_FOUND = 'Approval not found';

const resolveBody = z.object({
  status: z.enum(['approved', 'rejected']),
  resolved_by: z.string().nullable().optional(),
  resolution_data: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** `ApprovalResponse`: every field, nulls included. */
export function approvalResponse(a: ApprovalRecord): Record<string, unknown> {
  return { ...a };
}

/** What the approval routes work on. */
export interface ApprovalRouteDeps {
  readonly store: RuntimeStore;
  readonly runs: RunService;
  readonly catalogue: Catalogue;
  readonly clock: { now(): number };
}

/** Registers `/approvals…`. */
export function registerApprovalRoutes(app: FastifyInstance, deps: ApprovalRouteDeps): void {
  const { store } = deps;
  /** The approval the caller may see: a confined caller only its own (others look missing). */
  const visible = (id: string, scopedUserId: string | null): ApprovalRecord => {
    const approval = store.approvals.get(id);
    if (approval === null || (scopedUserId !== null && approval.user_id !== scopedUserId)) {
      throw new HttpError(404, NOT_FOUND);
    }
    return approval;
  };

  app.get<{ Querystring: RawQuery }>('/approvals', async (request) => {
    const q = scalarQuery(request.query);
    const limit = boundedInt(q['limit'], 'limit', 100, 1000);
    const page = q['page'] === '0' ? 1 : boundedInt(q['page'], 'page', 1, 1_000_000);
    const filter: ApprovalFilter = {
      status: q['status'],
      source_type: q['source_type'],
      approval_type: q['approval_type'],
      pause_type: q['pause_type'],
      agent_id: q['agent_id'],
      team_id: q['team_id'],
      workflow_id: q['workflow_id'],
      // Confined callers see their own approvals whatever they ask for.
      user_id: callerOf(request).scopedUserId ?? q['user_id'],
      schedule_id: q['schedule_id'],
      run_id: q['run_id'],
    };
    const { rows, total } = store.approvals.list(filter, page, limit);
    return paginated(rows.map(approvalResponse), page, limit, total);
  });

  app.get<{ Querystring: RawQuery }>('/approvals/count', async (request) => {
    const q = scalarQuery(request.query);
    const owner = callerOf(request).scopedUserId ?? q['user_id'];
    return { count: store.approvals.countPending(owner) };
  });

  app.get<{ Params: { id: string } }>('/approvals/:id', async (request) =>
    approvalResponse(visible(request.params.id, callerOf(request).scopedUserId)),
  );

  app.get<{ Params: { id: string } }>('/approvals/:id/status', async (request) => {
    const a = visible(request.params.id, callerOf(request).scopedUserId);
    return {
      approval_id: a.id,
      status: a.status,
      run_id: a.run_id,
      resolved_at: a.resolved_at,
      resolved_by: a.resolved_by,
    };
  });

  app.post<{ Params: { id: string } }>('/approvals/:id/resolve', async (request) => {
    const caller = callerOf(request);
    // Resolving is for admins: a confined caller cannot even tell the approval exists.
    if (caller.scopedUserId !== null) throw new HttpError(404, NOT_FOUND);
    const body = parseBody(resolveBody, request.body);
    const approval = visible(request.params.id, null);
    if (approval.status !== 'pending') {
      throw new HttpError(409, `Approval is already '${approval.status}' and cannot be resolved`);
    }
    store.approvals.resolve(approval.id, {
      status: body.status,
      // The gateway's identity wins over what the body claims.
      resolvedBy: caller.userId ?? body.resolved_by ?? null,
      resolutionData: body.resolution_data ?? null,
      at: Math.floor(deps.clock.now() / 1000),
    });
    await resumeResolvedRun(deps, visible(approval.id, null), caller);
    return approvalResponse(visible(approval.id, null));
  });

  app.delete<{ Params: { id: string } }>('/approvals/:id', async (request, reply) => {
    // Deleting is for admins; a confined caller is told there is nothing.
    if (callerOf(request).scopedUserId !== null) throw new HttpError(404, NOT_FOUND);
    if (!store.approvals.delete(request.params.id)) {
      throw new HttpError(500, 'Failed to delete approval');
    }
    return reply.code(204).send();
  });
}
