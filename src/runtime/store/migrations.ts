/**
 * The runtime store's schema, as an ordered list of steps whose count is kept in
 * `PRAGMA user_version`. Steps are append-only: never edit or reorder a released step, add one.
 * A database newer than this list is never touched.
 */
import type { DialectName } from './database.js';
import { RuntimeStoreError } from './errors.js';
import type { SqliteDatabase } from './sqlite.js';
import { APPROVALS_SCHEMA } from './schema/approvals.js';
import { DAILY_METRICS_SCHEMA } from './schema/daily-metrics.js';
import { EVALS_SCHEMA } from './schema/evals.js';
import { KNOWLEDGE_SCHEMA } from './schema/knowledge.js';
import { LEARNINGS_SCHEMA } from './schema/learnings.js';
import { MEMORIES_SCHEMA } from './schema/memories.js';
import { SCHEDULE_SLOTS_SCHEMA, SCHEDULES_SCHEMA } from './schema/schedules.js';
import { TRACES_SCHEMA } from './schema/traces.js';

/** One schema step. Step `n` (1-based) moves the database from version `n - 1` to `n`. */
export interface Migration {
  /** Equal to the step's position in the list, starting at 1. */
  readonly version: number;
  /** A few words for error messages. */
  readonly name: string;
  /**
   * One or more statements, run in the migration's transaction: the same text for every
   * dialect, or one text per dialect where they differ (typed columns, JSON, functions).
   */
  readonly sql: string | Readonly<Record<DialectName, string>>;
}

/** The statements of `step` in `dialect`. */
const statementsOf = (step: Migration, dialect: DialectName): string =>
  typeof step.sql === 'string' ? step.sql : step.sql[dialect];

