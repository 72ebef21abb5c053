/**
 * Learnings in the runtime's SQLite file. Stores what it is given and
 * filters as a route asks (an owner, or an owner plus the ownerless rows); it never decides who
 * the caller is, and never builds HTTP shapes.
 */
import { createFilteredList } from '../../store/filtered-list.js';
import type { SqliteDatabase } from '../../store/sqlite.js';

type Json = Record<string, unknown>;

/** One stored learning. */
export interface LearningRecord {
  learning_id: string;
  learning_type: string;
  namespace: string | null;
  /** `null`: shared by everyone (ownerless). */
  user_id: string | null;
  agent_id: string | null;
  team_id: string | null;
  session_id: string | null;
  entity_id: string | null;
  entity_type: string | null;
  content: Json;
  metadata: Json | null;
  /** Epoch seconds. */
  created_at: number;
  /** Epoch seconds. */
  updated_at: number;
}

/** The columns GET /learnings may sort by. */
export const LEARNING_SORTS = [
  'learning_id',
  'learning_type',
  'namespace',
  'user_id',
  'agent_id',
  'team_id',
  'session_id',
  'entity_id',
  'entity_type',
  'created_at',
  'updated_at',
] as const;

/** A sort column of {@link LEARNING_SORTS}. */
export type LearningSort = (typeof LEARNING_SORTS)[number];

/** The plain column filters of {@link LearningQuery}. */
export type LearningFilter =
  | 'learningType'
  | 'userId'
  | 'agentId'
  | 'teamId'
  | 'sessionId'
  | 'namespace'
  | 'entityId'
  | 'entityType';

/** Filters, sort and page of {@link LearningStore.list}. */
export interface LearningQuery {
  readonly filters: Readonly<Partial<Record<LearningFilter, string>>>;
  /** Only the learnings of this owner and the ownerless ones. */
  readonly visibleTo?: string;
  readonly sortBy: LearningSort;
  readonly sortOrder: 'asc' | 'desc';
  readonly page: number;
  readonly limit: number;
}

/** One owner's newest change (GET /learnings/users). */
export interface LearningUser {
  user_id: string;
  /** Epoch seconds. */
  last_learning_updated_at: number;
}

/** The learnings of the runtime store. */
export interface LearningStore {
  get(learningId: string): LearningRecord | null;
  /** Insert a new learning; `false`, and nothing written, when its id is taken. */
  insert(learning: LearningRecord): boolean;
  /** Replace the stored learning of the same id. */
  update(learning: LearningRecord): void;
  /** `false` when there was none. */
  delete(learningId: string): boolean;
  /** One page of the learnings matching every given filter, and how many match in all. */
  list(query: LearningQuery): { rows: LearningRecord[]; total: number };
  /**
   * The owners (never the ownerless), most recently changed first, optionally only one owner
   * and one type: one page and how many in all.
   */
  users(filter: {
    readonly userId?: string | undefined;
    readonly learningType?: string | undefined;
    readonly page: number;
    readonly limit: number;
  }): { rows: LearningUser[]; total: number };
  /** Delete every learning of `userId` (of one type when given); how many went. */
  deleteUser(userId: string, learningType?: string): number;
}

interface LearningRow extends Omit<LearningRecord, 'content' | 'metadata'> {
  content: string;
  metadata: string | null;
}

const COLUMNS = [
  'learning_id',
  'learning_type',
  'namespace',
  'user_id',
  'agent_id',
  'team_id',
  'session_id',
  'entity_id',
  'entity_type',
  'content',
  'metadata',
  'created_at',
  'updated_at',
] as const;

const fromRow = (row: LearningRow): LearningRecord => ({
  ...row,
  content: JSON.parse(row.content) as Json,
  metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Json),
});

const toRow = (learning: LearningRecord): LearningRow => ({
  ...learning,
  content: JSON.stringify(learning.content),
  metadata: learning.metadata === null ? null : JSON.stringify(learning.metadata),
});

/** Prepares the learning statements on an open, migrated database. */
export function createLearningStore(db: SqliteDatabase): LearningStore {
  const lists = createFilteredList(db, {
    table: 'learnings',
    filters: {
      learningType: 'learning_type = @learningType',
      userId: 'user_id = @userId',
      agentId: 'agent_id = @agentId',
      teamId: 'team_id = @teamId',
      sessionId: 'session_id = @sessionId',
      namespace: 'namespace = @namespace',
      entityId: 'entity_id = @entityId',
      entityType: 'entity_type = @entityType',
      visibleTo: 'user_id = @visibleTo OR user_id IS NULL',
    },
    sorts: LEARNING_SORTS,
    tieBreak: 'learning_id',
  });
  const get = db.prepare('SELECT * FROM learnings WHERE learning_id = ?');
  const insert = db.prepare(
    `INSERT INTO learnings (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})
     ON CONFLICT (learning_id) DO NOTHING`,
  );
  const update = db.prepare(
    `UPDATE learnings SET ${COLUMNS.filter((c) => c !== 'learning_id')
      .map((c) => `${c} = @${c}`)
      .join(', ')} WHERE learning_id = @learning_id`,
  );
  const remove = db.prepare('DELETE FROM learnings WHERE learning_id = ?');
  const usersWhere =
    'user_id IS NOT NULL AND (@userId IS NULL OR user_id = @userId) ' +
    'AND (@learningType IS NULL OR learning_type = @learningType)';
  const users = db.prepare(
    `SELECT user_id, max(updated_at) AS last_learning_updated_at FROM learnings
     WHERE ${usersWhere} GROUP BY user_id
     ORDER BY last_learning_updated_at DESC, user_id LIMIT @limit OFFSET @offset`,
  );
  const userCount = db.prepare(
    `SELECT count(DISTINCT user_id) AS n FROM learnings WHERE ${usersWhere}`,
  );
  const removeUser = db.prepare(
    `DELETE FROM learnings WHERE user_id = @userId
     AND (@learningType IS NULL OR learning_type = @learningType)`,
  );
  return Object.freeze({
    get(learningId) {
      const row = get.get(learningId) as LearningRow | undefined;
      return row === undefined ? null : fromRow(row);
    },
    insert: (learning) => insert.run(toRow(learning)).changes === 1,
    update(learning) {
      update.run(toRow(learning));
    },
    delete: (learningId) => remove.run(learningId).changes > 0,
    list(query) {
      const { rows, total } = lists.page({
        filters: { ...query.filters, visibleTo: query.visibleTo },
        sortBy: query.sortBy,
        sortOrder: query.sortOrder,
        page: query.page,
        limit: query.limit,
      });
      return { rows: (rows as LearningRow[]).map(fromRow), total };
    },
    users(filter) {
      const params = {
        userId: filter.userId ?? null,
        learningType: filter.learningType ?? null,
        limit: filter.limit,
        offset: (Math.max(filter.page, 1) - 1) * filter.limit,
      };
      const rows = users.all(params) as LearningUser[];
      return { rows, total: (userCount.get(params) as { n: number }).n };
    },
    deleteUser: (userId, learningType) =>
      removeUser.run({ userId, learningType: learningType ?? null }).changes,
  } satisfies LearningStore);
}
