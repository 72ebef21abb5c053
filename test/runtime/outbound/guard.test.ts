/**
 * The outbound-fetch guard over real sockets: a recording loopback listener is never reached
 * through a blocked address (IP literals, `localhost`, an injected resolver), a resolver answer
 * is checked on the connection it is used for (no rebinding), allow_hosts opens a destination on
 * purpose, and the process's own listener ports stay closed whatever allow_hosts opens. Rows
 * whose address is not loopback assert that no client socket was even created.
 */
import t, { type Test } from 'tap';
import { request } from 'undici';
import {
  createOutboundGuard,
  type Lookup,
  type OutboundGuardOptions,
} from '../../../src/runtime/outbound/guard.js';
import { recordingListener, watchClientSockets } from '../fixtures/outbound.js';

/** What one GET through the guard came to. */
type Outcome =
  | { readonly ok: true; readonly status: number; readonly body: string }
  | { readonly ok: false; readonly code: unknown; readonly reason: unknown };

/** A guard over `options`, destroyed with the test. */
function guardOf(t: Test, options: Partial<OutboundGuardOptions> = {}) {
  const guard = createOutboundGuard({ allowHosts: [], ...options });
  t.teardown(() => guard.close());
  return guard;
}

/** GETs `url` through `guard`. */
async function get(guard: ReturnType<typeof guardOf>, url: string): Promise<Outcome> {
  try {
    const res = await request(url, { dispatcher: guard.dispatcher, reset: true });
    return { ok: true, status: res.statusCode, body: await res.body.text() };
  } catch (error) {
    const e = error as { code?: unknown; reason?: unknown };
    return { ok: false, code: e.code, reason: e.reason };
  }
}

const REFUSED = { ok: false, code: 'SG_OUTBOUND_REFUSED', reason: 'blocked_address' };

/** A resolver answering `addresses` for every name, counting its calls. */
function resolverOf(...answers: (readonly string[])[]): Lookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const answer = answers[Math.min(calls.length, answers.length) - 1] as readonly string[];
    return answer.map((address) => ({ address }));
  };
  return Object.assign(lookup, { calls });
}

t.test('loopback literals and names never reach the listener', async (t) => {
  const v4 = await recordingListener(t);
  const guard = guardOf(t);
  const rows: [string, string][] = [
    ['127.0.0.1 literal', `http://127.0.0.1:${v4.port}/`],
    ['localhost, the real resolver', `http://localhost:${v4.port}/`],
    ['IPv4-mapped IPv6 literal', `http://[::ffff:127.0.0.1]:${v4.port}/`],
    ['decimal IPv4', `http://2130706433:${v4.port}/`],
    ['hex and short IPv4', `http://0x7f.1:${v4.port}/`],
    ['unspecified 0.0.0.0 (reaches local listeners)', `http://0.0.0.0:${v4.port}/`],
    ['https on loopback', `https://127.0.0.1:${v4.port}/`],
  ];
  for (const [name, url] of rows) {
    t.same(await get(guard, url), REFUSED, name);
  }
  t.equal(v4.connections(), 0, 'the listener accepted no connection');
});

t.test('[::1] never reaches an IPv6 loopback listener', async (t) => {
  const v6 = await recordingListener(t, '::1');
  const guard = guardOf(t);
  t.same(await get(guard, `http://[::1]:${v6.port}/`), REFUSED);
  t.same(await get(guard, `http://[::]:${v6.port}/`), REFUSED, 'nor the IPv6 unspecified address');
  t.equal(v6.connections(), 0, 'the listener accepted no connection');
});

