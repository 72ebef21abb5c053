/**
 * End to end: the identity the upstream receives: every field of
 * x-auth-context, the x-auth-* and x-forwarded-* headers, the HMAC signature, excluded routes,
 * and spoofed x-auth-* headers that must never reach the upstream.
 */
import t, { type Test } from 'tap';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { RSA_KEY } from '../fixtures/keys.js';
import {
  assertForwarded,
  bearer,
  contextOf,
  rawValues,
  startPair,
  yamlOf,
} from '../fixtures/e2e.js';
import {
  goodToken,
  mintTestToken,
  scopesAsStringToken,
  TEST_NOW,
  TEST_SERVICE_ID,
} from '../fixtures/tokens.js';

const SECRET = 'identity-secret-for-the-e2e-tests';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The gateway most tests here use: RBAC on, custom claim names, a signing secret. */
function identityGateway(t: Test, auth: Record<string, unknown> = {}) {
  return startPair(t, {
    yaml: yamlOf({
      service_id: TEST_SERVICE_ID,
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        authorization: true,
        session_id_claim: 'sid',
        dependencies_claims: ['tenant', 'region'],
        session_state_claims: ['cart'],
        ...auth,
      },
    }),
    upstream: { identity_secret: SECRET },
  });
}

function hmacOf(value: string): string {
  return createHmac('sha256', SECRET).update(value).digest('hex');
}

t.test('x-auth-context carries every field of the identity', async (t) => {
  const pair = await identityGateway(t);
  const claims = {
    sid: 'session-9',
    tenant: 't-1',
    cart: { items: 2 },
    unrelated: 'kept in claims only',
  };
  const token = await mintTestToken({
    sub: 'ann é b',
    scopes: ['agents:read', 'config:read', 'has space'],
    aud: [TEST_SERVICE_ID, 'other-service'],
    claims,
  });
  const { received, context } = await assertForwarded(t, pair, {
    path: '/agents/a1',
    headers: bearer(token),
  });
  t.same(
    context,
    {
      authenticated: true,
      user_id: 'ann é b',
      session_id: 'session-9',
      scopes: ['agents:read', 'config:read', 'has space'],
      claims: {
        ...claims,
        sub: 'ann é b',
        scopes: ['agents:read', 'config:read', 'has space'],
        aud: [TEST_SERVICE_ID, 'other-service'],
        iat: TEST_NOW,
        exp: TEST_NOW + 3600,
      },
      audience: [TEST_SERVICE_ID, 'other-service'],
      authorization_enabled: true,
      dependencies: { tenant: 't-1' },
      session_state: { cart: { items: 2 } },
      accessible_resource_ids: null,
      principal_type: 'jwt',
      is_admin: false,
      scoped_user_id: null,
      required_scopes: ['agents:read'],
      service_account_name: null,
    },
    'the whole context',
  );
  t.equal(Object.keys(context).length, 15, 'no field beyond the fifteen');
  t.equal(received.headers['x-auth-user-id'], 'ann%20%C3%A9%20b', 'x-auth-user-id percent-encoded');
  t.equal(
    received.headers['x-auth-scopes'],
    'agents:read config:read',
    'x-auth-scopes leaves out a scope holding a space',
  );
  const value = received.headers['x-auth-context'] as string;
  const signature = received.headers['x-auth-signature'];
  t.type(signature, 'string', 'x-auth-signature is sent');
  t.equal(signature, hmacOf(value), 'HMAC-SHA256 hex of the exact x-auth-context value');
  t.ok(
    timingSafeEqual(Buffer.from(signature as string, 'hex'), Buffer.from(hmacOf(value), 'hex')),
    'verifies with node:crypto',
  );
});

