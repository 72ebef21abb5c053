/**
 * What the upstream receives: strip every inbound x-auth-* (also
 * spelled with `_`) and hop-by-hop header, then set the verified identity and forwarding headers.
 */
import type { IncomingHttpHeaders } from 'node:http';
import t from 'tap';
import {
  endToEndHeaders,
  isAuthHeaderName,
  isForwardingHeaderName,
  upstreamHeaders,
  withClientCert,
  withoutCookie,
  type ClientFacts,
  type ForwardHeaderSettings,
} from '../../../src/gateway/stages/inject-identity.js';
import { anonymousContext, encodeIdentity } from '../../../src/gateway/identity.js';
import {
  decodeIdentityContext,
  encodeIdentityContext,
  signIdentityContext,
  type IdentityContext,
} from '../../../src/shared/identity-context.js';

const CLIENT: ClientFacts = {
  requestId: 'req-1',
  peerAddress: '10.0.0.7',
  peerTrusted: false,
  protocol: 'http',
};
/** The same connection from a peer in listen.trusted_proxies. */
const PROXY: ClientFacts = { ...CLIENT, peerTrusted: true };
const PLAIN: ForwardHeaderSettings = {
  forwardAuthorization: true,
  identitySecret: null,
  tokenHeader: 'authorization',
  tokenCookie: 'access_token',
};

function context(fields: Partial<IdentityContext> = {}): IdentityContext {
  return {
    ...anonymousContext({ rbacEnabled: true, userIsolation: false }),
    authenticated: true,
    principal_type: 'jwt',
    user_id: 'user-1',
    scopes: ['agents:read', 'teams:run'],
    ...fields,
  };
}

t.test('isAuthHeaderName', async (t) => {
  const rows: { name: string; want: boolean }[] = [
    { name: 'x-auth-context', want: true },
    { name: 'X-Auth-Context', want: true },
    { name: 'x-auth-', want: true },
    { name: 'X_AUTH_x', want: true },
    { name: 'x_auth-user-id', want: true },
    { name: 'x-auth_scopes', want: true },
    { name: 'x-authx', want: false },
    { name: 'x-auth', want: false },
    { name: 'x-aut', want: false },
    { name: 'authorization', want: false },
    { name: 'x-authorization', want: false },
    { name: '', want: false },
  ];
  for (const row of rows) t.equal(isAuthHeaderName(row.name), row.want, JSON.stringify(row.name));
});

t.test('endToEndHeaders drops hop-by-hop and Connection-listed headers', async (t) => {
  const inbound: IncomingHttpHeaders = {
    host: 'gw.example',
    connection: 'keep-alive, X-Secret-Hop , ,x-other-hop',
    'keep-alive': 'timeout=5',
    'proxy-connection': 'keep-alive',
    'proxy-authenticate': 'Basic',
    'proxy-authorization': 'Basic abc',
    te: 'trailers',
    trailer: 'x-t',
    'transfer-encoding': 'chunked',
    upgrade: 'websocket',
    'x-secret-hop': 'listed in Connection',
    'x-other-hop': 'listed too',
    accept: 'application/json',
    'set-cookie': ['a=1', 'b=2'],
    'content-length': '12',
    'x-undefined': undefined,
  };
  t.same(endToEndHeaders(inbound), {
    accept: 'application/json',
    'set-cookie': ['a=1', 'b=2'],
    'content-length': '12',
  });
  t.same(
    endToEndHeaders({ accept: '*/*', 'x-drop-me': '1', 'x-keep': '2' }, (n) => n === 'x-drop-me'),
    { accept: '*/*', 'x-keep': '2' },
    'extraDrop removes more; no Connection header is fine',
  );
});

t.test('upstreamHeaders: strip, then set', async (t) => {
  const ctx = context();
  const headers = upstreamHeaders(
    {
      host: 'gw.example:8080',
      accept: 'application/json',
      authorization: 'Bearer abc',
      'x-auth-context': 'forged',
      'x-auth-user-id': 'admin',
      'x-auth-scopes': 'agent_os:admin',
      'x-auth-signature': 'forged',
      x_auth_context: 'forged with underscores',
      'x-auth-anything-else': 'forged',
      'x-request-id': 'caller-chosen',
    },
    ctx,
    CLIENT,
    PLAIN,
  );
  t.same(headers, {
    accept: 'application/json',
    authorization: 'Bearer abc',
    'x-auth-context': encodeIdentityContext(ctx),
    'x-auth-user-id': 'user-1',
    'x-auth-scopes': 'agents:read teams:run',
    'x-request-id': 'req-1',
    'x-forwarded-for': '10.0.0.7',
    'x-forwarded-proto': 'http',
    'x-forwarded-host': 'gw.example:8080',
  });
  t.same(decodeIdentityContext(headers['x-auth-context'] as string), ctx);
});

