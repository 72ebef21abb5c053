/**
 * Draining the gateway listener (issue #6 item 7): close() stops accepting at once, closes idle
 * keep-alive connections, lets in-flight requests (streams included) finish, answers a request
 * that still arrives on an open connection with `Connection: close`, and cuts off what is still
 * open at the bound, reporting how many requests it cut off.
 */
import { Agent, request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { parseConfig } from '../../src/config/load.js';
import { assembleGateway } from '../../src/gateway/assemble.js';
import { startGatewayServer, type GatewayServer } from '../../src/gateway/server.js';
import { httpCall } from '../fixtures/child.js';
import { startRecordingUpstream, type RecordingUpstream } from '../fixtures/upstream.js';

const KEY = 'drain-test-security-key';
const AUTH = { authorization: `Bearer ${KEY}` };

/** A gateway in front of a recording upstream (its `/sse/...` waits for `release()`). */
async function gatewayOf(t: Test): Promise<{ server: GatewayServer; up: RecordingUpstream }> {
  const up = await startRecordingUpstream();
  t.teardown(() => up.close());
  const dir = t.testdir({});
  const text = [
    `upstream: { url: "${up.url}", timeout_ms: 60000 }`,
    'auth:',
    `  security_key: ${KEY}`,
    '  service_accounts: { enabled: false }',
  ].join('\n');
  const loaded = parseConfig(text, join(dir, 'gateway.yaml'), { env: {} });
  const assembly = await assembleGateway(loaded, { clock: { now: () => Date.now() } });
  const state = assembly.state!;
  t.teardown(() => state.upstream.pool.destroy());
  const server = await startGatewayServer(() => state, { host: '127.0.0.1', port: 0 });
  // A test that failed before draining must not leave the listener open.
  t.teardown(() => (server.draining() ? undefined : server.close(0)));
  return { server, up };
}

/** Starts a GET and resolves with the response once its first body chunk arrived. */
function openStream(
  port: number,
  path: string,
  agent: Agent | false = false,
): Promise<{ res: IncomingMessage; first: string; rest: Promise<string> }> {
  return new Promise((resolve, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: AUTH, agent }, (res) => {
      res.setEncoding('utf8');
      res.once('data', (first: string) => {
        const rest = new Promise<string>((done, broken) => {
          let text = '';
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => done(text));
          res.on('error', broken);
        });
        resolve({ res, first, rest });
      });
    });
    req.on('error', fail);
    req.end();
  });
}

/** Reads everything a raw socket receives until the server closes it. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text));
  });
}

/** Resolves once `text` contains `needle`. */
function receivedOn(socket: Socket, needle: string): Promise<void> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      if (text.includes(needle)) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
  });
}

const FIRST = 'event: first\ndata: {"n":1}\n\n';
const SECOND = 'event: second\ndata: {"n":2}\n\n';

t.test('a stream in flight finishes with all its bytes; new connections are refused', async (t) => {
  const { server, up } = await gatewayOf(t);
  const { port } = server.address();
  const stream = await openStream(port, '/sse/run');
  t.equal(stream.first, FIRST, 'the stream has begun');
  t.equal(server.inFlight(), 1);
  t.equal(server.draining(), false);

  const drained = server.close(60_000);
  t.equal(server.draining(), true);
  await t.rejects(
    httpCall(`http://127.0.0.1:${port}/config`, { headers: AUTH }),
    { code: 'ECONNREFUSED' },
    'no new connection is accepted while draining',
  );

  up.release();
  t.equal(await stream.rest, SECOND, 'the rest of the stream arrived');
  t.same(await drained, { inFlight: 1, cutOff: 0, otherConnections: 0 });
  t.equal(server.inFlight(), 0);
});

