/**
 * User memories: list, create, read, replace and delete, each confined to
 * the caller's `scoped_user_id` when the gateway set one: another user's memory looks
 * missing (404, or a 204 that deletes nothing). Topics, stats and optimization are registered
 * from memory-insights.ts. Each route declares its document part (memory-shapes.ts); the
 * handlers still check their own input. Never checks scopes: the gateway did.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../../../shared/clock.js';
import { callerOf, type Caller } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import { MEMORY_SORTS, type MemoryRecord, type MemoryStore } from './table.js';
import { listParams, paginated } from '../../http/list-query.js';
import { registerMemoryInsightRoutes } from './insights.js';
import {
  bulkDeleteBody,
  listMemoriesQuery,
  memoryBody,
  memoryParams,
  MEMORY_TAGS,
  memorySchema,
  ownerQuery,
  parseMemoryBody,
  userMemory,
} from './schemas.js';
import { empty, errors, ok } from '../../http/openapi.js';
import { DB_ONLY, paginatedOf } from '../../http/openapi-shapes.js';
import { checkDatabase, scalarQuery, type RawQuery } from '../../http/query.js';

/** What the memory routes take from the runtime besides the store. */
export interface MemoryDeps {
  readonly clock: Clock;
  /** A new memory id (a uuid in production, a counter in tests). */
  readonly newId: () => string;
}

/** A route whose query is read by its handler. */
type Query = { Querystring: RawQuery };

type OneMemory = { Params: z.infer<typeof memoryParams>; Querystring: RawQuery };

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
function topicsQuery(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((topic) => topic.trim())
    .filter((topic) => topic !== '');
}

/** Registers every memory route. */
export function registerMemoryRoutes(
  app: FastifyInstance,
  store: MemoryStore,
  dbId: string,
  deps: MemoryDeps,
): void {
  const nowSeconds = (): number => Math.floor(deps.clock.now() / 1000);

  const listSchema = {
    tags: MEMORY_TAGS,
    summary: 'List memories',
    querystring: listMemoriesQuery,
    response: { 200: ok('Memories', paginatedOf(userMemory)), ...errors('404', '422') },
  };
  app.get<Query>('/memories', { schema: listSchema }, async (request) => {
    const q = scalarQuery(request.query);
    const params = listParams(q, {
      defaultLimit: 20,
      maxLimit: 1000,
      sorts: MEMORY_SORTS,
      defaultSort: 'updated_at',
    });
    checkDatabase(dbId, q.db_id);
    // A confined caller sees its own memories, whatever user_id it asks for.
    const userId = callerOf(request).scopedUserId ?? q.user_id;
    const topics = topicsQuery(q.topics);
    const { rows, total } = await store.list({
      ...params,
      ...(userId === undefined ? {} : { userId }),
      ...(q.agent_id === undefined ? {} : { agentId: q.agent_id }),
      ...(q.team_id === undefined ? {} : { teamId: q.team_id }),
      ...(topics === undefined ? {} : { topics }),
      ...(q.search_content === undefined ? {} : { contains: q.search_content }),
    });
    return paginated(rows.map(memorySchema), params.page, params.limit, total);
  });

  const createSchema = {
    tags: MEMORY_TAGS,
    summary: 'Create a memory',
    querystring: DB_ONLY,
    body: memoryBody,
    response: { 200: ok('Created', userMemory), ...errors('400', '404', '422') },
  };
  app.post<Query>('/memories', { schema: createSchema }, async (request) => {
    const body = parseMemoryBody(memoryBody, request.body);
    checkDatabase(dbId, scalarQuery(request.query).db_id);
    const userId = memoryUserOf(callerOf(request), body.user_id);
    if (userId === null) throw new HttpError(400, 'User ID is required');
    const now = nowSeconds();
    const memory: MemoryRecord = {
      memory_id: deps.newId(),
      memory: body.memory,
      topics: body.topics ?? [],
      user_id: userId,
      agent_id: null,
      team_id: null,
      created_at: now,
      updated_at: now,
    };
    await store.put(memory);
    return memorySchema(memory);
  });

  const getSchema = {
    tags: MEMORY_TAGS,
    summary: 'One memory',
    params: memoryParams,
    querystring: ownerQuery,
    response: { 200: ok('The memory', userMemory), ...errors('404') },
  };
  app.get<OneMemory>('/memories/:memory_id', { schema: getSchema }, async (request) => {
    const q = scalarQuery(request.query);
    checkDatabase(dbId, q.db_id);
    const owner = callerOf(request).scopedUserId ?? q.user_id;
    const id = request.params.memory_id;
    const memory = await store.get(id);
    if (memory === null || (owner !== undefined && memory.user_id !== owner)) {
      throw new HttpError(404, `Memory with ID ${id} not found`);
    }
    return memorySchema(memory);
  });

  const replaceSchema = {
    tags: MEMORY_TAGS,
    summary: 'Replace a memory',
    params: memoryParams,
    querystring: DB_ONLY,
    body: memoryBody,
    response: { 200: ok('Updated', userMemory), ...errors('400', '404', '422') },
  };
  app.patch<OneMemory>('/memories/:memory_id', { schema: replaceSchema }, async (request) => {
    const body = parseMemoryBody(memoryBody, request.body);
    checkDatabase(dbId, scalarQuery(request.query).db_id);
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

  const deleteSchema = {
    tags: MEMORY_TAGS,
    summary: 'Delete a memory',
    params: memoryParams,
    querystring: ownerQuery,
    response: { 204: empty('Deleted') },
  };
  app.delete<OneMemory>(
    '/memories/:memory_id',
    { schema: deleteSchema },
    async (request, reply) => {
      const q = scalarQuery(request.query);
      checkDatabase(dbId, q.db_id);
      // One conditional delete: another user's memory is simply not matched (204, no-op).
      await store.delete([request.params.memory_id], callerOf(request).scopedUserId ?? q.user_id);
      return reply.code(204).send();
    },
  );

  const bulkDeleteSchema = {
    tags: MEMORY_TAGS,
    summary: 'Delete memories',
    querystring: DB_ONLY,
    body: bulkDeleteBody,
    response: { 204: empty('Deleted'), ...errors('404', '422') },
  };
  app.delete<Query>('/memories', { schema: bulkDeleteSchema }, async (request, reply) => {
    const body = parseMemoryBody(bulkDeleteBody, request.body);
    checkDatabase(dbId, scalarQuery(request.query).db_id);
    const owner = callerOf(request).scopedUserId ?? body.user_id ?? undefined;
    await store.delete(body.memory_ids, owner);
    return reply.code(204).send();
  });

  registerMemoryInsightRoutes(app, store, dbId, deps);
}
