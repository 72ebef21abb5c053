/**
 * The page, limit and sort parameters of the paginated list routes, read as FastAPI reads them,
 * and the pagination envelope they answer with. Never reads the store.
 */

/** Page, limit and sort of one list request. */
export interface ListParams<S extends string> {
  readonly page: number;
  readonly limit: number;
  readonly sortBy: S;
  readonly sortOrder: 'asc' | 'desc';
}

/** The page, limit and sort parameters of a list query, as its schema parsed them. */
export interface ListQuery {
  readonly page: number;
  readonly limit: number;
  readonly sort_by: string;
  readonly sort_order: 'asc' | 'desc';
}

/** A parsed list query's page (0 reads as 1) and sort (an unknown column is `defaultSort`, as Agno ignores it). */
export function listOf<S extends string>(
  q: ListQuery,
  sorts: readonly S[],
  defaultSort: S,
): ListParams<S> {
  return {
    page: Math.max(q.page, 1),
    limit: q.limit,
    sortBy: sorts.find((s) => s === q.sort_by) ?? defaultSort,
    sortOrder: q.sort_order,
  };
}

/** The pagination envelope `{data, meta}` of every paginated route. */
export function paginated<T>(
  data: readonly T[],
  page: number,
  limit: number,
  total: number,
  searchTimeMs = 0,
): { data: readonly T[]; meta: Record<string, number> } {
  return {
    data,
    meta: {
      page,
      limit,
      total_pages: Math.ceil(total / limit),
      total_count: total,
      search_time_ms: searchTimeMs,
    },
  };
}
