/**
 * What the memory routes say about memories as a whole: the distinct topics,
 * per-user stats, and `POST /optimize-memories`, which joins one user's memories into one summary
 * offline. A confined caller (`scoped_user_id`) only ever sees and optimizes its own.
 * Never checks scopes: the gateway did.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callerOf } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import { optimizeMemories } from './optimizer.js';
import type { Clock } from '../../../shared/clock.js';
import type { MemoryRecord, MemoryStore } from './table.js';
import { isoOfSeconds } from '../../engine/time.js';
import { paginated, pagingOf } from '../../http/list-query.js';
import {
  MEMORY_TAGS,
  memorySchema,
  memoryStatsQuery,
  optimizeBody,
  optimizeResponse,
  ownerQuery,
  userMemoryStats,
} from './schemas.js';
import { errors, ok } from '../../http/openapi.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';
import { DB_ONLY, paginatedOf } from '../../http/openapi-shapes.js';

/** The schemas of this file's routes (validation.ts). */
const { checked } = sectionSchemas(MEMORY_TAGS);

/** What the memory routes take from the runtime besides the store. */
export interface MemoryDeps {
  readonly clock: Clock;
  /** A new memory id (a uuid in production, a counter in tests). */
  readonly newId: () => string;
}

/** A new memory of `userId`, of no agent or team, written now. */
export function newMemory(
  deps: MemoryDeps,
  userId: string,
  memory: string,
  topics: string[],
): MemoryRecord {
  const now = Math.floor(deps.clock.now() / 1000);
  return {
    memory_id: deps.newId(),
    memory,
    topics,
    user_id: userId,
    agent_id: null,
    team_id: null,
    created_at: now,
    updated_at: now,
  };
}

/** Registers `/memory_topics`, `/user_memory_stats` and `/optimize-memories`. */
export function registerMemoryInsightRoutes(
  parent: FastifyInstance,
  store: MemoryStore,
  deps: MemoryDeps,
): void {
  const app = parent.withTypeProvider<CheckedTypes>();
  const topicsSchema = checked('The topics of the memories', {
    querystring: ownerQuery,
    response: { 200: ok('Topics', z.array(z.string())), ...errors('404') },
  });
  app.get('/memory_topics', { schema: topicsSchema }, async (request) => {
    return await store.topics(callerOf(request).scopedUserId ?? request.query.user_id);
  });

  const statsSchema = checked('Memory counts per user', {
    querystring: memoryStatsQuery,
    response: {
      200: ok('Per-user statistics', paginatedOf(userMemoryStats)),
      ...errors('404', '422'),
    },
  });
  app.get('/user_memory_stats', { schema: statsSchema }, async (request) => {
    const q = request.query;
    const { page, limit } = pagingOf(q);
    const userId = callerOf(request).scopedUserId ?? q.user_id;
    const { rows, total } = await store.userStats(userId, page, limit);
    const data = rows.map((row): z.infer<typeof userMemoryStats> => ({
      user_id: row.user_id,
      total_memories: row.total_memories,
      last_memory_updated_at: isoOfSeconds(row.last_memory_updated_at),
    }));
    return paginated(data, page, limit, total);
  });

  const optimizeSchema = checked("Merge a user's memories into fewer", {
    querystring: DB_ONLY,
    body: optimizeBody,
    response: { 200: ok('The optimized memories', optimizeResponse), ...errors('404', '422') },
  });
  app.post('/optimize-memories', { schema: optimizeSchema }, async (request) => {
    const body = request.body;
    // A confined caller optimizes its own memories, whoever the body names.
    const userId = callerOf(request).scopedUserId ?? body.user_id;
    const memories = await store.ofUser(userId);
    if (memories.length === 0) throw new HttpError(404, `No memories found for user ${userId}`);
    const result = optimizeMemories(memories);
    // The summary speaks for the user, not for any one agent or team.
    const summary = newMemory(deps, userId, result.memory, result.topics);
    // apply=false only reports what optimizing would do.
    if (body.apply) await store.replaceUser(userId, [summary]);
    const answer: z.infer<typeof optimizeResponse> = {
      memories: [memorySchema(summary)],
      memories_before: result.memoriesBefore,
      memories_after: result.memoriesAfter,
      tokens_before: result.tokensBefore,
      tokens_after: result.tokensAfter,
      tokens_saved: result.tokensSaved,
      reduction_percentage: result.reductionPercentage,
    };
    return answer;
  });
}
