/**
 * The lifecycle's request validation on a bare Fastify app with the runtime's error handler:
 * a `checked` route's parts parsed before its handler (query text read as FastAPI reads it), one
 * 422 listing every part's problems in FastAPI's order (path, query, header, body), the one
 * database's `db_id` refused 404 after validation, a route's own preHandler kept, and the
 * schemas that cannot be checked refused at startup.
 */
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify';
import t, { type Test } from 'tap';
import { z } from 'zod';
import { registerErrorHandler } from '../../../src/runtime/http/errors.js';
import { compilePartCheck, registerValidation } from '../../../src/runtime/http/validation.js';
import { DB_QUERY, limit, PAGE } from '../../../src/runtime/http/openapi-shapes.js';

/** A bare app with validation and the error handler, closed with the test. */
function checkedApp(t: Test): FastifyInstance {
  const app = Fastify({ logger: false });
  registerValidation(app, 'the-db');
  registerErrorHandler(app);
  t.teardown(() => app.close());
  return app;
}

const QUERY = z.object({
  page: PAGE,
  limit: limit(20, 100),
  ratio: z.number().min(0).optional(),
  flag: z.boolean().optional(),
  kind: z.enum(['a', 'b']).optional(),
  tags: z.array(z.int()).optional(),
  name: z.string().optional(),
  ...DB_QUERY,
});

/** A route echoing what its handler was given. */
function echoApp(t: Test, schema: FastifySchema): FastifyInstance {
  const app = checkedApp(t);
  let reached = 0;
  app.decorate('reached', () => reached);
  app.post('/things/:thing_id', { schema: { checked: true, ...schema } }, async (request) => {
    reached += 1;
    return { params: request.params, query: request.query, body: request.body ?? null };
  });
  return app;
}

const reachedOf = (app: FastifyInstance): number =>
  (app as unknown as { reached: () => number }).reached();

t.test('a checked query is read as FastAPI reads it', async (t) => {
  const app = echoApp(t, { querystring: QUERY });
  const rows: [string, string, Record<string, unknown>][] = [
    ['defaults', '', { page: 1, limit: 20 }],
    [
      'every kind of value',
      '?page=2&limit=5&ratio=0.5&flag=YES&kind=b&tags=1&tags=-2&name=x&db_id=the-db',
      {
        page: 2,
        limit: 5,
        ratio: 0.5,
        flag: true,
        kind: 'b',
        tags: [1, -2],
        name: 'x',
        db_id: 'the-db',
      },
    ],
    [
      'a repeated scalar counts with its last value',
      '?limit=3&limit=4&flag=off',
      {
        page: 1,
        limit: 4,
        flag: false,
      },
    ],
    ['an undeclared parameter is dropped', '?other=1', { page: 1, limit: 20 }],
  ];
  for (const [name, query, expected] of rows) {
    const res = await app.inject({ method: 'POST', url: `/things/t1${query}` });
    t.equal(res.statusCode, 200, name);
    t.same(res.json().query, expected, name);
  }
});

t.test('a query that does not parse is one 422 naming the text sent', async (t) => {
  const app = echoApp(t, { querystring: QUERY });
  const rows: [string, string, unknown[]][] = [
    [
      'not an integer',
      '?limit=ten',
      [
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'ten',
        },
      ],
    ],
    ...['', '1.0', '1e3', ' 1', '0x1'].map((text): [string, string, unknown[]] => [
      `integer text is digits with a sign at most: ${JSON.stringify(text)}`,
      `?limit=${encodeURIComponent(text)}`,
      [
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: text,
        },
      ],
    ]),
    [
      'out of bounds, the text as input, in the order the parameters are declared',
      '?limit=0&page=2000000',
      [
        {
          type: 'less_than_equal',
          loc: ['query', 'page'],
          msg: 'Input should be less than or equal to 1000000',
          input: '2000000',
          ctx: { le: 1000000 },
        },
        {
          type: 'greater_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
      ],
    ],
    [
      'not a number, not a boolean, one list item not an integer',
      '?ratio=half&flag=maybe&tags=1&tags=x',
      [
        {
          type: 'float_parsing',
          loc: ['query', 'ratio'],
          msg: 'Input should be a valid number, unable to parse string as a number',
          input: 'half',
        },
        {
          type: 'bool_parsing',
          loc: ['query', 'flag'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: 'maybe',
        },
        {
          type: 'int_parsing',
          loc: ['query', 'tags', 1],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'x',
        },
      ],
    ],
    [
      'not one of the values',
      '?kind=c',
      [
        {
          type: 'enum',
          loc: ['query', 'kind'],
          msg: "Input should be 'a' or 'b'",
          input: 'c',
          ctx: { expected: "'a' or 'b'" },
        },
      ],
    ],
  ];
  for (const [name, query, detail] of rows) {
    const res = await app.inject({ method: 'POST', url: `/things/t1${query}` });
    t.equal(res.statusCode, 422, name);
    t.same(res.json(), { detail }, name);
  }
  t.equal(reachedOf(app), 0, 'no handler ran');
});

