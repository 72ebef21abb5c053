import t from 'tap';
import { resolve } from 'node:path';
import {
  createAuthChain,
  DEFAULT_TOKEN_CACHE_MAX,
  hasJwtSource,
  SERVICE_ACCOUNT_PREFIX,
  type AuthChainDeps,
  type AuthResult,
  type AuthSettings,
  type CredentialRequest,
  type ServiceAccountVerifier,
} from '../../src/auth/chain.js';
import { INTERNAL_PRINCIPAL } from '../../src/auth/internal-token.js';
import { mintToken } from '../../src/auth/jwt/mint.js';
import { ANONYMOUS, createPrincipal } from '../../src/auth/principal.js';
import { SECURITY_KEY_PRINCIPAL } from '../../src/auth/security-key.js';
import { createManualScheduler } from '../fixtures/jwks-server.js';
import { EC_KEY, RSA_KEY, RSA_KEY_2 } from '../fixtures/keys.js';
import {
  algNoneToken,
  createTestClock,
  expiredToken,
  goodToken,
  hs256WithPublicKeyToken,
  malformedToken,
  nonStringSubjectToken,
  reservedSubjectToken,
  scopesAsStringToken,
  TEST_NOW,
  TEST_NOW_MS,
  TEST_SERVICE_ID,
  testAuthSettings,
  unknownKidToken,
  wrongAudienceToken,
  notYetValidToken,
  wrongKeyToken,
} from '../fixtures/tokens.js';
import { tokenCacheKey } from '../../src/auth/jwt/cache.js';

const NO_JWT: Partial<AuthSettings> = { verification_keys: [] };

function depsOf(over: Partial<AuthChainDeps> = {}): AuthChainDeps {
  return {
    clock: createTestClock(),
    serviceId: TEST_SERVICE_ID,
    configFile: 'gateway.yaml',
    resolvePath: (p) => resolve('/nonexistent-config-dir', p),
    ...over,
  };
}

async function chainOf(over: Partial<AuthSettings> = {}, deps: Partial<AuthChainDeps> = {}) {
  const built = await createAuthChain(testAuthSettings(over), depsOf(deps));
  return built.chain;
}

const bearer = (token: string, clientAddress = '203.0.113.7'): CredentialRequest => ({
  headers: { authorization: `Bearer ${token}` },
  clientAddress,
});

const failure = (name: string, presented = true) => ({ ok: false, failure: name, presented });

t.test('hasJwtSource names every JWT source', async (t) => {
  const none = {
    verification_keys: [],
    jwks_file: null,
    jwks_url: null,
    secret_key: null,
    dev_keys: null,
    validate: true,
  };
  t.equal(hasJwtSource(none), false, 'none');
  t.equal(hasJwtSource({ ...none, secret_key: undefined }), false, 'secret_key left out');
  t.equal(
    hasJwtSource({ ...none, jwks_file: '', jwks_url: '', dev_keys: '', secret_key: '' }),
    false,
    'empty strings',
  );
  const rows: [string, object][] = [
    ['verification_keys', { verification_keys: ['k'] }],
    ['jwks_file', { jwks_file: 'jwks.json' }],
    ['jwks_url', { jwks_url: 'https://idp.example/jwks' }],
    ['secret_key', { secret_key: 's' }],
    ['dev_keys', { dev_keys: 'data/dev-keys.json' }],
    ['validate: false', { validate: false }],
  ];
  for (const [name, over] of rows) t.equal(hasJwtSource({ ...none, ...over }), true, name);
});

t.test(
  'no credential: credential_missing with where one was expected, synchronously',
  async (t) => {
    const rows: [AuthSettings['token_source'], string][] = [
      ['HEADER', 'header'],
      ['COOKIE', 'cookie'],
      ['BOTH', 'header_or_cookie'],
    ];
    for (const [token_source, expected] of rows) {
      const chain = await chainOf({ token_source });
      const result = chain.authenticate({ headers: {}, clientAddress: '::1' });
      t.same(
        result,
        { ok: false, failure: 'credential_missing', presented: false, expected },
        token_source,
      );
    }
    const chain = await chainOf();
    t.same(
      chain.authenticate(bearer('')),
      { ...failure('credential_missing', false), expected: 'header' },
      '`Bearer` alone',
    );
  },
);

