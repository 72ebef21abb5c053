/**
 * Limits that protect every caller from one, through a real gateway on real sockets: a stalled
 * or too slow request body is 408 and its upstream request aborted; a caller past
 * upstream.max_in_flight_per_principal is 429 while others are served; a full pool answers 503
 * after upstream.queue_timeout_ms, and a request that gets a connection in time is served.
 * Bounds are small and configured; assertions are on statuses, never on elapsed time.
 */
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { WebSocket, WebSocketServer } from 'ws';
import { describeRefusal, reject, type RejectionCode } from '../../src/gateway/rejections.js';
import { bearer, yamlOf } from '../fixtures/e2e.js';
import {
  startGateway,
  type ListenSettings,
  type RunningGateway,
  type UpstreamSettings,
} from '../fixtures/gateway.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { createTestClock, goodToken, TEST_SERVICE_ID } from '../fixtures/tokens.js';

/** One request as the upstream saw it arrive (before its body). */
interface Arrival {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/**
 * An upstream that records each request as it arrives and whether its body completed: a path
 * with a `/hold` segment is answered when the test releases it, one with `/hang` never; anything
 * else after its body, 200.
 */
interface HoldingUpstream {
  readonly url: string;
  readonly arrivals: Arrival[];
  /** Requests whose connection closed before their body was complete. */
  readonly cutOff: number;
  /** Requests whose body arrived whole. */
  readonly completed: number;
  /** Resolves once `n` requests have arrived. */
  arrived(n: number): Promise<void>;
  /** Resolves once `n` requests were cut off mid-body. */
  cutOffCount(n: number): Promise<void>;
  /** Answers every held request (200). */
  release(): void;
}

async function startHoldingUpstream(t: Test): Promise<HoldingUpstream> {
  const arrivals: Arrival[] = [];
  const held: ServerResponse[] = [];
  let cutOff = 0;
  let completed = 0;
  const waiters: { when: () => boolean; resolve: () => void }[] = [];
  const check = (): void => {
    for (const waiter of waiters.filter((w) => w.when())) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const until = (when: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      waiters.push({ when, resolve });
      check();
    });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    arrivals.push({ url, headers: req.headers });
    req.on('error', () => {});
    req.once('close', () => {
      if (req.complete) completed += 1;
      else cutOff += 1;
      check();
    });
    req.resume();
    check();
    if (url.includes('/hang')) return;
    if (url.includes('/hold')) {
      held.push(res);
      return;
    }
    req.once('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    get cutOff() {
      return cutOff;
    },
    get completed() {
      return completed;
    },
    arrived: (n) => until(() => arrivals.length >= n),
    cutOffCount: (n) => until(() => cutOff >= n),
    release() {
      for (const res of held.splice(0)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"held":true}');
      }
    },
  };
}

const ALICE = await goodToken({ sub: 'alice', scopes: ['agent_os:admin'] });
const BOB = await goodToken({ sub: 'bob', scopes: ['agent_os:admin'] });

function authYaml(auth: Record<string, unknown> = {}): string {
  return yamlOf({
    service_id: TEST_SERVICE_ID,
    auth: {
      verification_keys: [RSA_KEY.publicPem],
      algorithm: 'RS256',
      service_accounts: { enabled: false },
      ...auth,
    },
  });
}

async function gatewayFor(
  t: Test,
  upstreamUrl: string,
  options: { listen?: ListenSettings; upstream?: UpstreamSettings; auth?: Record<string, unknown> },
): Promise<RunningGateway> {
  return startGateway(t, {
    upstreamUrl,
    clock: createTestClock(),
    yaml: authYaml(options.auth),
    ...(options.listen === undefined ? {} : { listen: options.listen }),
    ...(options.upstream === undefined ? {} : { upstream: options.upstream }),
  });
}

