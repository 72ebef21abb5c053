/**
 * WebSockets through a real gateway: an upgrade is normalized, authenticated and authorized like
 * any request, carries the same identity headers (strip, then set), and is tunnelled to the
 * upstream both ways; a refused upgrade gets its HTTP status on the socket and never a 101. `ws`
 * is the upstream echo server and the client.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import t, { type Test } from 'tap';
import { WebSocket, WebSocketServer } from 'ws';
import type { IdentityContext } from '../../src/shared/identity-context.js';
import { bearer, closedPortUrl, yamlOf } from '../fixtures/e2e.js';
import { startGateway, type RunningGateway } from '../fixtures/gateway.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { createTestClock, goodToken, TEST_SERVICE_ID } from '../fixtures/tokens.js';

const ALLOWED = 'https://app.example.com';

/** A `ws` echo server on port 0 that records the headers of each upgrade it accepted. */
async function startEchoUpstream(t: Test): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (socket, req) => {
    seen.push(req.headers);
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  t.teardown(
    () =>
      new Promise<void>((r) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`, seen };
}

function gatewayYaml(auth: Record<string, unknown> = {}): string {
  return yamlOf({
    service_id: TEST_SERVICE_ID,
    cors: { allowed_origins: [ALLOWED] },
    auth: {
      verification_keys: [RSA_KEY.publicPem],
      algorithm: 'RS256',
      authorization: true,
      scope_mappings: { 'GET /ws/echo': ['ws:connect'] },
      excluded_route_paths: ['/public/**'],
      service_accounts: { enabled: false },
      ...auth,
    },
  });
}

async function gatewayFor(
  t: Test,
  upstreamUrl: string,
  options: {
    auth?: Record<string, unknown>;
    timeoutMs?: number;
    upstream?: Record<string, unknown>;
  } = {},
): Promise<RunningGateway> {
  return startGateway(t, {
    upstreamUrl,
    clock: createTestClock(),
    yaml: gatewayYaml(options.auth),
    ...(options.upstream === undefined ? {} : { upstream: options.upstream }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
}

const wsUrl = (gateway: RunningGateway, path: string): string =>
  gateway.url.replace(/^http/, 'ws') + path;

/** Opens a client; resolves once open, rejects on an unexpected response. */
function open(url: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`unexpected response ${res.statusCode}`));
    });
    ws.once('error', reject);
  });
}

/** Sends `text` and resolves with the next message. */
function echo(ws: WebSocket, text: string): Promise<string> {
  return new Promise((resolve) => {
    ws.once('message', (data) => resolve((data as Buffer).toString()));
    ws.send(text);
  });
}

function closed(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) resolve();
    else ws.once('close', () => resolve());
  });
}

/** What a refused client saw: the HTTP answer instead of a 101, and whether it ever opened. */
interface Refused {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly opened: boolean;
}

function refused(url: string, headers: Record<string, string> = {}): Promise<Refused> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    let opened = false;
    ws.once('open', () => {
      opened = true;
      ws.terminate();
      reject(new Error('the socket opened'));
    });
    ws.once('unexpected-response', (req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        req.destroy();
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
          opened,
        });
      });
    });
    ws.once('error', (err) => {
      if (!opened) reject(err);
    });
  });
}

function contextOf(headers: IncomingHttpHeaders | undefined): IdentityContext {
  const value = headers?.['x-auth-context'];
  if (typeof value !== 'string') throw new Error('no x-auth-context');
  return JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as IdentityContext;
}

t.test("an upgrade carries the identity JWT, never the caller's own", async (t) => {
  const upstream = await startEchoUpstream(t);
  const gateway = await gatewayFor(t, upstream.url, {
    upstream: { identity_token: { enabled: true } },
  });
  const token = await goodToken({ sub: 'alice', scopes: ['ws:connect'] });
  const ws = await open(wsUrl(gateway, '/ws/echo'), {
    ...bearer(token),
    'x-auth-identity-token': 'spoofed',
  });
  t.equal(await echo(ws, 'hi'), 'hi');
  ws.close();
  await closed(ws);
  const sent = upstream.seen[0]?.['x-auth-identity-token'];
  t.type(sent, 'string');
  t.not(sent, 'spoofed', "not the caller's");
  const payload = JSON.parse(
    Buffer.from((sent as string).split('.')[1] as string, 'base64url').toString(),
  );
  t.match(payload, { sub: 'alice', scopes: ['ws:connect'] });
});

t.test(
  'an echo through the gateway with a valid token; the upstream saw the identity',
  async (t) => {
    const upstream = await startEchoUpstream(t);
    const gateway = await gatewayFor(t, upstream.url);
    const token = await goodToken({ sub: 'alice', scopes: ['ws:connect'] });
    const ws = await open(wsUrl(gateway, '/ws/echo?room=1'), {
      ...bearer(token),
      'x-auth-context': 'spoofed',
      X_Auth_User_Id: 'mallory',
      'x-request-id': 'ws-1',
    });
    t.equal(await echo(ws, 'hello through the gateway'), 'hello through the gateway');
    t.equal(await echo(ws, 'and again'), 'and again', 'both ways, more than once');
    ws.close();
    await closed(ws);
    const headers = upstream.seen[0];
    const context = contextOf(headers);
    t.equal(context.user_id, 'alice');
    t.equal(context.authenticated, true);
    t.same(context.required_scopes, ['ws:connect']);
    t.equal(headers?.['x-auth-user-id'], 'alice');
    t.equal(headers?.['x_auth_user_id'], undefined, 'the spoofed header is stripped');
    t.equal(headers?.['x-request-id'], 'ws-1');
    t.equal(headers?.['x-forwarded-for'], '127.0.0.1');
    t.equal(headers?.upgrade, 'websocket');

    // The same token again: now verified from the cache (the synchronous path).
    const again = await open(wsUrl(gateway, '/ws/echo'), bearer(token));
    t.equal(await echo(again, 'cached'), 'cached');
    again.close();
    await closed(again);
    t.equal(upstream.seen.length, 2);
  },
);

t.test('without a token: an HTTP 401 unexpected-response, never an open socket', async (t) => {
  const upstream = await startEchoUpstream(t);
  const gateway = await gatewayFor(t, upstream.url);
  const answer = await refused(wsUrl(gateway, '/ws/echo'));
  t.equal(answer.status, 401);
  t.equal(answer.opened, false);
  t.same(JSON.parse(answer.body), {
    detail: 'Not authenticated: expected a bearer token in the Authorization header',
  });
  t.equal(answer.headers['www-authenticate'], 'Bearer realm="scopegate"');
  t.equal(answer.headers.connection, 'close');
  t.equal(upstream.seen.length, 0, 'the upstream saw nothing');
});

t.test('refusals keep their statuses: 403 without the scope, 400 for a bad path', async (t) => {
  const upstream = await startEchoUpstream(t);
  const gateway = await gatewayFor(t, upstream.url);
  const forbidden = await refused(wsUrl(gateway, '/ws/echo'), {
    ...bearer(await goodToken({ scopes: ['agents:read'] })),
    origin: ALLOWED,
  });
  t.equal(forbidden.status, 403);
  t.same(JSON.parse(forbidden.body), {
    detail: 'Insufficient permissions. Required scope(s): ws:connect',
  });
  t.equal(forbidden.headers['access-control-allow-origin'], ALLOWED, 'CORS on the refusal too');
  const badPath = await refused(wsUrl(gateway, '/ws/a%2Fb'));
  t.equal(badPath.status, 400);
  t.equal(upstream.seen.length, 0);
});

t.test('an excluded route is tunnelled with the anonymous identity', async (t) => {
  const upstream = await startEchoUpstream(t);
  const gateway = await gatewayFor(t, upstream.url);
  const ws = await open(wsUrl(gateway, '/public/feed'), { origin: ALLOWED });
  t.equal(await echo(ws, 'public'), 'public');
  ws.close();
  await closed(ws);
  const context = contextOf(upstream.seen[0]);
  t.equal(context.authenticated, false);
  t.equal(context.principal_type, 'anonymous');
});

t.test('an unreachable upstream is 502 on the socket', async (t) => {
  for (const url of [await closedPortUrl(), (await closedPortUrl()).replace('http:', 'https:')]) {
    const gateway = await gatewayFor(t, url);
    const answer = await refused(wsUrl(gateway, '/public/feed'));
    t.equal(answer.status, 502, url);
    t.same(JSON.parse(answer.body), { detail: 'Bad gateway: the upstream could not be reached' });
  }
});

/** A plain HTTP upstream whose `upgrade` handler is `onUpgrade` (none: it answers as HTTP). */
async function startRawUpstream(
  t: Test,
  onUpgrade?: (socket: Socket, head: Buffer) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.writeHead(426, {
      'content-type': 'text/plain',
      'access-control-allow-origin': '*',
    });
    res.end(`no upgrade here: ${req.url}`);
  });
  if (onUpgrade) {
    server.on('upgrade', (_req, socket: Socket, head: Buffer) => {
      // The server is half-open by default: close our side when the gateway closes its own.
      socket.on('end', () => socket.end());
      socket.on('error', () => socket.destroy());
      onUpgrade(socket, head);
    });
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

t.test('an upstream that declines to switch is relayed as is, then closed', async (t) => {
  const upstream = await startRawUpstream(t);
  const gateway = await gatewayFor(t, upstream.url);
  const answer = await refused(wsUrl(gateway, '/public/feed'), { origin: ALLOWED });
  t.equal(answer.status, 426);
  t.equal(answer.body, 'no upgrade here: /public/feed');
  t.equal(answer.headers.connection, 'close');
  t.equal(answer.headers['access-control-allow-origin'], ALLOWED, 'ours, not the upstream "*"');
});

/** Sends raw bytes to the gateway and collects everything until it closes or `until` matches. */
function rawExchange(
  gateway: RunningGateway,
  text: string,
  until: (received: string) => boolean,
): Promise<string> {
  const { hostname, port } = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      if (until(received)) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

t.test('early bytes on both sides cross the tunnel; the upstream 101 headers pass', async (t) => {
  const upstream = await startRawUpstream(t, (socket, head) => {
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x-raw\r\nConnection: Upgrade\r\n' +
        'X-Upstream: yes\r\nAccess-Control-Allow-Origin: *\r\n\r\nEARLY;',
    );
    const reply = (data: Buffer): void => void socket.write(`ECHO:${data.toString()};`);
    if (head.length > 0) reply(head);
    socket.on('data', reply);
  });
  const gateway = await gatewayFor(t, upstream.url);
  const received = await rawExchange(
    gateway,
    'GET /public/raw HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: x-raw\r\n' +
      `Origin: ${ALLOWED}\r\n\r\nHELLO`,
    (r) => r.includes('ECHO:HELLO;'),
  );
  const [head, rest] = received.split('\r\n\r\n') as [string, string];
  t.match(head, /^HTTP\/1\.1 101 Switching Protocols\r\n/);
  t.match(head, /\r\nupgrade: x-raw/);
  t.match(head, /\r\nx-upstream: yes/);
  t.match(head, new RegExp(`\\r\\naccess-control-allow-origin: ${ALLOWED}`));
  t.notMatch(head, /access-control-allow-origin: \*/, 'the upstream CORS header is dropped');
  t.equal(rest, 'EARLY;ECHO:HELLO;', 'the upstream early bytes, then the echo of ours');
});

t.test('an upstream that never answers the upgrade is 504', async (t) => {
  const upstream = await startRawUpstream(t, () => {});
  const gateway = await gatewayFor(t, upstream.url, { timeoutMs: 50 });
  const answer = await refused(wsUrl(gateway, '/public/feed'));
  t.equal(answer.status, 504);
  t.same(JSON.parse(answer.body), {
    detail: 'Gateway time-out: the upstream did not answer in time',
  });
});

t.test('a client that leaves before the upstream answered closes the upstream side', async (t) => {
  let upstreamClosed: () => void = () => {};
  const gone = new Promise<void>((r) => (upstreamClosed = r));
  let arrived: () => void = () => {};
  const waiting = new Promise<void>((r) => (arrived = r));
  const upstream = await startRawUpstream(t, (socket) => {
    socket.on('close', () => upstreamClosed());
    arrived();
  });
  const gateway = await gatewayFor(t, upstream.url);
  const { hostname, port } = new URL(gateway.url);
  const client = connect(Number(port), hostname, () =>
    client.write(
      'GET /public/x HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: x-raw\r\n\r\n',
    ),
  );
  await waiting;
  client.destroy();
  await gone;
  t.pass('the upstream connection was closed');
});

t.test('only GET is upgraded; /service-accounts is never tunnelled', async (t) => {
  const upstream = await startEchoUpstream(t);
  const gateway = await gatewayFor(t, upstream.url, {
    auth: { service_accounts: { enabled: true, store: 'sqlite:data/sa.db' } },
  });
  const token = await goodToken({
    scopes: ['ws:connect', 'config:write', 'service_accounts:read'],
  });
  const { hostname, port } = new URL(gateway.url);
  const post = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({
      host: hostname,
      port,
      method: 'POST',
      path: '/config',
      headers: { ...bearer(token), connection: 'Upgrade', upgrade: 'websocket' },
      agent: false,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('upgrade', () => reject(new Error('upgraded')));
    req.on('error', reject);
    req.end();
  });
  t.equal(post.status, 400);
  t.same(JSON.parse(post.body), {
    detail:
      'This request cannot switch protocols: only GET requests to forwarded routes are upgraded (WebSocket)',
  });
  const accounts = await refused(wsUrl(gateway, '/service-accounts'), bearer(token));
  t.equal(accounts.status, 400);
  t.equal(upstream.seen.length, 0);
});

t.test('closing the gateway cuts open tunnels off once the grace period is over', async (t) => {
  const upstream = await startEchoUpstream(t);
  const gateway = await gatewayFor(t, upstream.url);
  const ws = await open(wsUrl(gateway, '/public/feed'), {});
  t.equal(await echo(ws, 'before'), 'before');
  const wsClosed = closed(ws);
  await gateway.close(0);
  await wsClosed;
  t.pass('the tunnel was closed and close() resolved');
});

t.test('a reset on either side tears the tunnel down', async (t) => {
  const upstreamSockets: Socket[] = [];
  let upstreamClosed: () => void = () => {};
  const closedUpstream = new Promise<void>((r) => (upstreamClosed = r));
  const upstream = await startRawUpstream(t, (socket) => {
    upstreamSockets.push(socket);
    socket.on('close', () => upstreamClosed());
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x-raw\r\nConnection: Upgrade\r\n\r\n',
    );
    socket.on('data', (data: Buffer) => {
      // The upstream resets its side when asked to.
      if (data.toString() === 'RESET') socket.resetAndDestroy();
      else socket.write(data);
    });
  });
  const gateway = await gatewayFor(t, upstream.url);
  const { hostname, port } = new URL(gateway.url);

  /** A raw client whose tunnel is open (the 101 read). */
  const tunnel = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const client = connect(Number(port), hostname, () =>
        client.write(
          'GET /public/raw HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: x-raw\r\n\r\n',
        ),
      );
      client.once('data', (chunk: Buffer) => {
        if (chunk.toString().startsWith('HTTP/1.1 101')) resolve(client);
        else reject(new Error(chunk.toString()));
      });
      client.on('error', () => {});
    });

  // The client resets: the gateway closes the upstream side.
  const first = await tunnel();
  first.resetAndDestroy();
  await closedUpstream;
  t.pass('a client reset closed the upstream connection');

  // The upstream resets: the gateway closes the client side.
  const second = await tunnel();
  const clientClosed = new Promise<void>((r) => second.once('close', () => r()));
  second.write('RESET');
  await clientClosed;
  t.equal(upstreamSockets.length, 2);
});
