/**
 * The approval routes behind a real gateway: real JWTs (RS256), a real SQLite file,
 * real HTTP. A run made through the gateway pauses on a tool that needs approval; each route
 * answers a token holding exactly its scope with the real body, and the gateway refuses a token
 * without it (403). Resolving through the gateway resumes the run.
 */
import t, { type Test } from 'tap';
import { bearer, send, type Answer } from '../fixtures/e2e.js';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';
import { goodToken } from '../fixtures/tokens.js';

const RUNTIME = {
  os_id: 'e2e-approvals',
  db: 'runtime.db',
  agents: [
    {
      id: 'a1',
      name: 'Agent One',
      tools: [{ name: 'add', description: 'Adds two numbers.', approval_type: 'required' }],
    },
  ],
};

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A request through the gateway with a token holding exactly `scopes`. */
async function call(
  url: string,
  scopes: string[],
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const token = await goodToken({ sub: 'root', scopes });
  return send(url, {
    method,
    path,
    headers: {
      ...bearer(token),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A run by alice, made through the gateway, paused on `add`; its ids and approval id. */
async function pausedRun(t: Test, url: string) {
  const token = await goodToken({ sub: 'alice', scopes: ['agents:run'] });
  const res = await send(url, {
    method: 'POST',
    path: '/agents/a1/runs',
    headers: { ...bearer(token), ...FORM },
    body: new URLSearchParams({
      message: '/tool add {"a": 2, "b": 3}',
      stream: 'false',
    }).toString(),
  });
  t.equal(res.status, 200);
  const output = res.json as Record<string, unknown>;
  t.equal(output['status'], 'PAUSED');
  const [tool] = output['tools'] as Record<string, unknown>[];
  return { runId: output['run_id'] as string, approvalId: tool?.['approval_id'] as string };
}

t.test('each approval route: its exact scope gets the real body, others get 403', async (t) => {
  const { gateway, runtime } = await startRuntimeStack(t, RUNTIME);
  const url = gateway.url;
  const { runId, approvalId } = await pausedRun(t, url);

  const reads: [string, (json: unknown) => void][] = [
    [
      '/approvals',
      (json) =>
        t.match(json, {
          meta: { total_count: 1 },
          data: [{ id: approvalId, status: 'pending', user_id: 'alice' }],
        }),
    ],
    ['/approvals/count', (json) => t.same(json, { count: 1 })],
    [
      `/approvals/${approvalId}`,
      (json) =>
        t.match(json, {
          id: approvalId,
          run_id: runId,
          tool_name: 'add',
          tool_args: { a: 2, b: 3 },
          pause_type: 'confirmation',
          run_status: 'PAUSED',
        }),
    ],
    [
      `/approvals/${approvalId}/status`,
      (json) =>
        t.same(json, {
          approval_id: approvalId,
          status: 'pending',
          run_id: runId,
          resolved_at: null,
          resolved_by: null,
        }),
    ],
  ];
  for (const [path, check] of reads) {
    const allowed = await call(url, ['approvals:read'], 'GET', path);
    t.equal(allowed.status, 200, `${path} with approvals:read`);
    check(allowed.json);
    const refused = await call(url, ['approvals:write', 'approvals:delete'], 'GET', path);
    t.equal(refused.status, 403, `${path} without approvals:read`);
  }

  const path = `/approvals/${approvalId}/resolve`;
  const refused = await call(url, ['approvals:read', 'approvals:delete'], 'POST', path, {
    status: 'approved',
  });
  t.equal(refused.status, 403, 'resolve without approvals:write');
  const resolved = await call(url, ['approvals:write'], 'POST', path, { status: 'approved' });
  t.equal(resolved.status, 200);
  t.match(resolved.json, {
    id: approvalId,
    status: 'approved',
    resolved_by: 'root',
    run_status: 'COMPLETED',
  });
  const run = await runtime.store.getRun(runId);
  t.equal(run?.status, 'COMPLETED', 'the run resumed');
  t.equal(run?.output['content'], 'Tool add returned: 5');

  const del = `/approvals/${approvalId}`;
  t.equal((await call(url, ['approvals:read', 'approvals:write'], 'DELETE', del)).status, 403);
  const deleted = await call(url, ['approvals:delete'], 'DELETE', del);
  t.equal(deleted.status, 204);
  t.equal((await call(url, ['approvals:read'], 'GET', del)).status, 404);
});

t.test('with user isolation, each user sees only the approvals of their own runs', async (t) => {
  const { gateway } = await startRuntimeStack(t, RUNTIME, ['user_isolation: true']);
  const url = gateway.url;
  const { approvalId } = await pausedRun(t, url);
  const bob = await goodToken({ sub: 'bob', scopes: ['approvals:read', 'approvals:write'] });
  const asBob = (method: string, path: string, body?: unknown) =>
    send(url, {
      method,
      path,
      headers: { ...bearer(bob), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  t.same((await asBob('GET', '/approvals/count')).json, { count: 0 });
  t.match((await asBob('GET', '/approvals')).json, { meta: { total_count: 0 } });
  const other = await asBob('GET', `/approvals/${approvalId}`);
  t.equal(other.status, 404);
  t.same(other.json, { detail: 'Approval not found' });
  const resolve = await asBob('POST', `/approvals/${approvalId}/resolve`, { status: 'approved' });
  t.equal(resolve.status, 404);
  const alice = await goodToken({ sub: 'alice', scopes: ['approvals:read'] });
  const own = await send(url, { path: `/approvals/${approvalId}`, headers: bearer(alice) });
  t.match(own.json, { id: approvalId, status: 'pending' });
});

t.test(
  'the runner cannot approve its own run: continue without approvals:write is 403',
  async (t) => {
    const { gateway } = await startRuntimeStack(t, RUNTIME);
    const url = gateway.url;
    const token = await goodToken({ sub: 'alice', scopes: ['agents:run'] });
    const res = await send(url, {
      method: 'POST',
      path: '/agents/a1/runs',
      headers: { ...bearer(token), ...FORM },
      body: new URLSearchParams({
        message: '/tool add {"a": 2, "b": 3}',
        stream: 'false',
      }).toString(),
    });
    const output = res.json as Record<string, unknown>;
    const tools = (output['tools'] as Record<string, unknown>[]).map((tool) => ({
      ...tool,
      confirmed: true,
    }));
    const continued = await send(url, {
      method: 'POST',
      path: `/agents/a1/runs/${output['run_id'] as string}/continue`,
      headers: { ...bearer(token), ...FORM },
      body: new URLSearchParams({
        tools: JSON.stringify(tools),
        session_id: output['session_id'] as string,
        stream: 'false',
      }).toString(),
    });
    t.equal(continued.status, 403);
    t.same(continued.json, {
      detail: 'This run requires admin approval before it can be continued',
    });
  },
);
