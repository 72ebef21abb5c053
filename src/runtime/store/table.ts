/**
 * One table's row codec, declared once, and the single-row operations every table needs: read by
 * key, upsert, insert-if-new, update, delete. A declaration names the table's columns and which of
 * them hold JSON, booleans or epoch seconds; the dialect (database.ts) decides how those are
 * stored. Only declared columns ever reach the SQL text; values are always bound parameters.
 */
import type { Kysely } from 'kysely';
import type { Database, RuntimeDatabase, SqlDialect } from './database.js';

/** A column of record `R`. */
type Column<R> = keyof R & string;

/** What a table declares once. */
export interface TableSpec<R> {
  /** The table's name in {@link Database}. */
  readonly name: keyof Database;
  /** The primary-key column (a text key). */
  readonly key: Column<R>;
  /** Every column, in the table's order. */
  readonly columns: readonly Column<R>[];
  /** Columns holding a JSON value (`null` stays SQL NULL). */
  readonly json?: readonly Column<R>[];
  /** Columns holding a JSON value, `null` included (stored as JSON `null`, never SQL NULL). */
  readonly jsonNull?: readonly Column<R>[];
  /** Columns holding a boolean (`null` stays SQL NULL). */
  readonly booleans?: readonly Column<R>[];
  /** Columns holding epoch seconds. */
  readonly seconds?: readonly Column<R>[];
  /** Columns an upsert keeps from the stored row when the key exists (e.g. `created_at`). */
  readonly keepOnUpdate?: readonly Column<R>[];
  /** Fields stored in a column of another name (e.g. `start_ms` in `start_time`). */
  readonly stored?: { readonly [K in Column<R>]?: string };
}

/** One table on an open database, speaking in records. */
export interface Table<R> {
  /** The record as its row is stored. */
  toRow(record: R): Record<string, unknown>;
  /** The stored row as its record (only the declared columns). */
  fromRow(row: Readonly<Record<string, unknown>>): R;
  /** The record of `key`, or `null`. */
  get(key: string): Promise<R | null>;
  /** Insert, or update every column but the key and `keepOnUpdate` when the key exists. */
  put(record: R): Promise<void>;
  /** Insert a new record; `false`, and nothing written, when its key is taken. */
  insert(record: R): Promise<boolean>;
  /** Insert new records in as few statements as the dialect's parameter limit allows. */
  insertAll(records: readonly R[]): Promise<void>;
  /** Replace every column of the stored record of the same key; `false` when there is none. */
  update(record: R): Promise<boolean>;
  /** Delete the record of `key`; `false` when there was none. */
  delete(key: string): Promise<boolean>;
  /** The same operations inside the transaction `trx` (from `db.transaction().execute`). */
  in(trx: Kysely<Database>): Table<R>;
}

/** How one column's value crosses between record and row. */
interface ColumnCodec {
  /** The record's field. */
  readonly name: string;
  /** The table's column. */
  readonly column: string;
  toColumn(value: unknown): unknown;
  fromColumn(stored: unknown): unknown;
}

const same = (value: unknown): unknown => value;

/** The codecs of `spec`'s columns in `dialect`. */
function codecsOf<R>(spec: TableSpec<R>, dialect: SqlDialect): ColumnCodec[] {
  const nullable =
    (convert: (value: never) => unknown) =>
    (value: unknown): unknown =>
      value === null ? null : convert(value as never);
  return spec.columns.map((name) => {
    const column = spec.stored?.[name] ?? name;
    if (spec.json?.includes(name)) {
      return {
        name,
        column,
        toColumn: nullable(dialect.jsonToColumn),
        fromColumn: nullable(dialect.jsonFromColumn),
      };
    }
    if (spec.jsonNull?.includes(name)) {
      return {
        name,
        column,
        toColumn: dialect.jsonToColumn,
        fromColumn: dialect.jsonFromColumn,
      };
    }
    if (spec.booleans?.includes(name)) {
      return {
        name,
        column,
        toColumn: nullable(dialect.booleanToColumn),
        fromColumn: nullable(dialect.booleanFromColumn),
      };
    }
    if (spec.seconds?.includes(name)) {
      return { name, column, toColumn: same, fromColumn: dialect.secondsFromColumn };
    }
    return { name, column, toColumn: same, fromColumn: same };
  });
}

/** The most bound parameters one insert uses (under every dialect's limit: SQLite 32766, Postgres 65535). */
const MAX_INSERT_PARAMETERS = 16_000;

/** The operations of the table `spec` declares, on `database`. */
export function tableOf<R>(database: RuntimeDatabase, spec: TableSpec<R>): Table<R> {
  return bind(database.db, spec, codecsOf(spec, database.dialect));
}

/** The operations of `spec` run by `executor` (the database, or one transaction on it). */
function bind<R>(
  executor: Kysely<Database>,
  spec: TableSpec<R>,
  codecs: readonly ColumnCodec[],
): Table<R> {
  // Table names and columns come from the declaration, so the generic builder is untyped here;
  // each table's own queries use the typed one.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = executor as unknown as Kysely<any>;
  const table: string = spec.name;
  const key: string = spec.stored?.[spec.key] ?? spec.key;
  const updated = codecs
    .filter(
      ({ name }) => name !== spec.key && !(spec.keepOnUpdate?.includes(name as Column<R>) ?? false),
    )
    .map(({ column }) => column);
  const toRow = (record: R): Record<string, unknown> => {
    const row: Record<string, unknown> = {};
    for (const codec of codecs) row[codec.column] = codec.toColumn(record[codec.name as keyof R]);
    return row;
  };
  const fromRow = (row: Readonly<Record<string, unknown>>): R => {
    const record: Record<string, unknown> = {};
    for (const codec of codecs) record[codec.name] = codec.fromColumn(row[codec.column]);
    return record as R;
  };
  const perInsert = Math.floor(MAX_INSERT_PARAMETERS / codecs.length);
  return Object.freeze({
    toRow,
    fromRow,
    async get(id) {
      const row = (await db
        .selectFrom(table)
        .selectAll()
        .where(key, '=', id)
        .executeTakeFirst()) as Record<string, unknown> | undefined;
      return row === undefined ? null : fromRow(row);
    },
    async put(record) {
      await db
        .insertInto(table)
        .values(toRow(record))
        .onConflict((conflict) =>
          conflict
            .column(key)
            .doUpdateSet((eb) =>
              Object.fromEntries(updated.map((name) => [name, eb.ref(`excluded.${name}`)])),
            ),
        )
        .execute();
    },
    async insert(record) {
      const result = await db
        .insertInto(table)
        .values(toRow(record))
        .onConflict((conflict) => conflict.column(key).doNothing())
        .executeTakeFirst();
      return result.numInsertedOrUpdatedRows === 1n;
    },
    async insertAll(records) {
      for (let at = 0; at < records.length; at += perInsert) {
        await db
          .insertInto(table)
          .values(records.slice(at, at + perInsert).map(toRow))
          .execute();
      }
    },
    async update(record) {
      const row = toRow(record);
      const result = await db
        .updateTable(table)
        .set(
          Object.fromEntries(
            codecs.filter((c) => c.column !== key).map((c) => [c.column, row[c.column]]),
          ),
        )
        .where(key, '=', record[spec.key])
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    in: (trx) => bind(trx, spec, codecs),
    async delete(id) {
      const result = await db.deleteFrom(table).where(key, '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  } satisfies Table<R>);
}