t.test('claims as sent: string scopes and audience, custom claim names', async (t) => {
  const pair = await identityGateway(t);
  await t.test('a string scopes claim becomes a one-element list', async (t) => {
    const { context, received } = await assertForwarded(t, pair, {
      path: '/agents/a1',
      headers: bearer(await scopesAsStringToken()),
    });
    t.same(context.scopes, ['agents:read']);
    t.equal(received.headers['x-auth-scopes'], 'agents:read');
  });
  await t.test('a string audience is passed as a string', async (t) => {
    const { context } = await assertForwarded(t, pair, {
      path: '/agents/a1',
      headers: bearer(await goodToken({ aud: 'just-one' })),
    });
    t.equal(context.audience, 'just-one');
  });
  await t.test('no aud claim: audience null', async (t) => {
    const { context } = await assertForwarded(t, pair, {
      path: '/agents/a1',
      headers: bearer(await goodToken({ aud: null })),
    });
    t.equal(context.audience, null);
  });
  await t.test('no scopes: x-auth-scopes absent, the listing filtered to nothing', async (t) => {
    const { context, received } = await assertForwarded(t, pair, {
      path: '/agents',
      headers: bearer(await goodToken({ scopes: [] })),
    });
    t.same(context.scopes, []);
    t.equal(received.headers['x-auth-scopes'], undefined, 'no x-auth-scopes header');
    t.same(context.accessible_resource_ids, [], 'filtered listing, nothing accessible');
  });
  await t.test('only scopes with spaces: x-auth-scopes absent', async (t) => {
    const { context, received } = await assertForwarded(t, pair, {
      path: '/agents',
      headers: bearer(await goodToken({ scopes: ['a b'] })),
    });
    t.same(context.scopes, ['a b']);
    t.equal(received.headers['x-auth-scopes'], undefined);
  });
});

t.test('custom scopes_claim and user_id_claim, user isolation', async (t) => {
  const pair = await identityGateway(t, {
    scopes_claim: 'permissions',
    user_id_claim: 'uid',
    user_isolation: true,
  });
  await t.test('scopes come from the custom claim; scoped_user_id is the user', async (t) => {
    const token = await mintTestToken({
      scopes: ['config:read'],
      claims: { permissions: ['agents:read'], uid: 'u-7' },
    });
    const { context, received } = await assertForwarded(t, pair, {
      path: '/agents/a1',
      headers: bearer(token),
    });
    t.same(context.scopes, ['agents:read'], 'from permissions, not scopes');
    t.equal(context.user_id, 'u-7');
    t.equal(context.scoped_user_id, 'u-7', 'user_isolation: confined to the user');
    t.equal(context.is_admin, false);
    t.equal(received.headers['x-auth-user-id'], 'u-7');
  });
  await t.test('an admin is not confined', async (t) => {
    const token = await mintTestToken({
      claims: { permissions: ['agent_os:admin'], uid: 'root-1' },
    });
    const { context } = await assertForwarded(t, pair, {
      path: '/config',
      headers: bearer(token),
    });
    t.equal(context.is_admin, true);
    t.equal(context.scoped_user_id, null);
    t.same(context.required_scopes, ['config:read']);
  });
  await t.test('no user-id claim: user_id null, no x-auth-user-id', async (t) => {
    const token = await mintTestToken({ claims: { permissions: ['agents:read'] } });
    const { context, received } = await assertForwarded(t, pair, {
      path: '/agents/a1',
      headers: bearer(token),
    });
    t.equal(context.user_id, null);
    t.equal(context.scoped_user_id, null);
    t.equal(received.headers['x-auth-user-id'], undefined);
  });
  await t.test('a reserved value in the custom user-id claim is refused', async (t) => {
    const token = await mintTestToken({ claims: { permissions: ['agents:read'], uid: 'sa:x' } });
    const answer = await pair.send({ path: '/agents/a1', headers: bearer(token) });
    t.equal(answer.status, 401);
    t.same(answer.json, { detail: 'Invalid token subject' });
  });
});

t.test(
  'authorization off: authorization_enabled false, no signature without a secret',
  async (t) => {
    const pair = await startPair(t, {
      yaml: yamlOf({ auth: { verification_keys: [RSA_KEY.publicPem] } }),
    });
    const { context, received } = await assertForwarded(t, pair, {
      path: '/config',
      headers: bearer(await goodToken({ scopes: [] })),
    });
    t.equal(context.authorization_enabled, false);
    t.equal(context.user_id, 'user-1');
    t.equal(received.headers['x-auth-signature'], undefined, 'no identity_secret: no signature');
  },
);

