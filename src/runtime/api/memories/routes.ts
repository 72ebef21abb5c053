/**
 * User memories: list, create, read, replace and delete, each confined to
 * the caller's `scoped_user_id` when the gateway set one: another user's memory looks
 * missing (404, or a 204 that deletes nothing). Topics, stats and optimization are registered
 * from insights.ts. Each route declares its input and answer (schemas.ts); the lifecycle checks
 * the input before a handler runs. Never checks scopes: the gateway did.
 */
import type { FastifyInstance } from 'fastify';
import { callerOf, type Caller } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import { MEMORY_SORTS, type MemoryRecord, type MemoryStore } from './table.js';
import { listOf, paginated } from '../../http/list-query.js';
import { newMemory, registerMemoryInsightRoutes, type MemoryDeps } from './insights.js';
import {
  bulkDeleteBody,
  listMemoriesQuery,
  memoryBody,
  memoryParams,
  MEMORY_TAGS,
  memorySchema,
  ownerQuery,
  userMemory,
} from './schemas.js';
import { empty, errors, ok } from '../../http/openapi.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';
import { DB_ONLY, paginatedOf } from '../../http/openapi-shapes.js';

/** The schemas of this file's routes (validation.ts). */
const { checked } = sectionSchemas(MEMORY_TAGS);

/**
 * Who a written memory belongs to: the confined principal, else the context's user, else the
 * body's `user_id` (Agno's order); `null` when none is known.
 */
export function memoryUserOf(caller: Caller, bodyUserId: string | null | undefined): string | null {
  if (caller.scopedUserId !== null) return caller.scopedUserId;
  if (caller.userId !== null && caller.userId !== '') return caller.userId;
  return bodyUserId ?? null;
}

/** The topics query parameter: comma-separated, blanks dropped. */
function topicsOf(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((topic) => topic.trim())
    .filter((topic) => topic !== '');
}

/** Registers every memory route. */
export function registerMemoryRoutes(
  parent: FastifyInstance,
  store: MemoryStore,
  deps: MemoryDeps,
): void {
  const app = parent.withTypeProvider<CheckedTypes>();
  const nowSeconds = (): number => Math.floor(deps.clock.now() / 1000);

  const listSchema = checked('List memories', {
    querystring: listMemoriesQuery,
    response: { 200: ok('Memories', paginatedOf(userMemory)), ...errors('404', '422') },
  });
  app.get('/memories', { schema: listSchema }, async (request) => {
    const q = request.query;
    const params = listOf(q, MEMORY_SORTS, 'updated_at');
    // An absent filter filters nothing.
    const { rows, total } = await store.list({
      ...params,
      // A confined caller sees its own memories, whatever user_id it asks for.
      userId: callerOf(request).scopedUserId ?? q.user_id,
      agentId: q.agent_id,
      teamId: q.team_id,
      topics: topicsOf(q.topics),
      contains: q.search_content,
    });
    return paginated(rows.map(memorySchema), params.page, params.limit, total);
  });

  const createSchema = checked('Create a memory', {
    querystring: DB_ONLY,
    body: memoryBody,
    response: { 200: ok('Created', userMemory), ...errors('400', '404', '422') },
  });
  app.post('/memories', { schema: createSchema }, async (request) => {
    const body = request.body;
    const userId = memoryUserOf(callerOf(request), body.user_id);
    if (userId === null) throw new HttpError(400, 'User ID is required');
    const memory = newMemory(deps, userId, body.memory, body.topics ?? []);
    await store.put(memory);
    return memorySchema(memory);
  });

  const getSchema = checked('One memory', {
    params: memoryParams,
    querystring: ownerQuery,
    response: { 200: ok('The memory', userMemory), ...errors('404') },
  });
  app.get('/memories/:memory_id', { schema: getSchema }, async (request) => {
    const owner = callerOf(request).scopedUserId ?? request.query.user_id;
    const id = request.params.memory_id;
    const memory = await store.get(id);
    if (memory === null || (owner !== undefined && memory.user_id !== owner)) {
      throw new HttpError(404, `Memory with ID ${id} not found`);
    }
    return memorySchema(memory);
  });

  const replaceSchema = checked('Replace a memory', {
    params: memoryParams,
    querystring: DB_ONLY,
    body: memoryBody,
    response: { 200: ok('Updated', userMemory), ...errors('400', '404', '422') },
  });
  app.patch('/memories/:memory_id', { schema: replaceSchema }, async (request) => {
    const body = request.body;
    const caller = callerOf(request);
    const userId = memoryUserOf(caller, body.user_id);
    if (userId === null) throw new HttpError(400, 'User ID is required');
    const memory = await store.get(request.params.memory_id);
    // (ours) an unknown id is 404 for everyone; Agno's upsert would create it.
    if (
      memory === null ||
      (caller.scopedUserId !== null && memory.user_id !== caller.scopedUserId)
    ) {
      throw new HttpError(404, 'Memory not found');
    }
    const updated: MemoryRecord = {
      ...memory,
      memory: body.memory,
      topics: body.topics ?? [],
      user_id: userId,
      updated_at: nowSeconds(),
    };
    await store.put(updated);
    return memorySchema(updated);
  });

  const deleteSchema = checked('Delete a memory', {
    params: memoryParams,
    querystring: ownerQuery,
    response: { 204: empty('Deleted') },
  });
  app.delete('/memories/:memory_id', { schema: deleteSchema }, async (request, reply) => {
    const owner = callerOf(request).scopedUserId ?? request.query.user_id;
    // One conditional delete: another user's memory is simply not matched (204, no-op).
    await store.delete([request.params.memory_id], owner);
    return reply.code(204).send();
  });

  const bulkDeleteSchema = checked('Delete memories', {
    querystring: DB_ONLY,
    body: bulkDeleteBody,
    response: { 204: empty('Deleted'), ...errors('404', '422') },
  });
  app.delete('/memories', { schema: bulkDeleteSchema }, async (request, reply) => {
    const body = request.body;
    const owner = callerOf(request).scopedUserId ?? body.user_id ?? undefined;
    await store.delete(body.memory_ids, owner);
    return reply.code(204).send();
  });

  registerMemoryInsightRoutes(parent, store, deps);
}
