/**
 * A small table for the query layer's own tests, on a real SQLite file in the test's folder: a
 * text key, a JSON column, a boolean column and epoch seconds, none of them a runtime table.
 */
import { join } from 'node:path';
import type { Test } from 'tap';
import { openConnection } from '../../../src/runtime/store/connection.js';
import {
  openDatabase,
  type Database,
  type RuntimeDatabase,
} from '../../../src/runtime/store/database.js';
import type { SqliteDatabase } from '../../../src/runtime/store/sqlite.js';
import type { TableSpec } from '../../../src/runtime/store/table.js';

/** One item. */
export interface Item {
  id: string;
  name: string;
  tags: string[] | null;
  done: boolean | null;
  /** Epoch seconds. */
  at: number;
  /** Epoch seconds; an upsert keeps it. */
  created: number;
}

/** The items table (not one of the runtime's, hence the cast of its name). */
export const ITEMS: TableSpec<Item> = {
  name: 'items' as keyof Database,
  key: 'id',
  columns: ['id', 'name', 'tags', 'done', 'at', 'created'],
  json: ['tags'],
  booleans: ['done'],
  seconds: ['at', 'created'],
  keepOnUpdate: ['created'],
};

/** An item with defaults for what a row does not name. */
export const item = (fields: Partial<Item> & { id: string }): Item => ({
  name: fields.id,
  tags: null,
  done: null,
  at: 100,
  created: 100,
  ...fields,
});

/** A fresh file with the items table, and the query layer on it; closed at teardown. */
export function itemsDatabase(t: Test): { connection: SqliteDatabase; database: RuntimeDatabase } {
  const connection = openConnection(join(t.testdir(), 'items.db'));
  t.teardown(() => connection.close());
  connection.exec(
    `CREATE TABLE items (
       id TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL, tags TEXT, done INTEGER,
       at INTEGER NOT NULL, created INTEGER NOT NULL
     ) STRICT`,
  );
  return { connection, database: openDatabase(connection) };
}