t.test('forward_authorization: false drops the Authorization header', async (t) => {
  const inbound = { authorization: 'Bearer abc', accept: '*/*' };
  const on = upstreamHeaders(inbound, context(), CLIENT, PLAIN);
  const off = upstreamHeaders(inbound, context(), CLIENT, {
    ...PLAIN,
    forwardAuthorization: false,
  });
  t.equal(on['authorization'], 'Bearer abc');
  t.notOk('authorization' in off);
  t.equal(off['accept'], '*/*');
});

t.test(
  'forward_authorization: false withholds a custom token header and only the token cookie',
  async (t) => {
    const settings = {
      ...PLAIN,
      forwardAuthorization: false,
      tokenHeader: 'x-api-token',
      tokenCookie: 'sg',
    };
    const out = upstreamHeaders(
      { 'x-api-token': 'abc', cookie: 'theme=dark; sg=abc ; lang=en', accept: '*/*' },
      context(),
      CLIENT,
      settings,
    );
    t.notOk('x-api-token' in out);
    t.equal(out['cookie'], 'theme=dark; lang=en');
    const only = upstreamHeaders({ cookie: 'sg=abc' }, context(), CLIENT, settings);
    t.notOk('cookie' in only, 'a Cookie header holding only the token is dropped');
    const kept = upstreamHeaders({ 'x-api-token': 'abc', cookie: 'sg=abc' }, context(), CLIENT, {
      ...settings,
      forwardAuthorization: true,
    });
    t.equal(kept['x-api-token'], 'abc');
    t.equal(kept['cookie'], 'sg=abc');
  },
);

t.test('withoutCookie keeps other cookies, valueless ones and order', async (t) => {
  t.equal(withoutCookie('a=1; b=2; c=3', 'b'), 'a=1; c=3');
  t.equal(withoutCookie('flag; b=2', 'b'), 'flag');
  t.equal(withoutCookie(' b=2 ;', 'b'), '');
  t.equal(withoutCookie('bb=1; b=2', 'b'), 'bb=1');
});

t.test('x-auth-signature is sent only with an identity secret', async (t) => {
  const ctx = context();
  const unsigned = upstreamHeaders({}, ctx, CLIENT, PLAIN);
  t.notOk('x-auth-signature' in unsigned);
  const secret = 'a-secret-of-16-chars';
  const signed = upstreamHeaders({ 'x-auth-signature': 'forged' }, ctx, CLIENT, {
    ...PLAIN,
    identitySecret: secret,
  });
  t.equal(
    signed['x-auth-signature'],
    signIdentityContext(signed['x-auth-context'] as string, secret),
    'the HMAC of the exact x-auth-context value, not the forged one',
  );
});

t.test('a verified client certificate joins the context, encoded once per identity', async (t) => {
  const secret = 'a-secret-of-16-chars';
  const base = encodeIdentity(context(), secret);
  const cert = { subject: 'CN=worker', fingerprint256: 'AB:CD' };
  const joined = withClientCert(base, cert, secret);
  t.same(joined.context.client_certificate, cert);
  t.equal(joined.signature, signIdentityContext(joined.value, secret), 'signed again');
  t.equal(withClientCert(base, cert, secret), joined, 'the same certificate: reused');
  const other = { subject: 'CN=other', fingerprint256: 'EF:01' };
  t.same(withClientCert(base, other, secret).context.client_certificate, other, 'another: rebuilt');
  const sent = upstreamHeaders({}, context(), { ...CLIENT, clientCert: cert }, PLAIN);
  t.same(decodeIdentityContext(sent['x-auth-context'] as string)?.client_certificate, cert);
  t.equal(sent['x-auth-client-cert-subject'], 'CN=worker');
});