/** A response as the client read it, and whether the connection then closed. */
interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A request in progress: its answer, and a way to write more of its body or drop it. */
interface Exchange {
  readonly answer: Promise<Answer>;
  /** Resolves when the client's connection has closed. */
  readonly closed: Promise<void>;
  write(chunk: string): void;
  /** Drops the connection (the client goes away). */
  destroy(): void;
}

/**
 * Starts a request on its own connection. With `declaredLength`, the body is sent with that
 * Content-Length and only `firstChunk` of it is written: the rest never comes unless written.
 */
function start(
  baseUrl: string,
  options: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    declaredLength?: number;
    firstChunk?: string;
  } = {},
): Exchange {
  const { hostname, port } = new URL(baseUrl);
  let settle: (a: Answer) => void = () => {};
  let fail: (e: Error) => void = () => {};
  const answer = new Promise<Answer>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const headers: Record<string, string> = { ...options.headers };
  if (options.declaredLength !== undefined)
    headers['content-length'] = String(options.declaredLength);
  const req = request(
    {
      host: hostname,
      port,
      method: options.method ?? 'GET',
      path: options.path ?? '/',
      headers,
      agent: false,
    },
    (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => {});
      res.on('end', () =>
        settle({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    },
  );
  // A dropped request fails its answer; a test that drops one never awaits it.
  req.on('error', (err) => fail(err));
  answer.catch(() => undefined);
  const closed = new Promise<void>((resolve) => {
    req.once('socket', (socket) => socket.once('close', () => resolve()));
  });
  if (options.declaredLength === undefined) req.end();
  else if (options.firstChunk !== undefined) req.write(options.firstChunk);
  else req.flushHeaders();
  return {
    answer,
    closed,
    write: (chunk) => {
      req.write(chunk);
    },
    destroy: () => req.destroy(),
  };
}

/** Waits, turn by turn of the event loop, until `condition` holds (bounded by the test time-out). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setImmediate(r));
}

function detailOf(code: RejectionCode): string {
  return describeRefusal(reject(code)).detail;
}

t.test(
  'request-body time-outs: 408, the upstream request aborted, the connection closed',
  async (t) => {
    const rows: readonly {
      name: string;
      listen: ListenSettings;
      /** Keeps the body trickling (a byte every few milliseconds) so only the total bound trips. */
      trickle: boolean;
      code: RejectionCode;
    }[] = [
      {
        name: 'a body that stalls past body_idle_timeout_ms',
        listen: { body_idle_timeout_ms: 200 },
        trickle: false,
        code: 'SG_ERR_BODY_IDLE_TIMEOUT',
      },
      {
        name: 'a body still trickling past body_timeout_ms',
        listen: { body_idle_timeout_ms: 60_000, body_timeout_ms: 300 },
        trickle: true,
        code: 'SG_ERR_BODY_TIMEOUT',
      },
    ];
    for (const row of rows) {
      await t.test(row.name, async (t) => {
        const upstream = await startHoldingUpstream(t);
        const gateway = await gatewayFor(t, upstream.url, { listen: row.listen });
        const upload = start(gateway.url, {
          method: 'POST',
          path: '/upload',
          headers: bearer(ALICE),
          declaredLength: 1_000_000,
          firstChunk: 'abc',
        });
        const trickle = row.trickle ? setInterval(() => upload.write('x'), 5) : null;
        const answer = await upload.answer;
        if (trickle !== null) clearInterval(trickle);
        t.equal(answer.status, 408);
        t.same(JSON.parse(answer.body), { detail: detailOf(row.code) });
        t.equal(answer.headers['connection'], 'close');
        await upload.closed;
        await upstream.cutOffCount(1);
        t.equal(upstream.arrivals.length, 1, 'the upload had reached the upstream');
        t.equal(upstream.completed, 0, 'and the upstream never saw it complete');
      });
    }
  },
);

