/**
 * The runtime's error bodies: `HttpError` carries a status and either a
 * string detail or a FastAPI validation list; `missingField` is the 422 of a required field.
 */
import t from 'tap';
import { HttpError, missingField } from '../../../src/runtime/http/errors.js';

t.test('an HttpError with a string detail', async (t) => {
  const err = new HttpError(404, 'Agent not found');
  t.ok(err instanceof Error, 'is an Error');
  t.equal(err.status, 404);
  t.equal(err.detail, 'Agent not found');
  t.equal(err.message, 'Agent not found', 'the detail is the message');
});

t.test('an HttpError with a validation list', async (t) => {
  const detail = [
    {
      type: 'enum',
      loc: ['query', 'sort_order'],
      msg: "Input should be 'asc' or 'desc'",
      input: 'up',
      ctx: { expected: "'asc' or 'desc'" },
    },
  ] as const;
  const err = new HttpError(422, detail);
  t.equal(err.status, 422);
  t.equal(err.detail, detail, 'the list is kept as given');
  t.equal(err.message, 'Validation error');
});

t.test('missingField names where and which field', async (t) => {
  const rows = [
    { name: 'a form field', where: 'body', field: 'message' },
    { name: 'a query parameter', where: 'query', field: 'session_id' },
  ] as const;
  for (const row of rows) {
    const err = missingField(row.where, row.field);
    t.equal(err.status, 422, `${row.name}: 422`);
    t.same(
      err.detail,
      [{ type: 'missing', loc: [row.where, row.field], msg: 'Field required', input: null }],
      `${row.name}: FastAPI's missing entry`,
    );
  }
});
