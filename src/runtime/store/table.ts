/**
 * One table's row codec, declared once, and the single-row operations every table needs: read by
 * key, upsert, insert-if-new, update, compare-and-set, delete. A declaration names the table's
 * columns (and its key, one column or a composite) and which of them hold JSON, booleans or epoch
 * seconds; the dialect (database.ts) decides how those are
 * stored. Only declared columns ever reach the SQL text; values are always bound parameters.
 * A write another process could race is a conditional UPDATE on the values it read (`expected`),
 * never a read followed by a write here.
 */
import { sql, type Kysely } from 'kysely';
import type { Database, RuntimeDatabase, SqlDialect } from './database.js';
import type { FilterBuilder } from './page.js';

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
  /** Columns holding a JSON value, `null` included (stored as JSON `null`, never SQL NULL). */
  readonly jsonNull?: readonly Column<R>[];
  /** Columns holding a boolean (`null` stays SQL NULL). */
  readonly booleans?: readonly Column<R>[];
  /** Columns holding epoch seconds. */
  readonly seconds?: readonly Column<R>[];
  /** Columns an upsert keeps from the stored row when the key exists (e.g. `created_at`). */
  readonly keepOnUpdate?: readonly Column<R>[];
  /** The stored column of a field whose name differs from the record's (`summary`, `start_ms`). */
  readonly columnNames?: Readonly<Partial<Record<Column<R>, string>>>;
  /**
   * A stored column outside the record that every write of an existing row adds one to (a
   * version that compare-and-set writes elsewhere key on).
   */
  readonly version?: string;
}

/** A row's key: its value, or the values of a composite key in the declared order. */
export type TableKey = string | number | readonly (string | number)[];

/** One table on an open database, speaking in records. */
export interface Table<R> {
  /** The table's name in {@link Database}. */
  readonly name: keyof Database;
  /** The record as its row is stored. */
  toRow(record: R): Record<string, unknown>;
  /** The stored row as its record (only the declared columns). */
  fromRow(row: Readonly<Record<string, unknown>>): R;
  /** The record of `key`, or `null`. */
  get(key: TableKey): Promise<R | null>;
  /** The records holding every value of `expected` (`null` matches NULL), ascending by `orderBy`. */
  find(expected: Partial<R>, orderBy?: readonly Column<R>[]): Promise<R[]>;
  /** Insert, or update every column but the key and `keepOnUpdate` when the key exists. */
  put(record: R): Promise<void>;
  /** Insert a new record; `false`, and nothing written, when its key (or another unique column) is taken. */
  insert(record: R): Promise<boolean>;
  /** Insert new records in as few statements as the dialect's parameter limit allows. */
  insertAll(records: readonly R[]): Promise<void>;
  /**
   * Replace every column of the stored record of the same key, only while the stored record
   * still holds every value of `expected` (a compare-and-set on what was read; `null` matches
   * NULL); `false`, and nothing written, when there is no such record.
   */
  update(record: R, expected?: Partial<R>): Promise<boolean>;
  /**
   * Set only the fields of `changes` (`undefined` ones are left alone) on the record of `key`,
   * while it holds every value of `expected`, in one conditional UPDATE.
   *
   * @returns the record as stored afterwards, or `null` when no record matched
   */
  patch(key: TableKey, changes: Partial<R>, expected?: Partial<R>): Promise<R | null>;
  /**
   * Compare-and-set: set the fields of `set` on the record of `key`, only while it holds every
   * value of `expected` (`null` matches NULL), in one UPDATE, so that of two writers that read the
   * same value only one changes it.
   *
   * @returns `false`, and nothing written, when no record of `key` holds the expected values
   */
  change(key: TableKey, set: Partial<R>, expected?: Partial<R>): Promise<boolean>;
  /** Delete the record of `key`; `false` when there was none. */
  delete(key: TableKey): Promise<boolean>;
  /**
   * Delete the records of `keys` (of a one-column key) that hold every value of `expected`, a
   * bounded number of keys a statement; run it in a transaction (`in`) for all or none.
   *
   * @returns how many were deleted
   */
  deleteAll(keys: readonly (string | number)[], expected?: Partial<R>): Promise<number>;
  /** The same operations inside the transaction `trx` (from `db.transaction().execute`). */
  in(trx: Kysely<Database>): Table<R>;
}