t.test('a body that keeps arriving within the bounds is forwarded whole', async (t) => {
  const upstream = await startHoldingUpstream(t);
  const gateway = await gatewayFor(t, upstream.url, { listen: { body_idle_timeout_ms: 60_000 } });
  const upload = start(gateway.url, {
    method: 'POST',
    path: '/upload',
    headers: bearer(ALICE),
    declaredLength: 6,
    firstChunk: 'abc',
  });
  await upstream.arrived(1);
  upload.write('def');
  t.equal((await upload.answer).status, 200);
  t.equal(upstream.completed, 1);
});

t.test('bodies the gateway reads itself obey the same bounds: 408, never forwarded', async (t) => {
  const rows = [
    { name: 'a dynamic-dispatch body', path: '/a2a/message/send' },
    { name: 'a /service-accounts body', path: '/service-accounts' },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const upstream = await startHoldingUpstream(t);
      const gateway = await startGateway(t, {
        upstreamUrl: upstream.url,
        clock: createTestClock(),
        listen: { body_idle_timeout_ms: 200 },
        yaml: yamlOf({
          service_id: TEST_SERVICE_ID,
          auth: {
            verification_keys: [RSA_KEY.publicPem],
            algorithm: 'RS256',
            authorization: true,
            service_accounts: { enabled: true, store: 'sqlite:sa.db' },
          },
        }),
      });
      const upload = start(gateway.url, {
        method: 'POST',
        path: row.path,
        headers: { ...bearer(ALICE), 'content-type': 'application/json' },
        declaredLength: 100,
        firstChunk: '{"name":',
      });
      const answer = await upload.answer;
      t.equal(answer.status, 408);
      t.same(JSON.parse(answer.body), { detail: detailOf('SG_ERR_BODY_IDLE_TIMEOUT') });
      t.equal(answer.headers['connection'], 'close');
      await upload.closed;
      t.equal(upstream.arrivals.length, 0, 'the upstream was never reached');
    });
  }
});

t.test('a refused request whose body keeps stalling has its connection closed', async (t) => {
  const upstream = await startHoldingUpstream(t);
  const gateway = await gatewayFor(t, upstream.url, { listen: { body_idle_timeout_ms: 200 } });
  // No credential: 401 before the body is read; Node then drains the body the caller stalls.
  const upload = start(gateway.url, {
    method: 'POST',
    path: '/upload',
    declaredLength: 1000,
    firstChunk: 'abc',
  });
  t.equal((await upload.answer).status, 401);
  await upload.closed;
  t.equal(upstream.arrivals.length, 0);
});

t.test('one caller at its in-flight cap gets 429; another caller is still served', async (t) => {
  const upstream = await startHoldingUpstream(t);
  const gateway = await gatewayFor(t, upstream.url, {
    upstream: { max_in_flight_per_principal: 2 },
    listen: { body_idle_timeout_ms: 60_000 },
  });
  // Two slow uploads from alice hold two upstream requests open.
  const uploads = [1, 2].map((n) =>
    start(gateway.url, {
      method: 'POST',
      path: `/upload/${n}`,
      headers: bearer(ALICE),
      declaredLength: 1000,
      firstChunk: 'a',
    }),
  );
  await upstream.arrived(2);
  const refused = await start(gateway.url, { path: '/agents', headers: bearer(ALICE) }).answer;
  t.equal(refused.status, 429);
  t.equal(refused.headers['retry-after'], '1');
  t.same(JSON.parse(refused.body), { detail: detailOf('SG_ERR_IN_FLIGHT_LIMIT') });
  t.equal(upstream.arrivals.length, 2, 'the refused request never reached the upstream');
  const other = await start(gateway.url, { path: '/agents', headers: bearer(BOB) }).answer;
  t.equal(other.status, 200, "another caller's request is answered");
  const metrics = await gateway.state.telemetry.metrics.registry.metrics();
  t.match(metrics, /scopegate_requests_total\{[^}]*status="429",decision="deny"\} 1/);

  // The uploads' callers count is given back when their clients go away.
  for (const upload of uploads) upload.destroy();
  await until(() => gateway.state.upstream.callers.of('jwt:alice') === 0);
  const again = await start(gateway.url, { path: '/agents', headers: bearer(ALICE) }).answer;
  t.equal(again.status, 200);
});

