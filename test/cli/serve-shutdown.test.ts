/**
 * Graceful shutdown of `scopegate serve` (issue #6 item 7), as a real process: on SIGTERM it stops
 * accepting connections, lets a stream in flight finish with all its bytes, and exits 0; a stream
 * longer than `listen.shutdown_grace_ms` is cut off at the bound, and the exit is still 0.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { httpCall, spawnScopegate, type Child } from '../fixtures/child.js';

const KEY = 'shutdown-test-security-key';
const CHUNKS = ['data: one\n\n', 'data: two\n\n', 'data: three\n\n', 'data: four\n\n'];

/** An upstream whose `/stream` sends {@link CHUNKS}: the first at once, each next on `next()`. */
async function slowUpstream(t: Test): Promise<{
  url: string;
  /** Resolves once the upstream received the stream request. */
  started: Promise<void>;
  next(): void;
}> {
  let waiting: (() => void) | null = null;
  let pending = 0;
  let markStarted: () => void = () => {};
  const started = new Promise<void>((r) => (markStarted = r));
  const handle = async (_req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    markStarted();
    for (const [i, chunk] of CHUNKS.entries()) {
      if (i > 0) {
        if (pending === 0) await new Promise<void>((r) => (waiting = r));
        pending -= 1;
      }
      if (res.destroyed) return;
      res.write(chunk);
    }
    res.end();
  };
  const server = createServer((req, res) => void handle(req, res));
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
    started,
    next() {
      pending += 1;
      const wake = waiting;
      waiting = null;
      wake?.();
    },
  };
}

/** Starts `serve` in front of `upstreamUrl`; resolves with the child and its port. */
async function serve(
  t: Test,
  upstreamUrl: string,
  graceMs: number,
): Promise<{ child: Child; port: number; closed: Promise<void> }> {
  const dir = t.testdir({
    'gateway.yaml': [
      'service_id: shutdown-test',
      `listen: { host: 127.0.0.1, port: 0, shutdown_grace_ms: ${graceMs} }`,
      'admin: { host: 127.0.0.1, port: 0 }',
      `upstream: { url: "${upstreamUrl}", embedded: false, timeout_ms: 60000 }`,
      'policies: []',
      'auth:',
      `  security_key: ${KEY}`,
      '  service_accounts: { enabled: false }',
      '',
    ].join('\n'),
  });
  const child = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
  // 'close' comes after the last output was read ('exit' may come before it).
  const closed = new Promise<void>((r) => child.child.once('close', () => r()));
  const listening = await child.errLine(/^scopegate listening on /);
  return { child, port: Number(/:(\d+), forwarding to /.exec(listening)?.[1]), closed };
}

/** A streamed GET: resolves once the first chunk arrived; `rest` settles when the stream ends. */
function openStream(port: number): Promise<{ first: string; rest: Promise<string> }> {
  return new Promise((resolve, fail) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/stream', headers: { authorization: `Bearer ${KEY}` } },
      (res) => {
        res.setEncoding('utf8');
        res.once('data', (first: string) => {
          const rest = new Promise<string>((done, broken) => {
            let text = '';
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => done(text));
            res.on('error', broken);
          });
          resolve({ first, rest });
        });
      },
    );
    req.on('error', fail);
    req.end();
  });
}

t.test('SIGTERM mid-stream: new connections refused, the stream completes, exit 0', async (t) => {
  const up = await slowUpstream(t);
  const { child, port, closed } = await serve(t, up.url, 60_000);
  const stream = await openStream(port);
  t.equal(stream.first, CHUNKS[0], 'the stream has begun');

  child.child.kill('SIGTERM');
  await child.errLine(/^scopegate: SIGTERM, closing$/);
  await t.rejects(
    httpCall(`http://127.0.0.1:${port}/stream`, { headers: { authorization: `Bearer ${KEY}` } }),
    { code: 'ECONNREFUSED' },
    'a new connection is refused once the drain began',
  );

  for (let i = 1; i < CHUNKS.length; i += 1) up.next();
  t.equal(await stream.rest, CHUNKS.slice(1).join(''), 'every byte of the stream arrived');
  t.same(await child.exited, { code: 0, signal: null });
  await closed;
  t.match(child.stderr(), /^scopegate: drained 1 in-flight request\(s\), none cut off$/m);
  t.notMatch(child.stderr(), /^(warning|error):/m, 'no warning or error');
});

t.test('a stream longer than the bound is cut off at the bound; exit 0', async (t) => {
  const up = await slowUpstream(t);
  const { child, port, closed } = await serve(t, up.url, 50);
  const stream = await openStream(port);
  await up.started;
  const outcome = stream.rest.then(
    () => 'ended',
    () => 'cut off',
  );

  child.child.kill('SIGTERM');
  t.same(await child.exited, { code: 0, signal: null }, 'exit 0 after cutting the stream off');
  t.equal(await outcome, 'cut off', 'the client saw the stream cut off, not ended');
  await closed;
  t.match(
    child.stderr(),
    /^scopegate: drained 1 in-flight request\(s\): 1 request\(s\) and 0 other connection\(s\) cut off at the 50 ms bound$/m,
  );
});
