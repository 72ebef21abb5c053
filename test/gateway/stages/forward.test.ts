/**
 * The forward stage on real sockets (port 0): pool and base path, streaming, 502/504 codes, client
 * aborts. A front server stands in for pipeline.ts: forwardRequest, then respond.ts on a failure.
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
import type { Dispatcher, Pool } from 'undici';
import type { BodyTimeoutCode, BodyWatch } from '../../../src/gateway/body-watch.js';
import { reject } from '../../../src/gateway/rejections.js';
import { writeRefusal } from '../../../src/gateway/respond.js';
import {
  createUpstream,
  forwardRequest,
  proxiedResponseHeaders,
  type ForwardOutcome,
  type Upstream,
} from '../../../src/gateway/stages/forward.js';
import { endToEndHeaders } from '../../../src/gateway/stages/inject-identity.js';
import { createCallerCounts, createUpstreamSlots } from '../../../src/gateway/upstream-slots.js';

/** One request as the upstream saw it. */
interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface TestUpstream {
  readonly url: string;
  readonly seen: Seen[];
  /** Resolves with the next request the upstream receives (its body read). */
  next(): Promise<{ seen: Seen; res: ServerResponse }>;
}

type UpstreamHandler = (seen: Seen, res: ServerResponse) => void;

/** An upstream that echoes by default; `handler` overrides the answer. */
async function startUpstream(t: Test, handler?: UpstreamHandler): Promise<TestUpstream> {
  const seen: Seen[] = [];
  const waiting: ((v: { seen: Seen; res: ServerResponse }) => void)[] = [];
  const arrived: { seen: Seen; res: ServerResponse }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const one: Seen = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    seen.push(one);
    const waiter = waiting.shift();
    if (waiter) waiter({ seen: one, res });
    else arrived.push({ seen: one, res });
    if (handler) return handler(one, res);
    const status = /^\/status\/(\d{3})/.exec(one.url);
    res.writeHead(status ? Number(status[1]) : 200, {
      'content-type': 'application/json',
      'x-upstream': 'yes',
      connection: 'keep-alive, x-hop',
      'x-hop': 'must not pass',
    });
    res.end(JSON.stringify({ method: one.method, url: one.url, body: one.body }));
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
    seen,
    next: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((r) => waiting.push(r));
    },
  };
}

/** A pool closed (forcibly) with the test. */
function upstreamFor(t: Test, url: string, timeoutMs = 5_000): Upstream {
  const upstream = createUpstream(url, timeoutMs);
  t.teardown(() => upstream.pool.destroy());
  return upstream;
}

interface Front {
  readonly port: number;
  /** Outcomes of forwardRequest, one per request, in arrival order. */
  outcome(): Promise<ForwardOutcome>;
  /** Calls `listener` when the next response's connection closes. */
  closed(listener: () => void): void;
}

/**
 * The stand-in for the pipeline: forwards every request as received, plus extra headers, and
 * answers a failure code through respond.ts (which cuts off a response already started).
 */
async function startFront(
  t: Test,
  upstream: Upstream,
  headersOf: (req: IncomingMessage) => Record<string, string | string[]> = (req) =>
    endToEndHeaders(req.headers),
): Promise<Front> {
  const outcomes: ForwardOutcome[] = [];
  const outcomeWaiters: ((o: ForwardOutcome) => void)[] = [];
  const closeListeners: (() => void)[] = [];
  const server = createServer((req, res) => {
    const extra = { 'x-request-id': 'front-1' };
    const onClose = closeListeners.shift();
    if (onClose) res.on('close', onClose);
    void forwardRequest(upstream, req, res, req.url ?? '/', headersOf(req), extra).then((o) => {
      if (!o.ok && o.code !== null) writeRefusal(res, reject(o.code), extra);
      const waiter = outcomeWaiters.shift();
      if (waiter) waiter(o);
      else outcomes.push(o);
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
    port: (server.address() as AddressInfo).port,
    outcome: () => {
      const ready = outcomes.shift();
      return ready ? Promise.resolve(ready) : new Promise((r) => outcomeWaiters.push(r));
    },
    closed: (listener) => closeListeners.push(listener),
  };
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly complete: boolean;
}

interface SendOptions {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Sent with Transfer-Encoding: chunked. */
  readonly chunks?: string[];
}

function send(port: number, options: SendOptions = {}): Promise<Answer> {
  return new Promise((resolve, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers ?? {},
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => {});
        res.on('close', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            complete: res.complete,
          }),
        );
      },
    );
    req.on('error', fail);
    if (options.chunks) for (const c of options.chunks) req.write(c);
    req.end(options.body);
  });
}

