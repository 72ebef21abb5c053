/**
 * The runtime's persistent store of sessions and their runs, in one SQLite file. It stores what
 * it is given: it never filters by caller identity on its own (routes pass `userId`), and never
 * builds HTTP shapes.
 */
import { createApprovalStore, type ApprovalStore } from '../api/approvals/table.js';
import { createComponentStore, type ComponentStore } from '../api/components/table.js';
import { MEMORY_PATH, openConnection } from './connection.js';
import { openDatabase } from './database.js';
import { createDailyMetricsStore, type DailyMetricsStore } from '../api/metrics/table.js';
import { createEvalStore, type EvalStore } from '../api/evals/table.js';
import { createKnowledgeStore, type KnowledgeStore } from '../api/knowledge/table.js';
import { RuntimeStoreError } from './errors.js';
import { createLearningStore, type LearningStore } from '../api/learnings/table.js';
import { createMemoryStore, type MemoryStore } from '../api/memories/table.js';
import { migrate } from './migrations.js';
import type {
  RunRecord,
  RunStatus,
  SessionRecord,
  SessionSummary,
  SessionType,
} from './records.js';
import { createScheduleStore, type ScheduleStore } from '../api/schedules/table.js';
import { prepareSessionLists, type SessionQuery } from './session-list.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite.js';
import { createTraceStore, type TraceStore } from '../api/traces/table.js';

export type { SessionQuery } from './session-list.js';

/** Names a session for {@link RuntimeStore.deleteSessions}. */
export interface SessionRef {
  readonly sessionId: string;
  /** Only when the stored session is of this kind; any kind when absent. */
  readonly type?: SessionType;
}

/** Sessions and runs, read and written synchronously. */
export interface RuntimeStore {
  /** The database path as given to {@link openRuntimeStore}. */
  readonly path: string;
  /** Agents, teams and workflows defined through the API, in the same database. */
  readonly components: ComponentStore;
  /** User memories, in the same database. */
  readonly memories: MemoryStore;
  /** Learnings, in the same database. */
  readonly learnings: LearningStore;
  /** Run traces and their spans. */
  readonly traces: TraceStore;
  /** Per-day aggregates of sessions and runs. */
  readonly dailyMetrics: DailyMetricsStore;
  /** Eval runs, in the same database. */
  readonly evals: EvalStore;
  /** Approvals of paused runs and audit records of tool calls. */
  readonly approvals: ApprovalStore;
  /** Cron schedules and their runs, in the same database. */
  readonly schedules: ScheduleStore;
  /** Knowledge contents and their chunks, in the same database. */
  readonly knowledge: KnowledgeStore;
  /** The session, or `null` when there is none with this id. */
  getSession(sessionId: string): SessionRecord | null;
  /** Insert or replace by `session_id`. Replacing keeps the session's runs. */
  putSession(session: SessionRecord): void;
  /** Insert a new session; `false`, and nothing written, when its id is already taken. */
  insertSession(session: SessionRecord): boolean;
  /**
   * One page of the sessions matching every given filter, and how many match in all.
   *
   * @throws {RangeError} for a limit below 1, a non-integer page or limit, or an unknown sort
   */
  listSessions(query: SessionQuery): { rows: SessionRecord[]; total: number };
  /** Delete the session and all its runs; an unknown id is not an error. */
  deleteSession(sessionId: string): void;
  /**
   * Delete, in one transaction, each named session (with its runs) whose kind matches the ref
   * and, when `owner` is given, whose `user_id` is `owner` (`null`: only ownerless sessions).
   * Refs that match nothing are skipped, not an error.
   *
   * @returns how many sessions were deleted
   */
  deleteSessions(refs: readonly SessionRef[], owner?: string | null): number;
  /**
   * Insert or replace by `run_id`.
   *
   * @throws when `run.session_id` names no stored session (SQLITE_CONSTRAINT_FOREIGNKEY)
   */
  putRun(run: RunRecord): void;
  /** The run, or `null` when there is none with this id. */
  getRun(runId: string): RunRecord | null;
  /** The session's runs, oldest first (same second: first stored first); `[]` for no session. */
  listRuns(sessionId: string): RunRecord[];
  /** Applies any pending schema step (none after a successful open); the version it is at. */
  migrate(): number;
  /** Close the database; later calls on this store throw. Closing twice is harmless. */
  close(): void;
}

