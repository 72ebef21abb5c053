/**
 * The one paged, filtered, sorted reader of the store's list routes: a table declares its filters
 * (each a WHERE term for one value), the columns it may sort by and its tie-breaking key once;
 * a request names the filter values it has, a sort and a page, and gets one page of records with
 * the count of every match. A caller's value is only ever a bound parameter; a sort column reaches
 * the SQL text only when it is on the whitelist.
 */
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { RuntimeDatabase } from './database.js';
import type { Table } from './table.js';

/** The query builder a filter writes its term with (the table's columns are plain names). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FilterBuilder = ExpressionBuilder<any, any>;

/** One filter: the WHERE term for a value the request gave. */
export type Filter<V> = (value: V, eb: FilterBuilder) => Expression<SqlBool>;

/** What a table declares once. `F` maps each filter's name to the type of its value. */
export interface PageSpec<F, S extends string> {
  /** Each filter gets its value as given, `null` included; `undefined` skips it. */
  readonly filters: { readonly [K in keyof F]-?: Filter<Exclude<F[K], undefined>> };
  /** The whitelist of sort columns; a request naming none sorts by the first. */
  readonly sorts: readonly S[];
  /**
   * Sort columns that may hold NULL: NULL sorts as the lowest value (first ascending, last
   * descending) in every dialect, as SQLite orders it.
   */
  readonly nullable?: readonly S[];
  /** The unique column that breaks ties, so consecutive pages never overlap or skip a row. */
  readonly tieBreak: string;
  /** The tie-break's own order, whatever the sort's (default: the sort's order). */
  readonly tieBreakOrder?: 'asc' | 'desc';
}

/** Which page of how many rows. */
export interface Paging {
  /** 1-based, an integer; 0 and below mean 1. */
  readonly page: number;
  /** Rows per page, at least 1. */
  readonly limit: number;
}

/** A page and the order of the rows it is cut from. */
export interface PageParams<S extends string> extends Paging {
  readonly sortBy: S;
  readonly sortOrder: 'asc' | 'desc';
}

/**
 * One page request: only the filters with a value (not `undefined`) apply; without a sort, the
 * spec's first sort column, descending.
 */
export interface PageRequest<F, S extends string> extends Paging {
  readonly filters: Readonly<F>;
  readonly sortBy?: S;
  readonly sortOrder?: 'asc' | 'desc';
}

/** The rows a page skips, capped so an absurd page is merely past the end (not beyond 64 bits). */
export const offsetOf = ({ page, limit }: Paging): number =>
  Math.min((Math.max(page, 1) - 1) * limit, Number.MAX_SAFE_INTEGER);

/** One page of records and how many match in all. */
export interface Page<R> {
  readonly rows: R[];
  readonly total: number;
}

/** The reader of one table. */
export interface PageReader<R, F, S extends string> {
  /**
   * One page and the count of every match, read in one transaction so they agree.
   *
   * @throws {RangeError} for a sort column outside the whitelist, a limit below 1 or a page
   *   that is not an integer
   */
  page(request: PageRequest<F, S>): Promise<Page<R>>;
}

/** Filters comparing the column with the value by `operator`. */
const comparing =
  (operator: '=' | '>=' | '<=') =>
  (column: string): Filter<string | number> =>
  (value, eb) =>
    eb(column, operator, value);

/** Filter: the column equals the value. */
export const equals = comparing('=');

/** Filter: the column is at least the value. */
export const atLeast = comparing('>=');

/** Filter: the column is at most the value. */
export const atMost = comparing('<=');

/** Filter: the column equals the value; `null` selects the rows where it is NULL. */
export const equalsOrNull =
  (column: string): Filter<string | number | null> =>
  (value, eb) =>
    value === null ? eb(column, 'is', null) : eb(column, '=', value);
/** Filter: the column equals one of the values; an empty list matches nothing. */
export const oneOf =
  (column: string): Filter<readonly (string | number)[]> =>
  (values, eb) =>
    values.length === 0 ? eb.or([]) : eb(column, 'in', values);

/** The reader of `spec` on `database`, decoding rows with `table`. */
export function pageOf<R, F, S extends string>(
  database: RuntimeDatabase,
  table: Table<R>,
  spec: PageSpec<F, S>,
): PageReader<R, F, S> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = database.db as unknown as Kysely<any>;
  const names = Object.keys(spec.filters) as (keyof F & string)[];
  const nullable = new Set<string>(spec.nullable);
  return Object.freeze({
    async page(request: PageRequest<F, S>): Promise<Page<R>> {
      const { sortBy = spec.sorts[0] as S, sortOrder = 'desc' } = request;
      // The sort column becomes SQL text: only a whitelisted one may, whatever the caller typed.
      if (!spec.sorts.includes(sortBy)) {
        throw new RangeError(`unsupported sort column: ${String(sortBy)}`);
      }
      if (!Number.isSafeInteger(request.limit) || request.limit < 1) {
        throw new RangeError(`limit must be an integer of at least 1, got ${request.limit}`);
      }
      if (!Number.isSafeInteger(request.page)) {
        throw new RangeError(`page must be an integer, got ${request.page}`);
      }
      const active = names.filter((name) => request.filters[name] !== undefined);
      const where = (eb: FilterBuilder): Expression<SqlBool> =>
        eb.and(
          active.map((name) =>
            spec.filters[name](request.filters[name] as Exclude<F[typeof name], undefined>, eb),
          ),
        );
      const filtered = active.length > 0;
      return db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom(table.name)
          .selectAll()
          .$if(filtered, (qb) => qb.where(where))
          .orderBy(sortBy, (ob) => {
            const ordered = sortOrder === 'asc' ? ob.asc() : ob.desc();
            if (!nullable.has(sortBy)) return ordered;
            return sortOrder === 'asc' ? ordered.nullsFirst() : ordered.nullsLast();
          })
          .orderBy(spec.tieBreak, spec.tieBreakOrder ?? sortOrder)
          .limit(request.limit)
          .offset(offsetOf(request))
          .execute();
        const count = await trx
          .selectFrom(table.name)
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .$if(filtered, (qb) => qb.where(where))
          .executeTakeFirstOrThrow();
        return { rows: rows.map((row) => table.fromRow(row)), total: Number(count.total) };
      });
    },
  });
}
