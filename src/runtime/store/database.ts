/**
 * The runtime store's async, dialect-neutral query layer: a Kysely instance over the store's open
 * connection, typed by the tables converted to it, and the one place that knows the SQL dialect
 * (how JSON and booleans are stored, JSON array functions, case folding). Table code builds its
 * queries with Kysely and asks this module for every dialect-specific term, so that another
 * dialect is one more {@link SqlDialect} here, not a change in each table. Nothing here assumes
 * one process: every read and write goes to the database, nothing is cached across calls.
 */
import {
  Kysely,
  SqliteDialect,
  sql,
  type AliasedRawBuilder,
  type Generated,
  type RawBuilder,
  type SqlBool,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
import { LRUCache } from 'lru-cache';
import type { LearningRecord, MemoryRecord, RunRecord, SessionRecord } from './records.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite.js';

/** The dialects the store can speak. Migrations may key a step's statements by this name. */
export type DialectName = 'sqlite' | 'postgres';

/**
 * A record's row as a dialect stores it: the JSON columns `J` as text and the boolean columns
 * `B` as integers (SQLite has neither type); every other column as the record has it.
 */
export type RowOf<R, J extends keyof R = never, B extends keyof R = never> = {
  [K in keyof R]: K extends J
    ? null extends R[K]
      ? string | null
      : string
    : K extends B
      ? null extends R[K]
        ? number | null
        : number
      : R[K];
};

/** A `memories` row. */
export type MemoryRow = RowOf<MemoryRecord, 'topics'>;

/** A `learnings` row. */
export type LearningRow = RowOf<LearningRecord, 'content' | 'metadata'>;

/** A `sessions` row: the record's `session_summary` is stored in the `summary` column. */
export type SessionRow = Omit<
  RowOf<SessionRecord, 'session_state' | 'metadata' | 'session_summary'>,
  'session_summary'
> & { summary: string | null; version: Generated<number> };

/**
 * A `runs` row; `seq` orders the runs stored in the same second, and `replica_id` names the
 * runtime that stored the run as RUNNING (NULL before it recorded one): both stay internal.
 */
export type RunRow = RowOf<RunRecord, 'output' | 'checkpoint'> & {
  seq: Generated<number>;
  replica_id: Generated<string | null>;
};

/** The tables, by name (a table's module may add its own to this interface). */
export interface Database {
  memories: MemoryRow;
  learnings: LearningRow;
  sessions: SessionRow;
  runs: RunRow;
}

/** Everything that differs between SQL dialects, as values and query terms. */
export interface SqlDialect {
  readonly name: DialectName;
  /** A JSON value as its column stores it. */
  jsonToColumn(value: unknown): unknown;
  /** A JSON column's stored value as the JSON value. */
  jsonFromColumn(stored: unknown): unknown;
  /** A boolean as its column stores it. */
  booleanToColumn(value: boolean): unknown;
  /** A boolean column's stored value as a boolean. */
  booleanFromColumn(stored: unknown): boolean;
  /** An epoch-seconds column's stored value as a number (a driver may return 64-bit integers as text). */
  secondsFromColumn(stored: unknown): number;
  /**
   * WHERE term: the text column, case-folded as JavaScript's `toLowerCase` folds (not only
   * ASCII), contains `needle` folded the same way.
   */
  containsFolded(column: string, needle: string): RawBuilder<SqlBool>;
  /** WHERE term: the JSON array of strings in `column` holds at least one of `values`. */
  jsonArrayOverlaps(column: string, values: readonly string[]): RawBuilder<SqlBool>;
  /**
   * FROM item: one row per element of the JSON array in `column`, the element as
   * `<alias>.value`.
   */
  jsonArrayElements<A extends string>(
    column: string,
    alias: A,
  ): AliasedRawBuilder<{ value: string }, A>;
  /** FROM item: one row per key of the JSON object in `column`, the key as `<alias>.key`. */
  jsonObjectKeys<A extends string>(column: string, alias: A): AliasedRawBuilder<{ key: string }, A>;
  /** The JSON text in `column` at the object keys `path`, as a number (NULL when absent). */
  jsonNumberAt(column: string, path: readonly string[]): RawBuilder<number | null>;
  /** The JSON text in `column` at the object keys `path`, as text (NULL when absent). */
  jsonTextAt(column: string, path: readonly string[]): RawBuilder<string | null>;
  /** The UTC day (`YYYY-MM-DD`) of the epoch seconds in `column`. */
  dayOfSeconds(column: string): RawBuilder<string>;
  /** WHERE term: the text column starts with `prefix` (case-sensitive). */
  startsWith(column: string, prefix: string): RawBuilder<SqlBool>;
}

/** A JSON path of object keys as SQLite writes it (`$."a"."b"`). */
const sqlitePath = (path: readonly string[]): string =>
  `$${path.map((key) => `.${JSON.stringify(key)}`).join('')}`;

/** The SQL function that case-folds text (JavaScript folding, not SQLite's ASCII-only lower()). */
const FOLD = 'scopegate_fold';

/** SQLite: JSON and booleans in STRICT text and integer columns, JSON1 functions, a folding UDF. */
function sqliteDialect(db: SqliteDatabase): SqlDialect {
  db.function(FOLD, { deterministic: true }, (value) =>
    typeof value === 'string' ? value.toLowerCase() : null,
  );
  return Object.freeze({
    name: 'sqlite',
    jsonToColumn: (value) => JSON.stringify(value),
    jsonFromColumn: (stored) => JSON.parse(stored as string) as unknown,
    booleanToColumn: (value) => (value ? 1 : 0),
    booleanFromColumn: (stored) => stored === 1,
    secondsFromColumn: (stored) => Number(stored),
    containsFolded: (column, needle) =>
      sql<SqlBool>`instr(${sql.raw(FOLD)}(${sql.ref(column)}), ${needle.toLowerCase()}) > 0`,
    jsonArrayOverlaps: (column, values) =>
      sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${sql.ref(column)}) AS t WHERE t.value IN (SELECT value FROM json_each(${JSON.stringify(values)})))`,
    jsonArrayElements: (column, alias) =>
      sql<{ value: string }>`json_each(${sql.ref(column)})`.as(alias),
    jsonObjectKeys: (column, alias) =>
      sql<{ key: string }>`json_each(${sql.ref(column)})`.as(alias),
    jsonNumberAt: (column, path) =>
      sql<number | null>`json_extract(${sql.ref(column)}, ${sqlitePath(path)})`,
    jsonTextAt: (column, path) =>
      sql<string | null>`json_extract(${sql.ref(column)}, ${sqlitePath(path)})`,
    dayOfSeconds: (column) => sql<string>`date(${sql.ref(column)}, 'unixepoch')`,
    startsWith: (column, prefix) =>
      sql<SqlBool>`substr(${sql.ref(column)}, 1, length(${prefix})) = ${prefix}`,
  } satisfies SqlDialect);
}

/** The typed query builder and the dialect of one open database. */
export interface RuntimeDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: SqlDialect;
}

/**
 * The query layer over an open, migrated SQLite connection. The connection stays the caller's:
 * closing it makes every later query fail with the driver's error (never an empty answer).
 */
export function openDatabase(connection: SqliteDatabase): RuntimeDatabase {
  return Object.freeze({
    db: new Kysely<Database>({
      dialect: new SqliteDialect({ database: preparedOnce(connection) }),
    }),
    dialect: sqliteDialect(connection),
  });
}

/** How many distinct statements one connection keeps prepared (the layer's queries have few shapes). */
const PREPARED_STATEMENTS = 256;

/**
 * The connection as Kysely's SQLite driver uses it, preparing each distinct SQL text once: the
 * driver prepares every statement it runs, and preparing was a fifth of a page read's time.
 * Kysely only runs `all`/`run`/`iterate` on a statement, so reusing one is safe; the cache is
 * bounded and per connection.
 */
function preparedOnce(connection: SqliteDatabase): KyselySqliteDatabase {
  const prepared = new LRUCache<string, SqliteStatement>({ max: PREPARED_STATEMENTS });
  return {
    close: connection.close.bind(connection),
    prepare(text) {
      let statement = prepared.get(text);
      if (statement === undefined) {
        statement = connection.prepare(text);
        prepared.set(text, statement);
      }
      return statement as ReturnType<KyselySqliteDatabase['prepare']>;
    },
  };
}
