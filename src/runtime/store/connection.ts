/**
 * Opens one SQLite connection for the runtime store with the settings every connection needs
 * (busy timeout, foreign keys). It never writes to the file: creating tables is migrations.ts,
 * and switching to WAL waits until the schema version has been checked (store.ts).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { RuntimeStoreError } from './errors.js';
import { Sqlite, type SqliteDatabase } from './sqlite.js';

/** The path that opens a private in-memory database instead of a file. */
export const MEMORY_PATH = ':memory:';

/** How long a statement waits for another connection's lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Open `path`, creating its parent folders, and configure the connection. A file that exists
 * but is not a database is only detected by the first read.
 *
 * @throws {RuntimeStoreError} naming `path` when the folder or the file cannot be opened
 */
export function openConnection(path: string): SqliteDatabase {
  let db: SqliteDatabase;
  try {
    if (path !== MEMORY_PATH) mkdirSync(dirname(path), { recursive: true });
    db = new Sqlite(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (err) {
    throw new RuntimeStoreError(path, `cannot open: ${String(err)}`, err);
  }
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Per connection and off by default in SQLite: without it, runs would outlive their session.
  db.pragma('foreign_keys = ON');
  return db;
}