t.test('x-request-id and x-forwarded-*', async (t) => {
  const pair = await identityGateway(t);
  const token = await goodToken();
  const rows: { name: string; given?: string; kept: boolean }[] = [
    { name: 'a plain caller id is kept', given: 'req-123.abc:9_x', kept: true },
    { name: 'an id with spaces is replaced', given: 'not plain id', kept: false },
    { name: 'an id with a quote is replaced', given: 'x"y', kept: false },
    { name: 'an over-long id is replaced', given: 'a'.repeat(129), kept: false },
    { name: 'no id: a new one', kept: false },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const headers: Record<string, string> = bearer(token);
      if (row.given !== undefined) headers['x-request-id'] = row.given;
      const { answer, received } = await assertForwarded(t, pair, { path: '/agents/a1', headers });
      const id = received.headers['x-request-id'];
      if (row.kept) t.equal(id, row.given);
      else t.match(id, UUID, 'a new uuid');
      t.equal(answer.headers['x-request-id'], id, 'the client sees the same id');
      t.same(rawValues(received.rawHeaders, 'x-request-id'), [id], 'exactly one x-request-id');
    });
  }

  await t.test('x-forwarded-for/proto/host from the connection', async (t) => {
    const { received } = await assertForwarded(t, pair, {
      path: '/agents/a1',
      headers: bearer(token),
    });
    t.equal(received.headers['x-forwarded-for'], '127.0.0.1');
    t.equal(received.headers['x-forwarded-proto'], 'http');
    t.equal(received.headers['x-forwarded-host'], new URL(pair.gateway.url).host);
  });
  await t.test('x-forwarded-* from a client (no trusted proxy) are replaced', async (t) => {
    const { received } = await assertForwarded(t, pair, {
      path: '/agents/a1',
      headers: {
        ...bearer(token),
        'x-forwarded-for': '198.51.100.7',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'public.example',
      },
    });
    t.equal(received.headers['x-forwarded-for'], '127.0.0.1');
    t.equal(received.headers['x-forwarded-proto'], 'http');
    t.equal(received.headers['x-forwarded-host'], new URL(pair.gateway.url).host);
  });
});

t.test(
  'excluded routes reach the upstream anonymous; a credential there is not checked',
  async (t) => {
    const pair = await identityGateway(t);
    const rows: { name: string; headers: Record<string, string> }[] = [
      { name: 'no credential', headers: {} },
      { name: 'a garbage token', headers: bearer('garbage.garbage.garbage') },
      { name: 'an expired-looking non-JWT', headers: { authorization: 'Basic Zm9vOmJhcg==' } },
    ];
    for (const row of rows) {
      await t.test(row.name, async (t) => {
        const { context, received } = await assertForwarded(t, pair, {
          path: '/health',
          headers: row.headers,
        });
        t.equal(context.authenticated, false);
        t.equal(context.principal_type, 'anonymous');
        t.equal(context.user_id, null);
        t.same(context.scopes, []);
        t.equal(context.is_admin, false);
        t.same(context.required_scopes, []);
        t.equal(received.headers['x-auth-user-id'], undefined);
        t.equal(received.headers['x-auth-scopes'], undefined);
        t.equal(
          received.headers['x-auth-signature'],
          hmacOf(received.headers['x-auth-context'] as string),
          'signed too',
        );
      });
    }
  },
);

