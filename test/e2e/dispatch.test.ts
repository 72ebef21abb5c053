/**
 * Dynamic A2A dispatch through a real gateway (RS256 JWTs, real
 * HTTP) in front of an upstream that serves a catalogue and records what it receives: the family
 * re-check with its 403 detail, 404 never forwarded, 413 declared and streamed, 415, every 400,
 * the exact bytes forwarded, the catalogue cache and its one refresh on a miss, the internal
 * token, RBAC off, service accounts, exempt routes and a custom prefix.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import t, { type Test } from 'tap';
import type { IncomingHttpHeaders } from 'node:http';
import type { IdentityContext } from '../../src/shared/identity-context.js';
import { bearer, send, yamlOf, type Answer, type SendOptions } from '../fixtures/e2e.js';
import { startCatalogueUpstream, type CatalogueUpstream } from '../fixtures/catalogue-upstream.js';
import { startGateway } from '../fixtures/gateway.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { createTestClock, goodToken, TEST_SERVICE_ID, type TestClock } from '../fixtures/tokens.js';

const MAX_BODY = 512;
const INTERNAL_TOKEN = 'internal-token-for-dispatch-tests';

interface Stack {
  readonly url: string;
  readonly upstream: CatalogueUpstream;
  readonly clock: TestClock;
  /** POST a dispatch request as `token` (JSON body unless a string). */
  dispatch(token: string | null, body: unknown, options?: Partial<SendOptions>): Promise<Answer>;
}

/** The catalogue upstream and a gateway in front of it; `auth`/`top` are merged in. */
async function stack(
  t: Test,
  options: { auth?: Record<string, unknown>; top?: Record<string, unknown> } = {},
): Promise<Stack> {
  const upstream = await startCatalogueUpstream(t, {
    '/agents': ['a1', 'a2'],
    '/teams': ['t1', 't2'],
    '/workflows': ['w1'],
  });
  const clock = createTestClock();
  const gateway = await startGateway(t, {
    upstreamUrl: upstream.url,
    clock,
    yaml: yamlOf({
      service_id: TEST_SERVICE_ID,
      a2a: { max_dispatch_body_bytes: MAX_BODY, catalogue_ttl_seconds: 30 },
      ...options.top,
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        algorithm: 'RS256',
        authorization: true,
        service_accounts: { enabled: false },
        ...options.auth,
      },
    }),
  });
  return {
    url: gateway.url,
    upstream,
    clock,
    dispatch: (token, body, extra = {}) =>
      send(gateway.url, {
        method: 'POST',
        path: '/a2a/message/send',
        body: typeof body === 'string' ? body : JSON.stringify(body),
        ...extra,
        headers: {
          'content-type': 'application/json',
          ...(token === null ? {} : bearer(token)),
          ...(extra.headers as Record<string, string> | undefined),
        },
      }),
  };
}

/** A JSON-RPC message/send body whose message names `agentId` (left out when undefined). */
function rpc(agentId?: unknown, text = 'hello'): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        messageId: 'm-1',
        role: 'user',
        parts: [{ kind: 'text', text }],
        ...(agentId === undefined ? {} : { agentId }),
      },
    },
  };
}

const token = (scopes: string[]): Promise<string> => goodToken({ scopes });

/** The identity the upstream received with a request. */
function contextOf(headers: IncomingHttpHeaders | undefined): IdentityContext {
  const value = headers?.['x-auth-context'];
  if (typeof value !== 'string') throw new Error('no x-auth-context');
  return JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as IdentityContext;
}

t.test('a team target with an agents:run-only token is 403 listing both scopes', async (t) => {
  const s = await stack(t);
  const answer = await s.dispatch(await token(['agents:run']), rpc('t1'));
  t.equal(answer.status, 403);
  t.same(answer.json, {
    detail: 'Insufficient permissions. Required scope(s): agents:run, teams:run',
  });
  t.equal(
    answer.headers['www-authenticate'],
    'Bearer realm="scopegate", error="insufficient_scope", scope="agents:run teams:run"',
  );
  t.same(s.upstream.received, [], 'never forwarded');
  const workflow = await s.dispatch(await token(['agents:run', 'teams:run']), rpc('w1'));
  t.same(workflow.json, {
    detail: 'Insufficient permissions. Required scope(s): agents:run, workflows:run',
  });
});

