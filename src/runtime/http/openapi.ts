/**
 * The runtime's OpenAPI machinery. A route declares its part of the document on Fastify's own
 * route `schema` option, with zod schemas: `{summary, tags, description?, params?, headers?,
 * querystring?, body?, response: {200: …}}` (and `security?`, `deprecated?`). An `onRoute` hook
 * collects every route the app registers, and {@link buildRoutePaths} turns the declared ones
 * into OpenAPI 3.1 paths and component schemas with `z.toJSONSchema` (JSON Schema 2020-12:
 * request parts as zod reads its input, responses as it writes its output; a schema carrying
 * `.meta({ id })` becomes a named component schema, reached by `$ref`).
 *
 * The serializer compiler writes every reply with JSON.stringify, as Fastify does for a route
 * without a schema (response schemas document and never strip a field); request parts are
 * checked by validation.ts. A response schema that is not zod fails at startup.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifySchema {
    /** One line naming what the operation does. */
    summary?: string;
    /** The document's sections this operation is listed under. */
    tags?: readonly string[];
    /** More words on the operation, where one line is not enough. */
    description?: string;
    /** The media types of a body that is not JSON (a form); the body schema is each one's. */
    consumes?: readonly string[];
    /** The operation's own security requirements (`[]`: none, the document's otherwise). */
    security?: readonly Json[];
    /** Whether the operation is deprecated. */
    deprecated?: boolean;
  }
}

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses) or any other OpenAPI object. */
export type Json = Readonly<Record<string, unknown>>;

/** A response documented with its own description; without a schema it has no body. */
export class DescribedResponse {
  readonly description: string;
  readonly schema: z.ZodType | null;
  constructor(description: string, schema: z.ZodType | null) {
    this.description = description;
    this.schema = schema;
  }
}

/** One of the error responses every route shares, by its `components.responses` name. */
export class SharedResponse {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** What a route may document for one status: a zod schema (a JSON body), or one of the above. */
export type ResponseDoc = z.ZodType | DescribedResponse | SharedResponse;

/** A JSON response named `description`, with the body `schema` describes. */
export const ok = (description: string, schema: z.ZodType): DescribedResponse =>
  new DescribedResponse(description, schema);

/** A response without a body (204). */
export const empty = (description: string): DescribedResponse =>
  new DescribedResponse(description, null);

/** `{detail}`, the body of every error the runtime answers. */
export const ERROR_DETAIL = z.object({ detail: z.string() }).meta({ id: 'ErrorDetail' });

/** The shared error responses by status, as `components.responses` names them. */
export const ERROR_RESPONSE_NAMES = {
  '400': 'BadRequest',
  '403': 'Forbidden',
  '404': 'NotFound',
  '409': 'Conflict',
  '422': 'ValidationFailed',
  '500': 'ServerError',
  '503': 'Unavailable',
} as const;

/** A status that has a shared error response. */
export type ErrorStatus = keyof typeof ERROR_RESPONSE_NAMES;

/** The shared error responses for `statuses`, to spread into a route's `response`. */
export function errors(...statuses: ErrorStatus[]): Record<string, SharedResponse> {
  return Object.fromEntries(statuses.map((s) => [s, new SharedResponse(ERROR_RESPONSE_NAMES[s])]));
}

const errorDetail = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } },
});

/** `components.responses`: the error responses the routes share. */
export const ERROR_RESPONSES: Json = {
  BadRequest: errorDetail('Bad request'),
  Forbidden: errorDetail('Forbidden'),
  NotFound: errorDetail('Not found'),
  Conflict: errorDetail('Conflict'),
  ValidationFailed: {
    description: 'Validation error (a FastAPI error list, or a string detail on some routes)',
    content: {
      'application/json': {
        schema: {
          anyOf: [
            { $ref: '#/components/schemas/HTTPValidationError' },
            { $ref: '#/components/schemas/ErrorDetail' },
          ],
        },
      },
    },
  },
  ServerError: errorDetail('Internal error'),
  Unavailable: errorDetail('Feature not available'),
};

/** One route as the `onRoute` hook saw it (HEAD routes, which Fastify adds, are left out). */
export interface CollectedRoute {
  readonly method: string;
  /** Fastify's path, `:param` and all, with the prefix of its scope. */
  readonly url: string;
  readonly schema: FastifySchema | undefined;
}

const COLLECTED = new WeakMap<FastifyInstance, CollectedRoute[]>();

function requireZod(schema: unknown, where: string): void {
  if (!(schema instanceof z.ZodType)) {
    throw new Error(`${where}: the runtime's route schemas are zod schemas`);
  }
}

const STRINGIFY = (data: unknown): string => JSON.stringify(data);

/**
 * Installs the serializer compiler and the `onRoute` hook that
 * collects every route registered after it. Call it first, before any route.
 */