t.test('idle keep-alive connections close at once; busy ones after their response', async (t) => {
  const { server, up } = await gatewayOf(t);
  const { port } = server.address();
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  t.teardown(() => agent.destroy());
  // One connection carrying a stream, then one idle in the agent's pool (the stream's is busy,
  // so the agent opens a second).
  const stream = await openStream(port, '/sse/keep', agent);
  t.equal(stream.res.headers.connection, 'keep-alive', 'began before the drain: keep-alive');
  const busy = stream.res.socket;
  const busyClosed = new Promise<void>((r) => busy.once('close', () => r()));
  const warm = await new Promise<Socket>((resolve, fail) => {
    const req = request({ host: '127.0.0.1', port, path: '/config', headers: AUTH, agent });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(req.socket as Socket));
    });
    req.on('error', fail);
    req.end();
  });
  t.not(warm, busy, 'two connections');
  const idleClosed = new Promise<void>((r) => warm.once('close', () => r()));

  const drained = server.close(60_000);
  await idleClosed;
  t.pass('the idle keep-alive connection was closed when the drain began');
  t.equal(busy.destroyed, false, 'the busy one stays open');
  up.release();
  t.equal(await stream.rest, SECOND);
  await busyClosed;
  t.pass('the busy connection closed after its response');
  t.same(await drained, { inFlight: 1, cutOff: 0, otherConnections: 0 });
});

t.test(
  'a request that arrives on an open connection during the drain gets Connection: close',
  async (t) => {
    const { server, up } = await gatewayOf(t);
    const { port } = server.address();
    const socket = connect(port, '127.0.0.1');
    t.teardown(() => socket.destroy());
    const all = readAll(socket);
    const head = (path: string): string =>
      `GET ${path} HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer ${KEY}\r\n\r\n`;
    const firstEvent = receivedOn(socket, 'data: {"n":1}');
    socket.write(head('/sse/pipelined'));
    await firstEvent;

    const drained = server.close(60_000);
    // Pipelined behind the stream: read now, answered once the stream is done.
    socket.write(head('/config'));
    await up.receivedCount(2);
    up.release();
    const text = await all;
    const responses = text.split(/(?=HTTP\/1\.1 )/);
    t.equal(responses.length, 2, 'both requests were answered');
    t.match(responses[0], /^HTTP\/1\.1 200 OK\r\n/);
    t.match(responses[0], /\r\nconnection: keep-alive\r\n/i, 'the first began before the drain');
    t.match(responses[0], /data: \{"n":2\}/, 'and finished');
    t.match(responses[1], /^HTTP\/1\.1 200 OK\r\n/);
    t.match(responses[1], /\r\nconnection: close\r\n/i, 'the second is told to close');
    t.match(responses[1], /"url":"\/config"/);
    // The pipelined request arrived after the drain began: not counted as in flight then.
    t.same(await drained, { inFlight: 1, cutOff: 0, otherConnections: 0 });
  },
);

t.test('at the bound, what is still open is cut off and counted', async (t) => {
  const { server } = await gatewayOf(t);
  const { port } = server.address();
  const stream = await openStream(port, '/sse/endless');
  const cut = stream.rest.then(
    () => 'ended',
    () => 'cut off',
  );
  // An upgraded connection (as a WebSocket is): neither idle nor a request in flight. The
  // gateway's own upgrade handling (authorize, then tunnel) is replaced by a bare 101 here.
  server.server.removeAllListeners('upgrade');
  server.server.on('upgrade', (_req, socket: Socket) => {
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n',
    );
  });
  const upgraded = connect(port, '127.0.0.1');
  t.teardown(() => upgraded.destroy());
  const upgradedClosed = new Promise<void>((r) => upgraded.once('close', () => r()));
  const switched = receivedOn(upgraded, '101 Switching Protocols');
  upgraded.write('GET /ws HTTP/1.1\r\nHost: gw\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n');
  await switched;

  t.same(await server.close(20), { inFlight: 1, cutOff: 1, otherConnections: 1 });
  t.equal(await cut, 'cut off', 'the endless stream was cut off');
  await upgradedClosed;
  t.pass('the upgraded connection was closed too');
});