/** A port nothing listens on (bound once, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

t.test('createUpstream: origin, base path and time-out from upstream.url', async (t) => {
  const rows: { url: string; origin: string; basePath: string }[] = [
    { url: 'http://h:1/api/', origin: 'http://h:1', basePath: '/api' },
    { url: 'http://h:1/api', origin: 'http://h:1', basePath: '/api' },
    { url: 'http://h:1/a/b//', origin: 'http://h:1', basePath: '/a/b' },
    { url: 'http://h:1/', origin: 'http://h:1', basePath: '' },
    { url: 'http://h:1', origin: 'http://h:1', basePath: '' },
    { url: 'https://up.example', origin: 'https://up.example', basePath: '' },
  ];
  for (const row of rows) {
    const upstream = upstreamFor(t, row.url, 1234);
    t.same(
      { origin: upstream.origin, basePath: upstream.basePath, timeoutMs: upstream.timeoutMs },
      { origin: row.origin, basePath: row.basePath, timeoutMs: 1234 },
      row.url,
    );
  }
});

t.test('GET is forwarded without a body; the answer streams back', async (t) => {
  const up = await startUpstream(t);
  const front = await startFront(t, upstreamFor(t, up.url));
  const answer = await send(front.port, {
    path: '/agents?limit=2&x=%2F',
    headers: { accept: 'x/y' },
  });
  t.same(await front.outcome(), { ok: true, status: 200 });
  t.equal(answer.status, 200);
  t.same(JSON.parse(answer.body), { method: 'GET', url: '/agents?limit=2&x=%2F', body: '' });
  t.equal(answer.headers['x-upstream'], 'yes', 'end-to-end response headers pass');
  t.equal(answer.headers['x-request-id'], 'front-1', 'extra response headers are added');
  t.notOk('x-hop' in answer.headers, 'a header the upstream listed in Connection does not pass');
  const [seen] = up.seen;
  t.equal(seen?.method, 'GET');
  t.equal(seen?.headers['accept'], 'x/y');
  t.notOk(seen?.headers['transfer-encoding'], 'no chunked body for a GET');
  t.notOk(seen?.headers['content-length'], 'no content-length for a GET');
});

t.test('the base path of upstream.url prefixes every forwarded path', async (t) => {
  const up = await startUpstream(t);
  const front = await startFront(t, upstreamFor(t, `${up.url}/api/v1/`));
  await send(front.port, { path: '/agents/a1/runs?stream=true' });
  t.same(await front.outcome(), { ok: true, status: 200 });
  t.equal(up.seen[0]?.url, '/api/v1/agents/a1/runs?stream=true');
});

t.test('request bodies are streamed on', async (t) => {
  // `length: null`: not checked (undici may send a body that already fully arrived with a length).
  const rows: {
    name: string;
    options: SendOptions;
    body: string;
    length: string | undefined | null;
  }[] = [
    {
      name: 'POST with Content-Length',
      options: { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } },
      body: '{"a":1}',
      length: '7',
    },
    {
      name: 'POST chunked',
      options: { method: 'POST', chunks: ['one,', 'two'] },
      body: 'one,two',
      length: null,
    },
    {
      name: 'POST with Content-Length: 0',
      options: { method: 'POST', body: '', headers: { 'content-length': '0' } },
      body: '',
      length: '0',
    },
  ];
  for (const row of rows) {
    const up = await startUpstream(t);
    const front = await startFront(t, upstreamFor(t, up.url));
    const answer = await send(front.port, { path: '/runs', ...row.options });
    t.same(await front.outcome(), { ok: true, status: 200 }, `${row.name}: outcome`);
    t.equal(answer.status, 200);
    t.equal(up.seen[0]?.method, 'POST', `${row.name}: method`);
    t.equal(up.seen[0]?.body, row.body, `${row.name}: body`);
    if (row.length !== null) {
      t.equal(up.seen[0]?.headers['content-length'], row.length, `${row.name}: content-length`);
    }
  }
});

t.test('the upstream status passes through', async (t) => {
  const up = await startUpstream(t);
  const front = await startFront(t, upstreamFor(t, up.url));
  for (const status of [201, 404, 500, 503]) {
    const answer = await send(front.port, { path: `/status/${status}` });
    t.same(await front.outcome(), { ok: true, status }, `${status}: outcome`);
    t.equal(answer.status, status, `${status}: the client sees it`);
  }
});

t.test('a refused connection is SG_ERR_UPSTREAM_UNREACHABLE, nothing written', async (t) => {
  const port = await closedPort();
  const front = await startFront(t, upstreamFor(t, `http://127.0.0.1:${port}`));
  const answer = await send(front.port, { path: '/x' });
  t.same(await front.outcome(), { ok: false, code: 'SG_ERR_UPSTREAM_UNREACHABLE' });
  t.equal(answer.status, 502, 'nothing was written before: the refusal is a clean 502');
  t.same(JSON.parse(answer.body), { detail: 'Bad gateway: the upstream could not be reached' });
});

t.test('headers not in time are SG_ERR_UPSTREAM_TIMEOUT', async (t) => {
  const up = await startUpstream(t, () => {
    /* never answers */
  });
  const front = await startFront(t, upstreamFor(t, up.url, 20));
  const answer = await send(front.port, { path: '/hang' });
  t.same(await front.outcome(), { ok: false, code: 'SG_ERR_UPSTREAM_TIMEOUT' });
  t.equal(answer.status, 504);
  t.equal(up.seen[0]?.url, '/hang', 'the request did reach the upstream');
});

