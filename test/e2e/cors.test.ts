/**
 * CORS through a real gateway: preflights answered by the gateway
 * and never forwarded (204 allowed, 403 otherwise, on excluded routes too), the CORS headers on
 * every response to an allowed origin — refusals, gateway replies, forwarded answers — and the
 * upstream's own CORS headers never passing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { bearer, send, startPair, yamlOf, type Answer, type Pair } from '../fixtures/e2e.js';
import { startGateway } from '../fixtures/gateway.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { createTestClock, goodToken, TEST_SERVICE_ID } from '../fixtures/tokens.js';

const ALLOWED = 'https://app.example.com';

function config(origins: unknown[], auth: Record<string, unknown> = {}): string {
  return yamlOf({
    service_id: TEST_SERVICE_ID,
    cors: { allowed_origins: origins },
    auth: {
      verification_keys: [RSA_KEY.publicPem],
      algorithm: 'RS256',
      authorization: true,
      service_accounts: { enabled: false },
      ...auth,
    },
  });
}

async function pairWith(
  t: Test,
  origins: unknown[],
  auth?: Record<string, unknown>,
): Promise<Pair> {
  return startPair(t, { yaml: config(origins, auth) });
}

function preflight(
  pair: Pair,
  origin: string,
  path = '/agents',
  extra: Record<string, string> = {},
): Promise<Answer> {
  return pair.send({
    method: 'OPTIONS',
    path,
    headers: { origin, 'access-control-request-method': 'POST', ...extra },
  });
}

t.test('a preflight from an allowed origin is 204, answered by the gateway', async (t) => {
  const pair = await pairWith(t, ['https://App.Example.com', 'http://localhost:3000']);
  const answer = await preflight(pair, ALLOWED, '/agents/a1/runs', {
    'access-control-request-headers': 'authorization, content-type,x-agent-id',
    'x-request-id': 'pre-1',
  });
  t.equal(answer.status, 204);
  t.equal(answer.body, '');
  t.match(answer.headers, {
    'access-control-allow-origin': ALLOWED,
    'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type,x-agent-id',
    'access-control-max-age': '600',
    'access-control-allow-credentials': 'true',
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    'x-request-id': 'pre-1',
  });
  t.equal(answer.headers['www-authenticate'], undefined, 'no credential was asked for');
  t.equal(pair.upstream.received.length, 0, 'the upstream saw no request');
});

t.test('origins compare after lower-casing scheme and host; echoed as sent', async (t) => {
  const pair = await pairWith(t, ['https://App.Example.com', 'http://localhost:3000']);
  const upper = await preflight(pair, 'HTTPS://APP.EXAMPLE.COM');
  t.equal(upper.status, 204);
  t.equal(upper.headers['access-control-allow-origin'], 'HTTPS://APP.EXAMPLE.COM');
  const rows: [string, number][] = [
    ['http://localhost:3000', 204],
    ['http://localhost:3001', 403],
    ['http://localhost', 403],
    ['https://app.example.com:443', 403],
    ['https://app.example.com/', 403],
    ['http://app.example.com', 403],
    ['https://evil.example.com', 403],
    ['null', 403],
    [`${ALLOWED}, https://evil.example.com`, 403],
  ];
  for (const [origin, status] of rows)
    t.equal((await preflight(pair, origin)).status, status, origin);
  t.equal(pair.upstream.received.length, 0);
});

t.test('a preflight from any other origin is 403 without CORS headers', async (t) => {
  const pair = await pairWith(t, [ALLOWED]);
  const answer = await preflight(pair, 'https://evil.example.com');
  t.equal(answer.status, 403);
  t.same(answer.json, { detail: 'CORS preflight refused: the origin is not allowed' });
  t.equal(answer.headers['access-control-allow-origin'], undefined);
  t.equal(answer.headers['access-control-allow-methods'], undefined);
  t.equal(pair.upstream.received.length, 0);
});

t.test('preflights are answered on excluded routes too', async (t) => {
  const pair = await pairWith(t, [ALLOWED]);
  t.equal((await preflight(pair, ALLOWED, '/health')).status, 204);
  t.equal((await preflight(pair, 'https://evil.example.com', '/health')).status, 403);
  t.equal((await preflight(pair, ALLOWED, '/service-accounts')).status, 204);
  t.equal(pair.upstream.received.length, 0);
});

t.test('an empty allowed_origins is no CORS at all: every preflight is 403', async (t) => {
  const pair = await pairWith(t, []);
  t.equal((await preflight(pair, ALLOWED)).status, 403);
  t.equal((await preflight(pair, 'null', '/health')).status, 403);
  const forwarded = await pair.send({
    path: '/health',
    headers: { origin: ALLOWED },
  });
  t.equal(forwarded.status, 200);
  t.equal(forwarded.headers['access-control-allow-origin'], undefined);
  t.equal(pair.upstream.received.length, 1, 'only the plain GET');
});

t.test('"null" is allowed only when listed literally', async (t) => {
  const pair = await pairWith(t, ['null']);
  const answer = await preflight(pair, 'null');
  t.equal(answer.status, 204);
  t.equal(answer.headers['access-control-allow-origin'], 'null');
  t.equal((await preflight(pair, ALLOWED)).status, 403);
});

t.test('requested headers that are not a header list get the fixed list', async (t) => {
  const pair = await pairWith(t, [ALLOWED], { token_header_key: 'X-Api-Token' });
  for (const requested of ['', 'bad header(', ',authorization']) {
    const answer = await preflight(pair, ALLOWED, '/agents', {
      'access-control-request-headers': requested,
    });
    t.equal(answer.status, 204);
    t.equal(
      answer.headers['access-control-allow-headers'],
      'Authorization, Content-Type, X-Agent-ID, X-Request-ID, X-Api-Token',
      JSON.stringify(requested),
    );
  }
  const none = await preflight(pair, ALLOWED);
  t.equal(
    none.headers['access-control-allow-headers'],
    'Authorization, Content-Type, X-Agent-ID, X-Request-ID, X-Api-Token',
  );
});

t.test('a malformed path is 400 for a preflight too (path handling comes first)', async (t) => {
  const pair = await pairWith(t, [ALLOWED]);
  const answer = await preflight(pair, ALLOWED, '/agents//x');
  t.equal(answer.status, 400);
  t.same(answer.json, { detail: 'Invalid request path: empty path segment ("//")' });
  t.equal(
    answer.headers['access-control-allow-origin'],
    ALLOWED,
    'an allowed origin still reads it',
  );
});

t.test(
  'a plain OPTIONS (no Access-Control-Request-Method) is authorized like any method',
  async (t) => {
    const pair = await pairWith(t, [ALLOWED]);
    const refused = await pair.send({
      method: 'OPTIONS',
      path: '/config',
      headers: { origin: ALLOWED },
    });
    t.equal(refused.status, 401);
    const plain = await pair.send({
      method: 'OPTIONS',
      path: '/config',
      headers: bearer(await goodToken({ scopes: ['config:read', 'config:write'] })),
    });
    t.equal(plain.status, 200);
    t.equal(pair.upstream.received[0]?.method, 'OPTIONS', 'forwarded');
  },
);

t.test('a refusal to an allowed origin carries the CORS headers', async (t) => {
  const pair = await pairWith(t, [ALLOWED]);
  const missing = await pair.send({ path: '/config', headers: { origin: ALLOWED } });
  t.equal(missing.status, 401);
  t.match(missing.headers, {
    'access-control-allow-origin': ALLOWED,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'WWW-Authenticate, X-Request-ID',
    vary: 'Origin',
    'www-authenticate': 'Bearer realm="scopegate"',
  });
  const forbidden = await pair.send({
    path: '/config',
    headers: { origin: ALLOWED, ...bearer(await goodToken({ scopes: [] })) },
  });
  t.equal(forbidden.status, 403);
  t.equal(forbidden.headers['access-control-allow-origin'], ALLOWED);
  const foreign = await pair.send({
    path: '/config',
    headers: { origin: 'https://evil.example.com' },
  });
  t.equal(foreign.status, 401);
  t.equal(foreign.headers['access-control-allow-origin'], undefined, 'not for another origin');
  t.equal(foreign.headers.vary, undefined);
});

t.test('a gateway reply (/service-accounts) to an allowed origin carries them', async (t) => {
  const pair = await pairWith(t, [ALLOWED], {
    service_accounts: { enabled: true, store: 'sqlite:data/sa.db' },
  });
  const answer = await pair.send({
    path: '/service-accounts',
    headers: { origin: ALLOWED, ...bearer(await goodToken({ scopes: ['service_accounts:read'] })) },
  });
  t.equal(answer.status, 200);
  t.equal(answer.headers['access-control-allow-origin'], ALLOWED);
  t.equal(pair.upstream.received.length, 0);
});

t.test('forwarded answers: ours replace the upstream CORS headers; Vary is merged', async (t) => {
  const upstream = createServer((req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-expose-headers': 'x-secret',
      vary: 'Accept-Encoding',
      'x-upstream': 'yes',
    });
    res.end(JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => upstream.close(() => r())));
  const gateway = await startGateway(t, {
    upstreamUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    clock: createTestClock(),
    yaml: config([ALLOWED]),
  });
  const jwt = await goodToken({ scopes: ['config:read'] });
  const allowed = await send(gateway.url, {
    path: '/config',
    headers: { origin: ALLOWED, ...bearer(jwt) },
  });
  t.equal(allowed.status, 200);
  t.match(allowed.headers, {
    'access-control-allow-origin': ALLOWED,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'WWW-Authenticate, X-Request-ID',
    vary: 'Accept-Encoding, Origin',
    'x-upstream': 'yes',
  });
  t.equal(
    allowed.headers['access-control-allow-headers'],
    undefined,
    'the upstream one is dropped',
  );
  const foreign = await send(gateway.url, {
    path: '/config',
    headers: { origin: 'https://evil.example.com', ...bearer(jwt) },
  });
  t.equal(foreign.status, 200);
  t.equal(
    foreign.headers['access-control-allow-origin'],
    undefined,
    'the upstream "*" never passes',
  );
  t.equal(foreign.headers.vary, 'Accept-Encoding');
  const plain = await send(gateway.url, { path: '/config', headers: bearer(jwt) });
  t.equal(plain.headers['access-control-allow-origin'], undefined);
});

t.test('a forwarded answer with no Vary of its own gets Vary: Origin', async (t) => {
  const pair = await pairWith(t, [ALLOWED]);
  const answer = await pair.send({
    path: '/config',
    headers: { origin: ALLOWED, ...bearer(await goodToken({ scopes: ['config:read'] })) },
  });
  t.equal(answer.status, 200);
  t.equal(answer.headers.vary, 'Origin');
  t.equal(answer.headers['access-control-allow-origin'], ALLOWED);
});