/** A `sessions` row as SQLite returns it. */
interface SessionRow {
  session_id: string;
  session_type: SessionType;
  component_id: string;
  user_id: string | null;
  session_name: string | null;
  session_state: string;
  metadata: string | null;
  /** JSON of a {@link SessionSummary}, or NULL. */
  summary: string | null;
  created_at: number;
  updated_at: number;
}

/** A `runs` row as SQLite returns it (without `seq`, which stays internal). */
interface RunRow {
  run_id: string;
  session_id: string;
  session_type: SessionType;
  component_id: string;
  parent_run_id: string | null;
  user_id: string | null;
  status: RunStatus;
  input: string;
  output: string;
  checkpoint: string | null;
  created_at: number;
  updated_at: number;
}

const SESSION_COLUMNS = [
  'session_id',
  'session_type',
  'component_id',
  'user_id',
  'session_name',
  'session_state',
  'metadata',
  'summary',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof SessionRow)[];

const RUN_COLUMNS = [
  'run_id',
  'session_id',
  'session_type',
  'component_id',
  'parent_run_id',
  'user_id',
  'status',
  'input',
  'output',
  'checkpoint',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof RunRow)[];

/**
 * An upsert, not INSERT OR REPLACE: REPLACE deletes the old row first, and that delete would
 * cascade to the session's runs.
 */
function upsert(table: string, columns: readonly string[], key: string): string {
  const updates = columns.filter((c) => c !== key).map((c) => `${c} = excluded.${c}`);
  return (
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')}) ` +
    `ON CONFLICT (${key}) DO UPDATE SET ${updates.join(', ')}`
  );
}

function toSessionRow(session: SessionRecord): SessionRow {
  return {
    session_id: session.session_id,
    session_type: session.session_type,
    component_id: session.component_id,
    user_id: session.user_id,
    session_name: session.session_name,
    session_state: JSON.stringify(session.session_state),
    metadata: session.metadata === null ? null : JSON.stringify(session.metadata),
    summary: session.session_summary === null ? null : JSON.stringify(session.session_summary),
    created_at: session.created_at,
    updated_at: session.updated_at,
  };
}

function fromSessionRow(row: SessionRow): SessionRecord {
  const { summary, ...rest } = row;
  return {
    ...rest,
    session_state: JSON.parse(row.session_state) as Record<string, unknown>,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    session_summary: summary === null ? null : (JSON.parse(summary) as SessionSummary),
  };
}

function toRunRow(run: RunRecord): RunRow {
  return {
    run_id: run.run_id,
    session_id: run.session_id,
    session_type: run.session_type,
    component_id: run.component_id,
    parent_run_id: run.parent_run_id,
    user_id: run.user_id,
    status: run.status,
    input: run.input,
    output: JSON.stringify(run.output),
    checkpoint: run.checkpoint == null ? null : JSON.stringify(run.checkpoint),
    created_at: run.created_at,
    updated_at: run.updated_at,
  };
}

function fromRunRow(row: RunRow): RunRecord {
  return {
    ...row,
    output: JSON.parse(row.output) as Record<string, unknown>,
    checkpoint: row.checkpoint === null ? null : (JSON.parse(row.checkpoint) as unknown),
  };
}

