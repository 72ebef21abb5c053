/**
 * End to end: what crosses the proxy: Authorization forwarding, hop-by-hop
 * headers both ways, upstream failures (502/504), a client that goes away, SSE streaming and
 * request bodies.
 */
import t, { type Test } from 'tap';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { RSA_KEY } from '../fixtures/keys.js';
import {
  assertForwarded,
  assertRefused,
  bearer,
  closedPortUrl,
  startPair,
  yamlOf,
  type PairOptions,
} from '../fixtures/e2e.js';
import { goodToken } from '../fixtures/tokens.js';

/** A gateway `timeout_ms` that never fires within a test run. */
const NEVER_MS = 3_600_000;

const AUTH = { auth: { verification_keys: [RSA_KEY.publicPem] } };

function plainGateway(t: Test, options: Partial<PairOptions> = {}) {
  return startPair(t, { yaml: yamlOf(AUTH), ...options });
}

t.test('forward_authorization', async (t) => {
  const token = await goodToken();
  const rows: { name: string; forward?: boolean; forwarded: boolean }[] = [
    { name: 'default: Authorization is passed on', forwarded: true },
    { name: 'true: Authorization is passed on', forward: true, forwarded: true },
    { name: 'false: Authorization is removed', forward: false, forwarded: false },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const pair = await plainGateway(
        t,
        row.forward === undefined ? {} : { upstream: { forward_authorization: row.forward } },
      );
      const { received, context } = await assertForwarded(t, pair, {
        path: '/config',
        headers: bearer(token),
      });
      t.equal(context.user_id, 'user-1', 'authenticated either way');
      // Compared as booleans so a failure never prints the token.
      const header = received.headers['authorization'];
      t.equal(header !== undefined, row.forwarded, 'Authorization at the upstream');
      if (row.forwarded) t.ok(header === `Bearer ${token}`, 'unchanged');
    });
  }
});

t.test('hop-by-hop headers are not forwarded, either way', async (t) => {
  const pair = await plainGateway(t);
  const { answer, received } = await assertForwarded(t, pair, {
    path: '/config',
    headers: {
      ...bearer(await goodToken()),
      connection: 'keep-alive, x-conn-listed',
      'x-conn-listed': 'must not pass',
      'keep-alive': 'timeout=5',
      te: 'trailers',
      upgrade: 'h2c',
      'proxy-authorization': 'Basic cHJveHk6c2VjcmV0',
      'proxy-connection': 'keep-alive',
      'x-end-to-end': 'passes',
    },
  });
  for (const name of [
    'x-conn-listed',
    'keep-alive',
    'te',
    'upgrade',
    'proxy-authorization',
    'proxy-connection',
  ]) {
    t.equal(received.headers[name], undefined, `${name} did not reach the upstream`);
  }
  t.notMatch(received.headers.connection ?? '', /x-conn-listed/, 'nor the inbound Connection list');
  t.equal(received.headers['x-end-to-end'], 'passes', 'an end-to-end header passes');

  t.equal(
    answer.headers['x-upstream'],
    'yes',
    "the upstream's end-to-end header reaches the client",
  );
  t.equal(answer.headers['x-hop'], undefined, "the upstream's Connection-listed header does not");
  t.notMatch(answer.headers.connection ?? '', /x-hop/, "nor the upstream's Connection list");
});

t.test("the upstream's status and body pass through", async (t) => {
  const pair = await plainGateway(t);
  const token = await goodToken();
  for (const status of [201, 404, 500, 503]) {
    await t.test(String(status), async (t) => {
      const answer = await pair.send({ path: `/status/${status}`, headers: bearer(token) });
      t.equal(answer.status, status);
      t.same(answer.json, { method: 'GET', url: `/status/${status}` }, "the upstream's body");
      t.match(answer.headers['x-request-id'], /\S/, 'x-request-id on every answer');
    });
  }
});

t.test('502 when the upstream cannot be reached', async (t) => {
  const pair = await plainGateway(t, { upstreamUrl: await closedPortUrl() });
  const answer = await pair.send({ path: '/config', headers: bearer(await goodToken()) });
  t.equal(answer.status, 502);
  t.same(answer.json, { detail: 'Bad gateway: the upstream could not be reached' });
  t.equal(answer.headers['www-authenticate'], undefined);
  t.match(answer.headers['x-request-id'], /\S/);
});