t.test('a failure after the response started cuts the response off', async (t) => {
  const up = await startUpstream(t, (_seen, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: first\n\n', () => res.socket?.destroy());
  });
  const front = await startFront(t, upstreamFor(t, up.url));
  const answer = await send(front.port, { path: '/sse' });
  t.same(await front.outcome(), { ok: false, code: 'SG_ERR_UPSTREAM_UNREACHABLE' });
  t.equal(answer.status, 200, 'the status already sent stays');
  t.equal(answer.body, 'event: first\n\n', 'what arrived before the failure was streamed');
  t.equal(answer.complete, false, 'the client sees a cut-off response, not a clean end');
});

t.test('a body time-out after the response started cuts the response off', async (t) => {
  const up = await startUpstream(t, (_seen, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: first\n\n');
  });
  const front = await startFront(t, upstreamFor(t, up.url, 50));
  const answer = await send(front.port, { path: '/sse' });
  t.same(await front.outcome(), { ok: false, code: 'SG_ERR_UPSTREAM_TIMEOUT' });
  t.equal(answer.status, 200);
  t.equal(answer.body, 'event: first\n\n');
  t.equal(answer.complete, false);
});

t.test('a client that goes away aborts the upstream request (code null)', async (t) => {
  const up = await startUpstream(t, () => {
    /* never answers */
  });
  const front = await startFront(t, upstreamFor(t, up.url));
  const client = request({ host: '127.0.0.1', port: front.port, path: '/hang', agent: false });
  client.on('error', () => {});
  client.end();
  const { res: upstreamRes } = await up.next();
  const upstreamClosed = new Promise<boolean>((r) =>
    upstreamRes.on('close', () => r(upstreamRes.writableFinished)),
  );
  client.destroy();
  t.same(await front.outcome(), { ok: false, code: null }, 'nothing left to answer');
  t.equal(await upstreamClosed, false, 'the upstream saw its request cut off');
});

t.test('a client that goes away mid-stream aborts the upstream response (code null)', async (t) => {
  const up = await startUpstream(t, (_seen, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: first\n\n');
  });
  const front = await startFront(t, upstreamFor(t, up.url));
  const { res: upstreamRes } = await new Promise<{ res: ServerResponse }>((resolve) => {
    const client = request({ host: '127.0.0.1', port: front.port, path: '/sse', agent: false });
    client.on('error', () => {});
    client.on('response', (res) => {
      res.once('data', () => {
        void up.next().then(resolve);
        client.destroy();
      });
    });
    client.end();
  });
  const upstreamClosed = new Promise<boolean>((r) => {
    if (upstreamRes.closed) r(upstreamRes.writableFinished);
    else upstreamRes.on('close', () => r(upstreamRes.writableFinished));
  });
  t.same(await front.outcome(), { ok: false, code: null });
  t.equal(await upstreamClosed, false);
});

