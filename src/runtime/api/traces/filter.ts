/**
 * The trace filter DSL of `POST /traces/search`, checked and compiled to a condition over the
 * `traces` columns and a whitelist of keys: a key only ever selects a column name written below,
 * and every value is a bound parameter, never part of the SQL text. The condition is built with
 * the query builder and the dialect's own terms, so it reads the same in every dialect. Pure.
 */
import type { Expression, SqlBool } from 'kysely';
import type { SqlDialect } from '../../store/database.js';
import type { FilterBuilder } from '../../store/page.js';

/** A field's kind, which decides its operators and values. */
export type FieldType = 'string' | 'enum' | 'number' | 'datetime';

/** One filterable field, as `GET /traces/filter-schema` lists it. */
export interface FilterField {
  readonly key: string;
  readonly label: string;
  readonly type: FieldType;
  readonly operators: readonly string[];
  readonly values?: readonly string[];
}

/** A compiled condition: the WHERE term over the `traces` columns, in a dialect. */
export type TraceCondition = (eb: FilterBuilder, dialect: SqlDialect) => Expression<SqlBool>;

/** A filter that is not a valid expression; the message names the part at fault. */
export class FilterError extends Error {}

const ORDER_OPS = ['EQ', 'NEQ', 'GT', 'GTE', 'LT', 'LTE'] as const;

/** The operators of each kind of field. */
const OPERATORS: Readonly<Record<FieldType, readonly string[]>> = {
  string: ['EQ', 'NEQ', 'IN', 'CONTAINS', 'STARTSWITH'],
  enum: ['EQ', 'NEQ', 'IN'],
  number: [...ORDER_OPS, 'IN'],
  datetime: ORDER_OPS,
};

const field = (
  key: string,
  label: string,
  type: FieldType,
  extra: { values?: readonly string[] } = {},
): FilterField => ({ key, label, type, operators: OPERATORS[type], ...extra });

/** Every key a filter may name; each key is also the column it compiles to. */
export const FILTER_FIELDS: readonly FilterField[] = Object.freeze([
  field('trace_id', 'Trace ID', 'string'),
  field('name', 'Name', 'string'),
  field('status', 'Status', 'enum', { values: ['OK', 'ERROR', 'UNSET'] }),
  field('start_time', 'Start time', 'datetime'),
  field('end_time', 'End time', 'datetime'),
  field('duration_ms', 'Duration (ms)', 'number'),
  field('total_spans', 'Total spans', 'number'),
  field('error_count', 'Error count', 'number'),
  field('run_id', 'Run ID', 'string'),
  field('session_id', 'Session ID', 'string'),
  field('user_id', 'User ID', 'string'),
  field('agent_id', 'Agent ID', 'string'),
  field('team_id', 'Team ID', 'string'),
  field('workflow_id', 'Workflow ID', 'string'),
  field('created_at', 'Created at', 'datetime'),
]);

const FIELDS = new Map(FILTER_FIELDS.map((f) => [f.key, f]));

// EQ and NEQ treat NULL as a value (a missing id equals null), unlike `=`.
const COMPARISONS = {
  EQ: 'is not distinct from',
  NEQ: 'is distinct from',
  GT: '>',
  GTE: '>=',
  LT: '<',
  LTE: '<=',
} as const;

const ALL_OPS = [...Object.keys(COMPARISONS), 'IN', 'CONTAINS', 'STARTSWITH', 'AND', 'OR', 'NOT'];

/** Bounds on one expression, so a request cannot make an unbounded statement. */
const MAX_DEPTH = 8;
const MAX_NODES = 200;
const MAX_IN_VALUES = 100;

