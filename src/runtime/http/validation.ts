/**
 * Request validation, once for every route, in FastAPI's words. The validator compiler turns each
 * zod schema a route declares (`params`, `querystring`, `headers`, `body`) into a check that
 * replaces the request part with its parsed value, or with the part's problems; one `preHandler`
 * then answers 422 with every part's problems together, in FastAPI's order (path, query, header,
 * body), so a handler only ever sees input that parsed. Query values are read as FastAPI reads
 * them: a repeated scalar counts with its last value, integers, numbers and booleans are parsed
 * from their text in pydantic's words, and an entry names the text the caller sent.
 */
import type {
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  FastifyTypeProvider,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { z } from 'zod';
import { validationIssues, type ValidationIssue } from '../../shared/validation-issue.js';
import { HttpError } from './errors.js';
import { DB_QUERY } from './openapi-shapes.js';
import { checkDatabase } from './query.js';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * Whether the lifecycle checks this route's parts against its schemas (422 before the
     * handler). Routes still reading their own input leave it off while they move over.
     */
    checked?: boolean;
  }
}

/**
 * The key under which a request part that did not parse carries its problems, for the one 422
 * (a symbol, so no caller's key can forge it; Fastify merges a checked `headers` part into the
 * received headers, and the symbol with it).
 */
const INVALID = Symbol('invalid request part');

/**
 * Types a checked route's request parts from the zod schemas it declares, as the lifecycle parses
 * them (`app.withTypeProvider<CheckedTypes>()`): only for routes that are all `checked`, since an
 * unchecked route's parts arrive as sent.
 */
export interface CheckedTypes extends FastifyTypeProvider {
  readonly validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  readonly serializer: unknown;
}

/**
 * The route schemas of one section of the document (`tags`): `checked(summary, parts)` for a route
 * whose parts the lifecycle checks, `documented(summary, parts)` for one that reads its own input.
 */
export function sectionSchemas(tags: readonly string[]) {
  return {
    checked: <S extends FastifySchema>(summary: string, parts: S) => ({
      checked: true as const,
      tags,
      summary,
      ...parts,
    }),
    documented: <S extends FastifySchema>(summary: string, parts: S) => ({
      tags,
      summary,
      ...parts,
    }),
  };
}

/** A request part that did not parse. */
type InvalidPart = { readonly [INVALID]: readonly ValidationIssue[] };

const invalid = (issues: readonly ValidationIssue[]): Checked => ({
  value: { [INVALID]: issues } satisfies InvalidPart,
});

/** What a compiled check gives Fastify: the part's new value (parsed, or its problems). */
type Checked = { value: unknown };

/** A compiled check of one request part. */
export type PartCheck = (data: unknown) => Checked;

/** The request parts a route may declare, and where FastAPI says their problems are. */
const WHERE = { params: 'path', querystring: 'query', headers: 'header', body: 'body' } as const;

/** A request part Fastify validates. */
export type HttpPart = keyof typeof WHERE;

/** How a query value's text becomes the value its schema reads. */
type Reader = (text: string) => { value: unknown } | { issue: Omit<ValidationIssue, 'loc'> };

const BOOLEANS: Readonly<Record<string, boolean>> = {
  true: true,
  '1': true,
  yes: true,
  on: true,
  false: false,
  '0': false,
  no: false,
  off: false,
};

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** A reader whose `parse` gives the value, or `undefined` for text that is not one (`type`, `msg`). */
const reader =
  (parse: (text: string) => unknown, type: string, msg: string): Reader =>
  (text) => {
    const value = parse(text);
    return value === undefined ? { issue: { type, msg, input: text } } : { value };
  };

const readInteger = reader(
  (text) => (INTEGER.test(text) ? Number(text) : undefined),
  'int_parsing',
  'Input should be a valid integer, unable to parse string as an integer',
);

const readNumber = reader(
  (text) => (NUMBER.test(text.trim()) ? Number(text) : undefined),
  'float_parsing',
  'Input should be a valid number, unable to parse string as a number',
);

const readBoolean = reader(
  (text) => BOOLEANS[text.toLowerCase()],
  'bool_parsing',
  'Input should be a valid boolean, unable to interpret input',
);

const readText: Reader = (text) => ({ value: text });

/** The schema under its optional, default and nullable wrappers. */
function unwrapped(schema: z.core.$ZodType): z.core.$ZodType {
  let inner = schema;
  for (;;) {
    const def = inner._zod.def as { innerType?: z.core.$ZodType };
    if (def.innerType === undefined) return inner;
    inner = def.innerType;
  }
}

/** How the text of a value of `schema` is read. */
function readerOf(schema: z.core.$ZodType): Reader {
  const def = schema._zod.def as { type: string; format?: string };
  if (def.type === 'boolean') return readBoolean;
  if (def.type === 'number') return def.format === undefined ? readNumber : readInteger;
  return readText;
}

/** One query parameter: a list takes every value given, a scalar its last. */
interface QueryField {
  readonly name: string;
  readonly list: boolean;
  readonly read: Reader;
}

