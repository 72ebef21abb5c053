/**
 * The runtime store on a real PostgreSQL server: the schema steps (applied once by replicas that
 * start together, a newer schema refused, a failing step leaving nothing), the URL never printed
 * with its password, and every dialect term of the query layer against the SQLite answers.
 */
import { sql } from 'kysely';
import pg from 'pg';
import t, { type Test } from 'tap';
import { MIGRATIONS, statementsOf } from '../../../src/runtime/store/migrations.js';
import {
  migratePostgres,
  openPostgres,
  postgresDialect,
  type PostgresDatabase,
} from '../../../src/runtime/store/postgres.js';
import { RuntimeStoreError } from '../../../src/runtime/store/errors.js';
import { testDatabase } from '../../fixtures/postgres.js';

const STEPS = MIGRATIONS.map((m) => ({ ...m, sql: statementsOf(m, 'postgres') }));

async function fresh(tt: Test): Promise<{ url: string; open: () => PostgresDatabase } | null> {
  const url = await testDatabase(tt);
  if (url === null) return null;
  return {
    url,
    open: () => {
      const database = openPostgres(url, { replicaId: 'test' });
      tt.teardown(() => database.close());
      return database;
    },
  };
}

t.test('every step applies on a fresh database, once, and a second open only looks', async (t) => {
  const db = await fresh(t);
  if (db === null) return;
  const one = db.open();
  t.equal(await migratePostgres(one, STEPS), STEPS.length);
  t.equal(await migratePostgres(one, STEPS), STEPS.length);
  const { rows } = await one.pool.query<{ n: number }>(
    "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'",
  );
  // Every table of the SQLite schema, plus scopegate_schema.
  t.equal(rows[0]!.n, 20);
});

t.test('replicas starting together apply each step once', async (t) => {
  const db = await fresh(t);
  if (db === null) return;
  const replicas = [db.open(), db.open(), db.open()];
  const versions = await Promise.all(replicas.map((r) => migratePostgres(r, STEPS)));
  t.same(versions, [STEPS.length, STEPS.length, STEPS.length]);
  const { rows } = await replicas[0]!.pool.query<{ version: number }>(
    "SELECT version FROM scopegate_schema WHERE component = 'runtime'",
  );
  t.same(rows, [{ version: STEPS.length }]);
});

t.test('a schema newer than this build is refused and left as it is', async (t) => {
  const db = await fresh(t);
  if (db === null) return;
  const one = db.open();
  await migratePostgres(one, STEPS);
  await one.pool.query("UPDATE scopegate_schema SET version = 99 WHERE component = 'runtime'");
  const err = await migratePostgres(one, STEPS).catch((e: unknown) => e);
  t.type(err, RuntimeStoreError);
  t.match(
    (err as Error).message,
    new RegExp(`schema version 99 is newer than version ${STEPS.length}`),
  );
  t.notMatch((err as Error).message, new URL(db.url).password);
});

t.test('a failing step applies nothing and is named', async (t) => {
  const db = await fresh(t);
  if (db === null) return;
  const one = db.open();
  const broken = [
    STEPS[0]!,
    { version: 2, name: 'broken', sql: 'ALTER TABLE nowhere ADD COLUMN x int' },
  ];
  const err = await migratePostgres(one, broken).catch((e: unknown) => e);
  t.match(
    (err as Error).message,
    /migration 2 \(broken\) failed, nothing was applied: .*SQLSTATE 42P01/,
  );
  const { rows } = await one.pool.query<{ present: boolean }>(
    "SELECT to_regclass('sessions') IS NOT NULL AS present",
  );
  t.same(rows, [{ present: false }]);
});

t.test(
  "a database the gateway's service accounts share: the runtime keeps its own version row",
  async (t) => {
    const db = await fresh(t);
    if (db === null) return;
    const one = db.open();
    await one.pool.query(
      'CREATE TABLE scopegate_schema (component text PRIMARY KEY, version integer NOT NULL, applied_at bigint NOT NULL)',
    );
    await one.pool.query("INSERT INTO scopegate_schema VALUES ('service_accounts', 1, 0)");
    t.equal(await migratePostgres(one, STEPS), STEPS.length);
    const { rows } = await one.pool.query(
      'SELECT component, version FROM scopegate_schema ORDER BY component',
    );
    t.same(rows, [
      { component: 'runtime', version: STEPS.length },
      { component: 'service_accounts', version: 1 },
    ]);
  },
);

t.test(
  'a scopegate_schema table of another shape stops the open, naming the database',
  async (t) => {
    const db = await fresh(t);
    if (db === null) return;
    const one = db.open();
    await one.pool.query('CREATE TABLE scopegate_schema (component text)');
    const err = await migratePostgres(one, STEPS).catch((e: unknown) => e);
    t.match(
      (err as Error).message,
      /^runtime store 'postgres:.*': migrating failed, nothing was applied: .*SQLSTATE 42703/,
    );
  },
);

