/**
 * Sessions in the runtime database, read and written asynchronously through the query layer
 * (database.ts, table.ts, page.ts). Stores what it is given and filters by the owner a route
 * passes; it never decides who the caller is, and never builds HTTP shapes. A change another
 * process could race is one conditional UPDATE of the fields it sets, never a read-then-write.
 */
import { isDeepStrictEqual } from 'node:util';
import type { RuntimeDatabase } from '../../store/database.js';
import { equals, equalsOrNull, pageOf, type PageParams } from '../../store/page.js';
import type { SessionRecord, SessionType } from '../../store/records.js';
import { tableOf, type TableSpec } from '../../store/table.js';

/** The columns GET /sessions may sort by. */
export const SESSION_SORTS = ['created_at', 'updated_at', 'session_name'] as const;

/**
 * Filters, sort and page of {@link SessionStore.listSessions}: sessions whose `session_name` is
 * NULL sort first when ascending, last when descending.
 */
export interface SessionQuery extends PageParams<(typeof SESSION_SORTS)[number]> {
  /** Only sessions of this kind. */
  type?: SessionType;
  /** Only sessions of this agent, team or workflow id. */
  componentId?: string;
  /** `undefined`: any owner; `null`: only sessions whose `user_id` is NULL; else that owner. */
  userId?: string | null;
  /** Case-insensitive substring of `session_name`; an empty string filters nothing. */
  nameContains?: string;
}

/** Names a session for {@link SessionStore.deleteSessions}. */
export interface SessionRef {
  readonly sessionId: string;
  /** Only when the stored session is of this kind; any kind when absent. */
  readonly type?: SessionType;
}

/** Which stored session a change or lookup applies to, besides its id. */
export interface SessionMatch {
  /** Only a session of this kind; any kind when absent. */
  readonly type?: SessionType | undefined;
  /** Only a session of this owner (`null`: an ownerless one); any owner when absent. */
  readonly owner?: string | null | undefined;
}

/** The fields of a session a change may set; `undefined` ones stay as stored. */
export type SessionChanges = Partial<
  Pick<SessionRecord, 'session_name' | 'session_state' | 'metadata' | 'session_summary'>
> &
  Pick<SessionRecord, 'updated_at'>;

/** The `sessions` table: state, metadata and summary are JSON, times epoch seconds. */
const SESSIONS: TableSpec<SessionRecord> = {
  name: 'sessions',
  key: 'session_id',
  columns: [
    'session_id',
    'session_type',
    'component_id',
    'user_id',
    'session_name',
    'session_state',
    'metadata',
    'session_summary',
    'created_at',
    'updated_at',
  ],
  json: ['session_state', 'metadata', 'session_summary'],
  seconds: ['created_at', 'updated_at'],
  columnNames: { session_summary: 'summary' },
  version: 'version',
};

/** How often the end of a run reads the session again when other writers keep moving it. */
const MAX_STATE_MERGES = 10;

/**
 * The state a run leaves: `stored` (as it is now) with what the run changed from `read` (the
 * state it started from) to `left` applied key by key: a key the run set or changed takes the
 * run's value, a key it removed is removed, every other key stays as stored.
 */
export function mergeState(
  stored: Readonly<Record<string, unknown>>,
  read: Readonly<Record<string, unknown>>,
  left: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(left)) {
    if (!Object.hasOwn(read, key) || !isDeepStrictEqual(read[key], value)) merged[key] = value;
  }
  for (const key of Object.keys(read)) if (!Object.hasOwn(left, key)) delete merged[key];
  return merged;
}

/** The filters of {@link SessionStore.listSessions}, by name and value. */
interface SessionFilters {
  type?: SessionType | undefined;
  componentId?: string | undefined;
  userId?: string | null | undefined;
  nameContains?: string | undefined;
}

/** The sessions of the runtime store. */
export type SessionStore = ReturnType<typeof createSessionStore>;

