/**
 * The zod pieces the data routes' schemas share: the list query parameters (page, limit,
 * sort, the one database id), the common scalars (a nullable string, an ISO time, epoch seconds)
 * and the `{data, meta}` envelope of every paginated answer. They document the routes and, on a
 * route whose schema is `checked`, validate its input (validation.ts). Pure data.
 */
import { z } from 'zod';

/** A string or null (pydantic's `Optional[str]`). */
export const NULLABLE_STRING = z.string().nullable();

/** An ISO-8601 UTC time (`2025-07-31T12:38:52Z`). */
export const ISO_TIME = z.string().meta({ format: 'date-time' });

/** Epoch seconds. */
export const EPOCH = z.int().meta({ description: 'Epoch seconds' });

/** An optional string query parameter. */
export const QUERY_STRING = z.string().optional();

/** The path parameters of a path with one string parameter, `name`. */
export const pathParam = <K extends string>(name: K, description: string) =>
  z.object({ [name]: z.string().meta({ description }) } as Record<K, z.ZodString>);

/** `page` (1-based; 0 is read as 1). */
export const PAGE = z
  .int()
  .min(0)
  .max(1_000_000)
  .default(1)
  .meta({ description: 'Page (1-based)' });

/** `limit` with its default and its bound (above it is a 422). */
export const limit = (fallback: number, max: number) =>
  z.int().min(1).max(max).default(fallback).meta({ description: 'Page size' });

/** `sort_by` with its default column (an unknown column is ignored). */
export const sortBy = (fallback: string) =>
  z.string().default(fallback).meta({ description: 'Column to sort by' });

/** `sort_order`. */
export const SORT_ORDER = z.enum(['asc', 'desc']).default('desc');

/** The page parameters of a list route: `limit` (its default and bound), then `page`. */
export const pageQuery = (fallback: number, max: number) => ({
  limit: limit(fallback, max),
  page: PAGE,
});

/** The page parameters, then `sort_by` (its default column) and `sort_order`. */
export const sortedPageQuery = (fallback: number, max: number, column: string) => ({
  ...pageQuery(fallback, max),
  sort_by: sortBy(column),
  sort_order: SORT_ORDER,
});

/** An optional `user_id` filter (replaced by the caller's own id under user isolation). */
export const USER_ID = z.string().optional().meta({ description: 'Filter by user id' });

/** `db_id` and `table`, which every data route takes last. */
export const DB_QUERY = {
  db_id: z.string().optional().meta({ description: 'Database id (the runtime has one)' }),
  table: z.string().optional().meta({ description: 'Table name (ignored)' }),
};

/** A query of only `db_id` and `table`. */
export const DB_ONLY = z.object(DB_QUERY);

/** The `meta` of a paginated answer. */
export const PAGINATION_INFO = z
  .object({
    page: z.int(),
    limit: z.int(),
    total_pages: z.int(),
    total_count: z.int(),
    search_time_ms: z.number(),
  })
  .meta({ id: 'PaginationInfo' });

/** The fields of `record` that the object schema `answer` names, in its order (no other field). */
export function fieldsOf<S extends z.ZodObject>(answer: S, record: z.output<S>): z.output<S> {
  const fields = record as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(answer.shape).map((key) => [key, fields[key]]),
  ) as z.output<S>;
}

/** The `{data, meta}` envelope of every paginated listing of `item`. */
export const paginatedOf = (item: z.ZodType): z.ZodType =>
  z.object({ data: z.array(item), meta: PAGINATION_INFO });

/** The fields of `record` that the object schema `answer` names, in its order, nulls left out. */
export function presentFieldsOf(answer: z.ZodObject, record: object): Record<string, unknown> {
  const fields = record as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(answer.shape)
      .filter((key) => fields[key] !== null)
      .map((key) => [key, fields[key]]),
  );
}
