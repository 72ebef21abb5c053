/**
 * End to end: every credential refusal of docs/errors.md, with its status,
 * exact detail and WWW-Authenticate challenge, and proof that the upstream never saw it.
 */
import t from 'tap';
import { EC_KEY, RSA_KEY } from '../fixtures/keys.js';
import {
  assertForwarded,
  assertRefused,
  bearer,
  startPair,
  yamlOf,
  CHALLENGE,
  INVALID_TOKEN_CHALLENGE,
  type ExpectedRefusal,
} from '../fixtures/e2e.js';
import {
  algNoneToken,
  expiredToken,
  goodToken,
  hs256WithPublicKeyToken,
  malformedToken,
  mintTestToken,
  missingAudienceToken,
  nonStringSubjectToken,
  notYetValidToken,
  reservedSubjectToken,
  TEST_NOW,
  TEST_SERVICE_ID,
  wrongAudienceToken,
  wrongKeyToken,
} from '../fixtures/tokens.js';

const invalid = (detail: string): ExpectedRefusal => ({
  status: 401,
  detail,
  challenge: INVALID_TOKEN_CHALLENGE,
});

// Scopes that pass GET /config, so only the credential itself can be the reason for a refusal.
const SCOPES = ['config:read'];

t.test('presented credentials that are refused: 401 with error="invalid_token"', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({
      service_id: TEST_SERVICE_ID,
      auth: {
        // Only the RSA public key: the PEM must never double as an HMAC secret.
        verification_keys: [RSA_KEY.publicPem],
        algorithm: ['RS256', 'HS256'],
        verify_audience: true,
        leeway_seconds: 10,
        authorization: true,
      },
    }),
  });
  const rows: { name: string; token: () => Promise<string>; expected: ExpectedRefusal }[] = [
    {
      name: 'signed by the wrong key',
      token: () => wrongKeyToken({ scopes: SCOPES }),
      expected: invalid('Invalid token'),
    },
    {
      name: 'algorithm not in auth.algorithm (ES256)',
      token: () => mintTestToken({ key: EC_KEY.privateKey, scopes: SCOPES }),
      expected: invalid('Invalid token'),
    },
    { name: 'alg none', token: () => algNoneToken(), expected: invalid('Invalid token') },
    {
      name: 'HS256 signed with the RS256 public key PEM as secret',
      token: () => hs256WithPublicKeyToken({ scopes: SCOPES }),
      expected: invalid('Invalid token'),
    },
    {
      name: 'HS256 signed with the RS256 public key PEM as secret, no kid',
      token: () => hs256WithPublicKeyToken({ scopes: SCOPES, kid: null }),
      expected: invalid('Invalid token'),
    },
    {
      name: 'expired beyond the leeway',
      token: () => expiredToken({ scopes: SCOPES }),
      expected: invalid('Token has expired'),
    },
    {
      name: 'expired 11 s ago with a 10 s leeway',
      token: () => mintTestToken({ scopes: SCOPES, now: TEST_NOW - 3611 }),
      expected: invalid('Token has expired'),
    },
    {
      name: 'nbf in the future',
      token: () => notYetValidToken({ scopes: SCOPES }),
      expected: invalid('Token is not yet valid'),
    },
    {
      name: 'wrong audience',
      token: () => wrongAudienceToken({ scopes: SCOPES }),
      expected: invalid('Invalid audience: the token is not for this service'),
    },
    {
      name: 'no aud claim with verify_audience: true',
      token: () => missingAudienceToken({ scopes: SCOPES }),
      expected: invalid('Invalid audience: the token is not for this service'),
    },
    ...['sa:x', '__oauth__:x', '__scheduler__'].map((sub) => ({
      name: `reserved subject ${sub}`,
      token: () => reservedSubjectToken(sub, { scopes: SCOPES }),
      expected: invalid('Invalid token subject'),
    })),
    {
      name: 'a number as subject',
      token: () => nonStringSubjectToken({ scopes: SCOPES }),
      expected: invalid('Invalid token subject'),
    },
    {
      name: 'null as subject',
      token: () => mintTestToken({ sub: null, scopes: SCOPES }),
      expected: invalid('Invalid token subject'),
    },
    {
      name: 'not a JWT at all',
      token: async () => malformedToken(),
      expected: invalid('Invalid token'),
    },
    {
      name: 'a service-account token no store knows',
      token: async () => 'svc_pat_0000000000000000000000000000000000000000000',
      expected: invalid('Invalid or expired service account token'),
    },
    {
      name: 'three dots of garbage',
      token: async () => 'a.b.c',
      expected: invalid('Invalid token'),
    },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      await assertRefused(
        t,
        pair,
        { path: '/config', headers: bearer(await row.token()) },
        row.expected,
      );
    });
  }

  const accepted: { name: string; token: () => Promise<string> }[] = [
    { name: 'a good token (control)', token: () => goodToken({ scopes: SCOPES }) },
    {
      name: 'expired 5 s ago, within the 10 s leeway',
      token: () => mintTestToken({ scopes: SCOPES, now: TEST_NOW - 3605 }),
    },
    {
      name: 'nbf 5 s ahead, within the 10 s leeway',
      token: () => mintTestToken({ scopes: SCOPES, nbf: TEST_NOW + 5 }),
    },
    { name: 'no exp claim', token: () => mintTestToken({ scopes: SCOPES, ttlSeconds: null }) },
    {
      name: 'aud as a list holding the service id',
      token: () => goodToken({ scopes: SCOPES, aud: ['other', TEST_SERVICE_ID] }),
    },
  ];
  for (const row of accepted) {
    await t.test(row.name, async (t) => {
      await assertForwarded(t, pair, { path: '/config', headers: bearer(await row.token()) });
    });
  }
  t.equal(
    pair.upstream.received.length,
    accepted.length,
    'only the accepted requests reached the upstream',
  );
});

