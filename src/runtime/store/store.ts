/**
 * The runtime's persistent store: every table's store (sessions and runs at the top, the others
 * by name) composed on one database. It stores what it is given: it never filters by caller
 * identity on its own (routes pass `userId`), and never builds HTTP shapes.
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
import { createRunStore, type RunStore } from '../api/runs/table.js';
import { createScheduleStore, type ScheduleStore } from '../api/schedules/table.js';
import { createSessionStore, type SessionStore } from '../api/sessions/table.js';
import type { SqliteDatabase } from './sqlite.js';
import { createTraceStore, type TraceStore } from '../api/traces/table.js';

export type { SessionQuery, SessionRef } from '../api/sessions/table.js';

/** Sessions and runs, and every other table of the runtime, on one database. */
export interface RuntimeStore extends SessionStore, RunStore {
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
  /** Applies any pending schema step (none after a successful open); the version it is at. */
  migrate(): number;
  /** Close the database; later calls on this store fail. Closing twice is harmless. */
  close(): void;
}

/** The tables this module reads through the query layer, probed when the store opens. */
const PROBED = ['sessions', 'runs'] as const;

/** Compose every table's store on one open, migrated connection. */
function createStore(db: SqliteDatabase, path: string): RuntimeStore {
  // Fail at open, naming the table, rather than at the first request, when one has gone.
  for (const name of PROBED) db.prepare(`SELECT * FROM ${name} LIMIT 0`);
  // The tables on the async query layer share this one connection with the others.
  const database = openDatabase(db);
  return Object.freeze({
    path,
    ...createSessionStore(database),
    ...createRunStore(database),
    components: createComponentStore(database),
    memories: createMemoryStore(database),
    learnings: createLearningStore(database),
    traces: createTraceStore(database),
    dailyMetrics: createDailyMetricsStore(database),
    evals: createEvalStore(database),
    approvals: createApprovalStore(database),
    schedules: createScheduleStore(database),
    knowledge: createKnowledgeStore(database),
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