t.test('x-auth-user-id is encodeURIComponent of the user id, absent without one', async (t) => {
  const rows: { name: string; userId: string | null; want: string | undefined }[] = [
    { name: 'plain', userId: 'user-1', want: 'user-1' },
    { name: 'needs encoding', userId: 'ü ser/1?&=%', want: '%C3%BC%20ser%2F1%3F%26%3D%25' },
    { name: 'a CRLF cannot split headers', userId: 'a\r\nx-evil: 1', want: 'a%0D%0Ax-evil%3A%201' },
    { name: 'none', userId: null, want: undefined },
  ];
  for (const row of rows) {
    const headers = upstreamHeaders({}, context({ user_id: row.userId }), CLIENT, PLAIN);
    t.equal(headers['x-auth-user-id'], row.want, row.name);
  }
});

t.test(
  'x-auth-scopes lists only plain visible ASCII scopes, and is absent when none is left',
  async (t) => {
    const rows: { name: string; scopes: string[]; want: string | undefined }[] = [
      { name: 'all listable', scopes: ['a:read', 'b:run'], want: 'a:read b:run' },
      { name: 'one with a space', scopes: ['a:read', 'bad scope', 'b:run'], want: 'a:read b:run' },
      { name: 'tab and newline', scopes: ['x\t:y', 'p:\nq', 'c:d'], want: 'c:d' },
      { name: 'non-ASCII', scopes: ['agents:caf\u00e9:read', 'c:d'], want: 'c:d' },
      { name: 'control characters', scopes: ['a:\u0000b', 'a:\u007fb', 'c:d'], want: 'c:d' },
      { name: 'only unlistable', scopes: ['bad scope'], want: undefined },
      { name: 'no scopes', scopes: [], want: undefined },
    ];
    for (const row of rows) {
      const ctx = context({ scopes: row.scopes });
      const headers = upstreamHeaders({}, ctx, CLIENT, PLAIN);
      t.equal(headers['x-auth-scopes'], row.want, row.name);
      t.same(
        decodeIdentityContext(headers['x-auth-context'] as string)?.scopes,
        row.scopes,
        `${row.name}: x-auth-context carries every scope`,
      );
    }
  },
);

t.test('isForwardingHeaderName', async (t) => {
  const rows: { name: string; want: boolean }[] = [
    { name: 'x-forwarded-for', want: true },
    { name: 'x-forwarded-host', want: true },
    { name: 'x-forwarded-proto', want: true },
    { name: 'x-forwarded-port', want: true },
    { name: 'x-forwarded-prefix', want: true },
    { name: 'X-Forwarded-Host', want: true },
    { name: 'x_forwarded_host', want: true },
    { name: 'forwarded', want: true },
    { name: 'Forwarded', want: true },
    { name: 'x-real-ip', want: true },
    { name: 'x_real_ip', want: true },
    { name: 'x-forwarded', want: false },
    { name: 'x-forwardedx', want: false },
    { name: 'forwarded-for', want: false },
    { name: 'x-request-id', want: false },
    { name: 'x-reply-ip', want: false },
    { name: 'x-rexl-ip', want: false },
    { name: 'x-frame-options', want: false },
    { name: 'from', want: false },
    { name: 'accept', want: false },
    { name: '', want: false },
  ];
  for (const row of rows) {
    t.equal(isForwardingHeaderName(row.name), row.want, JSON.stringify(row.name));
  }
});

/** Every forwarding header the upstream receives, by name. */
function forwardingOf(headers: Record<string, string | string[]>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => isForwardingHeaderName(name)),
  );
}