/** Prepare every statement once and wrap them as a {@link RuntimeStore}. */
function createStore(db: SqliteDatabase, path: string): RuntimeStore {
  const runColumns = RUN_COLUMNS.join(', ');
  const getSession = db.prepare('SELECT * FROM sessions WHERE session_id = ?');
  const putSession = db.prepare(upsert('sessions', SESSION_COLUMNS, 'session_id'));
  const insertSession = db.prepare(
    `INSERT INTO sessions (${SESSION_COLUMNS.join(', ')}) ` +
      `VALUES (${SESSION_COLUMNS.map((c) => `@${c}`).join(', ')}) ON CONFLICT (session_id) DO NOTHING`,
  );
  const deleteSession = db.prepare('DELETE FROM sessions WHERE session_id = ?');
  // One statement per combination of conditions, so the SQL text never depends on a value.
  const deletes = new Map<string, SqliteStatement>();
  for (const type of [false, true]) {
    for (const owner of [false, true]) {
      const where = [
        'session_id = @sessionId',
        ...(type ? ['session_type = @type'] : []),
        // IS, not =: bound to NULL it matches the ownerless sessions.
        ...(owner ? ['user_id IS @owner'] : []),
      ];
      deletes.set(
        `${type}|${owner}`,
        db.prepare(`DELETE FROM sessions WHERE ${where.join(' AND ')}`),
      );
    }
  }
  const deleteMany = db.transaction(
    (refs: readonly SessionRef[], owner: string | null | undefined): number => {
      let deleted = 0;
      for (const ref of refs) {
        const statement = deletes.get(
          `${ref.type !== undefined}|${owner !== undefined}`,
        ) as SqliteStatement;
        deleted += statement.run({
          sessionId: ref.sessionId,
          ...(ref.type === undefined ? {} : { type: ref.type }),
          ...(owner === undefined ? {} : { owner }),
        }).changes;
      }
      return deleted;
    },
  );
  const putRun = db.prepare(upsert('runs', RUN_COLUMNS, 'run_id'));
  const getRun = db.prepare(`SELECT ${runColumns} FROM runs WHERE run_id = ?`);
  const listRuns = db.prepare(
    `SELECT ${runColumns} FROM runs WHERE session_id = ? ORDER BY created_at, seq`,
  );
  const sessionLists = prepareSessionLists(db);
  // The tables converted to the async query layer share this one connection.
  const database = openDatabase(db);

  return Object.freeze({
    path,
    components: createComponentStore(database),
    memories: createMemoryStore(database),
    learnings: createLearningStore(database),
    traces: createTraceStore(db),
    dailyMetrics: createDailyMetricsStore(db),
    evals: createEvalStore(db),
    approvals: createApprovalStore(database),
    schedules: createScheduleStore(database),
    knowledge: createKnowledgeStore(db),
    getSession(sessionId) {
      const row = getSession.get(sessionId) as SessionRow | undefined;
      return row === undefined ? null : fromSessionRow(row);
    },
    putSession(session) {
      putSession.run(toSessionRow(session));
    },
    insertSession(session) {
      return insertSession.run(toSessionRow(session)).changes === 1;
    },
    listSessions(query) {
      const { rows, total } = sessionLists.page(query);
      return { rows: (rows as SessionRow[]).map(fromSessionRow), total };
    },
    deleteSession(sessionId) {
      // The runs go with it: runs.session_id is ON DELETE CASCADE and foreign_keys is ON.
      deleteSession.run(sessionId);
    },
    deleteSessions(refs, owner) {
      // Runs go with their sessions (ON DELETE CASCADE); a throw rolls every delete back.
      return deleteMany(refs, owner);
    },
    putRun(run) {
      putRun.run(toRunRow(run));
    },
    getRun(runId) {
      const row = getRun.get(runId) as RunRow | undefined;
      return row === undefined ? null : fromRunRow(row);
    },
    listRuns(sessionId) {
      return (listRuns.all(sessionId) as RunRow[]).map(fromRunRow);
    },
    migrate: () => migrate(db, path),
    close() {
      db.close();
    },
  } satisfies RuntimeStore);
}

/**
 * Open (creating it and its parent folders if needed) and migrate the runtime database at
 * `path`; `':memory:'` gives a private database that lives as long as the store.
 *
 * @throws {RuntimeStoreError} naming `path` when it cannot be opened, is not a database, has a
 *   schema newer than this build, or cannot be migrated
 */
export function openRuntimeStore(path: string): RuntimeStore {
  const db = openConnection(path);
  try {
    migrate(db, path);
    // WAL lets GET routes read while a run is being written. It rewrites the file header, so it
    // comes after migrate() has refused a database newer than this build.
    if (path !== MEMORY_PATH) db.pragma('journal_mode = WAL');
    return createStore(db, path);
  } catch (err) {
    db.close();
    throw err instanceof RuntimeStoreError
      ? err
      : new RuntimeStoreError(path, `cannot open: ${String(err)}`, err);
  }
}
