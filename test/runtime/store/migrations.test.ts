import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openConnection } from '../../../src/runtime/store/connection.js';
import { RuntimeStoreError } from '../../../src/runtime/store/errors.js';
import {
  MIGRATIONS,
  migrate,
  schemaVersion,
  type Migration,
} from '../../../src/runtime/store/migrations.js';
import type { SqliteDatabase } from '../../../src/runtime/store/sqlite.js';

/** A connection to a fresh file, closed at teardown. */
function fresh(t: Test): { db: SqliteDatabase; path: string } {
  const path = join(t.testdir(), 'runtime.db');
  const db = openConnection(path);
  t.teardown(() => db.close());
  return { db, path };
}

function objects(db: SqliteDatabase): string[] {
  return (
    db
      .prepare("SELECT type || ' ' || name AS o FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
      .all() as { o: string }[]
  )
    .map((r) => r.o)
    .sort();
}

/** Steps that fail if run twice (no IF NOT EXISTS), to prove each runs once. */
const ONE: Migration = { version: 1, name: 'one', sql: 'CREATE TABLE one (x INTEGER)' };
const TWO: Migration = { version: 2, name: 'two', sql: 'CREATE TABLE two (x INTEGER)' };
const BROKEN: Migration = { version: 3, name: 'broken', sql: 'CREATE TABLE three (x; nonsense' };

t.test('MIGRATIONS: versions are 1..n in order, each named', async (t) => {
  t.ok(MIGRATIONS.length >= 1);
  MIGRATIONS.forEach((step, i) => {
    t.equal(step.version, i + 1, `step ${i} has version ${i + 1}`);
    t.match(step.name, /\S/, `step ${step.version} has a name`);
  });
});

t.test('a fresh database is brought to the latest version', async (t) => {
  const { db, path } = fresh(t);
  t.equal(schemaVersion(db), 0);
  t.equal(migrate(db, path), MIGRATIONS.length);
  t.equal(schemaVersion(db), MIGRATIONS.length);
  t.same(objects(db), [
    'index approvals_by_created',
    'index approvals_by_run',
    'index approvals_by_user_status',
    'index components_by_created',
    'index eval_runs_by_agent',
    'index eval_runs_by_created',
    'index eval_runs_by_team',
    'index eval_runs_by_updated',
    'index knowledge_contents_by_created',
    'index knowledge_contents_by_name',
    'index knowledge_contents_by_status',
    'index knowledge_contents_by_updated',
    'index learnings_by_type_updated',
    'index learnings_by_updated',
    'index learnings_by_user_updated',
    'index memories_by_updated',
    'index memories_by_user_updated',
    'index run_cancels_by_time',
    'index runs_by_session',
    'index runs_running_by_replica',
    'index schedule_runs_by_schedule',
    'index schedule_runs_by_slot',
    'index schedules_by_created',
    'index schedules_due',
    'index sessions_by_component',
    'index sessions_by_created',
    'index sessions_by_updated',
    'index sessions_by_user_created',
    'index sessions_by_user_updated',
    'index trace_spans_by_trace',
    'index traces_by_run',
    'index traces_by_session',
    'index traces_by_start',
    'index traces_by_user',
    'table approvals',
    'table component_configs',
    'table components',
    'table daily_metrics',
    'table eval_runs',
    'table knowledge_chunks',
    'table knowledge_contents',
    'table knowledge_revisions',
    'table learnings',
    'table memories',
    'table run_cancels',
    'table runs',
    'table runtime_leases',
    'table runtime_replicas',
    'table schedule_runs',
    'table schedules',
    'table sessions',
    'table trace_spans',
    'table traces',
  ]);
});

t.test('step 14 keeps the schedule runs stored before it, without a slot', async (t) => {
  const { db, path } = fresh(t);
  t.equal(migrate(db, path, MIGRATIONS.slice(0, 13)), 13);
  db.exec(`
    INSERT INTO schedules VALUES ('s1', 'one', NULL, 'POST', '/x', NULL, '* * * * *', 'UTC',
      60, 0, 5, 1, 120, 0, 0);
    INSERT INTO schedule_runs (id, schedule_id, attempt, triggered_at, status, created_at)
      VALUES ('r1', 's1', 1, 60, 'success', 60), ('r2', 's1', 1, 60, 'success', 60);
  `);
  t.equal(migrate(db, path), MIGRATIONS.length);
  t.same(
    db.prepare('SELECT id, slot, claimed_by FROM schedule_runs ORDER BY id').all(),
    [
      { id: 'r1', slot: null, claimed_by: null },
      { id: 'r2', slot: null, claimed_by: null },
    ],
    'old runs of one tick and attempt: no slot, so no collision',
  );
  const insert = db.prepare(
    "INSERT INTO schedule_runs (id, schedule_id, attempt, triggered_at, status, created_at, slot) VALUES (?, 's1', 1, 60, 'running', 60, 60)",
  );
  insert.run('r3');
  t.throws(() => insert.run('r4'), /UNIQUE constraint failed/, 'a second run of the slot');
});

t.test('migrating again is a no-op', async (t) => {
  const { db, path } = fresh(t);
  migrate(db, path);
  const before = objects(db);
  const changes = db.prepare('SELECT total_changes() AS n').get() as { n: number };
  t.equal(migrate(db, path), MIGRATIONS.length);
  t.same(objects(db), before);
  t.same(db.prepare('SELECT total_changes() AS n').get(), changes, 'nothing was written');
});

t.test('only pending steps run', async (t) => {
  const { db, path } = fresh(t);
  t.equal(migrate(db, path, [ONE]), 1);
  t.equal(migrate(db, path, [ONE, TWO]), 2, 'ONE would throw "table one already exists" if rerun');
  t.equal(schemaVersion(db), 2);
  t.same(objects(db), ['table one', 'table two']);
});

t.test('a step may give its statements per dialect', async (t) => {
  const { db, path } = fresh(t);
  const perDialect: Migration = {
    version: 2,
    name: 'per dialect',
    sql: {
      sqlite: 'CREATE TABLE two_sqlite (x INTEGER) STRICT',
      postgres: 'CREATE TABLE two_postgres (x integer)',
    },
  };
  t.equal(migrate(db, path, [ONE, perDialect]), 2);
  t.same(objects(db), ['table one', 'table two_sqlite'], 'the SQLite text ran');
});

t.test('a failing step applies nothing, and names the step and the file', async (t) => {
  const { db, path } = fresh(t);
  migrate(db, path, [ONE]);
  t.throws(() => migrate(db, path, [ONE, TWO, BROKEN]), {
    name: 'RuntimeStoreError',
    path,
    message: new RegExp(
      `^runtime store '.*runtime\\.db': migration 3 \\(broken\\) failed, nothing was applied: ` +
        'SqliteError: .*syntax error',
    ),
  });
  t.equal(schemaVersion(db), 1, 'still at the version before');
  t.same(objects(db), ['table one'], 'step two was rolled back with it');
});

t.test('a database newer than the code is refused and left alone', async (t) => {
  const { db, path } = fresh(t);
  db.pragma('user_version = 7');
  const error = t.throws(() => migrate(db, path, [ONE, TWO])) as RuntimeStoreError;
  t.type(error, RuntimeStoreError);
  t.equal(error.path, path);
  t.equal(
    error.message,
    `runtime store '${path}': schema version 7 is newer than version 2, the newest this build ` +
      'knows; refusing to open it (run a newer scopegate, or point the runtime at another file)',
  );
  t.equal(schemaVersion(db), 7);
  t.same(objects(db), []);
});