t.test('spoofed x-auth-* headers never reach the upstream', async (t) => {
  const pair = await identityGateway(t);
  const forged = Buffer.from(
    JSON.stringify({
      authenticated: true,
      user_id: 'mallory',
      scopes: ['agent_os:admin'],
      is_admin: true,
    }),
  ).toString('base64url');
  const token = await goodToken({ scopes: ['agents:read'] });
  const spoofed = [
    'X-Auth-Context',
    forged,
    'x-auth-context',
    forged,
    'X_Auth_Context',
    forged,
    'x-auth-user-id',
    'mallory',
    'X_Auth_Scopes',
    'agent_os:admin',
    'x-auth-scopes',
    'agent_os:admin',
    'x-auth-signature',
    hmacOf(forged),
    'X-AUTH-IS-ADMIN',
    'true',
    'x_auth-mixed',
    '1',
  ];
  const rows: { name: string; path: string; headers: string[]; userId: string | null }[] = [
    {
      name: 'an authenticated request',
      path: '/agents/a1',
      headers: ['authorization', `Bearer ${token}`, ...spoofed],
      userId: 'user-1',
    },
    { name: 'an excluded route', path: '/health', headers: spoofed, userId: null },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const { received, context } = await assertForwarded(t, pair, {
        path: row.path,
        headers: row.headers,
      });
      const authNames = [];
      for (let i = 0; i < received.rawHeaders.length; i += 2) {
        const name = (received.rawHeaders[i] as string).toLowerCase();
        if (name.replace(/_/g, '-').startsWith('x-auth-')) authNames.push(name);
      }
      const expected = ['x-auth-context', 'x-auth-signature'];
      if (row.userId !== null) expected.push('x-auth-user-id', 'x-auth-scopes');
      t.same(authNames.sort(), expected.sort(), "only the gateway's x-auth-* headers, once each");
      const [value] = rawValues(received.rawHeaders, 'x-auth-context');
      t.not(value, forged, 'not the forged context');
      t.equal(context.user_id, row.userId, "the gateway's identity");
      t.equal(context.is_admin, false);
      t.notOk(context.scopes.includes('agent_os:admin'), 'no forged scope');
      t.equal(
        received.headers['x-auth-signature'],
        hmacOf(value as string),
        'signature of the real one',
      );
      if (row.userId !== null) {
        t.equal(received.headers['x-auth-user-id'], 'user-1');
        t.equal(received.headers['x-auth-scopes'], 'agents:read');
      }
      t.same(contextOf(received), context);
    });
  }
});

// BUG (src/gateway/stages/inject-identity.ts upstreamHeaders): x-auth-scopes leaves out only
// scopes holding whitespace; a scope holding a character no HTTP header value may carry (beyond
// Latin-1, a control character, a lone surrogate) is put in the header as is, undici refuses the
// header, and forward.ts reports that as 502 "the upstream could not be reached" although the
// upstream is up and was never contacted. Expected: forwarded, the scope in x-auth-context only.
t.test(
  'scopes that cannot be a header value stay out of x-auth-scopes, the request passes',
  async (t) => {
    const pair = await identityGateway(t, { authorization: false });
    const rows: { name: string; scope: string }[] = [
      { name: 'beyond Latin-1 (CJK)', scope: 'docs:日本:read' },
      { name: 'a control character', scope: 'docs:a\u0001b:read' },
      { name: 'DEL', scope: 'docs:a\u007fb:read' },
      { name: 'a lone surrogate', scope: 'docs:a\ud800b:read' },
    ];
    for (const row of rows) {
      await t.test(row.name, async (t) => {
        const before = pair.upstream.received.length;
        const answer = await pair.send({
          path: '/config',
          headers: bearer(await goodToken({ scopes: ['agents:read', row.scope] })),
        });
        t.equal(answer.status, 200, 'forwarded, not 502');
        t.equal(pair.upstream.received.length, before + 1, 'the upstream saw it');
        const received = pair.upstream.received[before];
        if (received === undefined) return;
        t.same(
          contextOf(received).scopes,
          ['agents:read', row.scope],
          'x-auth-context carries all',
        );
        t.equal(received.headers['x-auth-scopes'], 'agents:read', 'x-auth-scopes leaves it out');
      });
    }
  },
);

// BUG (src/gateway/stages/inject-identity.ts upstreamHeaders): x-auth-user-id is
// encodeURIComponent(user_id), which throws URIError for a lone surrogate; a verified token with
// `"sub": "a\ud800b"` is then answered 500 "Internal gateway error" (SG_ERR_INTERNAL: "a bug in
// the gateway"). Expected: no 500 — either forwarded with that user id in x-auth-context, or
// refused as 401 "Invalid token subject".
t.test('a user id encodeURIComponent cannot encode is not a 500', async (t) => {
  const pair = await identityGateway(t, { authorization: false });
  const answer = await pair.send({
    path: '/config',
    headers: bearer(await goodToken({ sub: 'a\ud800b' })),
  });
  t.not(answer.status, 500, 'not an internal error');
  t.ok([200, 401].includes(answer.status), 'forwarded, or refused as a bad subject');
  if (answer.status === 401) {
    t.same(answer.json, { detail: 'Invalid token subject' });
    t.equal(pair.upstream.received.length, 0, 'the upstream never saw it');
  } else if (answer.status === 200) {
    t.equal(contextOf(pair.upstream.received[0]).user_id, 'a\ud800b');
  }
});