t.test('allow_anonymous: no credential passes as anonymous; a bad one still fails', async (t) => {
  const chain = await chainOf({ allow_anonymous: true });
  t.same(chain.authenticate({ headers: {}, clientAddress: '::1' }), {
    ok: true,
    principal: ANONYMOUS,
  });
  t.same(await chain.authenticate(bearer(await wrongKeyToken())), failure('signature_invalid'));
});

t.test('svc_pat_ tokens go to the service-account verifier, and only there', async (t) => {
  const none = await chainOf();
  t.same(
    none.authenticate(bearer(`${SERVICE_ACCOUNT_PREFIX}abc`)),
    failure('service_account_invalid'),
    'none configured',
  );

  const seen: [string, string][] = [];
  const principal = createPrincipal({
    type: 'service_account',
    userId: 'sa:robot',
    serviceAccountName: 'robot',
  });
  const verifier: ServiceAccountVerifier = {
    verify(token, clientAddress) {
      seen.push([token, clientAddress]);
      return token.endsWith('async')
        ? Promise.resolve(failure('service_account_throttled') as AuthResult)
        : { ok: true, principal };
    },
  };
  const chain = await chainOf({}, { serviceAccounts: verifier });
  t.same(chain.authenticate(bearer('svc_pat_sync', '198.51.100.1')), { ok: true, principal });
  t.same(await chain.authenticate(bearer('svc_pat_async')), failure('service_account_throttled'));
  t.same(seen, [
    ['svc_pat_sync', '198.51.100.1'],
    ['svc_pat_async', '203.0.113.7'],
  ]);
});

t.test('the internal service token is matched before JWTs, synchronously', async (t) => {
  const chain = await chainOf({ internal_service_token: 'internal-secret-token' });
  t.same(chain.authenticate(bearer('internal-secret-token')), {
    ok: true,
    principal: INTERNAL_PRINCIPAL,
  });
  t.same(
    await chain.authenticate(bearer('internal-secret-tokeX')),
    failure('token_malformed'),
    'else: a JWT',
  );
  const unset = await chainOf({ internal_service_token: '' });
  t.same(await unset.authenticate(bearer('')), {
    ...failure('credential_missing', false),
    expected: 'header',
  });
});

t.test('JWTs: a valid token is a jwt principal; each failure is final', async (t) => {
  const chain = await chainOf({ verify_audience: true });
  const ok = await chain.authenticate(bearer(await goodToken()));
  t.match(ok, {
    ok: true,
    principal: {
      type: 'jwt',
      userId: 'user-1',
      scopes: ['agents:read', 'teams:run'],
      expiresAt: TEST_NOW + 3600,
    },
  });
  t.match(await chain.authenticate(bearer(await scopesAsStringToken())), {
    ok: true,
    principal: { scopes: ['agents:read'] },
  });
  t.match(
    await chain.authenticate(bearer(await unknownKidToken())),
    { ok: true },
    'unknown kid: the static key',
  );

  const rows: [string, () => Promise<string> | string, string][] = [
    ['expired', () => expiredToken(), 'token_expired'],
    ['wrong audience', () => wrongAudienceToken(), 'audience_mismatch'],
    ['reserved subject sa:', () => reservedSubjectToken('sa:robot'), 'subject_invalid'],
    [
      'reserved subject __scheduler__',
      () => reservedSubjectToken('__scheduler__'),
      'subject_invalid',
    ],
    ['non-string subject', () => nonStringSubjectToken(), 'subject_invalid'],
    ['alg none', () => algNoneToken(), 'algorithm_not_allowed'],
    [
      'HS256 with the public key as secret',
      () => hs256WithPublicKeyToken(),
      'algorithm_not_allowed',
    ],
    ['wrong key', () => wrongKeyToken(), 'signature_invalid'],
    ['malformed', () => malformedToken(), 'token_malformed'],
  ];
  for (const [name, token, reason] of rows) {
    t.same(await chain.authenticate(bearer(await token())), failure(reason), name);
  }
  t.equal(chain.tokenCache?.size, 3, 'only the successes were cached');
});

t.test('HS256 with the RS256 public key is refused even when HS256 is accepted', async (t) => {
  const chain = await chainOf({ algorithm: ['RS256', 'HS256'] });
  t.same(await chain.authenticate(bearer(await hs256WithPublicKeyToken())), failure('key_unknown'));
});

