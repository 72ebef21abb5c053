/**
 * Learnings in the runtime database, read and written asynchronously through the query layer
 * (database.ts, table.ts, page.ts). Stores what it is given and
 * filters as a route asks (an owner, or an owner plus the ownerless rows); it never decides who
 * the caller is, and never builds HTTP shapes.
 */
import type { RuntimeDatabase } from '../../store/database.js';
import { equals, offsetOf, pageOf, type PageParams, type Paging } from '../../store/page.js';
import type { LearningRecord } from '../../store/records.js';
import { tableOf, type TableSpec } from '../../store/table.js';

export type { LearningRecord } from '../../store/records.js';

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
export interface LearningQuery extends PageParams<LearningSort> {
  readonly filters: Readonly<Partial<Record<LearningFilter, string>>>;
  /** Only the learnings of this owner and the ownerless ones. */
  readonly visibleTo?: string;
}

/** The learnings of the runtime store. */
export type LearningStore = ReturnType<typeof createLearningStore>;

/** The `learnings` table: content and metadata are JSON, times epoch seconds. */
const LEARNINGS = {
  name: 'learnings',
  key: 'learning_id',
  columns: [
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
  ],
  json: ['content', 'metadata'],
  seconds: ['created_at', 'updated_at'],
} as const satisfies TableSpec<LearningRecord>;

/** A sort column of {@link LEARNING_SORTS}. */
export type LearningSort = Exclude<keyof LearningRecord, (typeof LEARNINGS.json)[number]>;

/** The columns GET /learnings may sort by: all but the JSON ones. */
export const LEARNING_SORTS = LEARNINGS.columns.filter(
  (column): column is LearningSort => !(LEARNINGS.json as readonly string[]).includes(column),
);

/** The filters of {@link LearningStore.list}: the plain columns and the visibility rule. */
type LearningFilters = Partial<Record<LearningFilter | 'visibleTo', string | undefined>>;

/** The learning store on an open, migrated database. */
export function createLearningStore(database: RuntimeDatabase) {
  const { db, dialect } = database;
  const table = tableOf(database, LEARNINGS);
  const pages = pageOf<LearningRecord, LearningFilters, LearningSort>(database, table, {
    filters: {
      learningType: equals('learning_type'),
      userId: equals('user_id'),
      agentId: equals('agent_id'),
      teamId: equals('team_id'),
      sessionId: equals('session_id'),
      namespace: equals('namespace'),
      entityId: equals('entity_id'),
      entityType: equals('entity_type'),
      visibleTo: (owner, eb) => eb.or([eb('user_id', '=', owner), eb('user_id', 'is', null)]),
    },
    sorts: LEARNING_SORTS,
    tieBreak: 'learning_id',
  });
  /** The owned learnings, of one owner and one type when given. */
  const owned = (userId: string | undefined, learningType: string | undefined) =>
    db
      .selectFrom('learnings')
      .where('user_id', 'is not', null)
      .$if(userId !== undefined, (qb) => qb.where('user_id', '=', userId as string))
      .$if(learningType !== undefined, (qb) =>
        qb.where('learning_type', '=', learningType as string),
      );
  return Object.freeze({
    get: (learningId: string) => table.get(learningId),
    /** Insert a new learning; `false`, and nothing written, when its id is taken. */
    insert: (learning: LearningRecord) => table.insert(learning),
    /** Replace the stored learning of the same id. */
    async update(learning: LearningRecord): Promise<void> {
      await table.update(learning);
    },
    /** `false` when there was none. */
    delete: (learningId: string) => table.delete(learningId),
    /** One page of the learnings matching every given filter, and how many match in all. */
    list: ({ filters, visibleTo, ...params }: LearningQuery) =>
      pages.page({ filters: { ...filters, visibleTo }, ...params }),
    /**
     * The owners (never the ownerless) with their newest change in epoch seconds, most recently
     * changed first, optionally only one owner and one type: one page and how many in all.
     */
    async users(
      filter: Paging & {
        readonly userId?: string | undefined;
        readonly learningType?: string | undefined;
      },
    ) {
      const matching = owned(filter.userId, filter.learningType);
      const rows = await matching
        .select((eb) => ['user_id', eb.fn.max('updated_at').as('last_learning_updated_at')])
        .groupBy('user_id')
        .orderBy('last_learning_updated_at', 'desc')
        .orderBy('user_id')
        .limit(filter.limit)
        .offset(offsetOf(filter))
        .execute();
      const count = await matching
        .select((eb) => eb.fn.count<number>('user_id').distinct().as('n'))
        .executeTakeFirstOrThrow();
      return {
        rows: rows.map((row) => ({
          user_id: row.user_id as string,
          last_learning_updated_at: dialect.secondsFromColumn(row.last_learning_updated_at),
        })),
        total: Number(count.n),
      };
    },
    /** Delete every learning of `userId` (of one type when given); how many went. */
    async deleteUser(userId: string, learningType?: string): Promise<number> {
      const result = await db
        .deleteFrom('learnings')
        .where('user_id', '=', userId)
        .$if(learningType !== undefined, (qb) =>
          qb.where('learning_type', '=', learningType as string),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  });
}