t.test('504 when the upstream does not answer within timeout_ms', async (t) => {
  const pair = await plainGateway(t, { timeoutMs: 300 });
  const answer = await pair.send({ path: '/hang/x', headers: bearer(await goodToken()) });
  t.equal(answer.status, 504);
  t.same(answer.json, { detail: 'Gateway time-out: the upstream did not answer in time' });
  t.equal(answer.headers['www-authenticate'], undefined);
  t.equal(pair.upstream.received.length, 1, 'the upstream had the request');
});

t.test('a refused request is not forwarded even to a dead upstream (401 before 502)', async (t) => {
  const pair = await plainGateway(t, { upstreamUrl: await closedPortUrl() });
  await assertRefused(
    t,
    pair,
    { path: '/config' },
    {
      status: 401,
      detail: 'Not authenticated: expected a bearer token in the Authorization header',
      challenge: 'Bearer realm="scopegate"',
    },
  );
});

/** Opens a request and hands back the request and its response as soon as headers arrive. */
function open(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): { req: ReturnType<typeof httpRequest>; response: Promise<IncomingMessage> } {
  const { hostname, port } = new URL(baseUrl);
  let req!: ReturnType<typeof httpRequest>;
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req = httpRequest({ host: hostname, port, path, headers, agent: false }, resolve);
    req.on('error', reject);
    req.end();
  });
  return { req, response };
}

t.test('a client that goes away aborts the upstream request', async (t) => {
  // Far longer than tap's own time-out: only the client's departure can end this request.
  const pair = await plainGateway(t, { timeoutMs: NEVER_MS });
  const { req, response } = open(pair.gateway.url, '/hang/x', bearer(await goodToken()));
  response.catch(() => {}); // the socket is destroyed on purpose
  await pair.upstream.receivedCount(1);
  req.destroy();
  await pair.upstream.aborted;
  t.pass('the upstream saw its request closed early');
});

t.test('SSE: the first event reaches the client before the upstream finishes', async (t) => {
  const pair = await plainGateway(t);
  const { response } = open(pair.gateway.url, '/sse/x', bearer(await goodToken()));
  const res = await response;
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], 'text/event-stream');
  const chunks = res[Symbol.asyncIterator]();
  const first = await chunks.next();
  t.notOk(first.done, 'a first chunk arrived');
  const firstText = Buffer.from(first.value as Buffer).toString();
  t.match(firstText, 'event: first', 'the first event');
  t.notMatch(firstText, 'event: second', 'not yet the second: the upstream is still waiting');
  pair.upstream.release();
  let rest = '';
  for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) {
    rest += Buffer.from(next.value as Buffer).toString();
  }
  t.match(rest, 'event: second', 'the second event after release');
});

t.test('a client that goes away mid-stream aborts the upstream response', async (t) => {
  const pair = await plainGateway(t, { timeoutMs: NEVER_MS });
  const { req, response } = open(pair.gateway.url, '/sse/x', bearer(await goodToken()));
  const res = await response;
  res.on('error', () => {}); // the socket is destroyed on purpose
  const first = await res[Symbol.asyncIterator]().next();
  t.match(Buffer.from(first.value as Buffer).toString(), 'event: first');
  req.destroy();
  await pair.upstream.aborted;
  t.pass('the upstream saw its stream closed early');
});

t.test('request bodies stream to the upstream intact', async (t) => {
  const pair = await plainGateway(t);
  const token = await goodToken();
  const json = JSON.stringify({ message: 'héllo', n: [1, 2, 3] });
  const big = 'x'.repeat(256 * 1024);
  const rows: {
    name: string;
    body?: string;
    chunks?: string[];
    expected: string;
  }[] = [
    { name: 'a JSON body with Content-Length', body: json, expected: json },
    {
      name: 'a chunked body',
      chunks: ['{"part":', '1,', '"more":true}'],
      expected: '{"part":1,"more":true}',
    },
    { name: 'a large chunked body', chunks: [big, big], expected: big + big },
    { name: 'no body', expected: '' },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const { received } = await assertForwarded(t, pair, {
        method: 'POST',
        path: '/agents/a1/runs',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        ...(row.body === undefined ? {} : { body: row.body }),
        ...(row.chunks === undefined ? {} : { chunks: row.chunks }),
      });
      t.equal(received.method, 'POST');
      t.equal(received.body.length, row.expected.length, 'length');
      t.ok(received.body === row.expected, 'the body arrived intact');
      t.equal(received.headers['content-type'], 'application/json');
      if (row.body !== undefined) {
        t.equal(received.headers['content-length'], String(Buffer.byteLength(row.body)));
      }
    });
  }
});
