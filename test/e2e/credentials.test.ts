/**
 * End to end: each credential kind and each token source, accepted and
 * refused, as real HTTP through a real gateway to the recording upstream.
 */
import t, { type Test } from 'tap';
import { EC_KEY, HS_SECRET, RSA_KEY, RSA_KEY_2 } from '../fixtures/keys.js';
import {
  assertForwarded,
  assertRefused,
  bearer,
  startPair,
  yamlOf,
  INVALID_TOKEN_CHALLENGE,
  type Pair,
  type SendOptions,
} from '../fixtures/e2e.js';
import {
  createTestClock,
  goodToken,
  hs256Token,
  mintTestToken,
  noKidToken,
  TEST_SUBJECT,
  unknownKidToken,
  wrongKeyToken,
} from '../fixtures/tokens.js';

const INVALID_TOKEN = { status: 401, detail: 'Invalid token', challenge: INVALID_TOKEN_CHALLENGE };

/** A row: a named request, accepted (with the user id the upstream must see) or refused. */
interface Row {
  readonly name: string;
  readonly request: () => Promise<SendOptions>;
  /** The user id forwarded, or `refused` for an `Invalid token` 401. */
  readonly expect: { readonly userId: string | null } | 'refused';
}

async function runRows(t: Test, pair: Pair, rows: readonly Row[]): Promise<void> {
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const request = await row.request();
      if (row.expect === 'refused') {
        await assertRefused(t, pair, request, INVALID_TOKEN);
        return;
      }
      const { context } = await assertForwarded(t, pair, request);
      t.equal(context.authenticated, true, 'authenticated');
      t.equal(context.principal_type, 'jwt', 'principal_type');
      t.equal(context.user_id, row.expect.userId, 'user_id');
    });
  }
}

const withToken =
  (mint: () => Promise<string>, path = '/config') =>
  async (): Promise<SendOptions> => ({
    path,
    headers: bearer(await mint()),
  });

t.test('RS256 verification key from a file (file:keys/rs.pem)', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({ auth: { verification_keys: ['file:keys/rs.pem'] } }),
    files: { keys: { 'rs.pem': RSA_KEY.publicPem } },
  });
  await runRows(t, pair, [
    {
      name: 'a token signed by the key is accepted',
      request: withToken(() => goodToken()),
      expect: { userId: TEST_SUBJECT },
    },
    {
      name: 'a token signed by another key is refused',
      request: withToken(() => wrongKeyToken()),
      expect: 'refused',
    },
  ]);
});

t.test('RS256 verification key inline as PEM', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({ auth: { verification_keys: [RSA_KEY.publicPem], algorithm: 'RS256' } }),
  });
  await runRows(t, pair, [
    {
      name: 'a token signed by the key is accepted',
      request: withToken(() => goodToken()),
      expect: { userId: TEST_SUBJECT },
    },
    {
      name: 'a token without kid is accepted by the static key',
      request: withToken(() => noKidToken()),
      expect: { userId: TEST_SUBJECT },
    },
    {
      name: 'a token signed by another key is refused',
      request: withToken(() => wrongKeyToken()),
      expect: 'refused',
    },
  ]);
});

t.test('HS256 shared secret', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({ auth: { verification_keys: [HS_SECRET], algorithm: 'HS256' } }),
  });
  const otherSecret = new TextEncoder().encode('another-secret-of-enough-length-0123456789');
  await runRows(t, pair, [
    {
      name: 'a token signed with the secret is accepted',
      request: withToken(() => hs256Token({ sub: 'hs-user' })),
      expect: { userId: 'hs-user' },
    },
    {
      name: 'a token signed with another secret is refused',
      request: withToken(() => mintTestToken({ alg: 'HS256', key: otherSecret, kid: null })),
      expect: 'refused',
    },
    {
      name: 'an RS256 token is refused (algorithm not accepted)',
      request: withToken(() => goodToken()),
      expect: 'refused',
    },
  ]);
});