t.test('the cache: a hit is synchronous; expiry is re-checked on every hit', async (t) => {
  const clock = createTestClock();
  const chain = await chainOf({ leeway_seconds: 0 }, { clock });
  const token = await goodToken({ ttlSeconds: 60 });
  const verified = chain.authenticate(bearer(token));
  if (verified instanceof Promise) throw new Error('a miss verifies synchronously too');
  t.equal(chain.tokenCache?.misses, 1, 'a miss verifies');
  const second = chain.authenticate(bearer(token));
  if (second instanceof Promise) throw new Error('a hit must answer synchronously');
  t.same(second, verified);
  t.equal(
    second.ok && verified.ok && second.principal === verified.principal,
    true,
    'the same principal',
  );
  t.equal(chain.tokenCache?.hits, 1);

  clock.set(TEST_NOW_MS + 60_000);
  t.same(chain.authenticate(bearer(token)), failure('token_expired'));
  t.equal(chain.tokenCache?.misses, 2, 'an expired entry is not a hit');
});

t.test('tokenCacheMax bounds the cache', async (t) => {
  const chain = await chainOf({}, { tokenCacheMax: 1 });
  await chain.authenticate(bearer(await goodToken({ sub: 'a' })));
  await chain.authenticate(bearer(await goodToken({ sub: 'b' })));
  t.equal(chain.tokenCache?.size, 1);
  t.equal(DEFAULT_TOKEN_CACHE_MAX, 10_000);
});

t.test('auth.token_cache bounds the verified-JWT cache by count and by memory', async (t) => {
  const bounds = { rejected_max_entries: 10, rejected_ttl_seconds: 60 };
  const byCount = await chainOf({ token_cache: { ...bounds, max_entries: 1, max_bytes: 65_536 } });
  byCount.authenticate(bearer(await goodToken({ sub: 'a' })));
  byCount.authenticate(bearer(await goodToken({ sub: 'b' })));
  t.equal(byCount.tokenCache?.size, 1, 'max_entries');

  const byBytes = await chainOf({
    token_cache: { ...bounds, max_entries: 1000, max_bytes: 65_536 },
  });
  const padding = 'x'.repeat(4000);
  for (let i = 0; i < 40; i += 1) {
    const token = await goodToken({ sub: `user-${i}`, claims: { padding } });
    t.match(byBytes.authenticate(bearer(token)), { ok: true });
  }
  const { size = 0, bytes = 0 } = byBytes.tokenCache ?? {};
  t.ok(size > 1 && size < 40, `max_bytes evicts before max_entries (${size} held)`);
  t.ok(bytes <= 65_536, `within max_bytes (${bytes})`);
});

t.test('refused JWTs are remembered for rejected_ttl_seconds, some never', async (t) => {
  const clock = createTestClock();
  const settings: Partial<AuthSettings> = {
    algorithm: ['RS256', 'HS256'],
    verify_audience: true,
    token_cache: {
      max_entries: 100,
      max_bytes: 1_048_576,
      rejected_max_entries: 100,
      rejected_ttl_seconds: 30,
    },
  };
  const rows: {
    name: string;
    token: () => Promise<string> | string;
    failure: string;
    kept: boolean;
  }[] = [
    { name: 'malformed', token: () => malformedToken(), failure: 'token_malformed', kept: true },
    { name: 'alg none', token: () => algNoneToken(), failure: 'algorithm_not_allowed', kept: true },
    {
      name: 'bad signature',
      token: () => wrongKeyToken(),
      failure: 'signature_invalid',
      kept: true,
    },
    { name: 'expired', token: () => expiredToken(), failure: 'token_expired', kept: true },
    {
      name: 'audience',
      token: () => wrongAudienceToken(),
      failure: 'audience_mismatch',
      kept: true,
    },
    {
      name: 'reserved subject',
      token: () => reservedSubjectToken('sa:x'),
      failure: 'subject_invalid',
      kept: true,
    },
    {
      name: 'not yet valid: it becomes valid',
      token: () => notYetValidToken(),
      failure: 'token_not_yet_valid',
      kept: false,
    },
    {
      name: 'unknown key: it may arrive',
      token: () => hs256WithPublicKeyToken(),
      failure: 'key_unknown',
      kept: false,
    },
  ];
  for (const row of rows) {
    const chain = await chainOf(settings, { clock });
    const token = await row.token();
    t.same(chain.authenticate(bearer(token)), failure(row.failure), row.name);
    const remembered = chain.rejectionCache?.get(tokenCacheKey(token));
    t.equal(remembered, row.kept ? row.failure : undefined, `${row.name}: remembered?`);
    t.same(chain.authenticate(bearer(token)), failure(row.failure), `${row.name}: again`);
  }

  const chain = await chainOf(settings, { clock });
  const token = await wrongKeyToken();
  chain.authenticate(bearer(token));
  clock.advance(29_999);
  t.equal(chain.rejectionCache?.get(tokenCacheKey(token)), 'signature_invalid', 'within the ttl');
  clock.advance(1);
  t.equal(chain.rejectionCache?.get(tokenCacheKey(token)), undefined, 'forgotten after it');
  t.equal(chain.rejectionCache?.size, 0, 'and dropped');

  const off = await chainOf({
    token_cache: {
      max_entries: 1,
      max_bytes: 65_536,
      rejected_max_entries: 0,
      rejected_ttl_seconds: 1,
    },
  });
  t.equal(off.rejectionCache, null, 'rejected_max_entries 0: none');
  t.same(off.authenticate(bearer(token)), failure('signature_invalid'));
  t.equal((await chainOf({ validate: false })).rejectionCache, null, 'validate: false: none');
});

