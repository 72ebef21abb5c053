/**
 * End to end: `upstream.api: generic` (issue #18) in front of a plain node:http server. Nothing is
 * exempt by default (`/`, `/docs`, `/health` need a credential), an unmapped route is denied,
 * a mapped route passes with its scope, and none of the agent-family rules apply (no family
 * floor, no filtered listing, no per-resource scope, no A2A body check); the gateway's own
 * service-account API keeps working with no policy file.
 */
import t from 'tap';
import {
  assertForwarded,
  assertRefused,
  bearer,
  CHALLENGE,
  startPair,
  yamlOf,
  type Pair,
} from '../fixtures/e2e.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { mintTestToken, TEST_SERVICE_ID } from '../fixtures/tokens.js';

const ADMIN = 'agent_os:admin';

/** A generic gateway mapping `GET /reports/*` and `GET /agents/*` (with `extra` auth keys). */
function startGeneric(t: Parameters<typeof startPair>[0], extra: object = {}): Promise<Pair> {
  return startPair(t, {
    upstream: { api: 'generic' },
    yaml: yamlOf({
      service_id: TEST_SERVICE_ID,
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        algorithm: 'RS256',
        scope_mappings: {
          'GET /reports/*': ['reports:read'],
          'POST /a2a/message/send': ['reports:read'],
        },
        service_accounts: { enabled: true, store: 'sqlite:accounts.db' },
        ...extra,
      },
    }),
  });
}

const token = (scopes: readonly string[]): Promise<string> => mintTestToken({ scopes });

t.test('no built-in exemption: every path needs a credential', async (t) => {
  const pair = await startGeneric(t);
  for (const path of ['/', '/docs', '/health', '/info', '/openapi.json', '/redoc']) {
    await t.test(path, async (t) => {
      await assertRefused(
        t,
        pair,
        { path },
        {
          status: 401,
          detail: 'Not authenticated: expected a bearer token in the Authorization header',
          challenge: CHALLENGE,
        },
      );
    });
  }
});

t.test('unmapped routes are denied by default, even on agent-looking paths', async (t) => {
  const pair = await startGeneric(t);
  const rows = [
    { name: 'an unmapped route', method: 'GET', path: '/anything' },
    { name: 'GET /agents/x: no family floor', method: 'GET', path: '/agents/x' },
    { name: 'GET /agents: no filtered listing', method: 'GET', path: '/agents' },
    { name: 'POST /agents/x/runs', method: 'POST', path: '/agents/x/runs' },
    { name: 'an A2A 1.0 endpoint: no body check', method: 'POST', path: '/a2a/agents/x/v1' },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      await assertRefused(
        t,
        pair,
        { method: row.method, path: row.path, headers: bearer(await token([])), body: '{}' },
        {
          status: 403,
          detail:
            `Forbidden: no scope mapping covers ${row.method} ${row.path} and ` +
            'unmapped_routes is deny',
          challenge: null,
        },
      );
    });
  }
});

t.test('a mapped route passes with its scope, and only with it', async (t) => {
  const pair = await startGeneric(t);
  const { context } = await assertForwarded(t, pair, {
    path: '/reports/q1',
    headers: bearer(await token(['reports:read'])),
  });
  t.same(context.required_scopes, ['reports:read']);
  t.equal(context.accessible_resource_ids, null);
  await assertRefused(
    t,
    pair,
    { path: '/reports/q1', headers: bearer(await token(['reports:q1:read'])) },
    {
      status: 403,
      detail: 'Insufficient permissions. Required scope(s): reports:read',
      challenge: 'Bearer realm="scopegate", error="insufficient_scope", scope="reports:read"',
    },
  );
  // The dispatch path is a plain mapped route: its body is forwarded, never read for a target.
  const dispatched = await assertForwarded(t, pair, {
    method: 'POST',
    path: '/a2a/message/send',
    headers: bearer(await token(['reports:read'])),
    body: 'not json',
  });
  t.equal(dispatched.received.body, 'not json', 'forwarded untouched');
});

t.test('an explicit unmapped_routes: allow still wins', async (t) => {
  const pair = await startGeneric(t, { unmapped_routes: 'allow' });
  await assertForwarded(t, pair, { path: '/agents/x', headers: bearer(await token([])) });
  await assertRefused(
    t,
    pair,
    { path: '/' },
    {
      status: 401,
      detail: 'Not authenticated: expected a bearer token in the Authorization header',
      challenge: CHALLENGE,
    },
  );
});

t.test('service accounts keep working with no policy file', async (t) => {
  const pair = await startGeneric(t);
  const created = await pair.send({
    method: 'POST',
    path: '/service-accounts',
    headers: { ...bearer(await token([ADMIN])), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'reporter', scopes: [{ scope: 'reports:read' }] }),
  });
  t.equal(created.status, 201, created.body);
  const saToken = (created.json as { token: string }).token;
  await assertForwarded(t, pair, { path: '/reports/q1', headers: bearer(saToken) });
  const listed = await pair.send({ path: '/service-accounts', headers: bearer(saToken) });
  t.equal(listed.status, 403, 'the listing needs service_accounts:read');
  t.same(listed.json, {
    detail: 'Insufficient permissions. Required scope(s): service_accounts:read',
  });
});