t.test('callers are counted apart by identity, kind and address', async (t) => {
  const upstream = await startHoldingUpstream(t);
  const gateway = await gatewayFor(t, upstream.url, {
    upstream: { max_in_flight_per_principal: 1 },
    auth: { excluded_route_paths: ['/public/**'] },
  });
  // An excluded route is counted by client address: one held request takes that address's share.
  const held = start(gateway.url, { path: '/public/hold' });
  await upstream.arrived(1);
  t.equal(gateway.state.upstream.callers.of('addr:127.0.0.1'), 1);
  const excluded = await start(gateway.url, { path: '/public/x' }).answer;
  t.equal(excluded.status, 429, 'the same address is at its cap');
  const user = await start(gateway.url, { path: '/agents', headers: bearer(ALICE) }).answer;
  t.equal(user.status, 200, 'a user from that address is counted as itself');
  held.destroy();
});

t.test(
  'a full pool answers 503 with Retry-After after the queue bound, never forwarded',
  async (t) => {
    const rows = [
      { name: 'after waiting upstream.queue_timeout_ms', queue_timeout_ms: 200 },
      { name: 'at once with queue_timeout_ms 0', queue_timeout_ms: 0 },
    ];
    for (const row of rows) {
      await t.test(row.name, async (t) => {
        const upstream = await startHoldingUpstream(t);
        const gateway = await gatewayFor(t, upstream.url, {
          upstream: {
            max_connections: 2,
            queue_timeout_ms: row.queue_timeout_ms,
            max_in_flight_per_principal: 0,
          },
        });
        const hanging = [1, 2].map((n) =>
          start(gateway.url, { path: `/hang/${n}`, headers: bearer(ALICE) }),
        );
        await upstream.arrived(2);
        const refused = await start(gateway.url, { path: '/agents', headers: bearer(BOB) }).answer;
        t.equal(refused.status, 503);
        t.equal(refused.headers['retry-after'], '5');
        t.same(JSON.parse(refused.body), { detail: detailOf('SG_ERR_UPSTREAM_BUSY') });
        t.equal(upstream.arrivals.length, 2, 'the upstream never saw the refused request');
        for (const h of hanging) h.destroy();
      });
    }
  },
);

t.test('a request that gets a connection within the queue bound is served', async (t) => {
  const upstream = await startHoldingUpstream(t);
  const gateway = await gatewayFor(t, upstream.url, {
    upstream: { max_connections: 1, queue_timeout_ms: 60_000 },
  });
  const first = start(gateway.url, { path: '/hold/1', headers: bearer(ALICE) });
  await upstream.arrived(1);
  const second = start(gateway.url, { path: '/agents', headers: bearer(BOB) });
  await until(() => gateway.state.upstream.slots.waiting === 1);
  upstream.release();
  t.equal((await first.answer).status, 200);
  t.equal((await second.answer).status, 200);
  t.same(
    upstream.arrivals.map((a) => a.url),
    ['/hold/1', '/agents'],
  );
  t.equal(gateway.state.upstream.slots.inUse, 0, 'every slot was given back');
});

t.test('a waiting request whose client leaves gives its place and its count back', async (t) => {
  const upstream = await startHoldingUpstream(t);
  const gateway = await gatewayFor(t, upstream.url, {
    upstream: { max_connections: 1, queue_timeout_ms: 60_000 },
  });
  const first = start(gateway.url, { path: '/hold/1', headers: bearer(ALICE) });
  await upstream.arrived(1);
  const leaving = start(gateway.url, { path: '/agents', headers: bearer(BOB) });
  await until(() => gateway.state.upstream.slots.waiting === 1);
  leaving.destroy();
  await until(() => gateway.state.upstream.slots.waiting === 0);
  t.equal(gateway.state.upstream.callers.of('jwt:bob'), 0);
  upstream.release();
  t.equal((await first.answer).status, 200);
  t.equal(upstream.arrivals.length, 1, 'the request that left was never forwarded');
});

