/**
 * Redirects through the guard over real loopback sockets: up to five hops are followed, each
 * hop is checked again (a redirect to a blocked address is refused and its listener never
 * reached), and only http(s) hops are followed.
 */
import t, { type Test } from 'tap';
import { getFollowingRedirects } from '../../../src/runtime/outbound/follow-redirects.js';
import { createOutboundGuard } from '../../../src/runtime/outbound/guard.js';
import { recordingListener, redirectTo, type Route } from '../fixtures/outbound.js';

/** A guard opening the name `docs.test` (resolving to 127.0.0.1) and nothing else. */
function docsGuard(t: Test) {
  const guard = createOutboundGuard({
    allowHosts: ['docs.test'],
    lookup: async () => [{ address: '127.0.0.1' }],
  });
  t.teardown(() => guard.close());
  return guard;
}

/** GETs `url`; the final status and body, or the refusal's code and reason. */
async function follow(t: Test, url: string) {
  const guard = docsGuard(t);
  try {
    const res = await getFollowingRedirects(
      guard.dispatcher,
      new URL(url),
      AbortSignal.timeout(30_000),
    );
    return { status: res.statusCode, body: await res.body.text() };
  } catch (error) {
    const e = error as { code?: unknown; reason?: unknown };
    return { code: e.code, reason: e.reason };
  }
}

t.test('a redirect to a blocked address is refused; its listener is never reached', async (t) => {
  const blocked = await recordingListener(t);
  const rows: [string, string][] = [
    ['loopback literal', `${blocked.url}/secret`],
    ['localhost', `http://localhost:${blocked.port}/secret`],
    ['IPv4-mapped', `http://[::ffff:127.0.0.1]:${blocked.port}/secret`],
  ];
  for (const [name, location] of rows) {
    const docs = await recordingListener(t, '127.0.0.1', { '/start': redirectTo(location) });
    t.same(
      await follow(t, `http://docs.test:${docs.port}/start`),
      { code: 'SG_OUTBOUND_REFUSED', reason: 'blocked_address' },
      name,
    );
    t.same(docs.paths, ['/start'], `${name}: the allowed host was asked once`);
  }
  t.equal(blocked.connections(), 0, 'the blocked listener accepted no connection');
});

t.test('redirects on allowed hosts are followed, relative ones too', async (t) => {
  const routes: Record<string, Route> = {
    '/a': redirectTo('/b', 301),
    '/b': redirectTo('c', 303),
    '/c': redirectTo('/d?x=1', 307),
    '/d?x=1': redirectTo('/e', 308),
    '/e': redirectTo('/f'),
  };
  const docs = await recordingListener(t, '127.0.0.1', routes);
  t.same(await follow(t, `http://docs.test:${docs.port}/a`), { status: 200, body: 'reached' });
  t.same(docs.paths, ['/a', '/b', '/c', '/d?x=1', '/e', '/f'], 'five redirects, six requests');
  t.equal(docs.connections(), 6, 'each hop on its own connection (checked anew)');
});

t.test('a sixth redirect is refused', async (t) => {
  const docs = await recordingListener(t, '127.0.0.1', { '/loop': redirectTo('/loop') });
  t.same(await follow(t, `http://docs.test:${docs.port}/loop`), {
    code: 'SG_OUTBOUND_REFUSED',
    reason: 'too_many_redirects',
  });
  t.equal(docs.paths.length, 6);
});

t.test('only http(s) redirects are followed', async (t) => {
  for (const location of ['file:///etc/passwd', 'gopher://docs.test/', 'http://[']) {
    const docs = await recordingListener(t, '127.0.0.1', { '/x': redirectTo(location) });
    t.same(
      await follow(t, `http://docs.test:${docs.port}/x`),
      { code: 'SG_OUTBOUND_REFUSED', reason: 'redirect_scheme' },
      location,
    );
  }
});

t.test('a redirect status without Location is the answer itself', async (t) => {
  const docs = await recordingListener(t, '127.0.0.1', {
    '/x': (_req, res) => {
      res.writeHead(302).end('no location');
    },
  });
  t.same(await follow(t, `http://docs.test:${docs.port}/x`), { status: 302, body: 'no location' });
});
