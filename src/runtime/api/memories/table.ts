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

/** The memories of the runtime store. */
export type MemoryStore = ReturnType<typeof createMemoryStore>;

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
type MemoryFilters = Partial<Omit<MemoryQuery, keyof PageParams<MemorySort>>>;

/** The memory store on an open, migrated database. */
export function createMemoryStore(database: RuntimeDatabase) {
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
    get: (memoryId: string) => table.get(memoryId),
    /** Insert or replace by id (a replace keeps `created_at`). */
    put: (memory: MemoryRecord) => table.put(memory),
    /** One page of the memories matching every given filter, and how many match in all. */
    list: ({ userId, agentId, teamId, topics, contains, ...params }: MemoryQuery) =>
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
    /** Delete the named memories, only those of `owner` when it is given; how many went. */
    delete: (memoryIds: readonly string[], owner?: string): Promise<number> =>
      db
        .transaction()
        .execute((trx) =>
          table.in(trx).deleteAll(memoryIds, owner === undefined ? {} : { user_id: owner }),
        ),
    /** Every memory of `userId`, oldest change first. */
    ofUser: (userId: string) =>
      table.find({ user_id: userId }, ['updated_at', 'created_at', 'memory_id']),
    /** Replace every memory of `userId` with `memories`, in one transaction. */
    replaceUser: (userId: string, memories: readonly MemoryRecord[]): Promise<void> =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('memories').where('user_id', '=', userId).execute();
        for (const memory of memories) await table.in(trx).put(memory);
      }),
    /** The distinct topics (of one owner's memories when given), sorted. */
    async topics(userId?: string): Promise<string[]> {
      const rows = await db
        .selectFrom(['memories', dialect.jsonArrayElements('memories.topics', 't')])
        .select('t.value as topic')
        .distinct()
        .$if(userId !== undefined, (qb) => qb.where('memories.user_id', '=', userId as string))
        .orderBy('topic')
        .execute();
      return rows.map((row) => row.topic);
    },
    /**
     * Per-owner counts (`last_memory_updated_at` in epoch seconds), most recently changed owner
     * first: one page of them and how many.
     */
    async userStats(userId: string | undefined, page: number, limit: number) {
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
  });
}
