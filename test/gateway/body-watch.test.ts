/**
 * The request-body watch on real sockets (port 0), with no stage reading the body: nothing for a
 * request without a body; a body the parser has whole stops the watch; a full buffer the gateway
 * has not read counts as progress; a body that expires before any answer makes that answer close
 * the connection. Small configured bounds; assertions on outcomes, never on elapsed time.
 */
import { createServer, request, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { watchBody, type BodyTimeouts, type BodyWatch } from '../../src/gateway/body-watch.js';

interface Watched {
  readonly watch: BodyWatch | null;
  readonly res: ServerResponse;
}

/** A server that starts a watch on each request with `timeouts` and hands it to the test. */
async function watcher(
  t: Test,
  timeouts: BodyTimeouts,
): Promise<{ port: number; next(): Promise<Watched> }> {
  const ready: Watched[] = [];
  const waiting: ((w: Watched) => void)[] = [];
  const server = createServer((req, res) => {
    const watched = { watch: watchBody(req, res, timeouts), res };
    const w = waiting.shift();
    if (w) w(watched);
    else ready.push(watched);
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
    next: () => {
      const w = ready.shift();
      return w ? Promise.resolve(w) : new Promise((r) => waiting.push(r));
    },
  };
}

/** Sends a request with `headers`, writes `body` and keeps the request open unless `end`. */
function open(
  port: number,
  headers: Record<string, string>,
  body: string | Buffer,
  end: boolean,
): { answer: Promise<IncomingHttpHeaders>; closed: Promise<void> } {
  const req = request({ host: '127.0.0.1', port, method: 'POST', headers, agent: false });
  req.on('error', () => undefined);
  const answer = new Promise<IncomingHttpHeaders>((resolve) =>
    req.once('response', (res) => {
      res.resume();
      resolve(res.headers);
    }),
  );
  const closed = new Promise<void>((resolve) =>
    req.once('socket', (socket) => socket.once('close', () => resolve())),
  );
  if (end) req.end(body);
  else req.write(body);
  t.teardown(() => req.destroy());
  return { answer, closed };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setImmediate(r));
}

t.test('a request without a body is not watched', async (t) => {
  const server = await watcher(t, { idleMs: 50, totalMs: 1000 });
  const rows: { name: string; headers: Record<string, string> }[] = [
    { name: 'no framing headers', headers: {} },
    { name: 'Content-Length: 0', headers: { 'content-length': '0' } },
  ];
  for (const row of rows) {
    const req = request({
      host: '127.0.0.1',
      port: server.port,
      headers: row.headers,
      agent: false,
    });
    req.on('error', () => undefined);
    req.end();
    const { watch, res } = await server.next();
    t.equal(watch, null, row.name);
    res.end();
  }
});

t.test('a body the parser has whole stops the watch, read or not', async (t) => {
  const server = await watcher(t, { idleMs: 20, totalMs: 60_000 });
  open(server.port, { 'content-length': '5' }, 'hello', true);
  const { watch, res } = await server.next();
  await until(() => watch?.active === false);
  t.equal(watch?.expired, null, 'never expired');
  res.end();
});

t.test('the tick before the total bound is cut short, so the bound is kept', async (t) => {
  // A tick is half the shorter bound (here 500 ms of a 1000 ms total): the first tick comes a
  // little after 500 ms, when less than a tick is left, so the next one is armed for exactly what
  // is left rather than refreshed; the stall then expires on the total bound, not the idle one.
  const server = await watcher(t, { idleMs: 5_000, totalMs: 1_000 });
  open(server.port, { 'content-length': '100' }, 'abc', false);
  const { watch, res } = await server.next();
  await until(() => watch?.expired != null);
  t.equal(watch?.expired, 'SG_ERR_BODY_TIMEOUT');
  res.end();
});

t.test('a full buffer the gateway has not read is its own wait, not a stall', async (t) => {
  // The idle bound is far shorter than the total one: only the total bound may trip, since
  // Node stops reading the socket while the unread buffer is full.
  const server = await watcher(t, { idleMs: 20, totalMs: 300 });
  open(server.port, { 'content-length': String(10_000_000) }, Buffer.alloc(1_000_000, 97), false);
  const { watch, res } = await server.next();
  await until(() => watch?.expired != null);
  t.equal(watch?.expired, 'SG_ERR_BODY_TIMEOUT');
  res.end();
});

t.test(
  'a body that expires before any answer makes that answer close the connection',
  async (t) => {
    const server = await watcher(t, { idleMs: 50, totalMs: 60_000 });
    const client = open(server.port, { 'content-length': '100' }, 'abc', false);
    const { watch, res } = await server.next();
    await until(() => watch?.expired != null);
    t.equal(watch?.expired, 'SG_ERR_BODY_IDLE_TIMEOUT');
    res.end('late');
    const headers = await client.answer;
    t.equal(headers['connection'], 'close');
    await client.closed;
  },
);
