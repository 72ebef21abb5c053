/**
 * Approvals: list, count, read, resolve and delete the approvals runs
 * create; resolving one resumes its paused run through the run service. Confined callers
 * (`scoped_user_id`) see only their own and may not resolve or delete any. Never checks
 * scopes: the gateway did. Each route declares its input and answer (schemas.ts); the
 * lifecycle checks the input before a handler runs.
 */
import type { FastifyInstance } from 'fastify';
import { resumeResolvedRun } from './resume.js';
import { callerOf } from '../../http/caller.js';
import type { Catalogue } from '../../catalogue/definitions.js';
import { HttpError } from '../../http/errors.js';
import type { RunService } from '../runs/service.js';
import type { ApprovalFilter, ApprovalRecord } from './table.js';
import type { RuntimeStore } from '../../store/store.js';
import { empty, errors, ok } from '../../http/openapi.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';
import { paginatedOf } from '../../http/openapi-shapes.js';
import {
  approvalCountSchema,
  approvalParams,
  approvalSchema,
  approvalStatusSchema,
  APPROVAL_TAGS,
  countApprovalsQuery,
  listApprovalsQuery,
  resolveApprovalBody,
} from './schemas.js';
import { paginated, pagingOf } from '../../http/list-query.js';

/** The schemas of this file's routes (validation.ts). */
const { checked } = sectionSchemas(APPROVAL_TAGS);

const NOT_FOUND = 'Approval not found';

/** The 409 of resolving an approval that is no longer pending. */
const alreadyResolved = (approval: ApprovalRecord): HttpError =>
  new HttpError(409, `Approval is already '${approval.status}' and cannot be resolved`);

/** What the approval routes work on. */
export interface ApprovalRouteDeps {
  readonly store: RuntimeStore;
  readonly runs: RunService;
  readonly catalogue: Catalogue;
  readonly clock: { now(): number };
}

/** Registers `/approvals…`. */
export function registerApprovalRoutes(parent: FastifyInstance, deps: ApprovalRouteDeps): void {
  const app = parent.withTypeProvider<CheckedTypes>();
  const { store } = deps;
  /** The approval the caller may see: a confined caller only its own (others look missing). */
  const visible = async (id: string, scopedUserId: string | null): Promise<ApprovalRecord> => {
    const approval = await store.approvals.get(id);
    if (approval === null || (scopedUserId !== null && approval.user_id !== scopedUserId)) {
      throw new HttpError(404, NOT_FOUND);
    }
    return approval;
  };

  const listSchema = checked('List approvals', {
    querystring: listApprovalsQuery,
    response: { 200: ok('Approvals', paginatedOf(approvalSchema)), ...errors('422', '503') },
  });
  app.get('/approvals', { schema: listSchema }, async (request) => {
    const { page: _page, limit: _limit, user_id: userId, ...filters } = request.query;
    const { page, limit } = pagingOf(request.query);
    // Confined callers see their own approvals whatever they ask for.
    const filter: ApprovalFilter = {
      ...filters,
      user_id: callerOf(request).scopedUserId ?? userId,
    };
    const { rows, total } = await store.approvals.list(filter, page, limit);
    return paginated(rows, page, limit, total);
  });

  const countSchema = checked('Number of pending approvals', {
    querystring: countApprovalsQuery,
    response: { 200: ok('The count', approvalCountSchema), ...errors('503') },
  });
  app.get('/approvals/count', { schema: countSchema }, async (request) => {
    const owner = callerOf(request).scopedUserId ?? request.query.user_id;
    return { count: await store.approvals.countPending(owner) };
  });

  const getSchema = checked('One approval', {
    params: approvalParams,
    response: { 200: ok('The approval', approvalSchema), ...errors('404', '503') },
  });
  app.get('/approvals/:approval_id', { schema: getSchema }, async (request) =>
    visible(request.params.approval_id, callerOf(request).scopedUserId),
  );

  const statusSchema = checked("An approval's status", {
    params: approvalParams,
    response: { 200: ok('The status', approvalStatusSchema), ...errors('404', '503') },
  });
  app.get('/approvals/:approval_id/status', { schema: statusSchema }, async (request) => {
    const a = await visible(request.params.approval_id, callerOf(request).scopedUserId);
    return {
      approval_id: a.id,
      status: a.status,
      run_id: a.run_id,
      resolved_at: a.resolved_at,
      resolved_by: a.resolved_by,
    };
  });

  const resolveSchema = checked('Approve or reject (resumes the run accordingly)', {
    params: approvalParams,
    body: resolveApprovalBody,
    response: {
      200: ok('The resolved approval', approvalSchema),
      ...errors('404', '409', '422', '503'),
    },
  });
  app.post('/approvals/:approval_id/resolve', { schema: resolveSchema }, async (request) => {
    const caller = callerOf(request);
    // Resolving is for admins: a confined caller cannot even tell the approval exists.
    if (caller.scopedUserId !== null) throw new HttpError(404, NOT_FOUND);
    const body = request.body;
    const approval = await visible(request.params.approval_id, null);
    if (approval.status !== 'pending') throw alreadyResolved(approval);
    const resolved = await store.approvals.resolve(approval.id, {
      status: body.status,
      // The gateway's identity wins over what the body claims.
      resolvedBy: caller.userId ?? body.resolved_by ?? null,
      resolutionData: body.resolution_data ?? null,
      at: Math.floor(deps.clock.now() / 1000),
    });
    // Resolved by another request (or process) since it was read: answered as a second resolve.
    if (!resolved) throw alreadyResolved(await visible(approval.id, null));
    await resumeResolvedRun(deps, await visible(approval.id, null), caller);
    return visible(approval.id, null);
  });

  const deleteSchema = checked('Delete an approval', {
    params: approvalParams,
    response: { 204: empty('Deleted'), ...errors('404', '500', '503') },
  });
  app.delete('/approvals/:approval_id', { schema: deleteSchema }, async (request, reply) => {
    // Deleting is for admins; a confined caller is told there is nothing.
    if (callerOf(request).scopedUserId !== null) throw new HttpError(404, NOT_FOUND);
    if (!(await store.approvals.delete(request.params.approval_id))) {
      throw new HttpError(500, 'Failed to delete approval');
    }
    return reply.code(204).send();
  });
}