function queryFields(schema: z.ZodType, route: string): QueryField[] {
  if (!(schema instanceof z.ZodObject)) {
    throw new Error(`${route}: query parameters need a zod object`);
  }
  return Object.entries(schema.shape as Record<string, z.core.$ZodType>).map(([name, field]) => {
    const inner = unwrapped(field);
    const element = (inner._zod.def as { element?: z.core.$ZodType }).element;
    return element === undefined
      ? { name, list: false, read: readerOf(inner) }
      : { name, list: true, read: readerOf(unwrapped(element)) };
  });
}

/** The part's problems as 422 entries; a top-level query entry names the text sent. */
function issuesOf(
  where: (typeof WHERE)[HttpPart],
  error: z.ZodError,
  sent?: Readonly<Record<string, unknown>>,
): ValidationIssue[] {
  const issues = validationIssues(where, error.issues);
  if (sent === undefined) return issues;
  return issues.map((issue) => {
    // A query entry's loc is `['query', name]`: the name of the parameter, whose text was sent.
    const text = issue.loc.length === 2 ? sent[issue.loc[1] as string] : undefined;
    return text === undefined ? issue : { ...issue, input: text };
  });
}

/** The check of a query: each declared parameter read from its text, then the schema applied. */
function queryCheck(schema: z.ZodType, route: string): PartCheck {
  const fields = queryFields(schema, route);
  return (data) => {
    const raw = (data ?? {}) as Readonly<Record<string, string | readonly string[] | undefined>>;
    const values: Record<string, unknown> = {};
    const sent: Record<string, unknown> = {};
    const problems: ValidationIssue[] = [];
    for (const field of fields) {
      const given = raw[field.name];
      if (given === undefined) continue;
      const texts = typeof given === 'string' ? [given] : given;
      const read = (field.list ? texts : texts.slice(-1)).map((text, index) => {
        const result = field.read(text);
        if ('issue' in result) {
          const loc = field.list ? ['query', field.name, index] : ['query', field.name];
          problems.push({ ...result.issue, loc });
        }
        return 'value' in result ? result.value : text;
      });
      values[field.name] = field.list ? read : read[0];
      sent[field.name] = field.list ? texts : texts.at(-1);
    }
    if (problems.length > 0) return invalid(problems);
    const result = schema.safeParse(values, { reportInput: true });
    return result.success ? { value: result.data } : invalid(issuesOf('query', result.error, sent));
  };
}

/** The check of a body, path or headers: the schema applied to the value as it arrived. */
function valueCheck(schema: z.ZodType, where: (typeof WHERE)[HttpPart]): PartCheck {
  return (data) => {
    // Fastify passes an absent part as null; FastAPI reads it as missing.
    const result = schema.safeParse(data ?? undefined, { reportInput: true });
    return result.success ? { value: result.data } : invalid(issuesOf(where, result.error));
  };
}

/** Compiles the check of `part` of the route `route` (`METHOD url`, for error messages). */
export function compilePartCheck(schema: z.ZodType, part: HttpPart, route: string): PartCheck {
  return part === 'querystring' ? queryCheck(schema, route) : valueCheck(schema, WHERE[part]);
}

const PARTS = ['params', 'query', 'headers', 'body'] as const;

/** 422 with the problems of every part that did not parse (path, query, header, body). */
function refuseInvalid(request: FastifyRequest): void {
  let problems: ValidationIssue[] | null = null;
  for (const part of PARTS) {
    const issues = (request[part] as Partial<InvalidPart> | null | undefined)?.[INVALID];
    if (issues !== undefined) (problems ??= []).push(...issues);
  }
  if (problems !== null) throw new HttpError(422, problems);
}

const ACCEPT_AS_IS = (): true => true;

/** Whether `schema` is a zod object whose `db_id` is the runtime's database id parameter. */
const namesTheDatabase = (schema: unknown): boolean =>
  schema instanceof z.ZodObject && schema.shape['db_id'] === DB_QUERY.db_id;

/**
 * Installs the validator compiler and, on every route whose schema is `checked`, the
 * `preHandler` that answers 422 for what did not parse, then 404 for a `db_id` other than
 * `dbId` where the query declares the database id parameter (`DB_QUERY.db_id`): the runtime has
 * one database. Call it before any route.
 * A route part's schema that is not zod fails at startup: nothing may look validated that is not.
 */
export function registerValidation(app: FastifyInstance, dbId: string): void {
  const checked = new Set<string>();
  const refuse: preHandlerAsyncHookHandler = async (request) => refuseInvalid(request);
  const refuseOrUnknownDb: preHandlerAsyncHookHandler = async (request) => {
    refuseInvalid(request);
    checkDatabase(dbId, (request.query as { db_id?: string }).db_id);
  };
  app.addHook('onRoute', (route) => {
    if (route.schema?.checked !== true) return;
    for (const method of [route.method].flat()) checked.add(`${method} ${route.url}`);
    const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [
      namesTheDatabase(route.schema.querystring) ? refuseOrUnknownDb : refuse,
      ...own,
    ];
  });
  app.setValidatorCompiler(({ schema, method, url, httpPart }) => {
    const route = `${method} ${url}`;
    if (!(schema instanceof z.ZodType)) {
      throw new Error(`${route} ${String(httpPart)}: the runtime's route schemas are zod schemas`);
    }
    return checked.has(route)
      ? compilePartCheck(schema, httpPart as HttpPart, route)
      : ACCEPT_AS_IS;
  });
}