t.test(
  'JWKS file: key by kid, default key without kid, unknown kid falls back to the static keys',
  async (t) => {
    const { kid: _ecKid, ...ecWithoutKid } = EC_KEY.publicJwk;
    const pair = await startPair(t, {
      yaml: yamlOf({
        auth: {
          jwks_file: 'jwks/keys.json',
          // Only rsa-2 is static: a token signed by rsa-1 can only verify through the JWKS's kid.
          verification_keys: [RSA_KEY_2.publicPem],
          algorithm: ['RS256', 'ES256'],
        },
      }),
      files: { jwks: { 'keys.json': JSON.stringify({ keys: [RSA_KEY.publicJwk, ecWithoutKid] }) } },
    });
    await runRows(t, pair, [
      {
        name: 'kid rsa-1 chooses the JWKS key',
        request: withToken(() => goodToken({ sub: 'by-kid' })),
        expect: { userId: 'by-kid' },
      },
      {
        name: 'no kid chooses the JWKS key without kid (the default key)',
        request: withToken(() =>
          mintTestToken({ key: EC_KEY.privateKey, kid: null, sub: 'by-default' }),
        ),
        expect: { userId: 'by-default' },
      },
      {
        name: 'an unknown kid falls back to the static verification_keys',
        request: withToken(() =>
          mintTestToken({ key: RSA_KEY_2.privateKey, kid: 'no-such-kid', sub: 'by-static' }),
        ),
        expect: { userId: 'by-static' },
      },
      {
        name: 'an unknown kid no static key verifies is refused',
        request: withToken(() => unknownKidToken()),
        expect: 'refused',
      },
      {
        name: 'an ES256 token with a kid the JWKS does not hold is refused',
        request: withToken(() => mintTestToken({ key: EC_KEY.privateKey, kid: 'ec-unknown' })),
        expect: 'refused',
      },
    ]);
  },
);

const INTERNAL_TOKEN = 'internal-token-for-the-e2e-tests';
const INTERNAL_SCOPES = [
  'agents:read',
  'agents:run',
  'teams:read',
  'teams:run',
  'workflows:read',
  'workflows:run',
  'schedules:read',
  'schedules:write',
  'schedules:delete',
];

t.test('internal service token under RBAC: fixed principal, strict scopes', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        authorization: true,
        internal_service_token: INTERNAL_TOKEN,
      },
    }),
  });

  await t.test('GET /agents is allowed: it holds agents:read', async (t) => {
    const { received, context } = await assertForwarded(t, pair, {
      path: '/agents',
      headers: bearer(INTERNAL_TOKEN),
    });
    t.equal(context.principal_type, 'internal');
    t.equal(context.user_id, '__scheduler__');
    t.same(context.scopes, INTERNAL_SCOPES, 'exactly its fixed scopes');
    t.equal(context.accessible_resource_ids, null, 'global agents:read: no filtering');
    t.equal(context.is_admin, false);
    t.equal(context.authorization_enabled, true);
    t.equal(received.headers['x-auth-user-id'], '__scheduler__');
    t.equal(received.headers['x-auth-scopes'], INTERNAL_SCOPES.join(' '));
  });

  await t.test('POST /agents/a1/runs is allowed: it holds agents:run', async (t) => {
    await assertForwarded(t, pair, {
      method: 'POST',
      path: '/agents/a1/runs',
      headers: bearer(INTERNAL_TOKEN),
    });
  });

  await t.test('GET /config is 403: a scope it does not hold', async (t) => {
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: bearer(INTERNAL_TOKEN) },
      {
        status: 403,
        detail: 'Insufficient permissions. Required scope(s): config:read',
        challenge: 'Bearer realm="scopegate", error="insufficient_scope", scope="config:read"',
      },
    );
  });

  await t.test('a near miss of the internal token is a JWT, refused', async (t) => {
    await assertRefused(
      t,
      pair,
      { path: '/agents', headers: bearer(INTERNAL_TOKEN + 'x') },
      INVALID_TOKEN,
    );
  });
});