/**
 * An Upstream whose pool is a hand-driven dispatcher: the test decides when the request starts
 * and how it ends (for orderings real sockets do not produce on demand).
 */
function manualUpstream(): {
  upstream: Upstream;
  dispatched: Promise<Dispatcher.DispatchHandler>;
} {
  let hand: (h: Dispatcher.DispatchHandler) => void = () => {};
  const dispatched = new Promise<Dispatcher.DispatchHandler>((r) => (hand = r));
  const upstream: Upstream = {
    origin: 'http://manual.invalid',
    basePath: '',
    timeoutMs: 1000,
    pool: {
      dispatch: (_options: unknown, handler: Dispatcher.DispatchHandler) => {
        hand(handler);
        return true;
      },
    } as unknown as Pool,
    maxConnections: 1,
    slots: createUpstreamSlots(1),
    callers: createCallerCounts(),
  };
  return { upstream, dispatched };
}

/** A controller that records an abort and reports it as the response error, as undici does. */
function controllerFor(handler: Dispatcher.DispatchHandler): {
  controller: Dispatcher.DispatchController;
  aborted: () => Error | null;
} {
  let reason: Error | null = null;
  const controller = {
    abort(err: Error) {
      reason = err;
      handler.onResponseError?.(controller, err);
    },
    pause() {},
    resume() {},
    aborted: false,
    paused: false,
    reason: null,
  } as unknown as Dispatcher.DispatchController;
  return { controller, aborted: () => reason };
}

t.test('an error without a code is SG_ERR_UPSTREAM_UNREACHABLE', async (t) => {
  const { upstream, dispatched } = manualUpstream();
  const front = await startFront(t, upstream);
  const sent = send(front.port, { path: '/x' });
  const handler = await dispatched;
  const { controller } = controllerFor(handler);
  handler.onResponseError?.(controller, new Error('no code on this one'));
  t.same(await front.outcome(), { ok: false, code: 'SG_ERR_UPSTREAM_UNREACHABLE' });
  t.equal((await sent).status, 502);
});

t.test('a client gone before the upstream request started is aborted when it starts', async (t) => {
  const { upstream, dispatched } = manualUpstream();
  const front = await startFront(t, upstream);
  const closed = new Promise<void>((r) => front.closed(r));
  const client = request({ host: '127.0.0.1', port: front.port, path: '/x', agent: false });
  client.on('error', () => {});
  client.end();
  const handler = await dispatched;
  client.destroy();
  await closed;
  const { controller, aborted } = controllerFor(handler);
  handler.onRequestStart?.(controller, {});
  t.match(aborted(), { message: 'client closed the connection' });
  t.same(await front.outcome(), { ok: false, code: null });
});

t.test('a large body streams through with backpressure', async (t) => {
  const big = Buffer.alloc(8 * 1024 * 1024, 'abcdefghijklmnopqrstuvwxyz');
  const up = await startUpstream(t, (_seen, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(big);
  });
  const front = await startFront(t, upstreamFor(t, up.url));
  const answer = await new Promise<{ length: number; same: boolean }>((resolve, fail) => {
    const client = request({ host: '127.0.0.1', port: front.port, path: '/big', agent: false });
    client.on('error', fail);
    client.on('response', (res) => {
      const chunks: Buffer[] = [];
      // Read slowly at first so the front's writes fill its buffer and must wait for drain.
      res.pause();
      setImmediate(() => res.resume());
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({ length: all.length, same: all.equals(big) });
      });
    });
    client.end();
  });
  t.same(await front.outcome(), { ok: true, status: 200 });
  t.same(answer, { length: big.length, same: true });
});

t.test(
  'proxiedResponseHeaders: upstream CORS headers dropped, ours added, Vary merged',
  async (t) => {
    const upstream = {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'access-control-allow-credentials': 'true',
      connection: 'keep-alive',
      vary: 'Accept-Encoding',
    };
    t.same(proxiedResponseHeaders(upstream, { 'x-request-id': 'r-1' }), {
      'content-type': 'application/json',
      vary: 'Accept-Encoding',
      'x-request-id': 'r-1',
    });
    t.same(
      proxiedResponseHeaders(upstream, {
        'x-request-id': 'r-2',
        'access-control-allow-origin': 'https://a.example',
        vary: 'Origin',
      }),
      {
        'content-type': 'application/json',
        vary: 'Accept-Encoding, Origin',
        'x-request-id': 'r-2',
        'access-control-allow-origin': 'https://a.example',
      },
    );
    t.same(proxiedResponseHeaders({ 'content-type': 'text/plain' }, { vary: 'Origin' }), {
      'content-type': 'text/plain',
      vary: 'Origin',
    });
  },
);