export function registerRouteDocs(app: FastifyInstance): void {
  const routes: CollectedRoute[] = [];
  COLLECTED.set(app, routes);
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) => {
    if (!(schema instanceof DescribedResponse || schema instanceof SharedResponse)) {
      requireZod(schema, `${method} ${url} response ${httpStatus}`);
    }
    return STRINGIFY;
  });
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, schema: route.schema });
    }
  });
}

/** Every route registered on `app` since {@link registerRouteDocs}, in registration order. */
export function routesOf(app: FastifyInstance): readonly CollectedRoute[] {
  const routes = COLLECTED.get(app);
  if (routes === undefined) throw new Error('registerRouteDocs was not called on this app');
  return routes;
}

/** The part of the document the routes' schemas generate. */
export interface GeneratedDocument {
  /** Paths by OpenAPI template (`/memories/{memory_id}`), operations by lower-case method. */
  readonly paths: Readonly<Record<string, Readonly<Record<string, Json>>>>;
  /** The named schemas (`.meta({ id })`) the operations reach by `$ref`. */
  readonly schemas: Json;
}

type Mutable = Record<string, unknown>;

/**
 * Per-node touches, so the schemas read as the rest of the document does: no safe-integer
 * bounds zod adds to every integer, a plain `{type: object}` for a record of anything, and
 * no `additionalProperties: false` from an object that merely strips unknown keys (responses
 * may gain fields; requests with unknown keys are not refused), and no `additionalProperties: {}`
 * from one that keeps them.
 */
function tidy(ctx: { zodSchema: z.core.$ZodType; jsonSchema: Mutable }): void {
  const json = ctx.jsonSchema;
  const def = ctx.zodSchema._zod.def as { type: string; catchall?: unknown };
  if (json['minimum'] === Number.MIN_SAFE_INTEGER) delete json['minimum'];
  if (json['maximum'] === Number.MAX_SAFE_INTEGER) delete json['maximum'];
  if (def.type === 'record' && isDeepStrictEqual(json['propertyNames'], { type: 'string' })) {
    delete json['propertyNames'];
    if (isDeepStrictEqual(json['additionalProperties'], {})) delete json['additionalProperties'];
  }
  if (def.type === 'object' && def.catchall === undefined) delete json['additionalProperties'];
  // Nor `additionalProperties: {}` from one that keeps them: any key is what JSON Schema says anyway.
  if (isDeepStrictEqual(json['additionalProperties'], {})) delete json['additionalProperties'];
}

/** `type: [a, b]` written as `anyOf: [{type: a}, {type: b}]`, as pydantic writes `X | None`. */
function unfoldTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unfoldTypes);
  if (value === null || typeof value !== 'object') return value;
  const out: Mutable = {};
  for (const [key, inner] of Object.entries(value)) out[key] = unfoldTypes(inner);
  const type = out['type'];
  if (Array.isArray(type)) {
    delete out['type'];
    out['anyOf'] = type.map((t: unknown) => ({ type: t }));
  }
  return out;
}

/** Converts `schema`; its named parts go to `components`, reached by `$ref`. */
function convert(schema: z.ZodType, io: 'input' | 'output', components: Mutable): Mutable {
  const raw = z.toJSONSchema(schema, { io, override: tidy });
  const text = JSON.stringify(unfoldTypes(raw)).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $schema: _, $defs, ...root } = JSON.parse(text) as Mutable;
  for (const [id, def] of Object.entries(($defs ?? {}) as Mutable)) {
    if (id in components && !isDeepStrictEqual(components[id], def)) {
      throw new Error(`two different schemas are named ${id} (is it read and written apart?)`);
    }
    components[id] = def;
  }
  return root;
}

/** The parameters `schema` (a zod object, never a named one) declares, `in` a request part. */
function parameters(
  schema: z.ZodType | undefined,
  where: 'path' | 'header' | 'query',
  components: Mutable,
  route: string,
): Json[] {
  if (schema === undefined) return [];
  const json = convert(schema, 'input', components);
  const properties = json['properties'] as Record<string, Mutable> | undefined;
  if (properties === undefined) throw new Error(`${route}: ${where} parameters need a zod object`);
  const required = (json['required'] ?? []) as string[];
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.includes(name),
      schema: rest,
      ...(description === undefined ? {} : { description }),
    };
  });
}

/** A Fastify path parameter (`:memory_id`). */
const PARAM = /:(\w+)/g;

const jsonContent = (schema: Json): Json => ({ 'application/json': { schema } });

function response(doc: ResponseDoc, components: Mutable): Json {
  if (doc instanceof ContentResponse) return contentResponse(doc, components);
  if (doc instanceof SharedResponse) return { $ref: `#/components/responses/${doc.name}` };
  if (doc instanceof DescribedResponse) {
    return doc.schema === null
      ? { description: doc.description }
      : {
          description: doc.description,
          content: jsonContent(convert(doc.schema, 'output', components)),
        };
  }
  return {
    description: 'Successful Response',
    content: jsonContent(convert(doc, 'output', components)),
  };
}

