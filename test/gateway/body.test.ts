/**
 * Bounded body reads (the gateway's own routes only): the whole body within the bound; a
 * declared or streamed body past it refused; a client that leaves mid-body noticed; a body that
 * times out ends the read.
 */
import { createServer, IncomingMessage, request } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { readBoundedBody, type BodyRead } from '../../src/gateway/body.js';
import { watchBody, type BodyTimeouts } from '../../src/gateway/body-watch.js';

/**
 * A server that reads each request's body with `max` (and `timeouts`, when given, as its body
 * watch) and reports what came of it.
 */
async function reader(
  t: Test,
  max: number,
  timeouts?: BodyTimeouts,
): Promise<{ port: number; next(): Promise<BodyRead>; arrived: Promise<void> }> {
  const reads: BodyRead[] = [];
  const waiting: ((read: BodyRead) => void)[] = [];
  let arrive: () => void = () => {};
  const arrived = new Promise<void>((r) => (arrive = r));
  const server = createServer((req: IncomingMessage, res) => {
    arrive();
    const watch = timeouts === undefined ? null : watchBody(req, res, timeouts);
    void readBoundedBody(req, max, watch).then((read) => {
      const w = waiting.shift();
      if (w) w(read);
      else reads.push(read);
      if (!res.destroyed) res.end('done');
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
    arrived,
    next: () =>
      new Promise<BodyRead>((resolve) => {
        const ready = reads.shift();
        if (ready) resolve(ready);
        else waiting.push(resolve);
      }),
  };
}

function post(port: number, chunks: string[], headers: Record<string, string> = {}): void {
  const req = request({ host: '127.0.0.1', port, method: 'POST', headers, agent: false }, (res) =>
    res.resume(),
  );
  req.on('error', () => {});
  for (const chunk of chunks) req.write(chunk);
  req.end();
}

t.test('a body within the bound is read whole', async (t) => {
  const server = await reader(t, 10);
  post(server.port, ['hello', 'world'], { 'content-length': '10' });
  const read = await server.next();
  t.same(read, { ok: true, body: Buffer.from('helloworld') });
  post(server.port, []);
  t.same(await server.next(), { ok: true, body: Buffer.alloc(0) }, 'no body: empty');
});

t.test('a declared length over the bound is refused before reading', async (t) => {
  const server = await reader(t, 10);
  post(server.port, ['x'.repeat(11)], { 'content-length': '11' });
  t.same(await server.next(), { ok: false, reason: 'too_large' });
});

t.test('a streamed body is refused once it passes the bound; the rest is drained', async (t) => {
  const server = await reader(t, 10);
  post(server.port, ['12345', '67890', 'a', 'more', 'and more']);
  t.same(await server.next(), { ok: false, reason: 'too_large' });
});

t.test('a client that leaves mid-body is noticed', async (t) => {
  const server = await reader(t, 100);
  const req = request({
    host: '127.0.0.1',
    port: server.port,
    method: 'POST',
    headers: { 'content-length': '50' },
    agent: false,
  });
  req.on('error', () => {});
  req.write('only part of it');
  await server.arrived;
  req.destroy();
  t.same(await server.next(), { ok: false, reason: 'aborted' });
});

t.test('a client that left before the body was read is noticed at once', async (t) => {
  let result: (read: BodyRead) => void = () => {};
  const outcome = new Promise<BodyRead>((r) => (result = r));
  const server = createServer((req) => {
    // Read only after the connection is gone, as when authentication took a while.
    req.once('close', () => void readBoundedBody(req, 100).then(result));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const req = request({
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    method: 'POST',
    headers: { 'content-length': '50', expect: '100-continue' },
    agent: false,
  });
  req.on('error', () => {});
  req.on('continue', () => {
    req.write('part');
    req.destroy();
  });
  req.flushHeaders();
  t.same(await outcome, { ok: false, reason: 'aborted' });
});

t.test('a body that stalls while it is read ends the read as timed out', async (t) => {
  const server = await reader(t, 100, { idleMs: 50, totalMs: 60_000 });
  const req = request({
    host: '127.0.0.1',
    port: server.port,
    method: 'POST',
    headers: { 'content-length': '50' },
    agent: false,
  });
  req.on('error', () => {});
  req.write('only part of it');
  t.teardown(() => req.destroy());
  t.same(await server.next(), { ok: false, reason: 'timed_out', code: 'SG_ERR_BODY_IDLE_TIMEOUT' });
});

t.test('a body that timed out before anyone read it is timed out at once', async (t) => {
  // Timed out while the caller was being authenticated: the request is not even looked at.
  const expired = { expired: 'SG_ERR_BODY_TIMEOUT' as const, active: false, onExpire: null };
  const read = await readBoundedBody(new IncomingMessage(new Socket()), 100, expired);
  t.same(read, { ok: false, reason: 'timed_out', code: 'SG_ERR_BODY_TIMEOUT' });
});
