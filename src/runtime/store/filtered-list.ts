/**
 * Paged, filtered, sorted reads of one table, for stores whose list routes take many optional
 * filters (memories, learnings). The SQL text is built only from the constant filter terms and
 * sort columns a store declares; a caller's value is only ever a bound parameter. Statements are
 * prepared the first time a combination is asked for, then reused.
 */
import type { SqliteDatabase, SqliteStatement } from './sqlite.js';

/** What a store declares once: its table, its filters and the columns it may sort by. */
export interface ListSpec<F extends string, S extends string> {
  readonly table: string;
  /** Each filter's WHERE term, naming its value as `@<filter name>`. */
  readonly filters: Readonly<Record<F, string>>;
  /** The whitelist of sort columns. */
  readonly sorts: readonly S[];
  /** The unique column that breaks ties, so consecutive pages never overlap or skip a row. */
  readonly tieBreak: string;
}

/** One page request: only filters with a defined value apply. */
export interface ListRequest<F extends string, S extends string> {
  readonly filters: Readonly<Partial<Record<F, string | null | undefined>>>;
  readonly sortBy: S;
  readonly sortOrder: 'asc' | 'desc';
  /** 1-based; 0 and below mean 1. */
  readonly page: number;
  /** Rows per page, at least 1. */
  readonly limit: number;
}

/** A prepared family of list statements over one table. */
export interface FilteredList<F extends string, S extends string> {
  /**
   * One page of rows and the count of all rows matching the filters.
   *
   * @throws {RangeError} for a sort column outside the whitelist or a limit below 1
   */
  page(request: ListRequest<F, S>): { rows: unknown[]; total: number };
}

/** Creates the list reader of `spec` on an open, migrated database. */
export function createFilteredList<F extends string, S extends string>(
  db: SqliteDatabase,
  spec: ListSpec<F, S>,
): FilteredList<F, S> {
  const names = Object.keys(spec.filters) as F[];
  const cache = new Map<string, { list: SqliteStatement; count: SqliteStatement }>();
  // One read transaction for both, so `total` always matches the rows of the page.
  const read = db.transaction(
    (list: SqliteStatement, count: SqliteStatement, params: Record<string, unknown>) => ({
      rows: list.all(params),
      total: (count.get(params) as { total: number }).total,
    }),
  );
  return {
    page(request) {
      // The sort column becomes SQL text: only a whitelisted one may, whatever the caller typed.
      if (!spec.sorts.includes(request.sortBy)) {
        throw new RangeError(`unsupported sort column: ${String(request.sortBy)}`);
      }
      if (!Number.isSafeInteger(request.limit) || request.limit < 1) {
        throw new RangeError(`limit must be an integer of at least 1, got ${request.limit}`);
      }
      const active = names.filter((name) => request.filters[name] !== undefined);
      const order = request.sortOrder === 'asc' ? 'ASC' : 'DESC';
      const key = `${active.join(',')}|${request.sortBy}|${order}`;
      let shape = cache.get(key);
      if (shape === undefined) {
        const where =
          active.length === 0
            ? ''
            : ` WHERE ${active.map((name) => `(${spec.filters[name]})`).join(' AND ')}`;
        const sort = `${request.sortBy} ${order}, ${spec.tieBreak} ${order}`;
        shape = {
          list: db.prepare(
            `SELECT * FROM ${spec.table}${where} ORDER BY ${sort} LIMIT @limit OFFSET @offset`,
          ),
          count: db.prepare(`SELECT count(*) AS total FROM ${spec.table}${where}`),
        };
        cache.set(key, shape);
      }
      const params: Record<string, unknown> = {
        limit: request.limit,
        // Capped so that an absurd page is merely past the end rather than beyond SQLite's int64.
        offset: Math.min((Math.max(request.page, 1) - 1) * request.limit, Number.MAX_SAFE_INTEGER),
      };
      for (const name of active) params[name] = request.filters[name];
      return read(shape.list, shape.count, params);
    },
  };
}
