/**
 * The OpenAPI machinery on a bare Fastify app (with the validation of validation.ts): a route
 * not `checked` gets its input as sent (a body zod would refuse reaches the handler); a reply keeps
 * fields its schema does not name; the
 * refusal of a route schema that is not zod, the routes the onRoute hook collects, and the paths
 * and component schemas built from the declared zod schemas.
 */
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify';
import t, { type Test } from 'tap';
import { z } from 'zod';
import {
  buildRoutePaths,
  content,
  DescribedResponse,
  empty,
  errors,
  ok,
  registerRouteDocs,
  routesOf,
  SharedResponse,
  type CollectedRoute,
} from '../../../src/runtime/http/openapi.js';
import { registerValidation } from '../../../src/runtime/http/validation.js';

/** A bare app with the machinery installed, closed with the test. */
function docsApp(t: Test): FastifyInstance {
  const app = Fastify({ logger: false });
  registerRouteDocs(app);
  registerValidation(app, 'db');
  t.teardown(() => app.close());
  return app;
}

/** The document part of one route declared with `schema`. */
function pathsOf(url: string, schema: FastifySchema, method = 'GET'): Record<string, unknown> {
  return buildRoutePaths([{ method, url, schema }]).paths as Record<string, unknown>;
}

const THING = z
  .object({ name: z.string(), note: z.string().nullable(), count: z.int() })
  .meta({ id: 'TestThing' });

t.test(
  'a route not checked gets its input as sent; replies are not stripped',
  async (t) => {
    const app = docsApp(t);
    app.post(
      '/things/:thing_id',
      {
        schema: {
          summary: 'Make a thing',
          tags: ['Things'],
          params: z.object({ thing_id: z.int() }),
          querystring: z.object({ strict: z.boolean() }),
          body: z.object({ name: z.string().min(3) }),
          response: { 200: ok('Made', THING), 204: empty('Nothing'), ...errors('422') },
        },
      },
      async (request) => ({
        params: request.params,
        query: request.query,
        body: request.body,
        extra: 'kept',
      }),
    );
    const res = await app.inject({
      method: 'POST',
      url: '/things/abc?strict=maybe',
      payload: { name: 1, more: true },
    });
    t.equal(res.statusCode, 200);
    t.equal(
      res.body,
      JSON.stringify({
        params: { thing_id: 'abc' },
        query: { strict: 'maybe' },
        body: { name: 1, more: true },
        extra: 'kept',
      }),
    );
  },
);

t.test('a route schema that is not zod fails the startup, naming the route', async (t) => {
  const rows: [string, FastifySchema, RegExp][] = [
    [
      'a JSON Schema body',
      { body: { type: 'object' } },
      /POST \/json body: the runtime's route schemas are zod schemas/,
    ],
    [
      'a JSON Schema response',
      { response: { 200: { type: 'object' } } },
      /POST \/json response 200: the runtime's route schemas are zod schemas/,
    ],
  ];
  for (const [name, schema, message] of rows) {
    const app = docsApp(t);
    app.post('/json', { schema }, async () => ({}));
    await t.rejects(async () => app.ready(), message, name);
  }
});

t.test(
  'onRoute collects every route with its method; HEAD (added by Fastify) is left out',
  async (t) => {
    const app = docsApp(t);
    const schema = { summary: 'A thing', tags: ['Things'] };
    app.get('/a', { schema }, async () => ({}));
    app.route({ method: ['PUT', 'PATCH'], url: '/b/:id', handler: async () => ({}) });
    await app.register(async (scope) => scope.delete('/c', async () => ({})), { prefix: '/p' });
    t.same(
      routesOf(app).map((r: CollectedRoute) => `${r.method} ${r.url} ${r.schema === schema}`),
      ['GET /a true', 'PUT /b/:id false', 'PATCH /b/:id false', 'DELETE /p/c false'],
    );
    t.throws(() => routesOf(Fastify()), {
      message: 'registerRouteDocs was not called on this app',
    });
  },
);

t.test('shared responses by status, described responses with or without a body', async (t) => {
  t.same(errors('400', '403', '404', '409', '422', '500', '503'), {
    '400': new SharedResponse('BadRequest'),
    '403': new SharedResponse('Forbidden'),
    '404': new SharedResponse('NotFound'),
    '409': new SharedResponse('Conflict'),
    '422': new SharedResponse('ValidationFailed'),
    '500': new SharedResponse('ServerError'),
    '503': new SharedResponse('Unavailable'),
  });
  t.same(empty('Deleted'), new DescribedResponse('Deleted', null));
  t.equal(ok('Made', THING).schema, THING);
});

