/**
 * Fetching a JWK set's text with undici: one GET, bounded in time and size, no redirect
 * followed, every failure a short reason that never quotes the body.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { fetchJwksText, JWKS_MAX_BYTES } from '../../../src/auth/jwt/jwks-fetch.js';
import { closedPortUrl } from '../../fixtures/e2e.js';

const LIMITS = { timeoutMs: 5000, maxBytes: 100 };

/** A server answering each path with its handler; closed with the test. */
async function serverOf(
  t: Test,
  routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void>,
): Promise<{ url: (path: string) => string; accept: () => string | undefined }> {
  let accept: string | undefined;
  const server = createServer((req, res) => {
    accept = req.headers.accept;
    routes[req.url ?? '']?.(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: (path) => base + path, accept: () => accept };
}

const never = new AbortController().signal;

t.test('a 200 answer is returned as text; the request asks for a JWK set', async (t) => {
  const s = await serverOf(t, { '/jwks': (_req, res) => res.end('{"keys":[]}') });
  t.equal(await fetchJwksText(s.url('/jwks'), never, LIMITS), '{"keys":[]}');
  t.equal(s.accept(), 'application/jwk-set+json, application/json');
  t.equal(JWKS_MAX_BYTES, 1_048_576, 'the default bound: 1 MiB');
});

t.test('every failure is a short reason, never the body', async (t) => {
  const big = 'x'.repeat(LIMITS.maxBytes + 1);
  const s = await serverOf(t, {
    '/down': (_req, res) => {
      res.writeHead(503);
      res.end('secret internals of the IdP');
    },
    '/moved': (_req, res) => {
      res.writeHead(302, { location: '/jwks' });
      res.end();
    },
    '/declared-too-big': (_req, res) => res.end(big),
    '/streamed-too-big': (_req, res) => {
      res.write(big.slice(0, 60));
      res.end(big.slice(60));
    },
    '/cut': (_req, res) => {
      res.writeHead(200, { 'content-length': '50' });
      res.write('{"keys":');
      setImmediate(() => res.socket?.destroy());
    },
    '/hang': () => {},
    '/slow-body': (_req, res) => {
      res.writeHead(200, { 'content-length': '50' });
      res.write('{"keys":');
    },
  });
  const rows: [string, string, typeof LIMITS][] = [
    ['/down', 'HTTP 503', LIMITS],
    ['/moved', 'HTTP 302', LIMITS],
    ['/declared-too-big', 'larger than 100 bytes', LIMITS],
    ['/streamed-too-big', 'larger than 100 bytes', LIMITS],
    ['/cut', 'UND_ERR_SOCKET', LIMITS],
    ['/hang', 'timed out after 50 ms', { ...LIMITS, timeoutMs: 50 }],
    ['/slow-body', 'timed out after 50 ms', { ...LIMITS, timeoutMs: 50 }],
  ];
  for (const [path, reason, limits] of rows) {
    await t.rejects(fetchJwksText(s.url(path), never, limits), { message: reason }, path);
  }
  await t.rejects(
    fetchJwksText(await closedPortUrl(), never, LIMITS),
    { message: 'ECONNREFUSED' },
    'nothing listening',
  );
});

t.test('an abort through the signal stops the fetch', async (t) => {
  const s = await serverOf(t, { '/hang': () => {} });
  const controller = new AbortController();
  const fetching = fetchJwksText(s.url('/hang'), controller.signal, LIMITS);
  controller.abort();
  await t.rejects(fetching, { message: 'AbortError' });
});