t.test('an agent target with agents:run is forwarded with the exact bytes read', async (t) => {
  const s = await stack(t);
  // Odd spacing, key order and non-ASCII text: re-serializing would change these bytes.
  const raw = `{"params":{"message":{"agentId":"a1","parts":[{"kind":"text","text":"h\u00e9llo \\u00e9"}]}},  "id":7,"jsonrpc":"2.0"}`;
  const answer = await s.dispatch(await token(['agents:run']), raw);
  t.equal(answer.status, 200);
  t.equal(s.upstream.received.length, 1);
  const seen = s.upstream.received[0];
  t.equal(seen?.url, '/a2a/message/send');
  t.ok(seen?.body.equals(Buffer.from(raw, 'utf8')), 'byte for byte');
  t.equal(seen?.headers['content-length'], String(Buffer.byteLength(raw)));
  t.same(contextOf(seen?.headers).required_scopes, ['agents:run'], 'agents:run once');
});

t.test('the family scope, global or for that id, lets a team through', async (t) => {
  const s = await stack(t);
  const rows: { scopes: string[]; target: string; status: number }[] = [
    { scopes: ['agents:run', 'teams:run'], target: 't1', status: 200 },
    { scopes: ['agents:run', 'teams:t1:run'], target: 't1', status: 200 },
    { scopes: ['agents:run', 'teams:*:run'], target: 't2', status: 200 },
    { scopes: ['agents:run', 'teams:t2:run'], target: 't1', status: 403 },
    { scopes: ['agents:run', 'teams:t1:read'], target: 't1', status: 403 },
    { scopes: ['teams:run'], target: 't1', status: 403 },
    { scopes: ['agents:a1:run'], target: 'a1', status: 403 },
    { scopes: ['agent_os:admin'], target: 't1', status: 200 },
  ];
  for (const row of rows) {
    const before = s.upstream.received.length;
    const answer = await s.dispatch(await token(row.scopes), rpc(row.target));
    t.equal(answer.status, row.status, `${row.scopes.join(' ')} → ${row.target}`);
    if (row.status === 200) {
      t.same(contextOf(s.upstream.received[before]?.headers).required_scopes, [
        'agents:run',
        'teams:run',
      ]);
    }
  }
  const coarse = await s.dispatch(await token(['teams:run']), rpc('t1'));
  t.same(coarse.json, { detail: 'Insufficient permissions. Required scope(s): agents:run' });
});

t.test('the target from X-Agent-ID, on message/stream too', async (t) => {
  const s = await stack(t);
  const answer = await s.dispatch(await token(['agents:run', 'workflows:run']), rpc(), {
    path: '/a2a/message/stream',
    headers: { 'x-agent-id': 'w1' },
  });
  t.equal(answer.status, 200);
  t.equal(s.upstream.received[0]?.url, '/a2a/message/stream');
  t.equal(s.upstream.received[0]?.headers['x-agent-id'], 'w1', 'the header goes on untouched');
  const refused = await s.dispatch(await token(['agents:run']), rpc(), {
    path: '/a2a/message/stream',
    headers: { 'x-agent-id': 'w1' },
  });
  t.equal(refused.status, 403);
  const same = await s.dispatch(await token(['agents:run']), rpc('a2'), {
    headers: { 'x-agent-id': 'a2' },
  });
  t.equal(same.status, 200, 'body and header may name the same target');
  const emptyBody = await s.dispatch(await token(['agents:run']), rpc(''), {
    headers: { 'x-agent-id': 'a2' },
  });
  t.equal(emptyBody.status, 200, 'an empty agentId falls back to the header, as the runtime does');
  const nullBody = await s.dispatch(await token(['agents:run']), rpc(null), {
    headers: { 'x-agent-id': 'a1' },
  });
  t.equal(nullBody.status, 200, 'a null agentId counts as absent');
});

t.test('an unknown id is 404, never forwarded, after one catalogue refresh', async (t) => {
  const s = await stack(t);
  const jwt = await token(['agents:run', 'teams:run']);
  t.equal((await s.dispatch(jwt, rpc('a1'))).status, 200);
  t.equal(s.upstream.catalogueReads.length, 3, 'one read of each listing');
  const before = s.upstream.received.length;
  const answer = await s.dispatch(jwt, rpc('ghost'));
  t.equal(answer.status, 404);
  t.same(answer.json, { detail: "Agent, Team, or Workflow with ID 'ghost' not found" });
  t.equal(answer.headers['www-authenticate'], undefined);
  t.equal(s.upstream.received.length, before, 'the upstream saw no dispatch request');
  t.equal(s.upstream.catalogueReads.length, 6, 'the miss refreshed the catalogue once');
});