t.test(
  'a remembered refusal answers without a signature check, until the keys change',
  async (t) => {
    const clock = createTestClock();
    let document = JSON.stringify({ keys: [RSA_KEY.publicJwk] });
    const schedule = createManualScheduler();
    const built = await createAuthChain(
      testAuthSettings({ verification_keys: [], jwks_url: 'https://idp.example/jwks' }),
      depsOf({ clock, jwks: { fetch: async () => document, schedule } }),
    );
    const { chain } = built;
    await chain.remoteJwks?.start();
    const good = await goodToken();
    const rotated = await wrongKeyToken(); // RSA_KEY_2 under kid rsa-1
    t.match(chain.authenticate(bearer(good)), { ok: true });
    t.same(chain.authenticate(bearer(rotated)), failure('signature_invalid'));
    t.same(chain.authenticate(bearer(rotated)), failure('signature_invalid'), 'remembered');
    t.equal(chain.rejectionCache?.size, 1);
    t.equal(chain.tokenCache?.size, 1);

    // The IdP now serves RSA_KEY_2 as rsa-1: the remembered refusal must not outlive the change.
    document = JSON.stringify({ keys: [{ ...RSA_KEY_2.publicJwk, kid: RSA_KEY.kid }] });
    schedule.fire();
    await chain.remoteJwks?.refreshForUnknownKid();
    clock.advance(1);
    t.match(chain.authenticate(bearer(rotated)), { ok: true }, 'judged again on the new keys');
    t.same(chain.authenticate(bearer(good)), failure('signature_invalid'), 'and the old one too');
    chain.remoteJwks?.close();
  },
);

t.test('a JWT judged after a key refresh is cached only if the keys held meanwhile', async (t) => {
  const clock = createTestClock();
  let document = JSON.stringify({ keys: [RSA_KEY.publicJwk] });
  const built = await createAuthChain(
    testAuthSettings({ jwks_url: 'https://idp.example/jwks' }),
    depsOf({ clock, jwks: { fetch: async () => document, schedule: createManualScheduler() } }),
  );
  const { chain } = built;
  await chain.remoteJwks?.start();

  // rsa-2 is unknown, so the token waits for a refresh, which brings rsa-2: a new key set.
  document = JSON.stringify({ keys: [RSA_KEY.publicJwk, RSA_KEY_2.publicJwk] });
  clock.advance(30_000);
  const rotated = await goodToken({ key: RSA_KEY_2.privateKey, kid: RSA_KEY_2.kid });
  const waiting = chain.authenticate(bearer(rotated));
  t.ok(waiting instanceof Promise, 'an unknown kid waits for the remote keys');
  t.match(await waiting, { ok: true });
  t.equal(chain.tokenCache?.size, 0, 'verified on keys that changed meanwhile: not cached');
  t.match(chain.authenticate(bearer(rotated)), { ok: true }, 'then known: synchronous');
  t.equal(chain.tokenCache?.size, 1);

  // Within the cool-down nothing is fetched: the same keys. A refusal on them is remembered,
  // unless the token's kid is still unknown (its key may arrive).
  const expired = await expiredToken({ key: RSA_KEY_2.privateKey, kid: 'rsa-9' });
  t.same(await chain.authenticate(bearer(expired)), failure('signature_invalid'));
  t.equal(chain.rejectionCache?.get(tokenCacheKey(expired)), undefined, 'an unknown kid');
  const late = await expiredToken({ kid: 'rsa-9' });
  t.same(await chain.authenticate(bearer(late)), failure('token_expired'));
  t.equal(chain.rejectionCache?.get(tokenCacheKey(late)), 'token_expired', 'a lasting refusal');
  const forged = await goodToken({ key: RSA_KEY_2.privateKey, kid: RSA_KEY.kid });
  t.same(chain.authenticate(bearer(forged)), failure('signature_invalid'));
  t.equal(chain.rejectionCache?.get(tokenCacheKey(forged)), 'signature_invalid', 'a known kid');
  chain.remoteJwks?.close();
});