const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an ISO 8601 time that names its zone (`Z` or `±hh:mm`); null otherwise. */
export function parseZonedTime(value: string): number | null {
  if (!ZONED_TIME.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Compiles a filter expression (null: no condition): a leaf `{op, key, value}`, `{op: "AND"|"OR", conditions}` or
 * `{op: "NOT", condition}`.
 *
 * @throws {FilterError} for anything else, naming what is wrong
 */
export function compileFilter(expression: unknown): TraceCondition {
  let nodes = 0;

  function compile(node: unknown, depth: number): TraceCondition {
    if (!isObject(node)) throw new FilterError('each condition must be an object');
    if (depth > MAX_DEPTH) throw new FilterError(`nesting is deeper than ${MAX_DEPTH} levels`);
    if (++nodes > MAX_NODES) throw new FilterError(`more than ${MAX_NODES} conditions`);
    const { op } = node;
    if (typeof op !== 'string' || !ALL_OPS.includes(op)) {
      throw new FilterError(`'op' must be one of ${ALL_OPS.join(', ')}, got ${JSON.stringify(op)}`);
    }
    if (op === 'AND' || op === 'OR') {
      const { conditions } = node;
      if (!Array.isArray(conditions) || conditions.length === 0) {
        throw new FilterError(`'conditions' of ${op} must be a non-empty list`);
      }
      const parts = conditions.map((c) => compile(c, depth + 1));
      const combine = op === 'AND' ? 'and' : 'or';
      return (eb, dialect) => eb[combine](parts.map((part) => part(eb, dialect)));
    }
    if (op === 'NOT') {
      const inner = compile(node.condition, depth + 1);
      return (eb, dialect) => eb.not(inner(eb, dialect));
    }
    return leaf(op, node);
  }

  function leaf(op: string, node: Record<string, unknown>): TraceCondition {
    const key = node.key;
    const spec = typeof key === 'string' ? FIELDS.get(key) : undefined;
    if (spec === undefined) throw new FilterError(`unknown key ${JSON.stringify(key)}`);
    if (!spec.operators.includes(op)) {
      throw new FilterError(`operator ${op} does not apply to '${spec.key}'`);
    }
    // The column name comes from the whitelist entry, never from the request.
    const column = spec.key;
    if (op === 'IN') {
      const values = node.value;
      if (!Array.isArray(values) || values.length === 0 || values.length > MAX_IN_VALUES) {
        throw new FilterError(
          `'value' of IN on '${column}' must be a list of 1 to ${MAX_IN_VALUES} values`,
        );
      }
      const checked = values.map((value) => valueOf(spec, value, false));
      return (eb) => eb(column, 'in', checked);
    }
    if (op === 'CONTAINS') {
      const needle = valueOf(spec, node.value, false) as string;
      return (_eb, dialect) => dialect.containsFolded(column, needle);
    }
    if (op === 'STARTSWITH') {
      const prefix = valueOf(spec, node.value, false) as string;
      return (_eb, dialect) => dialect.startsWith(column, prefix);
    }
    const value = valueOf(spec, node.value, op === 'EQ' || op === 'NEQ');
    const comparison = COMPARISONS[op as keyof typeof COMPARISONS];
    return (eb) => eb(column, comparison, value);
  }

  if (expression === null) return (eb) => eb.and([]);
  return compile(expression, 1);
}

/** A leaf's value as the column stores it; `nullable` lets EQ/NEQ match a missing id. */
function valueOf(spec: FilterField, value: unknown, nullable: boolean): string | number | null {
  if (value === null && nullable && spec.type === 'string') return null;
  switch (spec.type) {
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw new FilterError(`'value' of '${spec.key}' must be a number`);
    case 'datetime': {
      const ms = typeof value === 'string' ? parseZonedTime(value) : null;
      if (ms !== null) return ms;
      throw new FilterError(
        `'value' of '${spec.key}' must be an ISO 8601 time with a zone, e.g. 2025-11-19T10:00:00Z`,
      );
    }
    case 'enum':
      if (typeof value === 'string' && (spec.values as readonly string[]).includes(value)) {
        return value;
      }
      throw new FilterError(
        `'value' of '${spec.key}' must be one of ${(spec.values as readonly string[]).join(', ')}`,
      );
    default:
      if (typeof value === 'string') return value;
      throw new FilterError(`'value' of '${spec.key}' must be a string`);
  }
}
