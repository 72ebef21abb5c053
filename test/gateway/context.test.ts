/**
 * Per-request facts: the caller's `x-request-id` only when short and plain (it reaches logs and
 * headers), the socket's peer, the client address (X-Forwarded-For believed only from a trusted
 * proxy), and the protocol of the inbound connection.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createRequestContext, type RequestContext } from '../../src/gateway/context.js';
import { createTrustedProxies, type TrustedProxies } from '../../src/gateway/trusted-proxies.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Sends one request with these raw headers to a real server; returns the context it built. */
async function contextOf(
  t: Test,
  rawHeaders: string[],
  trusted: TrustedProxies = null,
): Promise<RequestContext> {
  let built: RequestContext | undefined;
  const server = createServer((req, res) => {
    built = createRequestContext(req, trusted);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, fail) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    for (let i = 0; i < rawHeaders.length; i += 2) {
      // setHeader with a list sends the name once per value (duplicates on the wire).
      const name = rawHeaders[i] as string;
      const value = rawHeaders[i + 1] as string;
      const prior = req.getHeader(name);
      req.setHeader(name, prior === undefined ? value : [...[prior].flat().map(String), value]);
    }
    req.on('error', fail);
    req.end();
  });
  if (built === undefined) throw new Error('the server saw no request');
  return built;
}

t.test('a plain caller x-request-id is kept', async (t) => {
  const rows: { name: string; id: string }[] = [
    { name: 'uuid', id: '0f8fad5b-d9cb-469f-a165-70867728950e' },
    { name: 'letters, digits and ._:-', id: 'Req_1.2:3-x' },
    { name: 'one character', id: 'a' },
    { name: '128 characters', id: 'x'.repeat(128) },
  ];
  for (const row of rows) {
    const ctx = await contextOf(t, ['x-request-id', row.id]);
    t.equal(ctx.requestId, row.id, row.name);
  }
});

t.test('an unsafe, too long or repeated x-request-id is replaced with a uuid', async (t) => {
  const rows: { name: string; headers: string[] }[] = [
    { name: 'absent', headers: [] },
    { name: 'empty', headers: ['x-request-id', ''] },
    { name: '129 characters', headers: ['x-request-id', 'x'.repeat(129)] },
    { name: 'a space', headers: ['x-request-id', 'a b'] },
    { name: 'a slash', headers: ['x-request-id', 'a/b'] },
    { name: 'a quote', headers: ['x-request-id', 'a"b'] },
    { name: 'non-ASCII (latin1 on the wire)', headers: ['x-request-id', 'caf\u00e9'] },
    {
      name: 'sent twice (node joins with ", ")',
      headers: ['x-request-id', 'a', 'x-request-id', 'b'],
    },
  ];
  for (const row of rows) {
    const ctx = await contextOf(t, row.headers);
    t.match(ctx.requestId, UUID, row.name);
  }
});

t.test('peer address and protocol of a plain connection', async (t) => {
  const ctx = await contextOf(t, []);
  t.equal(ctx.clientAddress, '127.0.0.1');
  t.equal(ctx.peerAddress, '127.0.0.1');
  t.equal(ctx.peerTrusted, false);
  t.equal(ctx.protocol, 'http');
});

