import t from 'tap';
import { sign, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { buildKeySet, type KeySet, type VerificationKey } from '../../../src/auth/jwt/keys.js';
import type { KeySource } from '../../../src/auth/jwt/key-source.js';
import { createJwtVerifier, type VerifySettings } from '../../../src/auth/jwt/verify.js';
import { EC_KEY, HS_SECRET, lazyKeys, RSA_KEY, RSA_KEY_2 } from '../../fixtures/keys.js';
import {
  algNoneToken,
  createTestClock,
  expiredToken,
  goodToken,
  hs256Token,
  hs256WithPublicKeyToken,
  malformedToken,
  missingAudienceToken,
  mintTestToken,
  noKidToken,
  notYetValidToken,
  TEST_NOW,
  TEST_NOW_MS,
  TEST_SERVICE_ID,
  unknownKidToken,
  wrongAudienceToken,
  wrongKeyToken,
} from '../../fixtures/tokens.js';

const SETTINGS: VerifySettings = {
  algorithm: 'RS256',
  validate: true,
  leeway_seconds: 10,
  verify_audience: false,
  audience: null,
  audience_claim: 'aud',
  issuer: null,
};

function key(
  k: KeyObject | Uint8Array,
  algorithms: string[],
  kid: string | null = null,
): VerificationKey {
  return { kid, key: k, algorithms: new Set(algorithms) };
}

/** Static rsa-1 (RS256) only, unless given. */
function verifierOf(
  over: Partial<VerifySettings> = {},
  keySet: KeySet = buildKeySet(['RS256'], [], [key(RSA_KEY.publicKey, ['RS256'])]),
  clock = createTestClock(),
) {
  return createJwtVerifier({ ...SETTINGS, ...over }, { keySet, clock, serviceId: TEST_SERVICE_ID });
}

const b64 = (value: unknown): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** RS256 over any header and payload text with node:crypto, bypassing jose's own checks. */
function signRaw(
  header: unknown,
  payload: unknown,
  privateKey: KeyObject = RSA_KEY.privateKey,
): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

const claims = { sub: 'user-1', iat: TEST_NOW, exp: TEST_NOW + 3600 };

t.test('a good token verifies; its exp and nbf are reported', async (t) => {
  const verify = verifierOf();
  const result = await verify(await goodToken());
  t.match(result, {
    ok: true,
    expiresAt: TEST_NOW + 3600,
    notBefore: null,
    payload: { sub: 'user-1' },
  });
  const early = await verify(await goodToken({ nbf: TEST_NOW - 5 }));
  t.match(early, { ok: true, notBefore: TEST_NOW - 5 });
});

t.test('each refusal names its reason', async (t) => {
  const hsAndRs = buildKeySet(['RS256', 'HS256'], [], [key(RSA_KEY.publicKey, ['RS256'])]);
  const rows: {
    name: string;
    token: () => Promise<string> | string;
    failure: string;
    verify?: ReturnType<typeof verifierOf>;
  }[] = [
    { name: 'expired', token: () => expiredToken(), failure: 'token_expired' },
    { name: 'not yet valid', token: () => notYetValidToken(), failure: 'token_not_yet_valid' },
    { name: 'alg none', token: () => algNoneToken(), failure: 'algorithm_not_allowed' },
    { name: 'HS256 not accepted', token: () => hs256Token(), failure: 'algorithm_not_allowed' },
    {
      name: 'HS256 signed with the RS256 public key PEM, HS256 accepted: no key may verify it',
      token: () => hs256WithPublicKeyToken(),
      failure: 'key_unknown',
      verify: verifierOf({ algorithm: ['RS256', 'HS256'] }, hsAndRs),
    },
    { name: 'signed by another key', token: () => wrongKeyToken(), failure: 'signature_invalid' },
    { name: 'not a JWT', token: () => malformedToken(), failure: 'token_malformed' },
    { name: 'three parts, undecodable header', token: () => 'a.b.c', failure: 'token_malformed' },
    { name: 'five parts (a JWE shape)', token: () => 'a.b.c.d.e', failure: 'token_malformed' },
    {
      name: 'header is a list',
      token: () => `${b64([1])}.${b64(claims)}.x`,
      failure: 'token_malformed',
    },
    {
      name: 'alg not a string',
      token: () => signRaw({ alg: 1 }, claims),
      failure: 'token_malformed',
    },
    { name: 'no alg', token: () => signRaw({ typ: 'JWT' }, claims), failure: 'token_malformed' },
    {
      name: 'kid not a string',
      token: () => signRaw({ alg: 'RS256', kid: 5 }, claims),
      failure: 'token_malformed',
    },
    {
      name: 'a critical header jose does not know',
      token: () => signRaw({ alg: 'RS256', crit: ['x'], x: 1 }, claims),
      failure: 'token_malformed',
    },
    {
      name: 'crit that is not a list',
      token: () => signRaw({ alg: 'RS256', crit: 'x' }, claims),
      failure: 'token_malformed',
    },
    {
      name: 'a good signature over a payload that is not JSON',
      token: () => signRaw({ alg: 'RS256' }, 'not json'),
      failure: 'token_malformed',
    },
    {
      name: 'exp not a number',
      token: () => signRaw({ alg: 'RS256' }, { ...claims, exp: 'tomorrow' }),
      failure: 'token_malformed',
    },
    {
      name: 'nbf not a number',
      token: () => signRaw({ alg: 'RS256' }, { ...claims, nbf: 'now' }),
      failure: 'token_malformed',
    },
  ];
  for (const row of rows) {
    const verify = row.verify ?? verifierOf();
    t.same(await verify(await row.token()), { ok: false, failure: row.failure }, row.name);
  }
});

t.test('exp and nbf are honoured with leeway_seconds, at the injected clock', async (t) => {
  const clock = createTestClock();
  const verify = verifierOf({ leeway_seconds: 10 }, undefined, clock);
  const token = await goodToken({ ttlSeconds: 60 });
  t.match(await verify(token), { ok: true });
  clock.set(TEST_NOW_MS + 69_999);
  t.match(await verify(token), { ok: true }, 'within the leeway after exp');
  clock.set(TEST_NOW_MS + 70_000);
  t.same(await verify(token), { ok: false, failure: 'token_expired' }, 'at exp + leeway');

  clock.set(TEST_NOW_MS);
  t.match(await verify(await goodToken({ nbf: TEST_NOW + 10 })), { ok: true }, 'nbf within leeway');
  t.same(await verify(await goodToken({ nbf: TEST_NOW + 11 })), {
    ok: false,
    failure: 'token_not_yet_valid',
  });
  const strict = verifierOf({ leeway_seconds: 0 });
  t.same(await strict(await goodToken({ ttlSeconds: 0 })), { ok: false, failure: 'token_expired' });
});

t.test('a token without exp is accepted', async (t) => {
  t.match(await verifierOf()(await goodToken({ ttlSeconds: null })), { ok: true, expiresAt: null });
});

t.test('keys: by kid, the default key, then the static keys in order', async (t) => {
  const jwks = [
    key(RSA_KEY_2.publicKey, ['RS256'], 'rsa-2'),
    key(RSA_KEY_2.publicKey, ['RS256'], 'rsa-1'), // a kid whose key does not verify: next key
    key(RSA_KEY_2.publicKey, ['RS256'], null),
  ];
  const keySet = buildKeySet(['RS256'], jwks, [key(RSA_KEY.publicKey, ['RS256'])]);
  const verify = verifierOf({}, keySet);
  t.match(
    await verify(await goodToken({ key: RSA_KEY_2.privateKey, kid: 'rsa-2' })),
    { ok: true },
    'by kid',
  );
  t.match(
    await verify(await noKidToken({ key: RSA_KEY_2.privateKey })),
    { ok: true },
    'no kid: default key',
  );
  t.match(await verify(await goodToken()), { ok: true }, 'kid key fails, the static key verifies');
  t.match(
    await verify(await noKidToken()),
    { ok: true },
    'default key fails, the static key verifies',
  );
  t.match(await verify(await unknownKidToken()), { ok: true }, 'unknown kid: the static keys');
  const jwksOnly = verifierOf({}, buildKeySet(['RS256'], jwks.slice(0, 1), []));
  t.same(await jwksOnly(await unknownKidToken()), { ok: false, failure: 'key_unknown' });
  t.same(
    await jwksOnly(await noKidToken()),
    { ok: false, failure: 'key_unknown' },
    'no default key',
  );
});

t.test('a key source: an unknown kid asks for one refresh, then looks again', async (t) => {
  const before = buildKeySet(['RS256'], [key(RSA_KEY.publicKey, ['RS256'], 'rsa-1')], []);
  const after = buildKeySet(
    ['RS256'],
    [key(RSA_KEY.publicKey, ['RS256'], 'rsa-1'), key(RSA_KEY_2.publicKey, ['RS256'], 'rsa-2')],
    [],
  );
  let current = before;
  let refreshes = 0;
  const keySource: KeySource = {
    current: () => current,
    refreshForUnknownKid: async () => {
      refreshes += 1;
      current = after;
    },
  };
  const verify = createJwtVerifier(SETTINGS, {
    keySet: before,
    keySource,
    clock: createTestClock(),
    serviceId: TEST_SERVICE_ID,
  });
  t.match(await verify(await goodToken()), { ok: true }, 'a known kid');
  t.same(await verify(await noKidToken()), { ok: false, failure: 'key_unknown' }, 'no kid');
  t.equal(refreshes, 0, 'neither a known kid nor a token without one refreshes');
  const rotated = await goodToken({ key: RSA_KEY_2.privateKey, kid: 'rsa-2' });
  t.match(await verify(rotated), { ok: true }, 'the new key, after one refresh');
  t.equal(refreshes, 1);
  t.same(
    await verify(await unknownKidToken()),
    { ok: false, failure: 'key_unknown' },
    'a kid still unknown after the refresh',
  );
  t.equal(refreshes, 2, 'the key source rate-limits refreshes, not the verifier');
});

t.test('a key jose cannot use for the alg is skipped like a wrong key', async (t) => {
  const small = lazyKeys.smallRsa();
  const keySet = buildKeySet(['RS256'], [], [key(small.publicKey, ['RS256'])]);
  const token = signRaw({ alg: 'RS256' }, claims, small.privateKey);
  t.same(await verifierOf({}, keySet)(token), { ok: false, failure: 'signature_invalid' });
});

t.test('ES256, HS256 and EdDSA tokens verify with their keys', async (t) => {
  const ed = lazyKeys.ed25519();
  const keySet = buildKeySet(
    ['ES256', 'HS256', 'EdDSA'],
    [key(EC_KEY.publicKey, ['ES256'], EC_KEY.kid)],
    [key(new TextEncoder().encode(HS_SECRET), ['HS256']), key(ed.publicKey, ['EdDSA'])],
  );
  const verify = verifierOf({ algorithm: ['ES256', 'HS256', 'EdDSA'] }, keySet);
  t.match(await verify(await goodToken({ key: EC_KEY.privateKey })), { ok: true }, 'ES256');
  t.match(await verify(await hs256Token()), { ok: true }, 'HS256');
  t.match(
    await verify(await goodToken({ key: ed.privateKey, alg: 'EdDSA', kid: null })),
    { ok: true },
    'EdDSA',
  );
});

t.test('issuer, when set, must match one of the accepted values', async (t) => {
  const verify = verifierOf({ issuer: ['https://a.example', 'https://b.example'] });
  t.match(await verify(await goodToken({ iss: 'https://b.example' })), { ok: true });
  t.same(await verify(await goodToken({ iss: 'https://c.example' })), {
    ok: false,
    failure: 'issuer_mismatch',
  });
  t.same(await verify(await goodToken()), { ok: false, failure: 'issuer_mismatch' }, 'missing iss');
  t.match(
    await verifierOf({ issuer: 'https://a.example' })(
      await goodToken({ iss: 'https://a.example' }),
    ),
    {
      ok: true,
    },
  );
  t.match(
    await verifierOf()(await goodToken({ iss: 'https://c.example' })),
    { ok: true },
    'not checked when unset',
  );
});

t.test('audience is checked only with verify_audience', async (t) => {
  t.match(await verifierOf()(await wrongAudienceToken()), { ok: true }, 'off: not checked');
  const byServiceId = verifierOf({ verify_audience: true });
  t.match(await byServiceId(await goodToken()), { ok: true }, 'the service id by default');
  t.match(
    await byServiceId(await goodToken({ aud: ['other', TEST_SERVICE_ID] })),
    { ok: true },
    'any of a list',
  );
  const mismatch = { ok: false, failure: 'audience_mismatch' };
  t.same(await byServiceId(await wrongAudienceToken()), mismatch);
  t.same(await byServiceId(await missingAudienceToken()), mismatch, 'missing');
  t.same(await byServiceId(await goodToken({ aud: [] })), mismatch, 'an empty list');
  t.same(
    await byServiceId(await goodToken({ aud: null, claims: { aud: 7 } })),
    mismatch,
    'not a string',
  );
  t.same(
    await byServiceId(await goodToken({ aud: null, claims: { aud: [7] } })),
    mismatch,
    'no string in the list',
  );

  const configured = verifierOf({ verify_audience: true, audience: ['api-a', 'api-b'] });
  t.match(
    await configured(await goodToken({ aud: 'api-b' })),
    { ok: true },
    'a configured audience',
  );
  t.same(await configured(await goodToken()), mismatch, 'the service id is not expected then');
  t.match(
    await verifierOf({ verify_audience: true, audience: 'api-a' })(
      await goodToken({ aud: 'api-a' }),
    ),
    {
      ok: true,
    },
  );

  const customClaim = verifierOf({ verify_audience: true, audience_claim: 'client_id' });
  t.match(
    await customClaim(await goodToken({ aud: null, claims: { client_id: TEST_SERVICE_ID } })),
    { ok: true },
  );
  t.same(await customClaim(await goodToken()), mismatch, 'read from audience_claim, not aud');
  t.same(
    await verifierOf({ verify_audience: true, audience_claim: 'toString' })(await goodToken()),
    mismatch,
    'never a value inherited from Object.prototype',
  );
});

t.test('validate: false decodes without any check', async (t) => {
  const verify = verifierOf({ validate: false }, buildKeySet(['RS256'], [], []));
  t.match(await verify(await expiredToken()), {
    ok: true,
    payload: { sub: 'user-1' },
    expiresAt: TEST_NOW - 3600,
  });
  t.match(await verify(await wrongKeyToken()), { ok: true }, 'any signature');
  t.match(await verify(await algNoneToken()), { ok: true }, 'even alg none');
  for (const garbage of ['', 'garbage', 'a.b.c', 'a.b.c.d.e', `${b64({})}.${b64([1])}.`]) {
    t.same(
      await verify(garbage),
      { ok: true, payload: {}, expiresAt: null, notBefore: null },
      garbage,
    );
  }
});

t.test('mintTestToken signs with the key it is given', async (t) => {
  // The fixture's default alg follows the key: the EC key signs ES256 unless told otherwise.
  const token = await mintTestToken({ key: EC_KEY.privateKey });
  t.equal(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()).alg, 'ES256');
  t.ok(await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).sign(EC_KEY.privateKey));
});