t.test('the security key: only without a JWT source', async (t) => {
  const alone = await chainOf({ ...NO_JWT, security_key: 'root-key' });
  t.equal(alone.tokenCache, null, 'no JWT source, no cache');
  t.same(alone.authenticate(bearer('root-key')), { ok: true, principal: SECURITY_KEY_PRINCIPAL });
  t.same(alone.authenticate(bearer('other')), failure('token_malformed'));
  t.same(
    alone.authenticate(bearer(await goodToken())),
    failure('token_malformed'),
    'JWTs are not checked',
  );

  const beside = await chainOf({ security_key: 'root-key' });
  t.same(
    await beside.authenticate(bearer('root-key')),
    failure('token_malformed'),
    'ignored beside a JWT source',
  );

  const nothing = await chainOf(NO_JWT);
  t.same(
    nothing.authenticate(bearer('anything')),
    failure('token_malformed'),
    'no authenticator claims it',
  );
});

t.test('validate: false decodes without checks, but still refuses reserved subjects', async (t) => {
  const chain = await chainOf({ ...NO_JWT, validate: false });
  t.equal(chain.tokenCache, null, 'nothing to cache');
  t.match(await chain.authenticate(bearer(await wrongKeyToken())), {
    ok: true,
    principal: { userId: 'user-1' },
  });
  t.same(await chain.authenticate(bearer('garbage')), {
    ok: true,
    principal: createPrincipal({ type: 'jwt', authenticated: true }),
  });
  t.same(
    await chain.authenticate(bearer(await reservedSubjectToken('sa:x'))),
    failure('subject_invalid'),
  );
});

t.test('extra keys (the development key) are a JWT source', async (t) => {
  const chain = await chainOf(
    { ...NO_JWT, algorithm: ['ES256'] },
    { extraKeys: [{ key: EC_KEY.publicKey, kid: 'dev' }] },
  );
  const token = await mintToken(
    { privateKey: EC_KEY.privateKey, kid: 'dev' },
    { sub: 'dev-admin', scopes: ['agent_os:admin'], ttlSeconds: 60 },
    createTestClock(),
  );
  t.match(await chain.authenticate(bearer(token)), {
    ok: true,
    principal: { userId: 'dev-admin' },
  });
});

t.test('key problems and warnings are returned; paths resolve through deps', async (t) => {
  const dir = t.testdir({ 'jwks.json': JSON.stringify({ keys: [RSA_KEY.publicJwk] }) });
  const built = await createAuthChain(
    testAuthSettings({
      verification_keys: ['file:missing.pem', 'a-secret'],
      jwks_file: 'jwks.json',
    }),
    depsOf({ resolvePath: (p) => resolve(dir, p) }),
  );
  t.same(
    built.problems.map((p) => [p.key, p.message]),
    [['auth.verification_keys[0]', 'cannot read key file "missing.pem" (ENOENT)']],
  );
  t.same(
    built.warnings.map((w) => w.key),
    ['auth.verification_keys[1]'],
  );
  t.match(
    await built.chain.authenticate(bearer(await goodToken())),
    { ok: true },
    'the JWKS key by kid',
  );
  const none = await createAuthChain(testAuthSettings(NO_JWT), depsOf());
  t.same([none.problems, none.warnings], [[], []]);
});

