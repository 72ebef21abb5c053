/**
 * Learnings: list, create, read, update, delete, and the per-user listing
 * and delete. A confined caller (`scoped_user_id`) sees its own learnings and the ownerless
 * (shared) ones, is refused (403) when it names another user, finds another user's learning
 * missing (404), and may not change a shared one (403). Each route declares its input and
 * answer (schemas.ts); the lifecycle checks the input before a handler runs. Never checks
 * scopes: the gateway did.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { callerOf, type Caller } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import {
  LEARNING_SORTS,
  type LearningFilter,
  type LearningRecord,
  type LearningStore,
} from './table.js';
import {
  createLearningBody,
  LEARNING_TAGS,
  learningIdOf,
  learningParams,
  learningResponse,
  learningSchema,
  learningTypeQuery,
  learningUser,
  learningUserParams,
  learningUsersQuery,
  listLearningsQuery,
  updateLearningBody,
} from './schemas.js';
import { listOf, paginated, pagingOf } from '../../http/list-query.js';
import { empty, errors, ok } from '../../http/openapi.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';
import { DB_ONLY, paginatedOf } from '../../http/openapi-shapes.js';

/** The schemas of this file's routes (validation.ts). */
const { checked } = sectionSchemas(LEARNING_TAGS);

type ListQuery = z.output<typeof listLearningsQuery>;

/** A text parameter of GET /learnings. */
type TextParameter = {
  [K in keyof ListQuery]-?: ListQuery[K] extends string | undefined ? K : never;
}[keyof ListQuery];

/** Query parameter → store filter of GET /learnings (user_id is handled apart). */
const FILTERS: readonly (readonly [TextParameter, LearningFilter])[] = [
  ['learning_type', 'learningType'],
  ['agent_id', 'agentId'],
  ['team_id', 'teamId'],
  ['session_id', 'sessionId'],
  ['namespace', 'namespace'],
  ['entity_id', 'entityId'],
  ['entity_type', 'entityType'],
];

/**
 * The user a confined caller may name: none, or itself; another is 403 `detail`. Unconfined
 * callers may name anyone.
 */
function checkNamedUser(caller: Caller, userId: string | null | undefined, detail: string): void {
  const scoped = caller.scopedUserId;
  if (scoped !== null && userId !== undefined && userId !== null && userId !== scoped) {
    throw new HttpError(403, detail);
  }
}