t.test('every part that does not parse is listed: path, query, header, body', async (t) => {
  const app = echoApp(t, {
    params: z.object({ thing_id: z.string().min(3) }),
    querystring: z.object({ n: z.int().optional() }),
    headers: z.object({ 'x-thing': z.string() }),
    body: z.object({ name: z.string() }),
  });
  const res = await app.inject({ method: 'POST', url: '/things/t1?n=x', payload: { name: 1 } });
  t.equal(res.statusCode, 422);
  t.same(
    res.json().detail.map((issue: { loc: unknown[] }) => issue.loc),
    [
      ['path', 'thing_id'],
      ['query', 'n'],
      ['header', 'x-thing'],
      ['body', 'name'],
    ],
  );
  const ok = await app.inject({
    method: 'POST',
    url: '/things/t123?n=4',
    headers: { 'x-thing': 'yes' },
    payload: { name: 'n', extra: true },
  });
  t.equal(ok.statusCode, 200);
  t.same(ok.json(), { params: { thing_id: 't123' }, query: { n: 4 }, body: { name: 'n' } });
  const missing = await app.inject({
    method: 'POST',
    url: '/things/t123',
    headers: { 'x-thing': 'yes' },
  });
  t.same(missing.json(), {
    detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
  });
  t.equal(reachedOf(app), 1, 'only the valid request reached the handler');
});

t.test('db_id names the one database: another is 404 after validation', async (t) => {
  const app = echoApp(t, { querystring: QUERY });
  const other = await app.inject({ method: 'POST', url: '/things/t1?db_id=else' });
  t.equal(other.statusCode, 404);
  t.same(other.json(), { detail: "No database found with id 'else'" });
  const both = await app.inject({ method: 'POST', url: '/things/t1?db_id=else&limit=x' });
  t.equal(both.statusCode, 422, 'a 422 comes before the 404');
  t.equal(reachedOf(app), 0);
});

t.test("a route's own preHandler runs after the check", async (t) => {
  const app = checkedApp(t);
  const seen: unknown[] = [];
  app.get(
    '/own',
    {
      schema: { checked: true, querystring: z.object({ n: z.int() }) },
      preHandler: async (request) => {
        seen.push(request.query);
      },
    },
    async () => ({}),
  );
  t.equal((await app.inject({ url: '/own?n=x' })).statusCode, 422);
  t.equal((await app.inject({ url: '/own?n=2' })).statusCode, 200);
  t.same(seen, [{ n: 2 }], 'the preHandler saw only the parsed query');
});

t.test('a route not checked gets its parts as sent', async (t) => {
  const app = checkedApp(t);
  app.get('/free', { schema: { querystring: z.object({ n: z.int() }) } }, async (request) => ({
    query: request.query,
  }));
  const res = await app.inject({ url: '/free?n=x' });
  t.same(res.json(), { query: { n: 'x' } });
});

t.test('schemas that cannot be checked stop the startup, naming the route', async (t) => {
  const rows: [string, FastifySchema, RegExp][] = [
    [
      'a query that is not an object',
      { checked: true, querystring: z.string() },
      /GET \/bad: query parameters need a zod object/,
    ],
    [
      'a JSON Schema query',
      { checked: true, querystring: { type: 'object' } },
      /GET \/bad querystring: the runtime's route schemas are zod schemas/,
    ],
  ];
  for (const [name, schema, message] of rows) {
    const app = checkedApp(t);
    app.get('/bad', { schema }, async () => ({}));
    await t.rejects(async () => app.ready(), message, name);
  }
});

t.test(
  'a required query parameter not sent is missing; no query at all reads as empty',
  async (t) => {
    const check = compilePartCheck(z.object({ q: z.string() }), 'querystring', 'GET /search');
    const missing = [{ type: 'missing', loc: ['query', 'q'], msg: 'Field required', input: null }];
    for (const data of [{}, null]) {
      const { value } = check(data);
      t.same(
        Object.getOwnPropertySymbols(value).map((key) => (value as never)[key]),
        [missing],
      );
    }
    t.same(check({ q: 'x' }), { value: { q: 'x' } });
  },
);

t.test('an entry inside a query list names the item as parsed', async (t) => {
  const check = compilePartCheck(z.object({ n: z.array(z.int().min(2)) }), 'querystring', 'GET /n');
  const { value } = check({ n: ['1'] });
  t.same(
    Object.getOwnPropertySymbols(value).map((key) => (value as never)[key]),
    [
      [
        {
          type: 'greater_than_equal',
          loc: ['query', 'n', 0],
          msg: 'Input should be greater than or equal to 2',
          input: 1,
          ctx: { ge: 2 },
        },
      ],
    ],
  );
});