t.test('a URL that cannot be parsed or reached is named without its password', async (t) => {
  t.throws(() => openPostgres('postgres://u:secret@[bad/db', { replicaId: 'x' }), {
    name: 'RuntimeStoreError',
    message: /the URL cannot be parsed/,
  });
  const unreachable = openPostgres('postgres://u:secret@127.0.0.1:1/db', {
    replicaId: 'x',
    connectTimeoutMs: 500,
    statementTimeoutMs: 1_000,
    poolMax: 1,
  });
  t.teardown(() => unreachable.close());
  const err = await migratePostgres(unreachable, STEPS).catch((e: unknown) => e);
  t.match(
    (err as Error).message,
    /runtime store 'postgres:\/\/u:\*+@127\.0\.0\.1:1\/db': cannot connect/,
  );
  t.notMatch((err as Error).message, /secret/);
});

t.test('the dialect terms answer as SQLite does', async (t) => {
  const db = await fresh(t);
  if (db === null) return;
  const one = db.open();
  await migratePostgres(one, STEPS);
  const d = postgresDialect;
  await one.db
    .insertInto('memories')
    .values([
      {
        memory_id: 'm1',
        memory: 'Straße ÄRGER',
        topics: d.jsonToColumn(['a', 'b']) as string,
        user_id: 'u',
        agent_id: null,
        team_id: null,
        created_at: 86_400 * 3 + 5,
        updated_at: 1,
      },
      {
        memory_id: 'm2',
        memory: 'plain',
        topics: d.jsonToColumn([]) as string,
        user_id: 'u',
        agent_id: null,
        team_id: null,
        created_at: 0,
        updated_at: 2,
      },
    ])
    .execute();
  const ids = async (where: ReturnType<typeof d.startsWith>): Promise<string[]> =>
    (
      await one.db
        .selectFrom('memories')
        .select('memory_id')
        .where(where)
        .orderBy('memory_id')
        .execute()
    ).map((r) => r.memory_id);
  t.same(await ids(d.containsFolded('memory', 'äRg')), ['m1']);
  t.same(await ids(d.containsFolded('memory', 'STRASSE')), []);
  t.same(await ids(d.jsonArrayOverlaps('topics', ['b', 'z'])), ['m1']);
  t.same(await ids(d.jsonArrayOverlaps('topics', ['z'])), []);
  t.same(await ids(d.startsWith('memory_id', 'm2')), ['m2']);
  const topics = await one.db
    .selectFrom(['memories', d.jsonArrayElements('memories.topics', 't')])
    .select('t.value')
    .orderBy('t.value')
    .execute();
  t.same(topics, [{ value: 'a' }, { value: 'b' }]);
  const day = await one.db
    .selectFrom('memories')
    .select(d.dayOfSeconds('created_at').as('day'))
    .where('memory_id', '=', 'm1')
    .executeTakeFirstOrThrow();
  t.same(day, { day: '1970-01-04' });

  await one.db
    .insertInto('eval_runs')
    .values({
      run_id: 'e1',
      eval_type: 'accuracy',
      name: null,
      agent_id: null,
      team_id: null,
      workflow_id: null,
      model_id: null,
      model_provider: null,
      evaluated_component_name: null,
      eval_data: d.jsonToColumn({ score: 7.5, label: 'ok', nested: { k: 1 } }) as string,
      eval_input: null,
      created_at: 0,
      updated_at: 0,
    } as never)
    .execute();
  const at = await sql<{ n: number | null; s: string | null; missing: number | null }>`
    SELECT ${d.jsonNumberAt('eval_data', ['score'])} AS n, ${d.jsonTextAt('eval_data', ['label'])} AS s,
           ${d.jsonNumberAt('eval_data', ['nested', 'none'])} AS missing FROM eval_runs`.execute(
    one.db,
  );
  t.same(at.rows, [{ n: 7.5, s: 'ok', missing: null }]);
  const keys = await sql<{
    key: string;
  }>`SELECT k.key FROM eval_runs, ${d.jsonObjectKeys('eval_data', 'k')} ORDER BY k.key`.execute(
    one.db,
  );
  t.same(
    keys.rows.map((r) => r.key),
    ['label', 'nested', 'score'],
  );
  t.same(d.jsonFromColumn({ a: 1 }), { a: 1 });
  t.equal(d.booleanToColumn(true), true);
  t.equal(d.booleanFromColumn(false), false);
  t.equal(d.secondsFromColumn('12'), 12);
});

t.test(
  'a connection the server kills does not stop the pool: the next query gets another',
  async (t) => {
    const db = await fresh(t);
    if (db === null) return;
    const one = openPostgres(db.url, { replicaId: 'killed' });
    t.teardown(() => one.close());
    await migratePostgres(one, STEPS);
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    t.teardown(() => admin.end());
    const { rows } = await admin.query<{ n: number }>(
      "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'scopegate-runtime:killed'",
    );
    t.equal(rows[0]!.n, 1, 'its idle connection was terminated');
    await new Promise((r) => setTimeout(r, 100));
    const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(one.db);
    t.same(again.rows, [{ one: 1 }]);
  },
);