t.test('a cookie token (token_source COOKIE)', async (t) => {
  const chain = await chainOf({ token_source: 'COOKIE', cookie_name: 'tok' });
  const token = await goodToken();
  t.match(await chain.authenticate({ headers: { cookie: `tok=${token}` }, clientAddress: '::1' }), {
    ok: true,
  });
  t.same(chain.authenticate(bearer(token)), {
    ...failure('credential_missing', false),
    expected: 'cookie',
  });
});

t.test(
  'jwks_url: a remote set only when signatures are checked, kept when unchanged',
  async (t) => {
    const url = 'https://idp.example/jwks';
    const jwks = { fetch: async () => '{"keys":[]}', schedule: createManualScheduler() };
    const built = await createAuthChain(testAuthSettings({ jwks_url: url }), depsOf({ jwks }));
    const remote = built.chain.remoteJwks;
    t.same(
      remote?.options,
      { url, refreshMs: 300_000, cooldownMs: 30_000, maxStaleMs: 3_600_000 },
      'the config defaults when the settings leave the timings out',
    );
    t.equal(remote?.snapshot(), null, 'nothing is fetched before start()');

    const kept = await createAuthChain(
      testAuthSettings({ jwks_url: url }),
      depsOf({ jwks: { ...jwks, previous: remote } }),
    );
    t.equal(kept.chain.remoteJwks, remote, 'same URL and timings (a reload): the same set');
    const changed = await createAuthChain(
      testAuthSettings({ jwks_url: url, jwks_cooldown_seconds: 5 }),
      depsOf({ jwks: { ...jwks, previous: remote } }),
    );
    t.not(changed.chain.remoteJwks, remote, 'a timing changed: a new set');
    t.equal(changed.chain.remoteJwks?.options.cooldownMs, 5000);
    const real = await createAuthChain(testAuthSettings({ jwks_url: url }), depsOf());
    t.equal(
      real.chain.remoteJwks?.ready(),
      false,
      'the real fetcher and timer: idle until start()',
    );

    const rows: [string, Partial<AuthSettings>][] = [
      ['validate: false never needs keys', { jwks_url: url, validate: false }],
      ['an empty URL is none', { jwks_url: '' }],
      ['no jwks_url', {}],
    ];
    for (const [name, over] of rows) {
      const chain = await chainOf(over, { jwks });
      t.equal(chain.remoteJwks, null, name);
    }
    t.equal((await chainOf(NO_JWT)).remoteJwks, null, 'no JWT source at all');
  },
);

t.test('jwks_url: discover reads the configuration below the one issuer', async (t) => {
  const jwks = { fetch: async () => '{"keys":[]}', schedule: createManualScheduler() };
  const issuer = 'https://tenant.auth0.com/';
  const discover = testAuthSettings({ jwks_url: 'discover', issuer });
  const built = await createAuthChain(discover, depsOf({ jwks }));
  const remote = built.chain.remoteJwks;
  t.same(remote?.options, {
    url: 'https://tenant.auth0.com/.well-known/openid-configuration',
    issuer,
    refreshMs: 300_000,
    cooldownMs: 30_000,
    maxStaleMs: 3_600_000,
  });
  t.equal(remote?.keysUrl(), null, 'no key location before a configuration was read');
  const listed = await createAuthChain(
    testAuthSettings({ jwks_url: 'discover', issuer: [issuer] }),
    depsOf({ jwks: { ...jwks, previous: remote } }),
  );
  t.equal(listed.chain.remoteJwks, remote, 'the same issuer (a reload): the same set');

  // The configuration URL of one issuer set as a plain jwks_url is another source: never reused.
  const plain = await createAuthChain(
    testAuthSettings({ jwks_url: remote?.url as string, issuer }),
    depsOf({ jwks: { ...jwks, previous: remote } }),
  );
  t.not(plain.chain.remoteJwks, remote, 'a plain jwks_url at the same URL: a new set');
  t.equal(plain.chain.remoteJwks?.keysUrl(), remote?.url, 'whose keys are that URL itself');

  for (const [name, over] of [
    ['no issuer', { issuer: null }],
    ['two issuers', { issuer: ['https://a/', 'https://b/'] }],
  ] as const) {
    await t.rejects(
      createAuthChain(testAuthSettings({ jwks_url: 'discover', ...over }), depsOf({ jwks })),
      new TypeError('auth.jwks_url: discover needs exactly one auth.issuer'),
      `${name}: a config validation let through is a programming error`,
    );
  }
});
