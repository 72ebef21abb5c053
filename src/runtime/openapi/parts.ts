/**
 * The building blocks the OpenAPI path modules are written with: `$ref`s, JSON bodies, the shared
 * query parameters and the error responses every route shares. Pure data constructors: no I/O,
 * nothing here knows a route.
 */
import { ERROR_RESPONSE_NAMES, type ErrorStatus } from '../http/openapi.js';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses) or any other OpenAPI object. */
export type Json = Readonly<Record<string, unknown>>;

/** The operations of one path, by lower-case HTTP method. */
export type PathItem = Readonly<Record<string, Json>>;

/** Paths by OpenAPI path template (`/agents/{agent_id}`). */
export type Paths = Readonly<Record<string, PathItem>>;

/** A reference to a schema in `components.schemas`. */
export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** `schema` or null (pydantic's `Optional[...]`). */
export const nullable = (schema: Json): Json => ({ anyOf: [schema, { type: 'null' }] });

/** An object schema with `properties`, of which `required` must be present. */
export const object = (properties: Json, required: readonly string[] = []): Json => ({
  type: 'object',
  ...(required.length === 0 ? {} : { required }),
  properties,
});

/** Schema shorthands. */
export const STRING: Json = { type: 'string' };
export const INTEGER: Json = { type: 'integer' };
export const NUMBER: Json = { type: 'number' };
export const BOOLEAN: Json = { type: 'boolean' };
export const OBJECT: Json = { type: 'object' };
/** Any JSON value. */
export const ANY: Json = {};
/** An ISO-8601 UTC time (`2025-07-31T12:38:52Z`). */
export const ISO_TIME: Json = { type: 'string', format: 'date-time' };
/** Epoch seconds. */
export const EPOCH: Json = { type: 'integer', description: 'Epoch seconds' };

/** An array of `items`. */
export const arrayOf = (items: Json): Json => ({ type: 'array', items });

/** A JSON response (or request) content map. */
export const json = (schema: Json): Json => ({ 'application/json': { schema } });

/** A response with a JSON body. */
export const ok = (description: string, schema: Json): Json => ({
  description,
  content: json(schema),
});

/** A response without a body. */
export const empty = (description: string): Json => ({ description });

/** A required JSON request body. */
export const jsonBody = (schema: Json): Json => ({ required: true, content: json(schema) });

/** The `{data, meta}` envelope of every paginated listing. */
export const paginated = (item: Json): Json => ({
  type: 'object',
  required: ['data', 'meta'],
  properties: { data: arrayOf(item), meta: ref('PaginationInfo') },
});

/** A path parameter (always a string to the runtime). */
export const pathParam = (name: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/** An optional query parameter. */
export const query = (name: string, schema: Json, description?: string): Json => ({
  name,
  in: 'query',
  required: false,
  schema,
  ...(description === undefined ? {} : { description }),
});

/** `page` (1-based; 0 is read as 1). */
export const PAGE = query('page', { type: 'integer', minimum: 0, default: 1 }, 'Page (1-based)');

/** `limit` with its default and its bound, if any. */
export const limit = (fallback: number, max?: number): Json =>
  query(
    'limit',
    {
      type: 'integer',
      minimum: 1,
      ...(max === undefined ? {} : { maximum: max }),
      default: fallback,
    },
    'Page size',
  );

/** `sort_by` with its default column (an unknown column is ignored). */
export const sortBy = (fallback: string): Json =>
  query('sort_by', { type: 'string', default: fallback }, 'Column to sort by');

/** `sort_order`. */
export const SORT_ORDER = query('sort_order', {
  type: 'string',
  enum: ['asc', 'desc'],
  default: 'desc',
});

/** `db_id`: the runtime's one database (any other id is 404). */
export const DB_ID = query('db_id', STRING, 'Database id (the runtime has one)');

/** `db_id` and `table`. */
export const DB_PARAMS: readonly Json[] = [DB_ID, query('table', STRING, 'Table name (ignored)')];

/** An optional `user_id` filter (replaced by the caller's own id under user isolation). */
export const USER_ID = query('user_id', STRING, 'Filter by user id');

/** References to the shared error responses for `statuses`. */
export function errors(...statuses: ErrorStatus[]): Record<string, Json> {
  return Object.fromEntries(
    statuses.map((s) => [s, { $ref: `#/components/responses/${ERROR_RESPONSE_NAMES[s]}` }]),
  );
}
