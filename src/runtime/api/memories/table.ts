/**
 * User memories in the runtime's SQLite file. Stores what it is given and
 * filters by the owner a route passes; it never decides who the caller is, and never builds HTTP
 * shapes.
 */
import { createFilteredList } from '../../store/filtered-list.js';
import type { SqliteDatabase } from '../../store/sqlite.js';

/** One stored memory. */
export interface MemoryRecord {
  memory_id: string;
  memory: string;
  topics: string[];
  /** Every memory has an owner. */
  user_id: string;
  agent_id: string | null;
  team_id: string | null;
  /** Epoch seconds. */
  created_at: number;
  /** Epoch seconds. */
  updated_at: number;
}

/** The columns GET /memories may sort by. */
export const MEMORY_SORTS = [
  'memory_id',
  'memory',
  'user_id',
  'agent_id',
  'team_id',
  'created_at',
  'updated_at',
] as const;

/** A sort column of {@link MEMORY_SORTS}. */
export type MemorySort = (typeof MEMORY_SORTS)[number];

/** Filters, sort and page of {@link MemoryStore.list}. */
export interface MemoryQuery {
  readonly userId?: string;
  readonly agentId?: string;
  readonly teamId?: string;
  /** Memories carrying at least one of these topics; an empty list filters nothing. */
  readonly topics?: readonly string[];
  /** Case-insensitive substring of the memory text; an empty string filters nothing. */
  readonly contains?: string;
  readonly sortBy: MemorySort;
  readonly sortOrder: 'asc' | 'desc';
  readonly page: number;
  readonly limit: number;
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
  get(memoryId: string): MemoryRecord | null;
  /** Insert or replace by id. */
  put(memory: MemoryRecord): void;
  /** One page of the memories matching every given filter, and how many match in all. */
  list(query: MemoryQuery): { rows: MemoryRecord[]; total: number };
  /**
   * Delete the named memories, only those of `owner` when it is given.
   *
   * @returns how many were deleted
   */
  delete(memoryIds: readonly string[], owner?: string): number;
  /** Every memory of `userId`, oldest change first. */
  ofUser(userId: string): MemoryRecord[];
  /** Replace every memory of `userId` with `memories`, in one transaction. */
  replaceUser(userId: string, memories: readonly MemoryRecord[]): void;
  /** The distinct topics (of one owner's memories when given), sorted. */
  topics(userId?: string): string[];
  /** Per-owner counts, most recently changed owner first, one page of them and how many. */
  userStats(
    userId: string | undefined,
    page: number,
    limit: number,
  ): { rows: MemoryUserStats[]; total: number };
}

interface MemoryRow extends Omit<MemoryRecord, 'topics'> {
  /** JSON array of strings. */
  topics: string;
}

/** The SQL function that case-folds text (JavaScript folding, not SQLite's ASCII-only lower()). */
const FOLD = 'scopegate_fold_memory';

const fromRow = (row: MemoryRow): MemoryRecord => ({
  ...row,
  topics: JSON.parse(row.topics) as string[],
});

/** Prepares the memory statements on an open, migrated database. */
export function createMemoryStore(db: SqliteDatabase): MemoryStore {
  db.function(FOLD, { deterministic: true }, (value) => (value as string).toLowerCase());
  const lists = createFilteredList(db, {
    table: 'memories',
    filters: {
      userId: 'user_id = @userId',
      agentId: 'agent_id = @agentId',
      teamId: 'team_id = @teamId',
      // @topics is a JSON array: any shared topic matches.
      topics:
        'EXISTS (SELECT 1 FROM json_each(memories.topics) AS t ' +
        'WHERE t.value IN (SELECT value FROM json_each(@topics)))',
      contains: `instr(${FOLD}(memory), @contains) > 0`,
    },
    sorts: MEMORY_SORTS,
    tieBreak: 'memory_id',
  });
  const get = db.prepare('SELECT * FROM memories WHERE memory_id = ?');
  const put = db.prepare(
    `INSERT INTO memories (memory_id, memory, topics, user_id, agent_id, team_id, created_at,
       updated_at)
     VALUES (@memory_id, @memory, @topics, @user_id, @agent_id, @team_id, @created_at,
       @updated_at)
     ON CONFLICT (memory_id) DO UPDATE SET memory = excluded.memory, topics = excluded.topics,
       user_id = excluded.user_id, agent_id = excluded.agent_id, team_id = excluded.team_id,
       updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM memories WHERE memory_id = ?');
  const removeOwned = db.prepare('DELETE FROM memories WHERE memory_id = ? AND user_id = ?');
  const ofUser = db.prepare(
    'SELECT * FROM memories WHERE user_id = ? ORDER BY updated_at, created_at, memory_id',
  );
  const removeUser = db.prepare('DELETE FROM memories WHERE user_id = ?');
  const topics = db.prepare(
    `SELECT DISTINCT t.value AS topic FROM memories, json_each(memories.topics) AS t
     WHERE @userId IS NULL OR memories.user_id = @userId ORDER BY topic`,
  );
  const stats = db.prepare(
    `SELECT user_id, count(*) AS total_memories, max(updated_at) AS last_memory_updated_at
     FROM memories WHERE @userId IS NULL OR user_id = @userId GROUP BY user_id
     ORDER BY last_memory_updated_at DESC, user_id LIMIT @limit OFFSET @offset`,
  );
  const owners = db.prepare(
    'SELECT count(DISTINCT user_id) AS n FROM memories WHERE @userId IS NULL OR user_id = @userId',
  );
  const toRow = (memory: MemoryRecord): MemoryRow => ({
    ...memory,
    topics: JSON.stringify(memory.topics),
  });
  const deleteMany = db.transaction((ids: readonly string[], owner: string | undefined) =>
    ids.reduce(
      (n, id) => n + (owner === undefined ? remove.run(id) : removeOwned.run(id, owner)).changes,
      0,
    ),
  );
  const replaceUser = db.transaction((userId: string, memories: readonly MemoryRecord[]) => {
    removeUser.run(userId);
    for (const memory of memories) put.run(toRow(memory));
  });
  return Object.freeze({
    get(memoryId) {
      const row = get.get(memoryId) as MemoryRow | undefined;
      return row === undefined ? null : fromRow(row);
    },
    put(memory) {
      put.run(toRow(memory));
    },
    list(query) {
      const { rows, total } = lists.page({
        filters: {
          userId: query.userId,
          agentId: query.agentId,
          teamId: query.teamId,
          topics:
            query.topics === undefined || query.topics.length === 0
              ? undefined
              : JSON.stringify(query.topics),
          contains: query.contains ? query.contains.toLowerCase() : undefined,
        },
        sortBy: query.sortBy,
        sortOrder: query.sortOrder,
        page: query.page,
        limit: query.limit,
      });
      return { rows: (rows as MemoryRow[]).map(fromRow), total };
    },
    delete: (memoryIds, owner) => deleteMany(memoryIds, owner),
    ofUser: (userId) => (ofUser.all(userId) as MemoryRow[]).map(fromRow),
    replaceUser(userId, memories) {
      replaceUser(userId, memories);
    },
    topics: (userId) =>
      (topics.all({ userId: userId ?? null }) as { topic: string }[]).map((r) => r.topic),
    userStats(userId, page, limit) {
      const params = { userId: userId ?? null, limit, offset: (Math.max(page, 1) - 1) * limit };
      const rows = stats.all(params) as MemoryUserStats[];
      return { rows, total: (owners.get(params) as { n: number }).n };
    },
  } satisfies MemoryStore);
}