/** Registers every learning route. */
export function registerLearningRoutes(
  parent: FastifyInstance,
  store: LearningStore,
  deps: { readonly clock: { now(): number }; readonly newId: () => string },
): void {
  const app = parent.withTypeProvider<CheckedTypes>();
  const nowSeconds = (): number => Math.floor(deps.clock.now() / 1000);

  /** The learning as `caller` may see it: another owner's is missing, a shared one is not. */
  async function visible(id: string, caller: Caller): Promise<LearningRecord> {
    const learning = await store.get(id);
    const scoped = caller.scopedUserId;
    if (
      learning === null ||
      (scoped !== null && learning.user_id !== null && learning.user_id !== scoped)
    ) {
      throw new HttpError(404, 'Learning not found');
    }
    return learning;
  }

  /** The learning as `caller` may change it: a confined caller never changes a shared one. */
  async function writable(id: string, caller: Caller): Promise<LearningRecord> {
    const learning = await visible(id, caller);
    if (caller.scopedUserId !== null && learning.user_id === null) {
      throw new HttpError(
        403,
        'Only admins can modify learnings that have no owner (user_id is null)',
      );
    }
    return learning;
  }

  const listSchema = checked('List learnings (own and ownerless under user isolation)', {
    querystring: listLearningsQuery,
    response: {
      200: ok('Learnings', paginatedOf(learningSchema)),
      ...errors('403', '404', '422'),
    },
  });
  app.get('/learnings', { schema: listSchema }, async (request) => {
    const q = request.query;
    const params = listOf(q, LEARNING_SORTS, 'updated_at');
    const caller = callerOf(request);
    checkNamedUser(caller, q.user_id, 'Cannot list learnings for another user');
    const filters: Partial<Record<LearningFilter, string>> = {};
    for (const [name, filter] of FILTERS) {
      const value = q[name];
      if (value !== undefined) filters[filter] = value;
    }
    if (q.user_id !== undefined) filters.userId = q.user_id;
    // A confined caller asking for no one in particular sees its own and the shared ones.
    const visibleTo = q.user_id === undefined ? caller.scopedUserId : null;
    const { rows, total } = await store.list({
      ...params,
      filters,
      ...(visibleTo === null ? {} : { visibleTo }),
    });
    return paginated(rows.map(learningResponse), params.page, params.limit, total);
  });

  const createSchema = checked('Create a learning', {
    querystring: DB_ONLY,
    body: createLearningBody,
    response: { 201: ok('Created', learningSchema), ...errors('403', '404', '409', '422') },
  });
  app.post('/learnings', { schema: createSchema }, async (request, reply) => {
    const body = request.body;
    const caller = callerOf(request);
    checkNamedUser(caller, body.user_id, 'Cannot create learnings for another user');
    const identity = {
      learning_type: body.learning_type,
      // (ours) a confined caller's learning is its own: it could not change a shared one later.
      user_id: caller.scopedUserId ?? body.user_id ?? null,
      session_id: body.session_id ?? null,
      namespace: body.namespace ?? null,
      entity_id: body.entity_id ?? null,
      entity_type: body.entity_type ?? null,
    };
    const now = nowSeconds();
    const learning: LearningRecord = {
      ...identity,
      learning_id: learningIdOf(identity) ?? deps.newId(),
      agent_id: body.agent_id ?? null,
      team_id: body.team_id ?? null,
      content: body.content,
      metadata: body.metadata ?? null,
      created_at: now,
      updated_at: now,
    };
    if (!(await store.insert(learning))) {
      throw new HttpError(
        409,
        `Learning '${learning.learning_id}' already exists. ` +
          `Use PATCH /learnings/${learning.learning_id} to update it.`,
      );
    }
    return reply.code(201).send(learningResponse(learning));
  });

  const usersSchema = checked('Users with learnings', {
    querystring: learningUsersQuery,
    response: { 200: ok('Users', paginatedOf(learningUser)), ...errors('403', '404', '422') },
  });
  app.get('/learnings/users', { schema: usersSchema }, async (request) => {
    const q = request.query;
    const { page, limit } = pagingOf(q);
    const caller = callerOf(request);
    checkNamedUser(caller, q.user_id, 'Cannot list learnings for another user');
    const { rows, total } = await store.users({
      userId: caller.scopedUserId ?? q.user_id,
      learningType: q.learning_type,
      page,
      limit,
    });
    return paginated(rows, page, limit, total);
  });

  const deleteUserSchema = checked("Delete a user's learnings", {
    params: learningUserParams,
    querystring: learningTypeQuery,
    response: { 204: empty('Deleted'), ...errors('403', '404') },
  });
  app.delete('/learnings/users/:user_id', { schema: deleteUserSchema }, async (request, reply) => {
    const userId = request.params.user_id;
    checkNamedUser(callerOf(request), userId, 'Cannot delete learnings for another user');
    await store.deleteUser(userId, request.query.learning_type);
    return reply.code(204).send();
  });

  const getSchema = checked('One learning', {
    params: learningParams,
    querystring: DB_ONLY,
    response: { 200: ok('The learning', learningSchema), ...errors('404') },
  });
  app.get('/learnings/:learning_id', { schema: getSchema }, async (request) => {
    return learningResponse(await visible(request.params.learning_id, callerOf(request)));
  });

  const updateSchema = checked('Update a learning (given fields replace)', {
    params: learningParams,
    querystring: DB_ONLY,
    body: updateLearningBody,
    response: { 200: ok('Updated', learningSchema), ...errors('403', '404', '422') },
  });
  app.patch('/learnings/:learning_id', { schema: updateSchema }, async (request) => {
    const body = request.body;
    const learning = await writable(request.params.learning_id, callerOf(request));
    const updated: LearningRecord = {
      ...learning,
      content: body.content ?? learning.content,
      metadata: body.metadata === undefined ? learning.metadata : body.metadata,
      updated_at: nowSeconds(),
    };
    await store.update(updated);
    return learningResponse(updated);
  });

  const deleteSchema = checked('Delete a learning', {
    params: learningParams,
    querystring: DB_ONLY,
    response: { 204: empty('Deleted'), ...errors('403', '404') },
  });
  app.delete('/learnings/:learning_id', { schema: deleteSchema }, async (request, reply) => {
    await store.delete((await writable(request.params.learning_id, callerOf(request))).learning_id);
    return reply.code(204).send();
  });
}