t.test('the client address over a real socket from 127.0.0.1', async (t) => {
  const loopback = createTrustedProxies(['127.0.0.1/32']);
  const elsewhere = createTrustedProxies(['10.0.0.0/8']);
  const rows: {
    name: string;
    trusted: TrustedProxies;
    headers: string[];
    want: { clientAddress: string; peerTrusted: boolean };
  }[] = [
    {
      name: 'no trusted proxies: a spoofed X-Forwarded-For is not read',
      trusted: null,
      headers: ['x-forwarded-for', '203.0.113.9'],
      want: { clientAddress: '127.0.0.1', peerTrusted: false },
    },
    {
      name: 'a peer outside the list: X-Forwarded-For is not read',
      trusted: elsewhere,
      headers: ['x-forwarded-for', '203.0.113.9'],
      want: { clientAddress: '127.0.0.1', peerTrusted: false },
    },
    {
      name: 'a trusted peer: the right-most untrusted address',
      trusted: loopback,
      headers: ['x-forwarded-for', '198.51.100.1, 203.0.113.9'],
      want: { clientAddress: '203.0.113.9', peerTrusted: true },
    },
    {
      name: 'a trusted peer, the header sent twice (joined in order)',
      trusted: loopback,
      headers: ['x-forwarded-for', '203.0.113.9', 'x-forwarded-for', '198.51.100.1'],
      want: { clientAddress: '198.51.100.1', peerTrusted: true },
    },
    {
      name: 'a trusted peer with no X-Forwarded-For: the peer',
      trusted: loopback,
      headers: [],
      want: { clientAddress: '127.0.0.1', peerTrusted: true },
    },
  ];
  for (const row of rows) {
    const ctx = await contextOf(t, row.headers, row.trusted);
    t.same({ clientAddress: ctx.clientAddress, peerTrusted: ctx.peerTrusted }, row.want, row.name);
    t.equal(ctx.peerAddress, '127.0.0.1', `${row.name}: the peer is the socket's`);
  }
});

t.test('hand-built requests: a list id, a TLS socket, a socket without a peer', async (t) => {
  const fake = (headers: object, socket: object) =>
    ({ headers, socket }) as unknown as IncomingMessage;
  const listed = createRequestContext(
    fake({ 'x-request-id': ['a', 'b'] }, { remoteAddress: '10.1.1.1' }),
    null,
  );
  t.match(listed.requestId, UUID, 'a list is never taken as the id');
  t.equal(listed.clientAddress, '10.1.1.1');

  const tls = createRequestContext(
    fake({ 'x-request-id': 'keep-me' }, { remoteAddress: '::1', encrypted: true }),
    null,
  );
  t.same(tls, {
    requestId: 'keep-me',
    clientAddress: '::1',
    peerAddress: '::1',
    peerTrusted: false,
    protocol: 'https',
    clientCert: null,
  });

  const gone = createRequestContext(fake({}, {}), createTrustedProxies(['0.0.0.0/0', '::/0']));
  t.equal(gone.clientAddress, 'unknown', 'a destroyed socket has no remoteAddress');
  t.equal(gone.peerTrusted, false, 'and is never a trusted proxy');
  t.equal(gone.protocol, 'http');

  const a = createRequestContext(fake({}, {}), null);
  t.not(a.requestId, gone.requestId, 'a new id per request');
});

t.test('hand-built requests: a mapped peer, X-Forwarded-For given as a list', async (t) => {
  const fake = (headers: object, socket: object) =>
    ({ headers, socket }) as unknown as IncomingMessage;
  const trusted = createTrustedProxies(['10.0.0.0/8']);
  const mapped = createRequestContext(
    fake({ 'x-forwarded-for': ['203.0.113.9', '10.2.2.2'] }, { remoteAddress: '::ffff:10.0.0.1' }),
    trusted,
  );
  t.same(
    {
      clientAddress: mapped.clientAddress,
      peerAddress: mapped.peerAddress,
      peerTrusted: mapped.peerTrusted,
    },
    { clientAddress: '203.0.113.9', peerAddress: '10.0.0.1', peerTrusted: true },
    'an IPv4-mapped peer matches the IPv4 range and is written as IPv4',
  );
  const untrustedMapped = createRequestContext(
    fake({ 'x-forwarded-for': '203.0.113.9' }, { remoteAddress: '::ffff:198.51.100.1' }),
    trusted,
  );
  t.equal(untrustedMapped.clientAddress, '198.51.100.1');
  t.equal(untrustedMapped.peerTrusted, false);
});
