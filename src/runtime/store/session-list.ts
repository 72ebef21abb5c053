/**
 * The statements behind `listSessions`: one per filter combination and sort, all prepared when
 * the store opens, so the SQL text is built only from the constants below. A caller's value is
 * only ever a bound parameter, never part of the SQL.
 */
import type { SessionType } from './records.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite.js';

/** Filters, sort and page for {@link SessionLists.page}. */
export interface SessionQuery {
  /** Only sessions of this kind. */
  type?: SessionType;
  /** Only sessions of this agent, team or workflow id. */
  componentId?: string;
  /** `undefined`: any owner; `null`: only sessions whose `user_id` is NULL; else that owner. */
  userId?: string | null;
  /** Case-insensitive substring of `session_name`; an empty string filters nothing. */
  nameContains?: string;
  /** 1-based; 0 and below mean 1. */
  page: number;
  /** Rows per page, at least 1. */
  limit: number;
  /** Sessions whose `session_name` is NULL sort first when ascending, last when descending. */
  sortBy: 'created_at' | 'updated_at' | 'session_name';
  sortOrder: 'asc' | 'desc';
}

/** The SQL function that case-folds names, registered by {@link prepareSessionLists}. */
const FOLD = 'scopegate_fold';

/**
 * Each filter's WHERE term. `user_id IS @userId` rather than `=`: bound to NULL it selects the
 * ownerless sessions, and SQLite still uses the index for it.
 */
const FILTERS = [
  ['type', 'session_type = @type'],
  ['componentId', 'component_id = @componentId'],
  ['userId', 'user_id IS @userId'],
  ['nameContains', `instr(${FOLD}(session_name), @nameContains) > 0`],
] as const;

/** The whitelist of sort columns and directions. */
const SORT_BY = ['created_at', 'updated_at', 'session_name'] as const;
const SORT_ORDER = ['asc', 'desc'] as const;

/** Bound values of a list statement; only the keys its SQL names are read. */
interface ListParams {
  type?: SessionType;
  componentId?: string;
  userId?: string | null;
  nameContains?: string;
  limit: number;
  offset: number;
}

/** The page and count statements for one filter combination and sort. */
interface Shape {
  list: SqliteStatement;
  count: SqliteStatement;
}

/** Prepared list and count statements, keyed by filter combination (and sort). */
export interface SessionLists {
  /**
   * The rows of one page and the count of all rows matching the filters.
   *
   * @throws {RangeError} for a limit below 1, a non-integer page or limit, or a sort outside the
   *   whitelist
   */
  page(query: SessionQuery): { rows: unknown[]; total: number };
}

/** Which filters a query uses, as a key such as `"type,userId"`. */
function filterKey(active: ReadonlySet<string>): string {
  return FILTERS.filter(([name]) => active.has(name))
    .map(([name]) => name)
    .join(',');
}

/** Prepare every list and count statement on `db` (16 filter combinations × 6 sorts). */
export function prepareSessionLists(db: SqliteDatabase): SessionLists {
  // JavaScript case folding, not SQLite's lower(), which folds ASCII only.
  db.function(FOLD, { deterministic: true }, (value) =>
    typeof value === 'string' ? value.toLowerCase() : null,
  );

  // One read transaction for both, so `total` always matches the rows of the page.
  const read = db.transaction((chosen: Shape, params: ListParams) => ({
    rows: chosen.list.all(params),
    total: (chosen.count.get(params) as { total: number }).total,
  }));

  const statements = new Map<string, Shape>();
  for (let mask = 0; mask < 1 << FILTERS.length; mask++) {
    const used = FILTERS.filter((_, i) => (mask >> i) & 1);
    const key = filterKey(new Set(used.map(([name]) => name)));
    const where = used.length === 0 ? '' : ` WHERE ${used.map(([, term]) => term).join(' AND ')}`;
    const count = db.prepare(`SELECT count(*) AS total FROM sessions${where}`);
    for (const column of SORT_BY) {
      for (const order of SORT_ORDER) {
        // session_id breaks ties so consecutive pages never overlap or skip a row.
        const sort = `${column} ${order.toUpperCase()}, session_id ${order.toUpperCase()}`;
        const list = db.prepare(
          `SELECT * FROM sessions${where} ORDER BY ${sort} LIMIT @limit OFFSET @offset`,
        );
        statements.set(`${key}|${column}|${order}`, { list, count });
      }
    }
  }

  return {
    page(query) {
      const { limit } = query;
      if (!Number.isSafeInteger(limit) || limit < 1) {
        throw new RangeError(`limit must be an integer of at least 1, got ${limit}`);
      }
      if (!Number.isSafeInteger(query.page)) {
        throw new RangeError(`page must be an integer, got ${query.page}`);
      }
      // Capped so that an absurd page is merely past the end rather than beyond SQLite's int64.
      const offset = Math.min((Math.max(query.page, 1) - 1) * limit, Number.MAX_SAFE_INTEGER);
      const params: ListParams = { limit, offset };
      const active = new Set<string>();
      if (query.type !== undefined) {
        active.add('type');
        params.type = query.type;
      }
      if (query.componentId !== undefined) {
        active.add('componentId');
        params.componentId = query.componentId;
      }
      if (query.userId !== undefined) {
        active.add('userId');
        params.userId = query.userId;
      }
      if (query.nameContains) {
        active.add('nameContains');
        params.nameContains = query.nameContains.toLowerCase();
      }
      const chosen = statements.get(`${filterKey(active)}|${query.sortBy}|${query.sortOrder}`);
      if (chosen === undefined) {
        throw new RangeError(
          `unsupported sort: ${String(query.sortBy)} ${String(query.sortOrder)}`,
        );
      }
      return read(chosen, params);
    },
  };
}
