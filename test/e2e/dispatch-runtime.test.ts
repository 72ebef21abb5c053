/**
 * Dynamic A2A dispatch end to end with the bundled runtime (a real SQLite file) behind a real
 * gateway (RS256 JWTs, RBAC on, the internal service token configured). A counting pass-through
 * between them shows what reached the runtime: the 403 and 404 never did, the catalogue was read
 * once and refreshed once on a miss, with the internal token, and an entity created through the
 * API is found by that refresh.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { startRuntime } from '../../src/runtime/start.js';
import {
  decodeIdentityContext,
  verifyIdentitySignature,
} from '../../src/shared/identity-context.js';
import { bearer, send, yamlOf, type Answer } from '../fixtures/e2e.js';
import { startGateway } from '../fixtures/gateway.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { E2E_IDENTITY_SECRET } from '../fixtures/runtime-stack.js';
import { createTestClock, goodToken, TEST_SERVICE_ID } from '../fixtures/tokens.js';

const RUNTIME = {
  os_id: 'e2e-dispatch',
  db: 'runtime.db',
  agents: [
    { id: 'a1', name: 'Agent One' },
    { id: 'a2', name: 'Agent Two' },
  ],
  teams: [{ id: 't1', name: 'Team', members: ['a1', 'a2'] }],
  workflows: [{ id: 'w1', name: 'Flow', steps: [{ name: 'only', agent: 'a2' }] }],
};
const INTERNAL_TOKEN = 'internal-token-e2e-dispatch';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** Runtime ← counting pass-through ← gateway. */
async function stack(t: Test): Promise<{ gatewayUrl: string; seen: Seen[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'scopegate-dispatch-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const runtime = await startRuntime({
    settings: RUNTIME,
    dir,
    host: '127.0.0.1',
    port: 0,
    clock: createTestClock(),
    identitySecret: E2E_IDENTITY_SECRET,
  });
  t.teardown(() => runtime.close());
  const target = new URL(runtime.url);
  const seen: Seen[] = [];
  const counter = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const onward = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(onward);
  });
  await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        counter.closeAllConnections();
        counter.close(() => r());
      }),
  );
  const gateway = await startGateway(t, {
    upstreamUrl: `http://127.0.0.1:${(counter.address() as AddressInfo).port}`,
    upstream: { identity_secret: E2E_IDENTITY_SECRET },
    clock: createTestClock(),
    yaml: yamlOf({
      service_id: TEST_SERVICE_ID,
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        algorithm: 'RS256',
        authorization: true,
        internal_service_token: INTERNAL_TOKEN,
        service_accounts: { enabled: false },
      },
    }),
  });
  return { gatewayUrl: gateway.url, seen };
}

function dispatch(
  gatewayUrl: string,
  token: string,
  agentId: string,
  text: string,
): Promise<Answer> {
  return send(gatewayUrl, {
    method: 'POST',
    path: '/a2a/message/send',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: `m-${text}`,
          role: 'user',
          parts: [{ kind: 'text', text }],
          agentId,
        },
      },
    }),
  });
}

const dispatches = (seen: readonly Seen[]): number =>
  seen.filter((s) => s.url === '/a2a/message/send').length;
const catalogueReads = (seen: readonly Seen[]): Seen[] =>
  seen.filter((s) => s.method === 'GET' && ['/agents', '/teams', '/workflows'].includes(s.url));

t.test('dispatch through the gateway to the bundled runtime', async (t) => {
  const { gatewayUrl, seen } = await stack(t);
  const agentsOnly = await goodToken({ scopes: ['agents:run'] });

  const team = await dispatch(gatewayUrl, agentsOnly, 't1', 'team please');
  t.equal(team.status, 403, 'a team target with an agents:run-only token');
  t.same(team.json, {
    detail: 'Insufficient permissions. Required scope(s): agents:run, teams:run',
  });
  t.equal(dispatches(seen), 0, 'the runtime never saw it');
  t.equal(catalogueReads(seen).length, 3, 'the catalogue was read once');
  t.same(
    catalogueReads(seen).map((s) => s.headers.authorization),
    Array(3).fill(`Bearer ${INTERNAL_TOKEN}`),
    'with the internal service token',
  );
  // The runtime verifies every context: the gateway's own reads carry its signed internal one.
  for (const read of catalogueReads(seen)) {
    const value = read.headers['x-auth-context'] as string;
    t.ok(
      verifyIdentitySignature(value, String(read.headers['x-auth-signature']), E2E_IDENTITY_SECRET),
      `${read.url}: signed`,
    );
    t.match(decodeIdentityContext(value), {
      authenticated: true,
      principal_type: 'internal',
      user_id: null,
      is_admin: false,
      scoped_user_id: null,
      accessible_resource_ids: null,
      scopes: ['agents:read', 'teams:read', 'workflows:read'],
    });
  }

  const agent = await dispatch(gatewayUrl, agentsOnly, 'a1', 'hello');
  t.equal(agent.status, 200, 'an agent target is forwarded');
  t.match(agent.json, {
    id: 1,
    jsonrpc: '2.0',
    result: {
      kind: 'task',
      status: { state: 'completed' },
      history: [{ parts: [{ kind: 'text', text: 'Echo: hello' }] }],
    },
  });
  t.equal(dispatches(seen), 1);

  const both = await goodToken({ scopes: ['agents:run', 'teams:run'] });
  const teamRun = await dispatch(gatewayUrl, both, 't1', 'together');
  t.equal(teamRun.status, 200, 'with teams:run the team runs');
  t.match(teamRun.json, { result: { status: { state: 'completed' } } });
  t.equal(catalogueReads(seen).length, 3, 'all from the cached catalogue');

  const ghost = await dispatch(gatewayUrl, agentsOnly, 'helper-bot', 'anyone?');
  t.equal(ghost.status, 404);
  t.same(ghost.json, { detail: "Agent, Team, or Workflow with ID 'helper-bot' not found" });
  t.equal(dispatches(seen), 2, 'the unknown id never reached the runtime');
  t.equal(catalogueReads(seen).length, 6, 'one refresh on the miss');

  const created = await send(gatewayUrl, {
    method: 'POST',
    path: '/agents',
    headers: {
      ...bearer(await goodToken({ scopes: ['agents:write'] })),
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name: 'Helper Bot', config: {} }),
  });
  t.equal(created.status, 201, `created through the API: ${created.body}`);
  const found = await dispatch(gatewayUrl, agentsOnly, 'helper-bot', 'now?');
  t.equal(found.status, 200, 'the new agent is found by the refresh on the miss');
  t.match(found.json, { result: { history: [{ parts: [{ text: 'Echo: now?' }] }] } });
  t.equal(catalogueReads(seen).length, 9);
  t.equal(dispatches(seen), 3);
});
