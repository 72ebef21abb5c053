/**
 * One table's row codec, declared once, and the single-row operations every table needs: read by
 * key, upsert, insert-if-new, update, compare-and-set, delete. A declaration names the table's columns and which of
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
  /** The primary-key column, or the columns of a composite key in the key's order. */
  readonly key: Column<R> | readonly Column<R>[];
  /** Every column, in the table's order. */
  readonly columns: readonly Column<R>[];
  /** Columns holding a JSON value (`null` stays SQL NULL). */
  readonly json?: readonly Column<R>[];
  /** Columns holding a boolean (`null` stays SQL NULL). */
  readonly booleans?: readonly Column<R>[];
  /** Columns holding epoch seconds. */
  readonly seconds?: readonly Column<R>[];
  /** Columns an upsert keeps from the stored row when the key exists (e.g. `created_at`). */
  readonly keepOnUpdate?: readonly Column<R>[];
}

/** A row's key: its value, or the values of a composite key in the declared order. */
export type TableKey = string | number | readonly (string | number)[];

/** One table on an open database, speaking in records. */
export interface Table<R> {
  /** The record as its row is stored. */
  toRow(record: R): Record<string, unknown>;
  /** The stored row as its record (only the declared columns). */
  fromRow(row: Readonly<Record<string, unknown>>): R;
  /** The record of `key`, or `null`. */
  get(key: TableKey): Promise<R | null>;
  /** Insert, or update every column but the key and `keepOnUpdate` when the key exists. */
  put(record: R): Promise<void>;
  /** Insert a new record; `false`, and nothing written, when its key (or another unique column) is taken. */
  insert(record: R): Promise<boolean>;
  /** Replace every column of the stored record of the same key; `false` when there is none. */
  update(record: R): Promise<boolean>;
  /**
   * Compare-and-set: set the columns of `set` (at least one) on the row of `key`, only while each
   * column of `expected` still holds the given value (`null` matches NULL), in one UPDATE, so
   * that of two writers that read the same value only one changes it.
   *
   * @returns `false`, and nothing written, when no row of `key` holds the expected values
   */
  change(key: TableKey, set: Partial<R>, expected?: Partial<R>): Promise<boolean>;
  /** Delete the record of `key`; `false` when there was none. */
  delete(key: TableKey): Promise<boolean>;
  /** The same operations inside the transaction `trx` (from `db.transaction().execute`). */
  in(trx: Kysely<Database>): Table<R>;
}

/** How one column's value crosses between record and row. */
interface ColumnCodec {
  readonly name: string;
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
    if (spec.json?.includes(name)) {
      return {
        name,
        toColumn: nullable(dialect.jsonToColumn),
        fromColumn: nullable(dialect.jsonFromColumn),
      };
    }
    if (spec.booleans?.includes(name)) {
      return {
        name,
        toColumn: nullable(dialect.booleanToColumn),
        fromColumn: nullable(dialect.booleanFromColumn),
      };
    }
    if (spec.seconds?.includes(name)) {
      return { name, toColumn: same, fromColumn: dialect.secondsFromColumn };
    }
    return { name, toColumn: same, fromColumn: same };
  });
}

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
  const keys: readonly string[] = typeof spec.key === 'string' ? [spec.key] : spec.key;
  const updated = spec.columns.filter(
    (name) => !keys.includes(name) && !(spec.keepOnUpdate?.includes(name) ?? false),
  );
  /** The WHERE terms naming the row of `id`. */
  const byKey = (id: TableKey): [string, unknown][] => {
    const values: readonly unknown[] = Array.isArray(id) ? id : [id];
    if (values.length !== keys.length) {
      throw new RangeError(`${table} has a key of ${keys.length} column(s), got ${values.length}`);
    }
    return keys.map((name, at) => [name, values[at]]);
  };
  /** `query` narrowed to the row of `id`. */
  const where = <Q extends { where(column: string, op: '=', value: unknown): Q }>(
    query: Q,
    id: TableKey,
  ): Q => byKey(id).reduce((q, [name, value]) => q.where(name, '=', value), query);
  /** The key of `record`. */
  const keyOf = (record: R): TableKey =>
    keys.map((name) => record[name as keyof R] as string | number);
  const toRow = (record: R): Record<string, unknown> => {
    const row: Record<string, unknown> = {};
    for (const codec of codecs) row[codec.name] = codec.toColumn(record[codec.name as keyof R]);
    return row;
  };
  const fromRow = (row: Readonly<Record<string, unknown>>): R => {
    const record: Record<string, unknown> = {};
    for (const codec of codecs) record[codec.name] = codec.fromColumn(row[codec.name]);
    return record as R;
  };
  return Object.freeze({
    toRow,
    fromRow,
    async get(id) {
      const row = (await where(db.selectFrom(table).selectAll(), id).executeTakeFirst()) as
        Record<string, unknown> | undefined;
      return row === undefined ? null : fromRow(row);
    },
    async put(record) {
      await db
        .insertInto(table)
        .values(toRow(record))
        .onConflict((conflict) =>
          conflict
            .columns(keys)
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
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return result.numInsertedOrUpdatedRows === 1n;
    },
    async update(record) {
      const row = toRow(record);
      const set = Object.fromEntries(
        spec.columns.filter((c) => !keys.includes(c)).map((c) => [c, row[c]]),
      );
      const result = await where(db.updateTable(table).set(set), keyOf(record)).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async change(id, set, expected = {}) {
      // Only declared columns reach the SQL text, whatever the objects hold.
      const columns = (given: Partial<R>): [string, unknown][] =>
        codecs
          .filter((codec) => codec.name in given)
          .map((codec) => [codec.name, codec.toColumn(given[codec.name as keyof R])]);
      const query = columns(expected).reduce(
        (q, [name, value]) => q.where(name, value === null ? 'is' : '=', value),
        where(db.updateTable(table).set(Object.fromEntries(columns(set))), id),
      );
      const result = await query.executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    in: (trx) => bind(trx, spec, codecs),
    async delete(id) {
      const result = await where(db.deleteFrom(table), id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  } satisfies Table<R>);
}
