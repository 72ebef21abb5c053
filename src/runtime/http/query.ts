/**
 * Query parameters every data route reads the same way: scalars as FastAPI reads them,
 * integers and bounded integers refused in pydantic's words, and the one database id the
 * runtime answers to.
 */
import { HttpError } from './errors.js';

/** The runtime has one database: its id (or none) is accepted, any other is 404. */
export function checkDatabase(dbId: string, given: string | undefined): void {
  if (given !== undefined && given !== dbId)
    throw new HttpError(404, `No database found with id '${given}'`);
}

/** An integer query parameter (`undefined` when absent); anything else is a 422. */
export function intQuery(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) {
    throw new HttpError(422, [
      {
        type: 'int_parsing',
        loc: ['query', field],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: value,
      },
    ]);
  }
  return Number(value);
}

/** A bounded integer query parameter, refused with pydantic's words. */
export function boundedInt(
  value: string | undefined,
  field: string,
  fallback: number,
  max: number,
): number {
  const n = intQuery(value, field);
  if (n === undefined) return fallback;
  const loc = ['query', field];
  if (n < 1) {
    throw new HttpError(422, [
      {
        type: 'greater_than_equal',
        loc,
        msg: 'Input should be greater than or equal to 1',
        input: value,
        ctx: { ge: 1 },
      },
    ]);
  }
  if (n > max) {
    throw new HttpError(422, [
      {
        type: 'less_than_equal',
        loc,
        msg: `Input should be less than or equal to ${max}`,
        input: value,
        ctx: { le: max },
      },
    ]);
  }
  return n;
}

/** `sort_order`: `asc` or `desc` (the default), else pydantic's enum 422. */
export function sortOrderQuery(value: string | undefined): 'asc' | 'desc' {
  if (value === undefined || value === 'desc') return 'desc';
  if (value === 'asc') return value;
  throw new HttpError(422, [
    {
      type: 'enum',
      loc: ['query', 'sort_order'],
      msg: "Input should be 'asc' or 'desc'",
      input: value,
      ctx: { expected: "'asc' or 'desc'" },
    },
  ]);
}

/** Query parameters as Fastify parses them: a repeated name gives an array. */
export type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Query parameters as FastAPI reads scalar ones: a repeated name counts with its last value. */
export function scalarQuery(query: RawQuery): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(query)) {
    out[name] = typeof value === 'string' ? value : value?.at(-1);
  }
  return out;
}