t.test(
  'a declared route becomes an operation: parameters, body, responses, named schemas',
  async (t) => {
    const generated = buildRoutePaths([
      {
        method: 'PATCH',
        url: '/things/:thing_id',
        schema: {
          summary: 'Change a thing',
          description: 'Given fields replace.',
          tags: ['Things'],
          params: z.object({ thing_id: z.string().meta({ description: 'Thing id' }) }),
          querystring: z.object({
            page: z.int().min(0).default(1),
            mode: z.enum(['a', 'b']),
            db_id: z.string().optional().meta({ description: 'Database id' }),
          }),
          body: z.strictObject({
            name: z.string().max(5),
            tags: z.record(z.string(), z.unknown()).nullable().optional(),
          }),
          response: {
            200: ok('Changed', z.object({ thing: THING, at: z.number() })),
            201: THING,
            204: empty('Nothing'),
            ...errors('404'),
          },
        },
      },
      {
        method: 'DELETE',
        url: '/things/:thing_id',
        schema: { summary: 'Drop', tags: ['Things'], params: z.object({ thing_id: z.string() }) },
      },
      { method: 'GET', url: '/undocumented', schema: undefined },
      { method: 'GET', url: '/no-summary', schema: { tags: ['Things'] } },
    ]);
    t.same(Object.keys(generated.paths), ['/things/{thing_id}']);
    t.same(generated.paths['/things/{thing_id}'], {
      patch: {
        tags: ['Things'],
        summary: 'Change a thing',
        description: 'Given fields replace.',
        parameters: [
          {
            name: 'thing_id',
            in: 'path',
            required: true,
            schema: { type: 'string' },
            description: 'Thing id',
          },
          {
            name: 'page',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 0, default: 1 },
          },
          {
            name: 'mode',
            in: 'query',
            required: true,
            schema: { type: 'string', enum: ['a', 'b'] },
          },
          {
            name: 'db_id',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'Database id',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  name: { type: 'string', maxLength: 5 },
                  tags: { anyOf: [{ type: 'object' }, { type: 'null' }] },
                },
                required: ['name'],
                additionalProperties: false,
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Changed',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    thing: { $ref: '#/components/schemas/TestThing' },
                    at: { type: 'number' },
                  },
                  required: ['thing', 'at'],
                },
              },
            },
          },
          '201': {
            description: 'Successful Response',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/TestThing' } } },
          },
          '204': { description: 'Nothing' },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
      delete: {
        tags: ['Things'],
        summary: 'Drop',
        parameters: [{ name: 'thing_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {},
      },
    });
    t.same(generated.schemas, {
      ErrorDetail: {
        type: 'object',
        properties: { detail: { type: 'string' } },
        required: ['detail'],
      },
      // Always there too (checked below).
      HTTPValidationError: generated.schemas['HTTPValidationError'],
      ValidationError: generated.schemas['ValidationError'],
      TestThing: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          count: { type: 'integer' },
        },
        required: ['name', 'note', 'count'],
      },
    });
  },
);

t.test('an optional body is not required; a route without parameters lists none', async (t) => {
  const paths = pathsOf(
    '/optional',
    { summary: 'Maybe', tags: ['T'], body: THING.optional() },
    'POST',
  );
  t.same(paths['/optional'], {
    post: {
      tags: ['T'],
      summary: 'Maybe',
      requestBody: {
        required: false,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/TestThing' } } },
      },
      responses: {},
    },
  });
});

t.test("Fastify's escaped colon is a colon, not a parameter", async (t) => {
  const paths = pathsOf('/agents/:id/v1/message::send', {
    summary: 'Send',
    tags: ['A2A'],
    params: z.object({ id: z.string() }),
  });
  t.same(Object.keys(paths), ['/agents/{id}/v1/message:send']);
});

/** Read, `apply` may be left out; written, it is always there: two different schemas. */
const APPLY = z.object({ apply: z.boolean().default(true) }).meta({ id: 'TestApply' });

t.test('what cannot be documented fails the build, by name', async (t) => {
  const rows: [string, CollectedRoute, string][] = [
    [
      'an undeclared path parameter',
      { method: 'GET', url: '/x/:x_id', schema: { summary: 'X', tags: ['X'] } },
      'GET /x/:x_id: path parameter x_id is not declared',
    ],
    [
      'query parameters that are not an object',
      {
        method: 'GET',
        url: '/x',
        schema: { summary: 'X', tags: ['X'], querystring: THING },
      },
      'GET /x: query parameters need a zod object',
    ],
    [
      'one id read and written apart',
      {
        method: 'POST',
        url: '/x',
        schema: {
          summary: 'X',
          tags: ['X'],
          body: APPLY,
          response: { 200: APPLY },
        },
      },
      'two different schemas are named TestApply (is it read and written apart?)',
    ],
  ];
  for (const [name, route, message] of rows) {
    t.throws(() => buildRoutePaths([route]), { message }, name);
  }
});