t.test('the catalogue is cached for the TTL and refreshed once on a miss', async (t) => {
  const s = await stack(t);
  const jwt = await token(['agents:run', 'teams:run']);
  for (const target of ['a1', 't1', 'a2', 't2', 'a1']) {
    t.equal((await s.dispatch(jwt, rpc(target))).status, 200, target);
  }
  t.equal(s.upstream.catalogueReads.length, 3, 'five dispatches, one catalogue read');
  s.upstream.listings['/teams'] = ['t1', 't2', 'new-team'];
  t.equal((await s.dispatch(jwt, rpc('new-team'))).status, 200, 'a new team, found on the miss');
  t.equal(s.upstream.catalogueReads.length, 6);
  t.equal((await s.dispatch(jwt, rpc('new-team'))).status, 200);
  t.equal(s.upstream.catalogueReads.length, 6, 'cached again');
  s.clock.advance(30_000);
  t.equal((await s.dispatch(jwt, rpc('a1'))).status, 200);
  t.equal(s.upstream.catalogueReads.length, 9, 'read again once the TTL passed');
});

t.test('the catalogue is read with the internal token when configured, else without', async (t) => {
  const withToken = await stack(t, { auth: { internal_service_token: INTERNAL_TOKEN } });
  await withToken.dispatch(await token(['agents:run']), rpc('a1'));
  t.same(
    withToken.upstream.catalogueReads.map((r) => r.headers.authorization),
    Array(3).fill(`Bearer ${INTERNAL_TOKEN}`),
  );
  const without = await stack(t);
  await without.dispatch(await token(['agents:run']), rpc('a1'));
  t.same(
    without.upstream.catalogueReads.map((r) => r.headers.authorization),
    Array(3).fill(undefined),
  );
});

t.test('a catalogue that cannot be read is 502, never forwarded', async (t) => {
  const s = await stack(t);
  s.upstream.listings['/teams'] = { status: 500, body: '{}' };
  const answer = await s.dispatch(await token(['agents:run']), rpc('a1'));
  t.equal(answer.status, 502);
  t.same(answer.json, {
    detail:
      "Bad gateway: the upstream's agents/teams/workflows catalogue could not be read to resolve the dispatch target",
  });
  t.same(s.upstream.received, []);
});

t.test('413: a declared Content-Length over the bound, before any byte is read', async (t) => {
  const s = await stack(t);
  const jwt = await token(['agents:run']);
  const { hostname, port } = new URL(s.url);
  // Headers only: the body is never sent, so only a refusal before reading can answer.
  const head = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        [
          'POST /a2a/message/send HTTP/1.1',
          `Host: ${hostname}:${port}`,
          `Authorization: Bearer ${jwt}`,
          'Content-Type: application/json',
          `Content-Length: ${MAX_BODY + 1}`,
          '',
          '',
        ].join('\r\n'),
      );
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\r\n\r\n') && text.endsWith('}')) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
  });
  t.match(head, /^HTTP\/1\.1 413 Payload Too Large\r\n/);
  t.match(
    head,
    `{"detail":"Request body too large: a dynamic-dispatch body may be at most ${MAX_BODY} bytes (a2a.max_dispatch_body_bytes)"}`,
  );
  t.equal(s.upstream.catalogueReads.length, 0, 'nothing was resolved');
  t.same(s.upstream.received, []);
});

t.test('413: a streamed (chunked) body that passes the bound', async (t) => {
  const s = await stack(t);
  const body = JSON.stringify(rpc('a1', 'x'.repeat(MAX_BODY)));
  const answer = await send(s.url, {
    method: 'POST',
    path: '/a2a/message/send',
    headers: { ...bearer(await token(['agents:run'])), 'content-type': 'application/json' },
    chunks: [body.slice(0, 100), body.slice(100)],
  });
  t.equal(answer.status, 413);
  t.same(s.upstream.received, []);
  const fits = JSON.stringify(rpc('a1'));
  const chunked = await send(s.url, {
    method: 'POST',
    path: '/a2a/message/send',
    headers: { ...bearer(await token(['agents:run'])), 'content-type': 'application/json' },
    chunks: [fits.slice(0, 10), fits.slice(10)],
  });
  t.equal(chunked.status, 200, 'a chunked body within the bound is forwarded');
  t.equal(s.upstream.received[0]?.body.toString(), fits);
});

