/**
 * The typed seam to better-sqlite3: the few members of its API the runtime store uses, and the
 * constructor loaded through createRequire (the package ships CommonJS without type
 * declarations). Nothing outside src/runtime/store may import this; it never opens a file itself.
 */
import { createRequire } from 'node:module';

/** A prepared statement; parameters are positional values or one object of `@named` values. */
export interface SqliteStatement {
  /** Execute a statement that returns no rows. */
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  /** The first row, or `undefined` when there is none. */
  get(...params: unknown[]): unknown;
  /** Every row. */
  all(...params: unknown[]): unknown[];
  /** The rows one at a time. */
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** Whether the statement returns rows (a SELECT, or a write with RETURNING). */
  readonly reader: boolean;
}

/** One open SQLite connection (the subset of better-sqlite3's `Database` the store uses). */
export interface SqliteDatabase {
  /** Whether the connection is still open. */
  readonly open: boolean;
  /** Compile SQL once; run it many times. */
  prepare(sql: string): SqliteStatement;
  /** Run one or more statements without parameters. */
  exec(sql: string): unknown;
  /** Run a PRAGMA; with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /**
   * Wrap `fn` so every call runs in one transaction (BEGIN DEFERRED; `.immediate` for BEGIN
   * IMMEDIATE), rolled back if it throws.
   */
  transaction<F extends (...args: never[]) => unknown>(fn: F): F & { immediate: F };
  /** Register a SQL scalar function on this connection. */
  function(
    name: string,
    options: { deterministic?: boolean },
    fn: (...args: unknown[]) => unknown,
  ): unknown;
  /** Close the connection; further calls throw. */
  close(): unknown;
}

/** Options of better-sqlite3's constructor that the store uses. */
export interface SqliteOpenOptions {
  /** Milliseconds to wait on a locked database before SQLITE_BUSY. */
  timeout?: number;
  /** Fail instead of creating the file when it does not exist. */
  fileMustExist?: boolean;
  /** Open read-only. */
  readonly?: boolean;
}

/** better-sqlite3's `Database` constructor, typed by {@link SqliteDatabase}. */
export const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (
  path: string,
  options?: SqliteOpenOptions,
) => SqliteDatabase;