/** How one field's value crosses between the record and its column. */
interface ColumnCodec {
  /** The record's field. */
  readonly field: string;
  /** The stored column. */
  readonly name: string;
  toColumn(value: unknown): unknown;
  fromColumn(stored: unknown): unknown;
}

const same = (value: unknown): unknown => value;

/** Some columns of one kind and how their values cross. */
type ColumnKind<R> = [
  fields: readonly Column<R>[] | undefined,
  toColumn: ColumnCodec['toColumn'],
  fromColumn: ColumnCodec['fromColumn'],
];

/** The codecs of `spec`'s columns in `dialect`. */
function codecsOf<R>(spec: TableSpec<R>, dialect: SqlDialect): ColumnCodec[] {
  const nullable =
    (convert: (value: never) => unknown) =>
    (value: unknown): unknown =>
      value == null ? null : convert(value as never);
  /** Each kind of column: its fields, and how their values cross (the others as they are). */
  const kinds: ColumnKind<R>[] = [
    [spec.json, nullable(dialect.jsonToColumn), nullable(dialect.jsonFromColumn)],
    [spec.jsonNull, dialect.jsonToColumn, dialect.jsonFromColumn],
    [spec.booleans, nullable(dialect.booleanToColumn), nullable(dialect.booleanFromColumn)],
    [spec.seconds, same, dialect.secondsFromColumn],
  ];
  const plain: ColumnKind<R> = [undefined, same, same];
  return spec.columns.map((field) => {
    const [, toColumn, fromColumn] = kinds.find(([fields]) => fields?.includes(field)) ?? plain;
    return { field, name: spec.columnNames?.[field] ?? field, toColumn, fromColumn };
  });
}

/** The most bound parameters one insert uses (under every dialect's limit: SQLite 32766, Postgres 65535). */
const MAX_INSERT_PARAMETERS = 16_000;