t.test('415: a body with a Content-Encoding', async (t) => {
  const s = await stack(t);
  for (const encoding of ['gzip', 'identity']) {
    const answer = await s.dispatch(await token(['agents:run']), rpc('a1'), {
      headers: { 'content-encoding': encoding },
    });
    t.equal(answer.status, 415, encoding);
    t.same(answer.json, {
      detail:
        'Unsupported media type: a dynamic-dispatch body must not carry a Content-Encoding (the gateway reads it to find the target)',
    });
  }
  t.same(s.upstream.received, []);
});

t.test('400: not JSON, no target, a non-string target, conflicting targets', async (t) => {
  const s = await stack(t);
  const jwt = await token(['agents:run', 'teams:run']);
  const missing =
    "Entity ID required. Provide it via 'agentId' in params.message or 'X-Agent-ID' header.";
  const conflict =
    'Invalid dynamic-dispatch request: params.message.agentId and X-Agent-ID name different targets (or X-Agent-ID is repeated)';
  const rows: {
    name: string;
    body: unknown;
    headers?: Record<string, string> | string[];
    detail: string;
  }[] = [
    {
      name: 'not JSON',
      body: '{"params":',
      detail: 'Invalid dynamic-dispatch request: the body is not JSON',
    },
    {
      name: 'empty body',
      body: '',
      detail: 'Invalid dynamic-dispatch request: the body is not JSON',
    },
    { name: 'no target', body: rpc(), detail: missing },
    { name: 'an empty header', body: rpc(), headers: { 'x-agent-id': '' }, detail: missing },
    { name: 'a JSON list', body: '[1, 2]', detail: missing },
    { name: 'params not an object', body: { params: 'a1' }, detail: missing },
    {
      name: 'a number target',
      body: rpc(5),
      detail: 'Invalid dynamic-dispatch request: params.message.agentId must be a string',
    },
    {
      name: 'an object target',
      body: rpc({ id: 'a1' }),
      headers: { 'x-agent-id': 'a1' },
      detail: 'Invalid dynamic-dispatch request: params.message.agentId must be a string',
    },
    {
      name: 'body and header disagree',
      body: rpc('a1'),
      headers: { 'x-agent-id': 't1' },
      detail: conflict,
    },
    {
      name: 'X-Agent-ID repeated',
      body: rpc(),
      headers: [
        'X-Agent-ID',
        'a1',
        'X-Agent-ID',
        'a1',
        'Authorization',
        `Bearer ${jwt}`,
        'Content-Length',
        String(JSON.stringify(rpc()).length),
      ],
      detail: conflict,
    },
  ];
  for (const row of rows) {
    const answer = Array.isArray(row.headers)
      ? await send(s.url, {
          method: 'POST',
          path: '/a2a/message/send',
          headers: row.headers,
          // A raw header list goes out at once: the length is in it, the body follows as is.
          chunks: [JSON.stringify(row.body)],
        })
      : await s.dispatch(jwt, row.body, row.headers === undefined ? {} : { headers: row.headers });
    t.equal(answer.status, 400, row.name);
    t.same(answer.json, { detail: row.detail }, row.name);
  }
  t.same(s.upstream.received, [], 'none was forwarded');
  t.equal(s.upstream.catalogueReads.length, 0, 'none needed the catalogue');
});

t.test('the coarse gate comes first: no body is read without agents:run', async (t) => {
  const s = await stack(t);
  const answer = await s.dispatch(await token(['teams:run']), 'not json at all');
  t.equal(answer.status, 403);
  const anonymous = await s.dispatch(null, rpc('ghost'));
  t.equal(anonymous.status, 401);
  t.equal(s.upstream.catalogueReads.length, 0);
});

