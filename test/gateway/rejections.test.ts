/**
 * The rejection catalogue and docs/errors.md agree in both directions (fastify's errors test).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import t from 'tap';
import {
  describeRefusal,
  isLimitRefusal,
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

t.test('limit refusals: Retry-After, Connection: close, recorded as a deny', async (t) => {
  const rows: {
    code: RejectionCode;
    status: number;
    retryAfterSeconds: number | undefined;
    closeConnection: true | undefined;
  }[] = [
    {
      code: 'SG_ERR_BODY_IDLE_TIMEOUT',
      status: 408,
      retryAfterSeconds: undefined,
      closeConnection: true,
    },
    {
      code: 'SG_ERR_BODY_TIMEOUT',
      status: 408,
      retryAfterSeconds: undefined,
      closeConnection: true,
    },
    {
      code: 'SG_ERR_IN_FLIGHT_LIMIT',
      status: 429,
      retryAfterSeconds: 1,
      closeConnection: undefined,
    },
    { code: 'SG_ERR_UPSTREAM_BUSY', status: 503, retryAfterSeconds: 5, closeConnection: undefined },
  ];
  for (const row of rows) {
    const described = describeRefusal(reject(row.code));
    t.equal(described.status, row.status, `${row.code} status`);
    t.equal(described.retryAfterSeconds, row.retryAfterSeconds, `${row.code} Retry-After`);
    t.equal(described.closeConnection, row.closeConnection, `${row.code} Connection: close`);
    t.ok(isLimitRefusal(reject(row.code)), `${row.code} is a limit`);
  }
  t.notOk(isLimitRefusal(reject('SG_ERR_UPSTREAM_TIMEOUT')), 'an upstream failure is not');
  t.notOk(isLimitRefusal(reject('SG_ERR_SA_THROTTLED')), 'nor a decision-stage 429');
});

t.test('details without their params still read', async (t) => {
  const rows: [RejectionCode, string][] = [
    ['SG_ERR_SA_REQUEST_INVALID', 'Request validation failed: '],
    [
      'SG_ERR_SA_SCOPE_MALFORMED',
      'Malformed scope(s): . A scope is the admin scope, or two or three non-empty ":"-separated parts without whitespace where "*" may only be the whole middle part',
    ],
    ['SG_ERR_SA_SCOPE_UNKNOWN', 'Unknown scope(s): '],
    [
      'SG_ERR_SA_SCOPE_PRIVILEGED',
      'scopes: privileged scope(s)  need "allow_privileged_scopes": true (write and delete actions, the admin scope and every service_accounts scope are privileged)',
    ],
    ['SG_ERR_SA_SCOPE_NOT_HELD', 'scopes: a caller may grant only scopes it holds; not held: '],
    [
      'SG_ERR_SA_NAME_TAKEN',
      'name: an active service account named "" already exists (revoke it first, or choose another name)',
    ],
    ['SG_ERR_SA_NOT_FOUND', 'id: no service account has the id ""'],
    ['SG_ERR_SA_METHOD_NOT_ALLOWED', 'Method not allowed: this route supports '],
    [
      'SG_ERR_JSONRPC_BODY_TOO_LARGE',
      'Request body too large: an A2A JSON-RPC body may be at most 0 bytes (a2a.max_dispatch_body_bytes)',
    ],
    [
      'SG_ERR_JSONRPC_DUPLICATE_MEMBER',
      'Invalid A2A JSON-RPC request: the member "" appears more than once',
    ],
    [
      'SG_ERR_JSONRPC_METHOD_PATH_MISMATCH',
      'Invalid A2A JSON-RPC request: the method does not match the path ( serves )',
    ],
  ];
  for (const [code, detail] of rows) t.equal(describeRefusal(reject(code)).detail, detail, code);
  t.equal(
    describeRefusal(
      reject('SG_ERR_SA_REQUEST_INVALID', {
        validation: [
          { type: 'missing', loc: ['body', 'name'], msg: 'name is required', input: null },
          { type: 'bool_type', loc: ['body', 'x'], msg: 'x must be true or false', input: 1 },
        ],
      }),
    ).detail,
    'Request validation failed: name is required; x must be true or false',
  );
  t.same(describeRefusal(reject('SG_ERR_SA_ANONYMOUS')), {
    status: 401,
    detail: 'Not authenticated: service accounts are never managed anonymously',
    reason: 'service_account_anonymous',
    challenge: 'bearer',
  });
});

t.test('dispatch, CORS and upgrade details', async (t) => {
  t.equal(
    describeRefusal(reject('SG_ERR_DISPATCH_BODY_TOO_LARGE', { limit: 1024 })).detail,
    'Request body too large: a dynamic-dispatch body may be at most 1024 bytes (a2a.max_dispatch_body_bytes)',
  );
  t.equal(
    describeRefusal(reject('SG_ERR_DISPATCH_BODY_TOO_LARGE')).detail,
    'Request body too large: a dynamic-dispatch body may be at most 0 bytes (a2a.max_dispatch_body_bytes)',
  );
  t.same(describeRefusal(reject('SG_ERR_DISPATCH_TARGET_UNKNOWN', { target: 't9' })), {
    status: 404,
    detail: "Agent, Team, or Workflow with ID 't9' not found",
    reason: 'dispatch_target_unknown',
    challenge: undefined,
  });
  t.equal(
    describeRefusal(reject('SG_ERR_DISPATCH_TARGET_UNKNOWN')).detail,
    "Agent, Team, or Workflow with ID '' not found",
  );
  t.same(describeRefusal(reject('SG_ERR_CORS_ORIGIN_NOT_ALLOWED')), {
    status: 403,
    detail: 'CORS preflight refused: the origin is not allowed',
    reason: 'cors_origin_not_allowed',
    challenge: undefined,
  });
  t.equal(describeRefusal(reject('SG_ERR_DISPATCH_BODY_ENCODED')).status, 415);
  t.equal(describeRefusal(reject('SG_ERR_UPGRADE_REFUSED')).status, 400);
});