t.test('security key with no JWT source: an unscoped trusted root', async (t) => {
  const pair = await startPair(t, { yaml: yamlOf({ auth: { security_key: 's3cret' } }) });
  const routes = [
    { method: 'GET', path: '/config' },
    { method: 'DELETE', path: '/agents/a1' },
    { method: 'POST', path: '/schedules' },
  ];
  for (const route of routes) {
    await t.test(`${route.method} ${route.path} is allowed`, async (t) => {
      const { context, received } = await assertForwarded(t, pair, {
        ...route,
        headers: bearer('s3cret'),
      });
      t.equal(context.authenticated, true);
      t.equal(context.principal_type, 'security_key');
      t.equal(context.is_admin, true);
      t.same(context.scopes, []);
      t.equal(context.scoped_user_id, null);
      t.equal(context.user_id, null);
      t.equal(received.headers['x-auth-user-id'], undefined, 'no user id header');
      t.equal(received.headers['x-auth-scopes'], undefined, 'no scopes header');
    });
  }
  await t.test('the bare key (no Bearer) works too', async (t) => {
    await assertForwarded(t, pair, { path: '/config', headers: { authorization: 's3cret' } });
  });
  await t.test('another key is refused', async (t) => {
    await assertRefused(t, pair, { path: '/config', headers: bearer('s3cret-not') }, INVALID_TOKEN);
  });
  await t.test('a JWT is refused: no JWT source', async (t) => {
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: bearer(await goodToken()) },
      INVALID_TOKEN,
    );
  });
});

t.test('security key beside a JWT source is ignored: 401 Invalid token', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({ auth: { security_key: 's3cret', verification_keys: [RSA_KEY.publicPem] } }),
  });
  await assertRefused(t, pair, { path: '/config', headers: bearer('s3cret') }, INVALID_TOKEN);
  await assertForwarded(t, pair, { path: '/config', headers: bearer(await goodToken()) });
});

t.test('token source HEADER with a custom token_header_key', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({
      auth: { verification_keys: [RSA_KEY.publicPem], token_header_key: 'X-Api-Token' },
    }),
  });
  const token = await goodToken();
  await t.test('the bare token in X-Api-Token', async (t) => {
    const { received } = await assertForwarded(t, pair, {
      path: '/config',
      headers: { 'X-Api-Token': token },
    });
    t.ok(
      received.headers['x-api-token'] === token,
      'the header is forwarded as an end-to-end header',
    );
  });
  await t.test('Bearer <token> in X-Api-Token', async (t) => {
    await assertForwarded(t, pair, {
      path: '/config',
      headers: { 'x-api-token': `bearer ${token}` },
    });
  });
  await t.test('a valid token in Authorization is not read', async (t) => {
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: bearer(token) },
      {
        status: 401,
        detail: 'Not authenticated: expected a bearer token in the X-Api-Token header',
        challenge: 'Bearer realm="scopegate"',
      },
    );
  });
  await t.test('an invalid token in X-Api-Token', async (t) => {
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: { 'x-api-token': await wrongKeyToken() } },
      INVALID_TOKEN,
    );
  });
});

t.test('token source COOKIE with a custom cookie_name', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        token_source: 'COOKIE',
        cookie_name: 'sg_at',
      },
    }),
  });
  const token = await goodToken();
  await t.test('the token in the named cookie, among others', async (t) => {
    await assertForwarded(t, pair, {
      path: '/config',
      headers: { cookie: `theme=dark; sg_at=${token}; x=1` },
    });
  });
  await t.test('a valid token in Authorization is not read', async (t) => {
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: bearer(token) },
      {
        status: 401,
        detail: 'Not authenticated: expected the sg_at cookie',
        challenge: 'Bearer realm="scopegate"',
      },
    );
  });
  await t.test('an invalid token in the cookie', async (t) => {
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: { cookie: `sg_at=${await wrongKeyToken()}` } },
      INVALID_TOKEN,
    );
  });
});