t.test('a body that stalls while its request waits for a connection is 408', async (t) => {
  const upstream = await startHoldingUpstream(t);
  const gateway = await gatewayFor(t, upstream.url, {
    upstream: { max_connections: 1, queue_timeout_ms: 60_000 },
    listen: { body_idle_timeout_ms: 200 },
  });
  const first = start(gateway.url, { path: '/hold/1', headers: bearer(ALICE) });
  await upstream.arrived(1);
  const upload = start(gateway.url, {
    method: 'POST',
    path: '/upload',
    headers: bearer(BOB),
    declaredLength: 100,
    firstChunk: 'abc',
  });
  const answer = await upload.answer;
  t.equal(answer.status, 408);
  t.same(JSON.parse(answer.body), { detail: detailOf('SG_ERR_BODY_IDLE_TIMEOUT') });
  t.equal(gateway.state.upstream.slots.waiting, 0);
  t.equal(gateway.state.upstream.callers.of('jwt:bob'), 0);
  upstream.release();
  t.equal((await first.answer).status, 200);
  t.equal(upstream.arrivals.length, 1, 'the stalled upload was never forwarded');
});

t.test('a full wait queue is 503 at once', async (t) => {
  const upstream = await startHoldingUpstream(t);
  const gateway = await gatewayFor(t, upstream.url, {
    upstream: { max_connections: 1, queue_timeout_ms: 60_000, max_in_flight_per_principal: 0 },
  });
  const first = start(gateway.url, { path: '/hold/1', headers: bearer(ALICE) });
  await upstream.arrived(1);
  // One connection: four requests may wait for it.
  const waiting = [1, 2, 3, 4].map((n) =>
    start(gateway.url, { path: `/agents/${n}`, headers: bearer(ALICE) }),
  );
  await until(() => gateway.state.upstream.slots.waiting === 4);
  const refused = await start(gateway.url, { path: '/agents', headers: bearer(ALICE) }).answer;
  t.equal(refused.status, 503);
  t.equal(refused.headers['retry-after'], '5');
  upstream.release();
  t.equal((await first.answer).status, 200);
  for (const w of waiting) t.equal((await w.answer).status, 200, 'each waiter in turn');
});

t.test('a WebSocket tunnel counts against its caller for as long as it is open', async (t) => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => r());
      }),
  );
  const upstreamUrl = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  const gateway = await gatewayFor(t, upstreamUrl, {
    upstream: { max_in_flight_per_principal: 1 },
  });
  const wsUrl = gateway.url.replace(/^http/, 'ws') + '/ws';
  const tunnel = new WebSocket(wsUrl, { headers: bearer(ALICE) });
  await new Promise<void>((resolve, fail) => {
    tunnel.once('open', () => resolve());
    tunnel.once('error', fail);
  });
  const second = await new Promise<number>((resolve) => {
    const ws = new WebSocket(wsUrl, { headers: bearer(ALICE) });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => undefined);
  });
  t.equal(second, 429, 'a second tunnel of the same caller is refused');
  const plain = await start(gateway.url, { path: '/agents', headers: bearer(ALICE) }).answer;
  t.equal(plain.status, 429, 'so is any other request of that caller');
  tunnel.close();
  await until(() => gateway.state.upstream.callers.of('jwt:alice') === 0);
  // The ws upstream answers a plain GET 426: forwarded, no longer refused.
  const after = await start(gateway.url, { path: '/agents', headers: bearer(ALICE) }).answer;
  t.equal(after.status, 426);
});
