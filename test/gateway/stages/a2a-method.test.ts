/**
 * The A2A method stage: which requests are JSON-RPC calls to authorize (under any prefix), the
 * decision a method makes (its own scope for the path's id, and nothing else), and the body read
 * outcomes (encoded, too large, timed out, client gone). Statuses and details through a real
 * gateway are in test/e2e/a2a-jsonrpc.test.ts.
 */
import t from 'tap';
import type { BodyRead } from '../../../src/gateway/body.js';
import {
  a2aRouteOf,
  checkA2aCall,
  decideA2aCall,
  INVALID_A2A_METHOD,
  type A2aRoute,
} from '../../../src/gateway/stages/a2a-method.js';
import type { Decision } from '../../../src/policy/decide.js';
import { compileGrants } from '../../../src/policy/scopes.js';

t.test('the routes: POST <prefix>/<family>/<id>/v1 and its four per-operation paths', async (t) => {
  const rows: [string, string, string[], string[], A2aRoute | null][] = [
    [
      'endpoint',
      'POST',
      ['a2a'],
      ['a2a', 'agents', 'a1', 'v1'],
      { family: 'agents', id: 'a1', operation: null },
    ],
    [
      'teams, nested prefix',
      'POST',
      ['api', 'a2a'],
      ['api', 'a2a', 'teams', 't', 'v1'],
      { family: 'teams', id: 't', operation: null },
    ],
    [
      'tasks:get',
      'POST',
      ['a2a'],
      ['a2a', 'workflows', 'w', 'v1', 'tasks:get'],
      { family: 'workflows', id: 'w', operation: 'tasks:get' },
    ],
    [
      'message:stream',
      'POST',
      ['a2a'],
      ['a2a', 'agents', 'a', 'v1', 'message:stream'],
      { family: 'agents', id: 'a', operation: 'message:stream' },
    ],
    ['GET', 'GET', ['a2a'], ['a2a', 'agents', 'a1', 'v1'], null],
    ['HEAD', 'HEAD', ['a2a'], ['a2a', 'agents', 'a1', 'v1'], null],
    ['other prefix', 'POST', ['a2a'], ['x2a', 'agents', 'a1', 'v1'], null],
    ['not a family', 'POST', ['a2a'], ['a2a', 'sessions', 'a1', 'v1'], null],
    ['v2', 'POST', ['a2a'], ['a2a', 'agents', 'a1', 'v2'], null],
    ['too short', 'POST', ['a2a'], ['a2a', 'agents', 'v1'], null],
    ['another operation', 'POST', ['a2a'], ['a2a', 'agents', 'a1', 'v1', 'tasks'], null],
    ['too long', 'POST', ['a2a'], ['a2a', 'agents', 'a1', 'v1', 'tasks', 't1:cancel'], null],
  ];
  for (const [name, method, prefix, segments, expected] of rows) {
    t.same(a2aRouteOf(prefix, method, segments), expected, name);
  }
});

const path: Decision = {
  allow: false,
  reason: 'insufficient_scope',
  route: null,
  required: [],
  missing: [],
  resource: { family: 'agents', id: 'a1' },
  accessibleResourceIds: null,
};
const endpoint: A2aRoute = { family: 'agents', id: 'a1', operation: null };
const body = (method: string): Buffer =>
  Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }));

t.test('the method decides on the endpoint; the path decision stays elsewhere', async (t) => {
  const admin = decideA2aCall(endpoint, body('SendMessage'), path, compileGrants(['root'], 'root'));
  t.match(admin, {
    refusal: null,
    method: 'SendMessage',
    decision: { allow: true, reason: 'admin' },
  });
  const reader = compileGrants(['agents:a1:read'], 'root');
  t.match(decideA2aCall(endpoint, body('GetTask'), path, reader), {
    refusal: null,
    decision: { allow: true, reason: 'scopes_satisfied', missing: [] },
  });
  const denied = decideA2aCall(endpoint, body('CancelTask'), path, reader);
  t.same(denied.refusal, {
    ok: false,
    code: 'SG_ERR_SCOPE_INSUFFICIENT',
    params: { scopes: ['agents:run'] },
  });
  t.same(
    denied.decision.missing.map((r) => r.raw),
    ['agents:run'],
  );
  const allowedPath = { ...path, allow: true };
  const perOperation: A2aRoute = { ...endpoint, operation: 'tasks:get' };
  const same = decideA2aCall(perOperation, body('tasks/get'), allowedPath, reader);
  t.equal(same.decision, allowedPath, 'a per-operation path keeps its own decision');
  t.equal(same.method, 'tasks/get');
  const refused = decideA2aCall(endpoint, Buffer.from('[]'), path, reader);
  t.equal(refused.method, INVALID_A2A_METHOD);
  t.equal(refused.decision, path);
});

t.test('the live read: encoded, too large, timed out, gone', async (t) => {
  const grants = compileGrants(['agents:run'], 'root');
  const request = (read: BodyRead | null, headers: Record<string, string> = {}) => ({
    headers,
    route: endpoint,
    decision: path,
    grants,
    readBody: async (max: number): Promise<BodyRead> => {
      t.equal(max, 64, 'bounded by the setting');
      if (read === null) throw new Error('must not read');
      return read;
    },
  });
  t.match(await checkA2aCall(64, request(null, { 'content-encoding': 'br' })), {
    refusal: { code: 'SG_ERR_JSONRPC_BODY_ENCODED' },
    method: INVALID_A2A_METHOD,
    body: undefined,
  });
  t.match(await checkA2aCall(64, request({ ok: false, reason: 'too_large' })), {
    refusal: { code: 'SG_ERR_JSONRPC_BODY_TOO_LARGE', params: { limit: 64 } },
  });
  t.match(
    await checkA2aCall(
      64,
      request({ ok: false, reason: 'timed_out', code: 'SG_ERR_BODY_IDLE_TIMEOUT' }),
    ),
    { refusal: { code: 'SG_ERR_BODY_IDLE_TIMEOUT' } },
  );
  t.equal(await checkA2aCall(64, request({ ok: false, reason: 'aborted' })), null);
  const read = body('SendMessage');
  const outcome = await checkA2aCall(64, request({ ok: true, body: read }));
  t.equal(outcome?.body, read, 'the bytes read are handed back');
  t.match(outcome, { refusal: null, method: 'SendMessage', decision: { allow: true } });
});
