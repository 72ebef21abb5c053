/**
 * zod issues as FastAPI's 422 entries (RUNTIME_API.md §0): one row per kind of issue.
 */
import t from 'tap';
import { z } from 'zod';
import { HttpError } from '../../src/runtime/errors.js';
import { parseBody, validationDetails } from '../../src/runtime/validation.js';

const schema = z.strictObject({
  s: z.string().optional(),
  n: z.number().optional(),
  a: z.array(z.string()).optional(),
  o: z.record(z.string(), z.unknown()).optional(),
  one: z.enum(['only']).optional(),
  d: z.date().optional(),
  short: z.string().min(3).optional(),
});

function detailsOf(body: unknown) {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) throw new Error('expected a failure');
  return validationDetails('query', result.error.issues);
}

t.test('each kind of issue', async (t) => {
  t.same(detailsOf({ n: 'x' }), [
    { type: 'int_type', loc: ['query', 'n'], msg: 'Input should be a valid integer', input: 'x' },
  ]);
  t.same(detailsOf({ a: 'x' }), [
    { type: 'list_type', loc: ['query', 'a'], msg: 'Input should be a valid list', input: 'x' },
  ]);
  t.same(detailsOf({ a: [1] }), [
    {
      type: 'string_type',
      loc: ['query', 'a', 0],
      msg: 'Input should be a valid string',
      input: 1,
    },
  ]);
  t.same(detailsOf({ o: [] }), [
    {
      type: 'dict_type',
      loc: ['query', 'o'],
      msg: 'Input should be a valid dictionary',
      input: [],
    },
  ]);
  t.same(detailsOf({ one: 'x' }), [
    {
      type: 'enum',
      loc: ['query', 'one'],
      msg: "Input should be 'only'",
      input: 'x',
      ctx: { expected: "'only'" },
    },
  ]);
  t.match(detailsOf({ d: 'x' }), [{ type: 'type_error', loc: ['query', 'd'], input: 'x' }]);
  t.match(detailsOf({ short: 'x' }), [{ type: 'too_small', loc: ['query', 'short'], input: 'x' }]);
  t.same(detailsOf({ extra: 1, more: 2 }), [
    {
      type: 'extra_forbidden',
      loc: ['query', 'extra'],
      msg: 'Extra inputs are not permitted',
      input: 1,
    },
    {
      type: 'extra_forbidden',
      loc: ['query', 'more'],
      msg: 'Extra inputs are not permitted',
      input: 2,
    },
  ]);
});

t.test('parseBody: the value, or an HttpError 422', async (t) => {
  t.same(parseBody(schema, { s: 'x' }), { s: 'x' });
  let caught: unknown = null;
  try {
    parseBody(schema, null);
  } catch (err) {
    caught = err;
  }
  t.ok(caught instanceof HttpError);
  t.match(caught, { status: 422, detail: [{ type: 'missing', loc: ['body'] }] });
});
