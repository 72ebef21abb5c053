/**
 * Issue #16 (the route schemas validate what they document). Regression: `GET /traces?status=`
 * took any text although the document (and the filter schema of `POST /traces/search`) lists
 * OK, ERROR and UNSET: an unknown status listed nothing with a 200. The route now reads its query
 * with the schema it documents, so the two cannot disagree: an unknown status is pydantic's enum
 * 422, a known one still filters.
 */
import t from 'tap';
import { call, runtimeApp } from '../runtime/fixtures/runtime.js';

t.test('GET /traces refuses a status outside OK, ERROR and UNSET', async (t) => {
  const rt = runtimeApp(t);
  const refused = await call(rt, 'GET', '/traces?status=DONE');
  t.equal(refused.status, 422);
  t.same(refused.body, {
    detail: [
      {
        type: 'enum',
        loc: ['query', 'status'],
        msg: "Input should be 'OK', 'ERROR' or 'UNSET'",
        input: 'DONE',
        ctx: { expected: "'OK', 'ERROR' or 'UNSET'" },
      },
    ],
  });
  const listed = await call(rt, 'GET', '/traces?status=ERROR');
  t.equal(listed.status, 200);
  t.same(listed.body.data, []);
});