t.test('forwarding headers from a peer that is not a trusted proxy: ours alone', async (t) => {
  const rows: {
    name: string;
    inbound: IncomingHttpHeaders;
    client: ClientFacts;
    want: Record<string, string>;
  }[] = [
    {
      name: 'none sent',
      inbound: { host: 'gw:8080' },
      client: CLIENT,
      want: {
        'x-forwarded-for': '10.0.0.7',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': 'gw:8080',
      },
    },
    {
      name: 'spoofed ones are replaced, the others removed',
      inbound: {
        host: 'gw:8080',
        'x-forwarded-for': '203.0.113.9, 198.51.100.2',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'attacker.example',
        'x-forwarded-port': '443',
        'x-forwarded-prefix': '/evil',
        forwarded: 'for=203.0.113.9;host=attacker.example;proto=https',
        'x-real-ip': '203.0.113.9',
        x_forwarded_host: 'attacker.example',
      },
      client: CLIENT,
      want: {
        'x-forwarded-for': '10.0.0.7',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': 'gw:8080',
      },
    },
    {
      name: 'TLS inbound connection',
      inbound: { host: 'gw', 'x-forwarded-proto': 'http' },
      client: { ...CLIENT, protocol: 'https' },
      want: {
        'x-forwarded-for': '10.0.0.7',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'gw',
      },
    },
    {
      name: 'no Host at all (HTTP/1.0): no X-Forwarded-Host, not even a sent one',
      inbound: { 'x-forwarded-host': 'attacker.example' },
      client: CLIENT,
      want: { 'x-forwarded-for': '10.0.0.7', 'x-forwarded-proto': 'http' },
    },
  ];
  for (const row of rows) {
    const headers = upstreamHeaders(row.inbound, context(), row.client, PLAIN);
    t.same(forwardingOf(headers), row.want, row.name);
    t.notOk('host' in headers, `${row.name}: Host is not copied (the pool sets its own)`);
  }
});

t.test('forwarding headers from a trusted proxy: its chain, proto and host kept', async (t) => {
  const rows: {
    name: string;
    inbound: IncomingHttpHeaders;
    client: ClientFacts;
    want: Record<string, string | string[]>;
  }[] = [
    {
      name: 'the peer is appended to the chain; proto and host kept',
      inbound: {
        host: 'internal:8080',
        'x-forwarded-for': '203.0.113.9, 198.51.100.2',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'public.example',
      },
      client: PROXY,
      want: {
        'x-forwarded-for': '203.0.113.9, 198.51.100.2, 10.0.0.7',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'public.example',
      },
    },
    {
      name: 'none sent: set as for an untrusted peer',
      inbound: { host: 'internal:8080' },
      client: { ...PROXY, protocol: 'https' },
      want: {
        'x-forwarded-for': '10.0.0.7',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'internal:8080',
      },
    },
    {
      name: 'empty ones count as none sent',
      inbound: {
        host: 'internal:8080',
        'x-forwarded-for': '',
        'x-forwarded-proto': '',
        'x-forwarded-host': '',
      },
      client: PROXY,
      want: {
        'x-forwarded-for': '10.0.0.7',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': 'internal:8080',
      },
    },
    {
      name: 'Forwarded, X-Real-IP and other X-Forwarded-* pass',
      inbound: {
        host: 'internal:8080',
        forwarded: 'for=203.0.113.9',
        'x-real-ip': '203.0.113.9',
        'x-forwarded-port': '443',
      },
      client: PROXY,
      want: {
        forwarded: 'for=203.0.113.9',
        'x-real-ip': '203.0.113.9',
        'x-forwarded-port': '443',
        'x-forwarded-for': '10.0.0.7',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': 'internal:8080',
      },
    },
    {
      name: 'values given as lists (hand-built headers) are joined',
      inbound: {
        'x-forwarded-for': ['203.0.113.9', '198.51.100.2'],
        'x-forwarded-host': ['public.example', 'other.example'],
      },
      client: PROXY,
      want: {
        'x-forwarded-for': '203.0.113.9, 198.51.100.2, 10.0.0.7',
        'x-forwarded-host': 'public.example, other.example',
        'x-forwarded-proto': 'http',
      },
    },
    {
      name: 'no Host and no X-Forwarded-Host: none',
      inbound: {},
      client: PROXY,
      want: { 'x-forwarded-for': '10.0.0.7', 'x-forwarded-proto': 'http' },
    },
  ];
  for (const row of rows) {
    const headers = upstreamHeaders(row.inbound, context(), row.client, PLAIN);
    t.same(forwardingOf(headers), row.want, row.name);
  }
});

t.test('the request id is always the gateway-chosen one', async (t) => {
  const headers = upstreamHeaders(
    { 'x-request-id': 'spoofed' },
    context(),
    { ...CLIENT, requestId: 'chosen' },
    PLAIN,
  );
  t.equal(headers['x-request-id'], 'chosen');
});

t.test(
  'an Expect header is not forwarded (undici refuses it; it may not cross a proxy)',
  async (t) => {
    const headers = upstreamHeaders(
      { expect: '100-continue', accept: '*/*' },
      context(),
      CLIENT,
      PLAIN,
    );
    t.notOk('expect' in headers);
    t.equal(headers['accept'], '*/*');
  },
);
