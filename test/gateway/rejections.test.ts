/**
 * The rejection catalogue and docs/errors.md agree in both directions (fastify's errors test).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import t from 'tap';
import {
  describeRefusal,
  reject,
  REJECTIONS,
  type RejectionCode,
} from '../../src/gateway/rejections.js';

const docs = readFileSync(resolve(import.meta.dirname, '../../docs/errors.md'), 'utf8');
const codes = Object.keys(REJECTIONS) as RejectionCode[];

t.test('every code has an anchor in docs/errors.md with its status', async (t) => {
  for (const code of codes) {
    const section = new RegExp(`^## ${code}\\n\\n\\*\\*${REJECTIONS[code].status}\\*\\*`, 'm');
    t.match(docs, section, `${code} documented with status ${REJECTIONS[code].status}`);
  }
});

t.test('docs/errors.md documents no code the catalogue lacks', async (t) => {
  const documented = [...docs.matchAll(/^## (SG_ERR_[A-Z_]+)$/gm)].map((m) => m[1]);
  t.same(
    documented.filter((c) => !codes.includes(c as RejectionCode)),
    [],
  );
});

t.test('reason ids are unique snake_case', async (t) => {
  const reasons = codes.map((c) => REJECTIONS[c].reason);
  t.equal(new Set(reasons).size, reasons.length);
  for (const r of reasons) t.match(r, /^[a-z]+(_[a-z]+)*$/);
});

t.test('parameterized details are built from params only', async (t) => {
  t.same(describeRefusal(reject('SG_ERR_SCOPE_INSUFFICIENT', { scopes: ['a:read', 'b:run'] })), {
    status: 403,
    detail: 'Insufficient permissions. Required scope(s): a:read, b:run',
    reason: 'insufficient_scope',
    challenge: 'insufficient_scope',
  });
  t.equal(
    describeRefusal(reject('SG_ERR_SCOPE_INSUFFICIENT')).detail,
    'Insufficient permissions. Required scope(s): ',
  );
  t.equal(
    describeRefusal(reject('SG_ERR_ROUTE_UNMAPPED', { route: 'GET /x' })).detail,
    'Forbidden: no scope mapping covers GET /x and unmapped_routes is deny',
  );
  t.equal(
    describeRefusal(reject('SG_ERR_ROUTE_UNMAPPED')).detail,
    'Forbidden: no scope mapping covers this route and unmapped_routes is deny',
  );
  t.same(describeRefusal(reject('SG_ERR_PATH_DOT_SEGMENT')), {
    status: 400,
    detail: 'Invalid request path: "." and ".." segments are not allowed',
    reason: 'path_dot_segment',
    challenge: undefined,
  });
});
