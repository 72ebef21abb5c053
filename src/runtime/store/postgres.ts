/**
 * The runtime store on PostgreSQL: the dialect terms of the query layer, a pool of connections,
 * and the schema steps applied under an advisory lock, so that replicas starting together on one
 * database apply each step once. Never prints the URL's password.
 */
import { Kysely, PostgresDialect, sql, type SqlBool } from 'kysely';
import pg from 'pg';
import { describePostgresError } from '../../shared/postgres-error.js';
import { printableUrl } from '../../shared/store-location.js';
import type { Database, SqlDialect } from './database.js';
import { RuntimeStoreError } from './errors.js';

/**
 * PostgreSQL: JSON in `jsonb` columns (the driver parses them), booleans in `boolean` columns,
 * epoch times in `bigint` columns (read as numbers on these connections only), text in the "C"
 * collation.
 */
export const postgresDialect: SqlDialect = Object.freeze({
  name: 'postgres',
  // Text the server casts to jsonb: the driver would send a JS array as a Postgres array.
  jsonToColumn: (value) => JSON.stringify(value),
  jsonFromColumn: (stored) => stored,
  booleanToColumn: (value) => value,
  booleanFromColumn: (stored) => stored === true,
  secondsFromColumn: (stored) => Number(stored),
  // lower() folds by the column's collation; "C" folds ASCII only, so fold in ICU's root locale,
  // which folds as JavaScript's toLowerCase does for the letters of every script.
  containsFolded: (column, needle) =>
    sql<SqlBool>`strpos(lower(${sql.ref(column)} COLLATE "und-x-icu"), ${needle.toLowerCase()}) > 0`,
  jsonArrayOverlaps: (column, values) => sql<SqlBool>`${sql.ref(column)} ?| ${[...values]}::text[]`,
  // jsonb_array_elements_text and jsonb_each name their output columns `value` and `key`.
  jsonArrayElements: (column, alias) =>
    sql<{ value: string }>`jsonb_array_elements_text(${sql.ref(column)})`.as(alias),
  jsonObjectKeys: (column, alias) => sql<{ key: string }>`jsonb_each(${sql.ref(column)})`.as(alias),
  jsonNumberAt: (column, path) =>
    sql<number | null>`(${sql.ref(column)} #>> ${[...path]}::text[])::double precision`,
  jsonTextAt: (column, path) => sql<string | null>`${sql.ref(column)} #>> ${[...path]}::text[]`,
  dayOfSeconds: (column) =>
    sql<string>`to_char(to_timestamp(${sql.ref(column)}) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  startsWith: (column, prefix) => sql<SqlBool>`starts_with(${sql.ref(column)}, ${prefix})`,
} satisfies SqlDialect);

/** int8 (bigint, counts, identity columns) as a JS number on these connections: epoch times stay far below 2^53. */
const INT8_OID = 20;
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format),
} as pg.CustomTypesConfig;

/** Drops an event or error that the next query reports anyway. */
const ignore = (): void => undefined;

/** Options of {@link openPostgres}. */
export interface PostgresOptions {
  /** Names the connections in `pg_stat_activity`: `scopegate-runtime:<replicaId>`. */
  readonly replicaId: string;
  /** Connections in the pool (default 10). */
  readonly poolMax?: number;
  /** How long opening one connection may take (default 2000 ms). */
  readonly connectTimeoutMs?: number;
  /** `statement_timeout` of every connection (default 10000 ms). */
  readonly statementTimeoutMs?: number;
}

/** An open pool and the query builder over it. */
export interface PostgresDatabase {
  readonly db: Kysely<Database>;
  readonly pool: pg.Pool;
  /** The URL without its password, for messages. */
  readonly location: string;
  close(): Promise<void>;
}

/**
 * A pool on `url` (`postgres://` or `postgresql://`); nothing is connected until the first query.
 *
 * @throws {RuntimeStoreError} when the URL cannot be parsed (without repeating it: a URL error
 *   carries its input, password included)
 */
export function openPostgres(url: string, options: PostgresOptions): PostgresDatabase {
  const location = printableUrl(url);
  try {
    new pg.Client({ connectionString: url });
  } catch {
    throw new RuntimeStoreError(
      location,
      'the URL cannot be parsed (check its host, port and percent-encoding)',
    );
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? 2_000;
  const statementTimeoutMs = options.statementTimeoutMs ?? 10_000;
  const pool = new pg.Pool({
    connectionString: url,
    application_name: `scopegate-runtime:${options.replicaId}`,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    query_timeout: statementTimeoutMs + connectTimeoutMs,
    keepAlive: true,
    // A startup parameter: set before the pool hands the connection out.
    statement_timeout: Math.floor(statementTimeoutMs),
    types,
  });
  // A connection that dies (a server restart, a cut network) fails the query it serves; it must
  // never crash the process through an unhandled 'error' event.
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let closed: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    await db.destroy();
    // Kysely ends the pool only when a query of its own ran; the migration's connection alone
    // would keep the pool open, and a closed store answering.
    if (!pool.ended) await pool.end();
  };
  // Closing twice is harmless (the pool itself refuses a second end).
  return Object.freeze({ db, pool, location, close: () => (closed ??= close()) });
}

/** The row of `scopegate_schema` that holds the runtime's schema version. */
const COMPONENT = 'runtime';
/** A fixed advisory-lock key ('sg:rt-mg' as a 64-bit integer): serializes migrations across replicas. */
const MIGRATION_LOCK = '8315679504188207719';

async function versionOf(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('scopegate_schema') IS NOT NULL AS present",
  );
  if (!rows[0]!.present) return 0;
  const found = await client.query<{ version: number }>(
    'SELECT version FROM scopegate_schema WHERE component = $1',
    [COMPONENT],
  );
  return found.rows[0]?.version ?? 0;
}

/**
 * Brings the database to `steps.length`. An up-to-date database costs one look and no lock;
 * otherwise every pending step runs in one transaction under the migration lock, the version read
 * again once the lock is held, so replicas starting together apply each step once.
 *
 * @param steps statements by step, oldest first
 * @returns the version the database is at now
 * @throws {RuntimeStoreError} for a schema newer than `steps`, or a step or connection that
 *   fails (nothing of the steps is applied)
 */
export async function migratePostgres(
  database: PostgresDatabase,
  steps: readonly { readonly version: number; readonly name: string; readonly sql: string }[],
): Promise<number> {
  const latest = steps.length;
  const newer = (found: number): RuntimeStoreError =>
    new RuntimeStoreError(
      database.location,
      `schema version ${found} is newer than version ${latest}, the newest this build knows; ` +
        'refusing to open it (run a newer scopegate, or point the runtime at another database)',
    );
  let client: pg.PoolClient;
  try {
    client = await database.pool.connect();
  } catch (err) {
    throw new RuntimeStoreError(
      database.location,
      `cannot connect: ${describePostgresError(err as Error)}`,
      err,
    );
  }
  let step: { version: number; name: string } | null = null;
  try {
    let found = await versionOf(client);
    const behind = found < latest;
    if (behind) {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS scopegate_schema (component text PRIMARY KEY, ' +
          'version integer NOT NULL, applied_at bigint NOT NULL)',
      );
      // Read again under the lock: a replica that held it before has applied what it found.
      found = await versionOf(client);
    }
    if (found > latest) throw newer(found);
    for (const next of steps.slice(found)) {
      step = next;
      await client.query(next.sql);
    }
    step = null;
    if (behind) {
      await client.query(
        'INSERT INTO scopegate_schema (component, version, applied_at) ' +
          'VALUES ($1, $2, extract(epoch FROM now())::bigint) ON CONFLICT (component) ' +
          'DO UPDATE SET version = excluded.version, applied_at = excluded.applied_at',
        [COMPONENT, latest],
      );
      await client.query('COMMIT');
    }
    client.release();
    return latest;
  } catch (err) {
    await client.query('ROLLBACK').catch(ignore);
    client.release();
    if (err instanceof RuntimeStoreError) throw err;
    const what = step === null ? 'migrating' : `migration ${step.version} (${step.name})`;
    throw new RuntimeStoreError(
      database.location,
      `${what} failed, nothing was applied: ${describePostgresError(err as Error)}`,
      err,
    );
  }
}