t.test(
  'only POST <prefix>/message/send|stream is dispatch; other A2A paths stream on',
  async (t) => {
    const s = await stack(t, {
      auth: {
        scope_mappings: { 'POST /a2a/message/other': ['agents:run'], 'POST /message/send': [] },
      },
    });
    const jwt = await token(['agents:run']);
    // (The A2A JSON-RPC routes have their own body check: test/e2e/a2a-jsonrpc.test.ts.)
    for (const path of [
      '/a2a/message/other',
      '/message/send',
      '/a2a/agents/a1/v1/tasks/t1:cancel',
    ]) {
      const answer = await send(s.url, {
        method: 'POST',
        path,
        headers: { ...bearer(jwt), 'content-type': 'application/json' },
        body: 'not json: never read by the gateway',
      });
      t.equal(answer.status, 200, path);
    }
    t.equal(s.upstream.catalogueReads.length, 0);
  },
);

t.test('a custom a2a.prefix moves the dispatch routes with it', async (t) => {
  const s = await stack(t, {
    top: { a2a: { prefix: '/api/a2a', max_dispatch_body_bytes: MAX_BODY } },
  });
  const jwt = await token(['agents:run']);
  const moved = await s.dispatch(jwt, rpc('t1'), { path: '/api/a2a/message/send' });
  t.equal(moved.status, 403, 'the family re-check under the new prefix');
  const other = await s.dispatch(jwt, rpc('t1'), { path: '/api/xyz/message/send' });
  t.equal(other.status, 200, 'a path that only looks alike is not dispatch');
});

t.test('RBAC off: a JWT caller is not scope-checked, so the body streams on unread', async (t) => {
  const s = await stack(t, { auth: { authorization: false } });
  const jwt = await token([]);
  const answer = await s.dispatch(jwt, rpc('ghost'));
  t.equal(answer.status, 200, 'the upstream answers for an unknown id itself');
  t.equal(s.upstream.catalogueReads.length, 0, 'no catalogue read');
  t.same(contextOf(s.upstream.received[0]?.headers).required_scopes, ['agents:run']);
});

t.test('RBAC off: a service-account token is still re-checked for the family', async (t) => {
  const s = await stack(t, {
    auth: {
      authorization: false,
      service_accounts: { enabled: true, store: 'sqlite:data/sa.db' },
    },
  });
  const minter = await token(['service_accounts:write', 'agents:run']);
  const minted = await send(s.url, {
    method: 'POST',
    path: '/service-accounts',
    headers: { ...bearer(minter), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'robot', scopes: [{ scope: 'agents:run' }] }),
  });
  t.equal(minted.status, 201);
  const robot = (minted.json as { token: string }).token;
  const team = await s.dispatch(robot, rpc('t1'));
  t.equal(team.status, 403);
  t.same(team.json, {
    detail: 'Insufficient permissions. Required scope(s): agents:run, teams:run',
  });
  const agent = await s.dispatch(robot, rpc('a1'));
  t.equal(agent.status, 200);
  t.equal(contextOf(s.upstream.received[0]?.headers).principal_type, 'service_account');
  const ghost = await s.dispatch(robot, rpc('ghost'));
  t.equal(ghost.status, 404);
});

t.test('an excluded dispatch route is forwarded unchecked, like any excluded route', async (t) => {
  const s = await stack(t, { auth: { excluded_route_paths: ['/a2a/message/send'] } });
  const answer = await s.dispatch(null, 'anything');
  t.equal(answer.status, 200);
  t.equal(s.upstream.catalogueReads.length, 0);
  t.equal(s.upstream.received[0]?.body.toString(), 'anything');
});

t.test('a client that leaves while its body is read gets nothing forwarded', async (t) => {
  const s = await stack(t);
  const jwt = await token(['agents:run']);
  const { hostname, port } = new URL(s.url);
  await new Promise<void>((resolve) => {
    const req = request({
      host: hostname,
      port,
      method: 'POST',
      path: '/a2a/message/send',
      headers: { ...bearer(jwt), 'content-length': '100', expect: '100-continue' },
      agent: false,
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.on('continue', () => {
      req.write('{"params": {"message": {"agentId": "a1"');
      req.destroy();
    });
    req.flushHeaders();
  });
  const after = await s.dispatch(jwt, rpc('a1'));
  t.equal(after.status, 200, 'the gateway serves on');
  t.equal(s.upstream.received.length, 1, 'only the complete request was forwarded');
});