/** Every step, oldest first. The last version is the one this build reads and writes. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions and runs',
    // STRICT: integer timestamps stay integers. JSON columns are TEXT. `runs.seq` is an explicit
    // INTEGER PRIMARY KEY because VACUUM may renumber an implicit rowid, and runs started in the
    // same second are listed in the order they were first stored.
    sql: `
      CREATE TABLE sessions (
        session_id    TEXT    NOT NULL PRIMARY KEY,
        session_type  TEXT    NOT NULL CHECK (session_type IN ('agent', 'team', 'workflow')),
        component_id  TEXT    NOT NULL,
        user_id       TEXT,
        session_name  TEXT,
        session_state TEXT    NOT NULL,
        metadata      TEXT,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      ) STRICT;
      -- For GET /sessions: by owner (the scoped listing), by component, or all, each in the
      -- order of a sort; session_id is the tie-break, so the index alone yields a page.
      CREATE INDEX sessions_by_user_created ON sessions (user_id, created_at, session_id);
      CREATE INDEX sessions_by_user_updated ON sessions (user_id, updated_at, session_id);
      CREATE INDEX sessions_by_component ON sessions (session_type, component_id, created_at);
      CREATE INDEX sessions_by_created ON sessions (created_at, session_id);
      CREATE INDEX sessions_by_updated ON sessions (updated_at, session_id);

      CREATE TABLE runs (
        seq           INTEGER NOT NULL PRIMARY KEY,
        run_id        TEXT    NOT NULL UNIQUE,
        session_id    TEXT    NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
        session_type  TEXT    NOT NULL CHECK (session_type IN ('agent', 'team', 'workflow')),
        component_id  TEXT    NOT NULL,
        parent_run_id TEXT,
        user_id       TEXT,
        status        TEXT    NOT NULL,
        input         TEXT    NOT NULL,
        output        TEXT    NOT NULL,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX runs_by_session ON runs (session_id, created_at, seq);
    `,
  },
  {
    version: 2,
    name: 'run checkpoints',
    // What the engine needs to continue a paused run; kept apart from `output`, which is the
    // public RunOutput, and cleared once the run is no longer paused.
    sql: `ALTER TABLE runs ADD COLUMN checkpoint TEXT;`,
  },
  {
    version: 3,
    name: 'components',
    // Agents, teams and workflows defined through the API, each with numbered
    // config versions; a component's configs go with it.
    sql: `
      CREATE TABLE components (
        component_id    TEXT    NOT NULL PRIMARY KEY,
        component_type  TEXT    NOT NULL CHECK (component_type IN ('agent', 'team', 'workflow')),
        name            TEXT    NOT NULL,
        description     TEXT,
        current_version INTEGER,
        metadata        TEXT,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX components_by_created ON components (created_at, component_id);
      CREATE TABLE component_configs (
        component_id TEXT    NOT NULL REFERENCES components (component_id) ON DELETE CASCADE,
        version      INTEGER NOT NULL,
        label        TEXT,
        stage        TEXT    NOT NULL CHECK (stage IN ('draft', 'published')),
        config       TEXT    NOT NULL,
        notes        TEXT,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL,
        PRIMARY KEY (component_id, version)
      ) STRICT;
    `,
  },
  {
    version: 4,
    name: 'session summaries',
    // The summary PATCH /sessions/{id} sets ({summary, topics, updated_at} as JSON); NULL until
    // then, which is what every session stored before this step reads as.
    sql: `ALTER TABLE sessions ADD COLUMN summary TEXT;`,
  },
  // Step 5: schema/memories.ts
  { version: 5, name: 'memories', sql: MEMORIES_SCHEMA },
  // Step 6: schema/learnings.ts
  { version: 6, name: 'learnings', sql: LEARNINGS_SCHEMA },
  // Step 7: schema/knowledge.ts
  { version: 7, name: 'knowledge', sql: KNOWLEDGE_SCHEMA },
  // Step 8: schema/traces.ts
  { version: 8, name: 'traces', sql: TRACES_SCHEMA },
  // Step 9: schema/daily-metrics.ts
  { version: 9, name: 'daily metrics', sql: DAILY_METRICS_SCHEMA },
  // Step 10: schema/evals.ts
  { version: 10, name: 'eval runs', sql: EVALS_SCHEMA },
  // Step 11: schema/schedules.ts
  { version: 11, name: 'schedules', sql: SCHEDULES_SCHEMA },
  // Step 12: schema/approvals.ts
  { version: 12, name: 'approvals', sql: APPROVALS_SCHEMA },
  {
    version: 13,
    name: 'run cancels and knowledge revisions',
    // What runtimes sharing the database tell each other. run_cancels: a cancel asked for a run
    // this runtime is not running; the runtime that runs it (another replica, or this one when
    // the run starts later) finds it here. Not tied to runs by a foreign key: the intent may come
    // before the run. knowledge_revisions: moved by every write that changes which chunks an
    // instance can search, so that each runtime's index knows when to build again.
    sql: `
      CREATE TABLE run_cancels (
        run_id       TEXT    NOT NULL PRIMARY KEY,
        requested_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX run_cancels_by_time ON run_cancels (requested_at);
      CREATE TABLE knowledge_revisions (
        knowledge_id TEXT    NOT NULL PRIMARY KEY,
        revision     INTEGER NOT NULL
      ) STRICT;
    `,
  },
  // Step 14: schema/schedules.ts
  { version: 14, name: 'schedule slots', sql: SCHEDULE_SLOTS_SCHEMA },
  {
    version: 15,
    name: 'replica leases',
    // Which runtime runs a run, and whether that runtime is still alive. runs.replica_id: the
    // replica that stored the run as RUNNING (internal, never in a run's JSON; NULL for runs
    // stored before this step). runtime_replicas: each runtime's heartbeat, renewed while it
    // runs, removed when it closes. runtime_leases: a named lease (the sweeper's) one runtime
    // holds at a time, taken with a conditional write. Times are epoch milliseconds.
    sql: `
      ALTER TABLE runs ADD COLUMN replica_id TEXT;
      CREATE INDEX runs_running_by_replica ON runs (replica_id) WHERE status = 'RUNNING';
      CREATE TABLE runtime_replicas (
        replica_id   TEXT    NOT NULL PRIMARY KEY,
        started_at   INTEGER NOT NULL,
        heartbeat_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE runtime_leases (
        name       TEXT    NOT NULL PRIMARY KEY,
        holder     TEXT    NOT NULL,
        expires_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 16,
    name: 'session versions',
    // Moved by every write of a session: the end of a run writes its state keyed on the version
    // it read, so a write another run or request made meanwhile (on any runtime) is merged with,
    // never written over.
    sql: `ALTER TABLE sessions ADD COLUMN version INTEGER NOT NULL DEFAULT 0;`,
  },
];

/** The schema version of an open database (`PRAGMA user_version`; 0 for a fresh file). */
export function schemaVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Bring `db` to the last version of `migrations`, applying every pending step in one
 * transaction: afterwards the database is either fully migrated or untouched.
 *
 * @param path the database path, for error messages only
 * @param migrations the steps; only tests pass anything but {@link MIGRATIONS}
 * @returns the version the database is at now
 * @throws {RuntimeStoreError} when the database is newer than `migrations` (it is left as it
 *   is), or when a step fails (nothing is applied)
 */
export function migrate(
  db: SqliteDatabase,
  path: string,
  migrations: readonly Migration[] = MIGRATIONS,
): number {
  const latest = migrations.length;
  const found = schemaVersion(db);
  if (found > latest) {
    throw new RuntimeStoreError(
      path,
      `schema version ${found} is newer than version ${latest}, the newest this build knows; ` +
        'refusing to open it (run a newer scopegate, or point the runtime at another file)',
    );
  }
  if (found === latest) return latest;

  // IMMEDIATE takes the write lock before reading the version again, so two processes opening
  // the same fresh file cannot both apply a step.
  db.transaction(() => {
    for (const step of migrations.slice(schemaVersion(db))) {
      try {
        db.exec(statementsOf(step, 'sqlite'));
      } catch (err) {
        throw new RuntimeStoreError(
          path,
          `migration ${step.version} (${step.name}) failed, nothing was applied: ${String(err)}`,
          err,
        );
      }
      db.pragma(`user_version = ${step.version}`);
    }
  }).immediate();
  return latest;
}