/** The session store on an open, migrated database. */
export function createSessionStore(database: RuntimeDatabase) {
  const { db, dialect } = database;
  const table = tableOf(database, SESSIONS);
  const pages = pageOf<SessionRecord, SessionFilters, SessionQuery['sortBy']>(database, table, {
    filters: {
      type: equals('session_type'),
      componentId: equals('component_id'),
      userId: equalsOrNull('user_id'),
      nameContains: (text) => dialect.containsFolded('session_name', text),
    },
    sorts: SESSION_SORTS,
    nullable: ['session_name'],
    // session_id breaks ties so consecutive pages never overlap or skip a row.
    tieBreak: 'session_id',
  });
  /** What a change expects of the stored session besides its id. */
  const expected = (match: SessionMatch = {}): Partial<SessionRecord> => ({
    ...(match.type === undefined ? {} : { session_type: match.type }),
    ...(match.owner === undefined ? {} : { user_id: match.owner }),
  });
  return Object.freeze({
    /** The session, or `null` when there is none with this id. */
    getSession: (sessionId: string): Promise<SessionRecord | null> => table.get(sessionId),
    /** Insert or replace by `session_id`. Replacing keeps the session's runs. */
    // An upsert, not a delete and insert: deleting the row would cascade to its runs.
    putSession: (session: SessionRecord): Promise<void> => table.put(session),
    /** Insert a new session; `false`, and nothing written, when its id is already taken. */
    insertSession: (session: SessionRecord): Promise<boolean> => table.insert(session),
    /**
     * Set the given fields of the session that matches, in one conditional UPDATE: two writers
     * changing different fields both keep their change.
     *
     * @returns the session as stored afterwards, or `null` when none matched
     */
    updateSession: (
      sessionId: string,
      changes: SessionChanges,
      match?: SessionMatch,
    ): Promise<SessionRecord | null> => table.patch(sessionId, changes, expected(match)),
    /**
     * After a run: what the run changed in the state it started from (`before` → `state`, see
     * {@link mergeState}) applied to the stored state, `updated_at`, and `name` unless the session
     * already has one (decided by the database on the value it holds). The write is keyed on the
     * session's version as read just before it, and read and tried again when another writer moved
     * it meanwhile: two runs of one session, on one runtime or two, each keep their changes.
     *
     * @returns whether the session still exists
     * @throws {Error} when other writers moved the session at every one of several tries
     */
    async updateAfterRun(
      sessionId: string,
      after: {
        readonly name: string;
        readonly before: Readonly<Record<string, unknown>>;
        readonly state: Record<string, unknown>;
        readonly at: number;
      },
    ): Promise<boolean> {
      for (let tries = 0; tries < MAX_STATE_MERGES; tries++) {
        const read = await db
          .selectFrom('sessions')
          .select(['session_state', 'version'])
          .where('session_id', '=', sessionId)
          .executeTakeFirst();
        if (read === undefined) return false;
        const stored = dialect.jsonFromColumn(read.session_state) as Record<string, unknown>;
        const result = await db
          .updateTable('sessions')
          .set((eb) => ({
            // Named only while it has no name: a rename by another request is never overwritten.
            session_name: eb.fn.coalesce('session_name', eb.val(after.name)),
            session_state: dialect.jsonToColumn(
              mergeState(stored, after.before, after.state),
            ) as string,
            updated_at: after.at,
            version: eb('version', '+', 1),
          }))
          .where('session_id', '=', sessionId)
          .where('version', '=', read.version)
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n) return true;
      }
      throw new Error(
        `session ${sessionId} was changed by other writers at each of ${MAX_STATE_MERGES} tries ` +
          'to store the state a run left',
      );
    },
    /**
     * One page of the sessions matching every given filter, and how many match in all.
     *
     * @throws {RangeError} for a limit below 1, a non-integer page or limit, or an unknown sort
     */
    listSessions(query: SessionQuery): Promise<{ rows: SessionRecord[]; total: number }> {
      // Checked here as well as by the reader, in the words this store has always used.
      if (!SESSION_SORTS.includes(query.sortBy) || !['asc', 'desc'].includes(query.sortOrder)) {
        return Promise.reject(
          new RangeError(`unsupported sort: ${String(query.sortBy)} ${String(query.sortOrder)}`),
        );
      }
      const { type, componentId, userId, nameContains, ...params } = query;
      return pages.page({
        filters: {
          type,
          componentId,
          userId,
          nameContains: nameContains ? nameContains : undefined,
        },
        ...params,
      });
    },
    /** Delete the session and all its runs; an unknown id is not an error. */
    async deleteSession(sessionId: string): Promise<void> {
      // The runs go with it: runs.session_id is ON DELETE CASCADE.
      await table.delete(sessionId);
    },
    /**
     * Delete, in one transaction, each named session (with its runs) whose kind matches the ref
     * and, when `owner` is given, whose `user_id` is `owner` (`null`: only ownerless sessions).
     * Refs that match nothing are skipped, not an error.
     *
     * @returns how many sessions were deleted
     */
    deleteSessions: (refs: readonly SessionRef[], owner?: string | null): Promise<number> =>
      // Runs go with their sessions (ON DELETE CASCADE); a throw rolls every delete back.
      db.transaction().execute(async (trx) => {
        let deleted = 0n;
        for (const ref of refs) {
          const result = await trx
            .deleteFrom('sessions')
            .where('session_id', '=', ref.sessionId)
            .$if(ref.type !== undefined, (qb) =>
              qb.where('session_type', '=', ref.type as SessionType),
            )
            .$if(owner !== undefined, (qb) =>
              qb.where((eb) =>
                owner === null ? eb('user_id', 'is', null) : eb('user_id', '=', owner as string),
              ),
            )
            .executeTakeFirst();
          deleted += result.numDeletedRows;
        }
        return Number(deleted);
      }),
  });
}
