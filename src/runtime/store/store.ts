/**
 * The runtime's persistent store: every table's store (sessions and runs at the top, the others
 * by name) composed on one database. It stores what it is given: it never filters by caller
 * identity on its own (routes pass `userId`), and never builds HTTP shapes.
 */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { createApprovalStore, type ApprovalStore } from '../api/approvals/table.js';
import { createComponentStore, type ComponentStore } from '../api/components/table.js';
import { MEMORY_PATH, openConnection } from './connection.js';
import { openDatabase, type DialectName, type RuntimeDatabase } from './database.js';
import { createDailyMetricsStore, type DailyMetricsStore } from '../api/metrics/table.js';
import { createEvalStore, type EvalStore } from '../api/evals/table.js';
import { createKnowledgeStore, type KnowledgeStore } from '../api/knowledge/table.js';
import { RuntimeStoreError } from './errors.js';
import { createLearningStore, type LearningStore } from '../api/learnings/table.js';
import { createMemoryStore, type MemoryStore } from '../api/memories/table.js';
import { migrate, MIGRATIONS, statementsOf } from './migrations.js';
import { migratePostgres, openPostgres, postgresDialect } from './postgres.js';
import { createReplicaStore, type ReplicaStore } from '../api/runs/replicas.js';
import { createRunStore, type RunStore } from '../api/runs/table.js';
import { createScheduleStore, type ScheduleStore } from '../api/schedules/table.js';
import { createSessionStore, type SessionStore } from '../api/sessions/table.js';
import { createTraceStore, type TraceStore } from '../api/traces/table.js';

export type { SessionQuery, SessionRef } from '../api/sessions/table.js';

/** Sessions and runs, and every other table of the runtime, on one database. */
export interface RuntimeStore extends SessionStore, RunStore {
  /** The database as given: its path, or its URL with the password shown as `***`. */
  readonly path: string;
  /** The SQL dialect the database speaks. */
  readonly dialect: DialectName;
  /** The runtime this store serves: the runs it stores as RUNNING are recorded as its. */
  readonly replicaId: string;
  /** The runtimes sharing the database: heartbeats, leases, the runs of one that stopped. */
  readonly replicas: ReplicaStore;
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
  migrate(): Promise<number>;
  /** Close the database; later calls on this store fail. */
  close(): Promise<void>;
}

/** Compose every table's store on one open, migrated database. */
function createStore(
  database: RuntimeDatabase,
  path: string,
  replicaId: string,
  own: Pick<RuntimeStore, 'migrate' | 'close'>,
): RuntimeStore {
  return Object.freeze({
    path,
    dialect: database.dialect.name,
    replicaId,
    replicas: createReplicaStore(database),
    ...createSessionStore(database),
    ...createRunStore(database, replicaId),
    components: createComponentStore(database),
    memories: createMemoryStore(database),
    learnings: createLearningStore(database),
    traces: createTraceStore(database),
    dailyMetrics: createDailyMetricsStore(database),
    evals: createEvalStore(database),
    approvals: createApprovalStore(database),
    schedules: createScheduleStore(database),
    knowledge: createKnowledgeStore(database),
    ...own,
  } satisfies RuntimeStore);
}

/** This process's replica id: `<hostname>:<pid>`. */
export const processReplicaId = (): string => `${hostname()}:${process.pid}`;

/** The tables probed when a SQLite file opens. */
const PROBED = ['sessions', 'runs'] as const;

/**
 * Open (creating it and its parent folders if needed) and migrate the runtime database at
 * `path`; `':memory:'` gives a private database that lives as long as the store. `replicaId`
 * names the runtime it serves (default: this process).
 *
 * @throws {RuntimeStoreError} naming `path` when it cannot be opened, is not a database, has a
 *   schema newer than this build, or cannot be migrated
 */
export function openRuntimeStore(
  path: string,
  replicaId: string = processReplicaId(),
): RuntimeStore {
  const db = openConnection(path);
  try {
    migrate(db, path);
    // WAL lets GET routes read while a run is being written. It rewrites the file header, so it
    // comes after migrate() has refused a database newer than this build.
    if (path !== MEMORY_PATH) db.pragma('journal_mode = WAL');
    // Fail at open, naming the table, rather than at the first request, when one has gone.
    for (const name of PROBED) db.prepare(`SELECT * FROM ${name} LIMIT 0`);
    return createStore(openDatabase(db), path, replicaId, {
      migrate: async () => migrate(db, path),
      close: async () => {
        db.close();
      },
    });
  } catch (err) {
    db.close();
    throw err instanceof RuntimeStoreError
      ? err
      : new RuntimeStoreError(path, `cannot open: ${String(err)}`, err);
  }
}

/** The schema steps in PostgreSQL's words. */
const POSTGRES_MIGRATIONS = MIGRATIONS.map((step) => ({
  ...step,
  sql: statementsOf(step, 'postgres'),
}));

/** How many connections one runtime replica keeps to a PostgreSQL database at most. */
export const RUNTIME_POSTGRES_POOL = 10;

/**
 * Opens the runtime database a `runtime.db` setting names: a `postgres://` or `postgresql://`
 * URL (a pool, migrated under a lock so that replicas starting together apply each step once), or
 * else a SQLite file (`sqlite:<path>` or a bare path, relative to `dir`; `:memory:` as it is).
 *
 * @throws {RuntimeStoreError} naming the database (never a URL's password) when it cannot be
 *   opened or reached, has a schema newer than this build, or cannot be migrated
 */
export async function connectRuntimeStore(
  setting: string,
  options: { readonly dir: string; readonly replicaId: string },
): Promise<RuntimeStore> {
  if (!/^postgres(ql)?:\/\//i.test(setting)) {
    const path = setting.startsWith('sqlite:') ? setting.slice('sqlite:'.length) : setting;
    return openRuntimeStore(
      path === MEMORY_PATH ? path : resolve(options.dir, path),
      options.replicaId,
    );
  }
  const pool = openPostgres(setting, {
    replicaId: options.replicaId,
    poolMax: RUNTIME_POSTGRES_POOL,
  });
  try {
    await migratePostgres(pool, POSTGRES_MIGRATIONS);
  } catch (err) {
    await pool.close();
    throw err;
  }
  return createStore({ db: pool.db, dialect: postgresDialect }, pool.location, options.replicaId, {
    migrate: () => migratePostgres(pool, POSTGRES_MIGRATIONS),
    close: () => pool.close(),
  });
}
