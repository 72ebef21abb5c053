/**
 * Fetching knowledge URLs through the guard: every network-level failure gives the caller the
 * same text (an open port answering 404 and a closed one cannot be told apart), only the
 * internal reason differs; limits still name themselves once a 2xx answer came.
 */
import t, { type Test } from 'tap';
import { createOutboundGuard, type Lookup } from '../../../../src/runtime/outbound/guard.js';
import {
  fetchContent,
  unfetchable,
  type FetchResult,
} from '../../../../src/runtime/api/knowledge/fetch.js';
import { closedPortUrl } from '../../../fixtures/e2e.js';
import { recordingListener, redirectTo } from '../../fixtures/outbound.js';
import { stall } from '../../fixtures/knowledge.js';

const LIMITS = { maxBytes: 64, timeoutMs: 30_000 };

/** Fetches `url` through a guard opening 127.0.0.1 (and `lookup`'s names), within `limits`. */
async function fetchThrough(
  t: Test,
  url: string,
  options: { limits?: typeof LIMITS; lookup?: Lookup; allowHosts?: string[] } = {},
): Promise<FetchResult> {
  const guard = createOutboundGuard({
    allowHosts: options.allowHosts ?? ['127.0.0.1'],
    ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
  });
  t.teardown(() => guard.close());
  return fetchContent(
    new URL(url),
    options.limits ?? LIMITS,
    guard.dispatcher,
    new AbortController().signal,
  );
}

t.test('every network-level failure reads the same; the reason stays inside', async (t) => {
  const blocked = await recordingListener(t, '127.0.0.1');
  const open = await recordingListener(t, '127.0.0.1', {
    '/missing': (_req, res) => {
      res.writeHead(404).end('no such page');
    },
    '/error': (_req, res) => {
      res.writeHead(500).end('boom');
    },
    '/to-blocked': redirectTo(`http://127.0.0.2:${blocked.port}/`),
    '/loop': redirectTo('/loop'),
    '/slow': stall,
  });
  const closed = await closedPortUrl();
  const nowhere: Lookup = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  const rows: [string, string, Parameters<typeof fetchThrough>[2], string][] = [
    ['an open port answering 404', `${open.url}/missing`, {}, 'http_status'],
    ['an open port answering 500', `${open.url}/error`, {}, 'http_status'],
    ['a closed port', `${closed}/missing`, {}, 'network_error'],
    ['a blocked address', `http://127.0.0.2:${blocked.port}/`, {}, 'blocked_address'],
    ['a redirect to a blocked address', `${open.url}/to-blocked`, {}, 'blocked_address'],
    ['too many redirects', `${open.url}/loop`, {}, 'too_many_redirects'],
    ['a name that does not resolve', 'http://nowhere.test/', { lookup: nowhere }, 'network_error'],
    ['a TLS handshake that fails', `https://127.0.0.1:${open.port}/`, {}, 'network_error'],
    ['a time-out', `${open.url}/slow`, { limits: { maxBytes: 64, timeoutMs: 50 } }, 'timeout'],
  ];
  for (const [name, url, options, reason] of rows) {
    t.same(
      await fetchThrough(t, url, options),
      { ok: false, message: unfetchable(new URL(url)), reason },
      name,
    );
    t.equal(unfetchable(new URL(url)), `${url} could not be fetched`, `${name}: the text`);
  }
  t.equal(blocked.connections(), 0, 'the blocked listener accepted no connection');
});

t.test('a 2xx answer is read; its size limit still names itself', async (t) => {
  const open = await recordingListener(t, '127.0.0.1', {
    '/big': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(65));
    },
  });
  t.match(await fetchThrough(t, `${open.url}/ok`), { ok: true, type: 'text/plain' });
  t.same(await fetchThrough(t, `${open.url}/big`), {
    ok: false,
    message: `${open.url}/big is larger than max_fetch_bytes (64 bytes)`,
    reason: 'too_large',
  });
});