t.test('the shared 422 schemas are named whichever routes there are', async (t) => {
  t.same(buildRoutePaths([]).schemas, {
    ErrorDetail: {
      type: 'object',
      properties: { detail: { type: 'string' } },
      required: ['detail'],
    },
    HTTPValidationError: {
      type: 'object',
      properties: {
        detail: {
          title: 'Detail',
          type: 'array',
          items: { $ref: '#/components/schemas/ValidationError' },
        },
      },
      title: 'HTTPValidationError',
    },
    ValidationError: {
      type: 'object',
      properties: {
        loc: {
          type: 'array',
          items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
          title: 'Location',
        },
        msg: { type: 'string', title: 'Message' },
        type: { type: 'string', title: 'Error Type' },
        input: { title: 'Input' },
        ctx: { title: 'Context', type: 'object' },
      },
      required: ['loc', 'msg', 'type'],
      title: 'ValidationError',
    },
  });
});

t.test(
  'a form body, a response of several media types and an operation without security',
  async (t) => {
    const app = docsApp(t);
    const schema = {
      summary: 'Start',
      tags: ['Runs'],
      security: [],
      consumes: ['multipart/form-data', 'application/x-www-form-urlencoded'],
      body: z.object({ message: z.string(), stream: z.boolean().default(true) }),
      response: {
        200: content('Streamed or not', {
          'text/event-stream': z.string(),
          'application/json': THING,
        }),
      },
    };
    // The compilers accept both (Fastify compiles the route when the app is ready).
    app.post('/runs', { schema }, async (request) => request.body);
    const res = await app.inject({ method: 'POST', url: '/runs', payload: { message: 'hi' } });
    t.equal(res.body, JSON.stringify({ message: 'hi' }));
    const formSchema = {
      type: 'object',
      properties: { message: { type: 'string' }, stream: { type: 'boolean', default: true } },
      required: ['message'],
    };
    t.same(pathsOf('/runs', schema, 'POST')['/runs'], {
      post: {
        security: [],
        tags: ['Runs'],
        summary: 'Start',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': { schema: formSchema },
            'application/x-www-form-urlencoded': { schema: formSchema },
          },
        },
        responses: {
          '200': {
            description: 'Streamed or not',
            content: {
              'text/event-stream': { schema: { type: 'string' } },
              'application/json': { schema: { $ref: '#/components/schemas/TestThing' } },
            },
          },
        },
      },
    });
  },
);

t.test(
  'a body the route consumes as a form is documented under each of its media types',
  async (t) => {
    const app = docsApp(t);
    const form = z.object({ name: z.string().optional() }).meta({ id: 'TestForm' });
    app.post(
      '/forms',
      {
        schema: {
          summary: 'A form',
          tags: ['T'],
          consumes: ['multipart/form-data', 'application/x-www-form-urlencoded'],
          body: form,
        },
      },
      async (request) => ({ body: request.body }),
    );
    // Documents only: the body still reaches the handler as the content-type parser read it.
    const res = await app.inject({
      method: 'POST',
      url: '/forms',
      headers: { 'content-type': 'application/json' },
      payload: { name: 1 },
    });
    t.same(res.json(), { body: { name: 1 } });
    const ref = { schema: { $ref: '#/components/schemas/TestForm' } };
    t.same(buildRoutePaths(routesOf(app)).paths['/forms'], {
      post: {
        tags: ['T'],
        summary: 'A form',
        requestBody: {
          required: true,
          content: { 'multipart/form-data': ref, 'application/x-www-form-urlencoded': ref },
        },
        responses: {},
      },
    });
  },
);

t.test('header parameters (between path and query) and a deprecated operation', async (t) => {
  const paths = pathsOf('/things/:thing_id', {
    summary: 'Old',
    tags: ['T'],
    deprecated: true,
    params: z.object({ thing_id: z.string() }),
    headers: z.object({ 'X-Thing': z.string().optional().meta({ description: 'A header' }) }),
    querystring: z.object({ q: z.string() }),
  });
  t.same(paths['/things/{thing_id}'], {
    get: {
      tags: ['T'],
      deprecated: true,
      summary: 'Old',
      parameters: [
        { name: 'thing_id', in: 'path', required: true, schema: { type: 'string' } },
        {
          name: 'X-Thing',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: 'A header',
        },
        { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
      ],
      responses: {},
    },
  });
});
