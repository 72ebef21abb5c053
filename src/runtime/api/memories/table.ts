/**
 * User memories in the runtime database, read and written asynchronously through the query
 * layer (database.ts, table.ts, page.ts). Stores what it is given and
 * filters by the owner a route passes; it never decides who the caller is, and never builds HTTP
 * shapes.
 */
import type { RuntimeDatabase } from '../../store/database.js';
import { equals, offsetOf, pageOf, type PageParams } from '../../store/page.js';
import type { MemoryRecord } from '../../store/records.js';
import { tableOf, type TableSpec } from '../../store/table.js';

export type { MemoryRecord } from '../../store/records.js';

/** Filters, sort and page of {@link MemoryStore.list}. */
export interface MemoryQuery extends PageParams<MemorySort> {
  readonly userId?: string;
  readonly agentId?: string;
  readonly teamId?: string;
  /** Memories carrying at least one of these topics; an empty list filters nothing. */
  readonly topics?: readonly string[];
  /** Case-insensitive substring of the memory text; an empty string filters nothing. */
  readonly contains?: string;
}

/** One owner's memory count (GET /user_memory_stats). */
export interface MemoryUserStats {
  user_id: string;
  total_memories: number;
  /** Epoch seconds of the owner's newest change. */
  last_memory_updated_at: number;
}

/** The memories of the runtime store. */
export interface MemoryStore {
  get(memoryId: string): Promise<MemoryRecord | null>;
  /** Insert or replace by id (a replace keeps `created_at`). */
  put(memory: MemoryRecord): Promise<void>;
  /** One page of the memories matching every given filter, and how many match in all. */
  list(query: MemoryQuery): Promise<{ rows: MemoryRecord[]; total: number }>;
  /**
   * Delete the named memories, only those of `owner` when it is given.
   *
   * @returns how many were deleted
   */
  delete(memoryIds: readonly string[], owner?: string): Promise<number>;
  /** Every memory of `userId`, oldest change first. */
  ofUser(userId: string): Promise<MemoryRecord[]>;
  /** Replace every memory of `userId` with `memories`, in one transaction. */
  replaceUser(userId: string, memories: readonly MemoryRecord[]): Promise<void>;
  /** The distinct topics (of one owner's memories when given), sorted. */
  topics(userId?: string): Promise<string[]>;
  /** Per-owner counts, most recently changed owner first, one page of them and how many. */
  userStats(
    userId: string | undefined,
    page: number,
    limit: number,
  ): Promise<{ rows: MemoryUserStats[]; total: number }>;
}

/** The `memories` table: topics are JSON, times epoch seconds; a replace keeps `created_at`. */
const MEMORIES = {
  name: 'memories',
  key: 'memory_id',
  columns: [
    'memory_id',
    'memory',
    'topics',
    'user_id',
    'agent_id',
    'team_id',
    'created_at',
    'updated_at',
  ],
  json: ['topics'],
  seconds: ['created_at', 'updated_at'],
  keepOnUpdate: ['created_at'],
} as const satisfies TableSpec<MemoryRecord>;

/** A sort column of {@link MEMORY_SORTS}. */
export type MemorySort = Exclude<keyof MemoryRecord, 'topics'>;

/** The columns GET /memories may sort by: all but the topics. */
export const MEMORY_SORTS = MEMORIES.columns.filter(
  (column): column is MemorySort => column !== 'topics',
);

/** The filters of {@link MemoryStore.list}, by name and value. */
interface MemoryFilters {
  userId?: string | undefined;
  agentId?: string | undefined;
  teamId?: string | undefined;
  topics?: readonly string[] | undefined;
  contains?: string | undefined;
}

/** The memory store on an open, migrated database. */
export function createMemoryStore(database: RuntimeDatabase): MemoryStore {
  const { db, dialect } = database;
  const table = tableOf(database, MEMORIES);
  const pages = pageOf<MemoryRecord, MemoryFilters, MemorySort>(database, table, {
    filters: {
      userId: equals('user_id'),
      agentId: equals('agent_id'),
      teamId: equals('team_id'),
      // Any shared topic matches.
      topics: (topics) => dialect.jsonArrayOverlaps('memories.topics', topics),
      contains: (text) => dialect.containsFolded('memory', text),
    },
    sorts: MEMORY_SORTS,
    tieBreak: 'memory_id',
  });
  return Object.freeze({
    get: (memoryId) => table.get(memoryId),
    put: (memory) => table.put(memory),
    list: ({ userId, agentId, teamId, topics, contains, ...params }) =>
      pages.page({
        filters: {
          userId,
          agentId,
          teamId,
          topics: topics?.length ? topics : undefined,
          contains: contains ? contains : undefined,
        },
        ...params,
      }),
    delete: (memoryIds, owner) =>
      db
        .transaction()
        .execute((trx) =>
          table.in(trx).deleteAll(memoryIds, owner === undefined ? {} : { user_id: owner }),
        ),
    ofUser: (userId) => table.find({ user_id: userId }, ['updated_at', 'created_at', 'memory_id']),
    replaceUser: (userId, memories) =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('memories').where('user_id', '=', userId).execute();
        for (const memory of memories) await table.in(trx).put(memory);
      }),
    async topics(userId) {
      const rows = await db
        .selectFrom(['memories', dialect.jsonArrayElements('memories.topics', 't')])
        .select('t.value as topic')
        .distinct()
        .$if(userId !== undefined, (qb) => qb.where('memories.user_id', '=', userId as string))
        .orderBy('topic')
        .execute();
      return rows.map((row) => row.topic);
    },
    async userStats(userId, page, limit) {
      const owned = db
        .selectFrom('memories')
        .$if(userId !== undefined, (qb) => qb.where('user_id', '=', userId as string));
      const rows = await owned
        .select((eb) => [
          'user_id',
          eb.fn.countAll<number>().as('total_memories'),
          eb.fn.max('updated_at').as('last_memory_updated_at'),
        ])
        .groupBy('user_id')
        .orderBy('last_memory_updated_at', 'desc')
        .orderBy('user_id')
        .limit(limit)
        .offset(offsetOf({ page, limit }))
        .execute();
      const owners = await owned
        .select((eb) => eb.fn.count<number>('user_id').distinct().as('n'))
        .executeTakeFirstOrThrow();
      return {
        rows: rows.map((row) => ({
          user_id: row.user_id,
          total_memories: Number(row.total_memories),
          last_memory_updated_at: dialect.secondsFromColumn(row.last_memory_updated_at),
        })),
        total: Number(owners.n),
      };
    },
  } satisfies MemoryStore);
}
