/**
 * The page, limit and sort parameters of the paginated list routes, read as FastAPI reads them,
 * and the pagination envelope they answer with. Never reads the store.
 */
import type { PageParams, Paging } from '../store/page.js';

/** The page, limit and sort parameters of a list query, as its schema parsed them. */
export interface ListQuery extends Paging {
  readonly sort_by: string;
  readonly sort_order: 'asc' | 'desc';
}

/** A parsed query's page (0 reads as 1) and limit. */
export const pagingOf = (q: Paging): Paging => ({ page: Math.max(q.page, 1), limit: q.limit });

/** A parsed list query's page (0 reads as 1) and sort (an unknown column is `defaultSort`, as Agno ignores it). */
export function listOf<S extends string>(
  q: ListQuery,
  sorts: readonly S[],
  defaultSort: S,
): PageParams<S> {
  return {
    ...pagingOf(q),
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
