/**
 * The shapes of the memory routes: their path and query parameters, their JSON bodies (checked
 * as pydantic would: every problem one 422 entry, length limits in pydantic's words) and their
 * answers (UserMemorySchema and the rest), as zod schemas the routes declare and the OpenAPI
 * document is generated from. Pure: never reads the store or the caller.
 */
import { z } from 'zod';
import type { MemoryRecord } from './table.js';
import { isoOfSeconds } from '../../engine/time.js';
import {
  DB_QUERY,
  fieldsOf,
  ISO_TIME,
  NULLABLE_STRING,
  pageQuery,
  pathParam,
  QUERY_STRING,
  sortedPageQuery,
  USER_ID,
} from '../../http/openapi-shapes.js';

/** The document's section of the memory routes. */
export const MEMORY_TAGS = ['Memory'] as const;

/** The longest memory text accepted. */
export const MAX_MEMORY_CHARS = 5000;

const optionalString = z.string().nullable().optional();

/** `POST /memories` and `PATCH /memories/{memory_id}`: `{memory, user_id?, topics?}`. */
export const memoryBody = z
  .object({
    memory: z.string().min(1).max(MAX_MEMORY_CHARS),
    user_id: optionalString,
    topics: z.array(z.string()).nullable().optional(),
  })
  .meta({ id: 'MemoryWrite' });

/** The bulk `DELETE /memories`: `{memory_ids: [≥1], user_id?}`. */
export const bulkDeleteBody = z
  .object({
    memory_ids: z.array(z.string()).min(1),
    user_id: optionalString,
  })
  .meta({ id: 'MemoriesDelete' });

/** `POST /optimize-memories`: `{user_id, model?, apply = true}`. */
export const optimizeBody = z
  .object({
    user_id: z.string(),
    model: optionalString.meta({ description: 'provider:model_id' }),
    apply: z.boolean().default(true),
  })
  .meta({ id: 'OptimizeMemoriesRequest' });

/** `/memories/{memory_id}`. */
export const memoryParams = pathParam('memory_id', 'Memory id');

/** The query of `GET /memories`. */
export const listMemoriesQuery = z.object({
  user_id: USER_ID,
  agent_id: QUERY_STRING,
  team_id: QUERY_STRING,
  topics: QUERY_STRING.meta({ description: 'Comma-separated topics' }),
  search_content: QUERY_STRING.meta({ description: 'Substring of the memory' }),
  ...sortedPageQuery(20, 1000, 'updated_at'),
  ...DB_QUERY,
});

/** The query of the routes that take an owner besides the database. */
export const ownerQuery = z.object({ user_id: USER_ID, ...DB_QUERY });

/** The query of `GET /user_memory_stats`. */
export const memoryStatsQuery = z.object({
  ...pageQuery(20, 1000),
  user_id: USER_ID,
  ...DB_QUERY,
});

/** `UserMemorySchema`. */
export const userMemory = z
  .object({
    memory_id: z.string(),
    memory: z.string(),
    topics: z.array(z.string()),
    agent_id: NULLABLE_STRING,
    team_id: NULLABLE_STRING,
    user_id: NULLABLE_STRING,
    updated_at: ISO_TIME,
  })
  .meta({ id: 'UserMemory' });

/** A memory as the routes answer it. */
export type UserMemory = z.infer<typeof userMemory>;

/** One user's memory count, in `GET /user_memory_stats`. */
export const userMemoryStats = z
  .object({
    user_id: z.string(),
    total_memories: z.int(),
    last_memory_updated_at: ISO_TIME.nullable(),
  })
  .meta({ id: 'UserMemoryStats' });

/** What `POST /optimize-memories` answers. */
export const optimizeResponse = z
  .object({
    memories: z.array(userMemory),
    memories_before: z.int(),
    memories_after: z.int(),
    tokens_before: z.int(),
    tokens_after: z.int(),
    tokens_saved: z.int(),
    reduction_percentage: z.number(),
  })
  .meta({ id: 'OptimizeMemoriesResponse' });

/** A stored memory as {@link userMemory} writes it. */
export function memorySchema(m: MemoryRecord): UserMemory {
  return fieldsOf(userMemory, { ...m, updated_at: isoOfSeconds(m.updated_at) });
}