/** How many keys one DELETE binds (well under every dialect's parameter limit). */
const DELETE_CHUNK = 500;

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
  const keyFields: readonly string[] = typeof spec.key === 'string' ? [spec.key] : spec.key;
  /** The stored column of a field. */
  const columnOf = (field: string): string =>
    (codecs.find((codec) => codec.field === field) as ColumnCodec).name;
  /** The key's stored columns, in the key's order. */
  const keys = keyFields.map(columnOf);
  const kept = new Set<string>(spec.keepOnUpdate);
  const updated = codecs
    .filter((c) => !keys.includes(c.name) && !kept.has(c.field))
    .map((c) => c.name);
  /** The WHERE terms naming the row of `id`. */
  const byKey = (id: unknown): [string, unknown][] => {
    const values: readonly unknown[] = Array.isArray(id) ? id : [id];
    if (values.length !== keys.length) {
      throw new RangeError(`${table} has a key of ${keys.length} column(s), got ${values.length}`);
    }
    return keys.map((name, at) => [name, values[at]]);
  };
  /** The key of a row. */
  const keyOfRow = (row: Readonly<Record<string, unknown>>): unknown[] =>
    keys.map((name) => row[name]);
  /** The version column's term in a write of an existing row, an upsert's too: one more. */
  const bumped =
    spec.version === undefined
      ? {}
      : { [spec.version]: sql`${sql.ref(`${table}.${spec.version}`)} + 1` };
  /** The row without its key columns (what an update may set), the version moved on. */
  const withoutKey = (row: Record<string, unknown>): Record<string, unknown> => ({
    ...Object.fromEntries(Object.entries(row).filter(([name]) => !keys.includes(name))),
    ...bumped,
  });
  /** The columns of the fields `record` gives (not `undefined`), encoded. */
  const columnsOf = (record: Partial<R>): Record<string, unknown> => {
    const row: Record<string, unknown> = {};
    for (const codec of codecs) {
      const value = record[codec.field as keyof R];
      if (value !== undefined) row[codec.name] = codec.toColumn(value);
    }
    return row;
  };
  const perInsert = Math.floor(MAX_INSERT_PARAMETERS / codecs.length);
  const toRow = (record: R): Record<string, unknown> => {
    const row: Record<string, unknown> = {};
    for (const codec of codecs) row[codec.name] = codec.toColumn(record[codec.field as keyof R]);
    return row;
  };
  const fromRow = (row: Readonly<Record<string, unknown>>): R => {
    const record: Record<string, unknown> = {};
    for (const codec of codecs) record[codec.field] = codec.fromColumn(row[codec.name]);
    return record as R;
  };
  /** The terms: the row holds every value of `expected` (`null` as IS NULL). */
  const holding = (eb: FilterBuilder, expected: Partial<R> = {}) =>
    Object.entries(columnsOf(expected)).map(([column, value]) =>
      value === null ? eb(column, 'is', null) : eb(column, '=', value),
    );
  /** WHERE: the row of `id`, holding every value of `expected`. */
  const matching = (id: unknown, expected?: Partial<R>) => (eb: FilterBuilder) =>
    eb.and([
      ...byKey(id).map(([column, value]) => eb(column, '=', value)),
      ...holding(eb, expected),
    ]);
  /** Set the columns of `row` on the row of `id` while it holds `expected`; whether one was. */
  const updateRow = async (row: Record<string, unknown>, id: unknown, expected?: Partial<R>) => {
    const result = await db
      .updateTable(table)
      .set(withoutKey(row))
      .where(matching(id, expected))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  };
  return Object.freeze({
    name: spec.name,
    toRow,
    fromRow,
    async get(id) {
      const row = (await db
        .selectFrom(table)
        .selectAll()
        .where(matching(id))
        .executeTakeFirst()) as Record<string, unknown> | undefined;
      return row === undefined ? null : fromRow(row);
    },
    async find(expected, orderBy = []) {
      const rows = await orderBy
        .reduce(
          (qb, field) => qb.orderBy(columnOf(field)),
          db
            .selectFrom(table)
            .selectAll()
            .where((eb: FilterBuilder) => eb.and(holding(eb, expected))),
        )
        .execute();
      return rows.map(fromRow);
    },
    async put(record) {
      await db
        .insertInto(table)
        .values(toRow(record))
        .onConflict((conflict) =>
          conflict.columns(keys).doUpdateSet((eb) => ({
            ...Object.fromEntries(updated.map((name) => [name, eb.ref(`excluded.${name}`)])),
            ...bumped,
          })),
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
    async insertAll(records) {
      for (let at = 0; at < records.length; at += perInsert) {
        await db
          .insertInto(table)
          .values(records.slice(at, at + perInsert).map(toRow))
          .execute();
      }
    },
    async update(record, expected) {
      const row = toRow(record);
      return updateRow(row, keyOfRow(row), expected);
    },
    async patch(id, changes, expected) {
      const stored = (await db
        .updateTable(table)
        .set(withoutKey(columnsOf(changes)))
        .where(matching(id, expected))
        .returningAll()
        .executeTakeFirst()) as Record<string, unknown> | undefined;
      return stored === undefined ? null : fromRow(stored);
    },
    change: (id, set, expected) => updateRow(columnsOf(set), id, expected),
    in: (trx) => bind(trx, spec, codecs),
    async delete(id) {
      const result = await db.deleteFrom(table).where(matching(id)).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async deleteAll(ids, expected) {
      if (keys.length !== 1) throw new RangeError(`${table} has a composite key`);
      let deleted = 0n;
      for (let at = 0; at < ids.length; at += DELETE_CHUNK) {
        const chunk = ids.slice(at, at + DELETE_CHUNK);
        const result = await db
          .deleteFrom(table)
          .where((eb: FilterBuilder) =>
            eb.and([eb(keys[0] as string, 'in', chunk), ...holding(eb, expected)]),
          )
          .executeTakeFirst();
        deleted += result.numDeletedRows;
      }
      return Number(deleted);
    },
  } satisfies Table<R>);
}