t.test('an RS256-only gateway refuses an HS256 token', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({ auth: { verification_keys: [RSA_KEY.publicPem] } }),
  });
  await assertRefused(
    t,
    pair,
    { path: '/config', headers: bearer(await hs256WithPublicKeyToken()) },
    invalid('Invalid token'),
  );
});

t.test('no credential: 401, the detail names the source, a bare challenge', async (t) => {
  const sources = [
    {
      source: 'HEADER',
      detail: 'Not authenticated: expected a bearer token in the Authorization header',
    },
    { source: 'COOKIE', detail: 'Not authenticated: expected the access_token cookie' },
    {
      source: 'BOTH',
      detail:
        'Not authenticated: expected a bearer token in the Authorization header or the access_token cookie',
    },
  ];
  for (const { source, detail } of sources) {
    await t.test(source, async (t) => {
      const pair = await startPair(t, {
        yaml: yamlOf({ auth: { verification_keys: [RSA_KEY.publicPem], token_source: source } }),
      });
      const missing: ExpectedRefusal = { status: 401, detail, challenge: CHALLENGE };
      const requests: { name: string; headers: Record<string, string> }[] = [
        { name: 'no header, no cookie', headers: {} },
        { name: 'an unrelated cookie', headers: { cookie: 'theme=dark' } },
        { name: 'an empty access_token cookie', headers: { cookie: 'access_token=' } },
        ...(source === 'COOKIE'
          ? []
          : [
              {
                name: '"Authorization: Bearer" with nothing after it',
                headers: { authorization: 'Bearer' },
              },
              {
                name: '"Authorization: Bearer   " (spaces only)',
                headers: { authorization: 'Bearer   ' },
              },
              { name: 'an empty Authorization header', headers: { authorization: '' } },
            ]),
      ];
      for (const request of requests) {
        await t.test(request.name, async (t) => {
          const answer = await assertRefused(
            t,
            pair,
            { path: '/config', headers: request.headers },
            missing,
          );
          t.notMatch(
            answer.headers['www-authenticate'] ?? '',
            /error=/,
            'no error= without a credential',
          );
        });
      }
    });
  }
});

t.test('insufficient scope: 403 with error="insufficient_scope" and the scopes', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        authorization: true,
        // An override on a family route keeps the native floor: both are required, in order.
        scope_mappings: { 'POST /agents/*/runs': ['billing:run'] },
      },
    }),
  });
  const rows: {
    name: string;
    path: string;
    method?: string;
    scopes: string[];
    required: string[];
  }[] = [
    {
      name: 'GET /config without config:read',
      path: '/config',
      scopes: ['agents:read'],
      required: ['config:read'],
    },
    {
      name: 'GET /agents/a1 without agents:read',
      path: '/agents/a1',
      scopes: ['config:read'],
      required: ['agents:read'],
    },
    {
      name: 'POST /agents/a1/runs: the override, then the native scope',
      method: 'POST',
      path: '/agents/a1/runs',
      scopes: ['agents:run'],
      required: ['billing:run', 'agents:run'],
    },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      await assertRefused(
        t,
        pair,
        {
          method: row.method ?? 'GET',
          path: row.path,
          headers: bearer(await goodToken({ scopes: row.scopes })),
        },
        {
          status: 403,
          detail: `Insufficient permissions. Required scope(s): ${row.required.join(', ')}`,
          challenge: `Bearer realm="scopegate", error="insufficient_scope", scope="${row.required.join(' ')}"`,
        },
      );
    });
  }
  await t.test('control: with both scopes the run is forwarded', async (t) => {
    const { context } = await assertForwarded(t, pair, {
      method: 'POST',
      path: '/agents/a1/runs',
      headers: bearer(await goodToken({ scopes: ['billing:run', 'agents:run'] })),
    });
    t.same(context.required_scopes, ['billing:run', 'agents:run']);
  });
});