t.test('token source BOTH: header first, cookie when no header', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({ auth: { verification_keys: [RSA_KEY.publicPem], token_source: 'BOTH' } }),
  });
  const header = await goodToken({ sub: 'from-header' });
  const cookie = await goodToken({ sub: 'from-cookie' });
  const bad = await wrongKeyToken();
  const rows: { name: string; headers: Record<string, string>; userId: string | null }[] = [
    { name: 'header only', headers: bearer(header), userId: 'from-header' },
    { name: 'cookie only', headers: { cookie: `access_token=${cookie}` }, userId: 'from-cookie' },
    {
      name: 'both valid: the header wins',
      headers: { ...bearer(header), cookie: `access_token=${cookie}` },
      userId: 'from-header',
    },
    {
      name: 'valid header, invalid cookie: the cookie is not read',
      headers: { ...bearer(header), cookie: `access_token=${bad}` },
      userId: 'from-header',
    },
    {
      name: 'invalid header, valid cookie: 401, the cookie does not rescue it',
      headers: { ...bearer(bad), cookie: `access_token=${cookie}` },
      userId: null,
    },
    {
      name: '"Bearer" alone counts as no header: the cookie is used',
      headers: { authorization: 'Bearer', cookie: `access_token=${cookie}` },
      userId: 'from-cookie',
    },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      if (row.userId === null) {
        await assertRefused(t, pair, { path: '/config', headers: row.headers }, INVALID_TOKEN);
        return;
      }
      const { context } = await assertForwarded(t, pair, { path: '/config', headers: row.headers });
      t.equal(context.user_id, row.userId, 'the source used');
    });
  }
});

t.test(
  'a cached token stops working when it expires (the clock moves, the cache does not save it)',
  async (t) => {
    const clock = createTestClock();
    const pair = await startPair(t, {
      yaml: yamlOf({ auth: { verification_keys: [RSA_KEY.publicPem], leeway_seconds: 10 } }),
      clock,
    });
    const token = await goodToken(); // exp = TEST_NOW + 3600
    await assertForwarded(t, pair, { path: '/config', headers: bearer(token) });
    clock.advance(3605 * 1000);
    await assertForwarded(t, pair, { path: '/config', headers: bearer(token) });
    clock.advance(6 * 1000);
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: bearer(token) },
      {
        status: 401,
        detail: 'Token has expired',
        challenge: INVALID_TOKEN_CHALLENGE,
      },
    );
  },
);

t.test(
  'validate: false decodes claims without checking them, never more than no scopes',
  async (t) => {
    const pair = await startPair(t, {
      yaml: yamlOf({ auth: { validate: false, authorization: true } }),
    });
    await t.test('a token signed by an unknown key: its claims are used', async (t) => {
      const { context } = await assertForwarded(t, pair, {
        path: '/config',
        headers: bearer(await wrongKeyToken({ sub: 'unchecked', scopes: ['config:read'] })),
      });
      t.equal(context.user_id, 'unchecked');
      t.equal(context.principal_type, 'jwt');
    });
    await t.test(
      'garbage: authenticated, no identity, no scopes (a listing filtered to nothing)',
      async (t) => {
        const { context } = await assertForwarded(t, pair, {
          path: '/agents',
          headers: bearer('garbage'),
        });
        t.equal(context.authenticated, true);
        t.equal(context.principal_type, 'jwt');
        t.equal(context.user_id, null);
        t.same(context.scopes, []);
        t.same(context.accessible_resource_ids, []);
      },
    );
    await t.test('garbage cannot reach a scoped route', async (t) => {
      await assertRefused(
        t,
        pair,
        { path: '/config', headers: bearer('garbage') },
        {
          status: 403,
          detail: 'Insufficient permissions. Required scope(s): config:read',
          challenge: 'Bearer realm="scopegate", error="insufficient_scope", scope="config:read"',
        },
      );
    });
    await t.test('a reserved subject is refused in this mode too', async (t) => {
      await assertRefused(
        t,
        pair,
        { path: '/config', headers: bearer(await wrongKeyToken({ sub: '__scheduler__' })) },
        { status: 401, detail: 'Invalid token subject', challenge: INVALID_TOKEN_CHALLENGE },
      );
    });
  },
);