t.test('a name resolving to any blocked class is refused before connecting', async (t) => {
  const rows: [string, string][] = [
    ['private 10/8', '10.0.0.1'],
    ['private 172.16/12', '172.16.5.4'],
    ['private 192.168/16', '192.168.1.1'],
    ['cloud metadata', '169.254.169.254'],
    ['CGNAT', '100.64.0.1'],
    ['unique local', 'fc00::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['multicast', '224.0.0.251'],
    ['IPv6 multicast', 'ff02::1'],
    ['broadcast', '255.255.255.255'],
    ['reserved', '240.0.0.1'],
    ['IETF protocol assignments', '192.0.0.170'],
    ['benchmarking', '198.18.0.1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['NAT64 of metadata', '64:ff9b::a9fe:a9fe'],
    ['6to4 of private', '2002:c0a8:101::1'],
    ['not an address at all', 'not-an-address'],
  ];
  for (const [name, address] of rows) {
    const sockets = watchClientSockets(t);
    const lookup = resolverOf([address]);
    const guard = guardOf(t, { lookup });
    t.same(await get(guard, 'http://internal.test/'), REFUSED, `${name}: ${address}`);
    t.same(lookup.calls, ['internal.test'], `${name}: resolved once`);
    t.equal(sockets.count(), 0, `${name}: no socket was created`);
  }
});

t.test('IP literals are checked without a lookup (Node never resolves them)', async (t) => {
  const sockets = watchClientSockets(t);
  const lookup = resolverOf(['127.0.0.1']);
  const guard = guardOf(t, { lookup });
  const urls = [
    'http://10.0.0.1/',
    'http://169.254.169.254/latest/',
    'https://169.254.169.254/',
    'http://[fd00::1]/',
  ];
  for (const url of urls) {
    t.same(await get(guard, url), REFUSED, url);
  }
  t.same(lookup.calls, [], 'the resolver was never asked');
  t.equal(sockets.count(), 0, 'no socket was created');
});

t.test('one resolution per connection, and it is the one connected to', async (t) => {
  // The name first answers an address opened by allow_hosts (standing for a public one), then
  // rebinds to a blocked one: the second connection is checked on its own answer.
  const listener = await recordingListener(t);
  const lookup = resolverOf(['127.0.0.1'], ['10.0.0.1']);
  const guard = guardOf(t, { lookup, allowHosts: ['127.0.0.1'] });
  const url = `http://rebind.test:${listener.port}/`;
  t.same(await get(guard, url), { ok: true, status: 200, body: 'reached' }, 'first answer');
  const sockets = watchClientSockets(t);
  t.same(await get(guard, url), REFUSED, 'rebound answer');
  t.same(lookup.calls, ['rebind.test', 'rebind.test'], 'one lookup per connection');
  t.equal(sockets.count(), 0, 'no socket for the rebound answer');
  t.equal(listener.connections(), 1);
});

t.test('of several answers, only a permitted one is connected to', async (t) => {
  const listener = await recordingListener(t);
  const lookup = resolverOf(['10.0.0.1', '169.254.169.254', '127.0.0.1']);
  const guard = guardOf(t, { lookup, allowHosts: ['127.0.0.0/8'] });
  t.same(await get(guard, `http://mixed.test:${listener.port}/`), {
    ok: true,
    status: 200,
    body: 'reached',
  });
  t.equal(listener.connections(), 1);
});

t.test('allow_hosts opens a destination on purpose: by name, or by CIDR', async (t) => {
  const listener = await recordingListener(t);
  const reached = { ok: true, status: 200, body: 'reached' };
  const byName = guardOf(t, { lookup: resolverOf(['127.0.0.1']), allowHosts: ['Docs.Internal'] });
  t.same(await get(byName, `http://docs.internal:${listener.port}/`), reached, 'the listed name');
  t.same(
    await get(byName, `http://other.internal:${listener.port}/`),
    REFUSED,
    'another name resolving to the same address is not opened',
  );
  t.same(
    await get(byName, `http://127.0.0.1:${listener.port}/`),
    REFUSED,
    'nor is the address itself',
  );
  const byCidr = guardOf(t, { allowHosts: ['127.0.0.0/8'] });
  t.same(await get(byCidr, `${listener.url}/`), reached, 'an address in the CIDR');
  t.same(await get(byCidr, `http://localhost:${listener.port}/`), reached, 'localhost, resolved');
  t.equal(listener.connections(), 3);
});

t.test('own listener ports stay closed whatever allow_hosts opens', async (t) => {
  const listener = await recordingListener(t);
  const refused = { ok: false, code: 'SG_OUTBOUND_REFUSED', reason: 'own_listener' };
  const guard = guardOf(t, {
    allowHosts: ['0.0.0.0/0', '::/0', 'own.test'],
    lookup: resolverOf(['127.0.0.1']),
    ownPorts: [listener.port],
  });
  const rows: [string, string][] = [
    ['127.0.0.1', `http://127.0.0.1:${listener.port}/`],
    ['another loopback address', `http://127.0.0.2:${listener.port}/`],
    ['localhost', `http://localhost:${listener.port}/`],
    ['IPv4-mapped', `http://[::ffff:127.0.0.1]:${listener.port}/`],
    ['unspecified', `http://0.0.0.0:${listener.port}/`],
    ['IPv6 loopback', `http://[::1]:${listener.port}/`],
    ['a name listed in allow_hosts', `http://own.test:${listener.port}/`],
  ];
  for (const [name, url] of rows) t.same(await get(guard, url), refused, name);
  t.equal(listener.connections(), 0, 'the listener accepted no connection');

  const later = await recordingListener(t);
  t.same(await get(guard, `${later.url}/`), { ok: true, status: 200, body: 'reached' });
  guard.refusePort(later.port);
  t.same(await get(guard, `${later.url}/`), refused, 'a port refused later');
  t.equal(later.connections(), 1, 'reached only before it was refused');
});

t.test("own ports on this machine's interface addresses are refused too", async (t) => {
  const sockets = watchClientSockets(t);
  const guard = guardOf(t, {
    allowHosts: ['10.1.2.3'],
    ownPorts: [8080],
    localAddresses: () => ['10.1.2.3'],
  });
  t.same(await get(guard, 'http://10.1.2.3:8080/'), {
    ok: false,
    code: 'SG_OUTBOUND_REFUSED',
    reason: 'own_listener',
  });
  t.equal(sockets.count(), 0, 'no socket was created');
});

t.test('the default interface list is read; a blocked address stays blocked', async (t) => {
  // Port 80 is "own" here, so the machine's interfaces are consulted; 10.0.0.1 is not one of
  // them, and it is blocked all the same.
  const sockets = watchClientSockets(t);
  const guard = guardOf(t, { ownPorts: [80] });
  t.same(await get(guard, 'http://10.0.0.1/'), REFUSED);
  t.equal(sockets.count(), 0, 'no socket was created');
});

t.test('a resolver failure fails the request with its own error', async (t) => {
  const guard = guardOf(t, {
    lookup: async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
    },
  });
  t.same(await get(guard, 'http://nowhere.test/'), {
    ok: false,
    code: 'ENOTFOUND',
    reason: undefined,
  });
});

t.test('https names keep their server name for TLS', async (t) => {
  // Plain HTTP answers a TLS hello with garbage: the handshake fails after connecting, which
  // shows the checked address was connected to over TLS.
  const listener = await recordingListener(t);
  const guard = guardOf(t, { lookup: resolverOf(['127.0.0.1']), allowHosts: ['tls.test'] });
  const outcome = await get(guard, `https://tls.test:${listener.port}/`);
  t.equal(outcome.ok, false);
  t.not((outcome as { code: unknown }).code, 'SG_OUTBOUND_REFUSED');
  t.equal(listener.connections(), 1);
});
