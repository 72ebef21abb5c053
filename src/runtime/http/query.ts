/**
 * What remains of reading a query by hand: the one database id the runtime answers to (the
 * lifecycle checks it on every route declaring it), and scalars as FastAPI reads them for the one
 * route that reads its query itself (`/metrics`, which answers every failure 500 as Agno does).
 */
import { HttpError } from './errors.js';

/** The runtime has one database: its id (or none) is accepted, any other is 404. */
export function checkDatabase(dbId: string, given: string | undefined): void {
  if (given !== undefined && given !== dbId)
    throw new HttpError(404, `No database found with id '${given}'`);
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