/** A body watch driven by the test: it expires when the test calls its `onExpire`. */
function handWatch(expired: BodyTimeoutCode | null = null): {
  expired: BodyTimeoutCode | null;
  active: boolean;
  onExpire: ((code: BodyTimeoutCode) => void) | null;
} {
  return { expired, active: expired === null, onExpire: null };
}

/** A front that forwards each request with `watch` as its body watch, answering failures. */
async function startWatchedFront(
  t: Test,
  upstream: Upstream,
  watch: BodyWatch,
): Promise<{ port: number; outcome: Promise<ForwardOutcome> }> {
  let settle: (o: ForwardOutcome) => void = () => {};
  const outcome = new Promise<ForwardOutcome>((r) => (settle = r));
  const server = createServer((req, res) => {
    void forwardRequest(upstream, req, res, '/x', {}, {}, undefined, undefined, watch).then((o) => {
      if (!o.ok && o.code !== null) writeRefusal(res, reject(o.code));
      settle(o);
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
  return { port: (server.address() as AddressInfo).port, outcome };
}

/** Starts a POST whose body never completes; `started` is called as response bytes arrive. */
function stalledPost(port: number, started?: () => void): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/x',
        headers: { 'content-length': '100' },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          started?.();
        });
        res.on('error', () => {});
        res.on('close', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            complete: res.complete,
          }),
        );
      },
    );
    req.on('error', () => {});
    req.write('abc');
  });
}

t.test('a body that timed out already is its 408, never dispatched', async (t) => {
  const { upstream } = manualUpstream();
  let dispatchedAny = false;
  (upstream.pool as unknown as { dispatch: () => boolean }).dispatch = () => {
    dispatchedAny = true;
    return true;
  };
  const front = await startWatchedFront(t, upstream, handWatch('SG_ERR_BODY_TIMEOUT'));
  const answer = stalledPost(front.port);
  t.same(await front.outcome, { ok: false, code: 'SG_ERR_BODY_TIMEOUT' });
  t.equal((await answer).status, 408);
  t.notOk(dispatchedAny, 'the upstream was never asked');
});

t.test(
  'a body that times out before the upstream request started is aborted when it starts',
  async (t) => {
    const { upstream, dispatched } = manualUpstream();
    const watch = handWatch();
    const front = await startWatchedFront(t, upstream, watch);
    const answer = stalledPost(front.port);
    const handler = await dispatched;
    watch.onExpire?.('SG_ERR_BODY_IDLE_TIMEOUT');
    const { controller, aborted } = controllerFor(handler);
    handler.onRequestStart?.(controller, {});
    t.match(aborted(), { message: 'request body timed out' });
    t.same(await front.outcome, { ok: false, code: 'SG_ERR_BODY_IDLE_TIMEOUT' });
    t.equal((await answer).status, 408);
    t.equal(watch.onExpire, null, 'the watch no longer points at the settled exchange');
  },
);

t.test('a body that times out after the response started cuts the response off', async (t) => {
  const { upstream, dispatched } = manualUpstream();
  const watch = handWatch();
  const front = await startWatchedFront(t, upstream, watch);
  let started: () => void = () => {};
  const early = new Promise<void>((r) => (started = r));
  const answer = stalledPost(front.port, () => started());
  const handler = await dispatched;
  const { controller, aborted } = controllerFor(handler);
  handler.onRequestStart?.(controller, {});
  handler.onResponseStart?.(controller, 200, { 'content-type': 'text/plain' }, 'OK');
  handler.onResponseData?.(controller, Buffer.from('early answer'));
  await early;
  watch.onExpire?.('SG_ERR_BODY_TIMEOUT');
  t.match(aborted(), { message: 'request body timed out' });
  t.same(await front.outcome, { ok: false, code: 'SG_ERR_BODY_TIMEOUT' });
  const cut = await answer;
  t.equal(cut.status, 200, 'the status already sent stays');
  t.equal(cut.body, 'early answer');
  t.equal(cut.complete, false, 'the response was cut off');
});