/** One route's operation. */
function operation(route: CollectedRoute, schema: FastifySchema, components: Mutable): Json {
  const name = `${route.method} ${route.url}`;
  const params = parameters(schema.params as z.ZodType | undefined, 'path', components, name);
  const declared = new Set(params.map((p) => p['name']));
  for (const [, param] of route.url.replaceAll('::', '').matchAll(PARAM)) {
    if (!declared.has(param)) throw new Error(`${name}: path parameter ${param} is not declared`);
  }
  const all = [
    ...params,
    ...parameters(schema.headers as z.ZodType | undefined, 'header', components, name),
    ...parameters(schema.querystring as z.ZodType | undefined, 'query', components, name),
  ];
  const body = schema.body as z.ZodType | undefined;
  const responses = (schema.response ?? {}) as Record<string, ResponseDoc>;
  return {
    ...(schema.security === undefined ? {} : { security: schema.security }),
    tags: schema.tags,
    ...(schema.deprecated === undefined ? {} : { deprecated: schema.deprecated }),
    summary: schema.summary,
    ...(schema.description === undefined ? {} : { description: schema.description }),
    ...(all.length === 0 ? {} : { parameters: all }),
    ...(body === undefined
      ? {}
      : {
          requestBody: {
            required: isRequired(body),
            content: bodyContent(schema.consumes, convert(body, 'input', components)),
          },
        }),
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, doc]) => [status, response(doc, components)]),
    ),
  };
}

/**
 * The paths and component schemas of the routes that declared a `summary` (the others are left
 * to the hand-written part of the document). Fastify's `:param` is written `{param}`.
 *
 * @throws {Error} when a path parameter is not declared, parameters are not a zod object, or
 *   two different schemas carry one id
 */
export function buildRoutePaths(routes: readonly CollectedRoute[]): GeneratedDocument {
  const paths: Record<string, Record<string, Json>> = {};
  const components: Mutable = {};
  // The shared error responses name them, whichever routes there are.
  convert(ERROR_DETAIL, 'output', components);
  convert(HTTP_VALIDATION_ERROR, 'output', components);
  for (const route of routes) {
    const schema = route.schema;
    if (schema?.summary === undefined) continue;
    // `::` is Fastify's escaped colon (`/message::send`), no parameter.
    const path = route.url
      .split('::')
      .map((part) => part.replace(PARAM, '{$1}'))
      .join(':');
    paths[path] = {
      ...paths[path],
      [route.method.toLowerCase()]: operation(route, schema, components),
    };
  }
  return { paths, schemas: components };
}

/**
 * Whether a body schema requires a body. A preprocess (a pipe whose first step is a transform,
 * which accepts anything) is as required as the schema it feeds.
 */
function isRequired(schema: z.ZodType): boolean {
  const def = schema._zod.def as { type: string; in?: z.ZodType; out?: z.ZodType };
  if (def.type === 'pipe' && def.in?._zod.def.type === 'transform' && def.out !== undefined) {
    return isRequired(def.out);
  }
  return schema._zod.optin !== 'optional';
}

/** A request body's content map: JSON, or each media type the route `consumes`. */
function bodyContent(consumes: readonly string[] | undefined, schema: Json): Json {
  return consumes === undefined
    ? jsonContent(schema)
    : Object.fromEntries(consumes.map((type) => [type, { schema }]));
}

/** `{detail: [ValidationError]}`, FastAPI's 422 body, which the shared 422 response names. */
export const HTTP_VALIDATION_ERROR = z
  .object({
    detail: z
      .array(
        z
          .object({
            loc: z.array(z.union([z.string(), z.int()])).meta({ title: 'Location' }),
            msg: z.string().meta({ title: 'Message' }),
            type: z.string().meta({ title: 'Error Type' }),
            input: z.unknown().optional().meta({ title: 'Input' }),
            ctx: z.record(z.string(), z.unknown()).optional().meta({ title: 'Context' }),
          })
          .meta({ id: 'ValidationError', title: 'ValidationError' }),
      )
      .optional()
      .meta({ title: 'Detail' }),
  })
  .meta({ id: 'HTTPValidationError', title: 'HTTPValidationError' });

/**
 * A response with more than one media type, each with its own schema: a run answering either an
 * SSE stream (`text/event-stream`) or its output as JSON. Documents only, like the others.
 */
export class ContentResponse extends DescribedResponse {
  /** Schemas by media type (not `content`, which Fastify would read as its own). */
  readonly media: Readonly<Record<string, z.ZodType>>;
  constructor(description: string, media: Readonly<Record<string, z.ZodType>>) {
    super(description, null);
    this.media = media;
  }
}

/** A response named `description` whose body is one of `content`'s, by media type. */
export const content = (
  description: string,
  byType: Readonly<Record<string, z.ZodType>>,
): ContentResponse => new ContentResponse(description, byType);

function contentResponse(doc: ContentResponse, components: Mutable): Json {
  return {
    description: doc.description,
    content: Object.fromEntries(
      Object.entries(doc.media).map(([type, schema]) => [
        type,
        { schema: convert(schema, 'output', components) },
      ]),
    ),
  };
}
