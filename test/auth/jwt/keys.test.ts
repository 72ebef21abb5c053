import t from 'tap';
import { resolve } from 'node:path';
import {
  buildKeySet,
  importRemoteJwks,
  createKeySet,
  SUPPORTED_ALGORITHMS,
  UNUSABLE_KEY_WARNING,
  type KeySetDeps,
  type KeySetSettings,
  type VerificationKey,
} from '../../../src/auth/jwt/keys.js';
import { EC_KEY, HS_SECRET, lazyKeys, RSA_KEY, RSA_KEY_2 } from '../../fixtures/keys.js';

const CONFIG = 'gateway.yaml';

function settingsOf(over: Partial<KeySetSettings> = {}): KeySetSettings {
  return { verification_keys: [], jwks_file: null, algorithm: 'RS256', secret_key: null, ...over };
}

function depsIn(dir: string, over: Partial<KeySetDeps> = {}): KeySetDeps {
  return { configFile: CONFIG, resolvePath: (p) => resolve(dir, p), ...over };
}

const algs = (key: VerificationKey | undefined): string[] => [...(key?.algorithms ?? [])].sort();

t.test('an inline PEM public key verifies its kind of algorithm', async (t) => {
  const { keySet, problems, warnings } = await createKeySet(
    settingsOf({ verification_keys: [RSA_KEY.publicPem], algorithm: ['RS256', 'PS256', 'ES256'] }),
    depsIn(t.testdirName),
  );
  t.same(problems, []);
  t.same(warnings, []);
  t.equal(keySet.static.length, 1);
  t.same(algs(keySet.static[0]), ['PS256', 'RS256'], 'RSA ∩ accepted');
  t.equal(keySet.static[0]?.kid, null);
  t.same([...keySet.algorithms].sort(), ['ES256', 'PS256', 'RS256']);
});

t.test('a PEM with literal \\n escapes (as env variables carry it) is parsed', async (t) => {
  const escaped = RSA_KEY.publicPem.trim().replaceAll('\n', '\\n');
  const { keySet, problems } = await createKeySet(
    settingsOf({ verification_keys: [escaped] }),
    depsIn(t.testdirName),
  );
  t.same(problems, []);
  t.equal(keySet.static.length, 1);
});

t.test('each key kind knows its algorithms', async (t) => {
  const rows: { name: string; pem: string; expected: string[] }[] = [
    {
      name: 'RSA',
      pem: RSA_KEY.publicPem,
      expected: ['PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'],
    },
    { name: 'EC P-256', pem: EC_KEY.publicPem, expected: ['ES256'] },
    { name: 'EC P-384', pem: lazyKeys.ec384().publicPem, expected: ['ES384'] },
    { name: 'EC P-521', pem: lazyKeys.ec521().publicPem, expected: ['ES512'] },
    { name: 'Ed25519', pem: lazyKeys.ed25519().publicPem, expected: ['Ed25519', 'EdDSA'] },
  ];
  for (const row of rows) {
    const { keySet, problems } = await createKeySet(
      settingsOf({ verification_keys: [row.pem], algorithm: [...SUPPORTED_ALGORITHMS] }),
      depsIn(t.testdirName),
    );
    t.same(problems, [], `${row.name}: no problem`);
    t.same(algs(keySet.static[0]), row.expected, row.name);
  }
  const secret = await createKeySet(
    settingsOf({ verification_keys: [HS_SECRET], algorithm: [...SUPPORTED_ALGORITHMS] }),
    depsIn(t.testdirName),
  );
  t.same(algs(secret.keySet.static[0]), ['HS256', 'HS384', 'HS512'], 'a shared secret');
  t.same(secret.keySet.static[0]?.key, new TextEncoder().encode(HS_SECRET), 'its UTF-8 bytes');
});

t.test('a PEM text is never an HMAC secret (algorithm confusion)', async (t) => {
  const { keySet } = await createKeySet(
    settingsOf({ verification_keys: [RSA_KEY.publicPem], algorithm: ['RS256', 'HS256'] }),
    depsIn(t.testdirName),
  );
  t.same(algs(keySet.static[0]), ['RS256']);
  t.same(keySet.candidates(undefined, 'HS256'), [], 'no key verifies HS256');
});

t.test('keys that cannot be used are problems that never show the key', async (t) => {
  const broken = '-----BEGIN PUBLIC KEY-----\nAAAAnotakey\n-----END PUBLIC KEY-----\n';
  const rows: { name: string; value: string; message: RegExp }[] = [
    {
      name: 'an invalid PEM',
      value: broken,
      message: /^is not a valid PEM public key or certificate$/,
    },
    {
      name: 'an RSA key under 2048 bits',
      value: lazyKeys.smallRsa().publicPem,
      message:
        /^the PEM key is an RSA key of 1024 bits \(at least 2048 needed\), which cannot verify JWTs$/,
    },
    {
      name: 'an X25519 key',
      value: lazyKeys.x25519().publicPem,
      message: /^the PEM key is a key of unsupported type x25519, which cannot verify JWTs$/,
    },
    {
      name: 'an EC key on secp256k1',
      value: lazyKeys.secp256k1().publicPem,
      message:
        /^the PEM key is an EC key on unsupported curve secp256k1, which cannot verify JWTs$/,
    },
  ];
  for (const row of rows) {
    const { keySet, problems } = await createKeySet(
      settingsOf({ verification_keys: [HS_SECRET, row.value], algorithm: ['RS256', 'HS256'] }),
      depsIn(t.testdirName),
    );
    t.equal(problems.length, 1, row.name);
    t.equal(problems[0]?.file, CONFIG);
    t.equal(problems[0]?.key, 'auth.verification_keys[1]');
    t.match(problems[0]?.message, row.message, row.name);
    t.notOk(problems[0]?.message.includes('AAAA'), 'no key material');
    t.equal(keySet.static.length, 1, 'the other key is kept');
  }
});

t.test('a key that verifies none of the accepted algorithms is a warning (SGWRN005)', async (t) => {
  const { keySet, problems, warnings } = await createKeySet(
    settingsOf({ verification_keys: [RSA_KEY.publicPem, HS_SECRET] }),
    depsIn(t.testdirName),
  );
  t.same(problems, []);
  t.same(warnings, [
    {
      file: CONFIG,
      key: 'auth.verification_keys[1]',
      code: UNUSABLE_KEY_WARNING,
      message:
        'the value (taken as a shared secret) is a shared secret for HS256, HS384, HS512, but ' +
        'auth.algorithm accepts only RS256: it verifies nothing',
    },
  ]);
  t.notOk(warnings[0]?.message.includes(HS_SECRET), 'never the secret');
  t.equal(keySet.static.length, 1);
});

t.test('file:<path> keys are read relative to the config folder', async (t) => {
  const dir = t.testdir({
    keys: { 'rsa.pem': RSA_KEY.publicPem, 'secret.txt': `${HS_SECRET}\n`, 'empty.txt': '\n' },
    'bad.pem': '-----BEGIN PUBLIC KEY-----\nAAAAnotakey\n-----END PUBLIC KEY-----\n',
  });
  const ok = await createKeySet(
    settingsOf({
      verification_keys: ['file:keys/rsa.pem', 'file:keys/secret.txt'],
      algorithm: ['RS256', 'HS256'],
    }),
    depsIn(dir),
  );
  t.same(ok.problems, []);
  t.same(algs(ok.keySet.static[0]), ['RS256'], 'the PEM file');
  t.same(algs(ok.keySet.static[1]), ['HS256'], 'the secret file');
  t.same(
    ok.keySet.static[1]?.key,
    new TextEncoder().encode(HS_SECRET),
    'the trailing newline is not part of it',
  );

  const bad = await createKeySet(
    settingsOf({
      verification_keys: ['file:keys/missing.pem', 'file:keys/empty.txt', 'file:bad.pem'],
      algorithm: ['RS256', 'HS256'],
    }),
    depsIn(dir),
  );
  t.same(bad.problems, [
    {
      file: CONFIG,
      key: 'auth.verification_keys[0]',
      message: 'cannot read key file "keys/missing.pem" (ENOENT)',
    },
    {
      file: CONFIG,
      key: 'auth.verification_keys[1]',
      message: 'key file "keys/empty.txt" is empty',
    },
    {
      file: CONFIG,
      key: 'auth.verification_keys[2]',
      message: 'key file "bad.pem" is not a valid PEM public key or certificate',
    },
  ]);
  t.same(bad.keySet.static, []);
});

t.test('the deprecated secret_key is one more static key, once', async (t) => {
  const appended = await createKeySet(
    settingsOf({
      verification_keys: [RSA_KEY.publicPem],
      secret_key: HS_SECRET,
      algorithm: ['RS256', 'HS256'],
    }),
    depsIn(t.testdirName),
  );
  t.same(appended.keySet.static.map(algs), [['RS256'], ['HS256']]);
  const already = await createKeySet(
    settingsOf({ verification_keys: [HS_SECRET], secret_key: HS_SECRET, algorithm: 'HS256' }),
    depsIn(t.testdirName),
  );
  t.equal(already.keySet.static.length, 1, 'not twice when the config already appended it');
  const unusable = await createKeySet(settingsOf({ secret_key: HS_SECRET }), depsIn(t.testdirName));
  t.equal(unusable.warnings[0]?.key, 'auth.secret_key', 'named by its own key');
  const empty = await createKeySet(settingsOf({ secret_key: '' }), depsIn(t.testdirName));
  t.same(empty.keySet.static, [], 'an empty secret_key is none');
});

t.test(
  'a JWKS file: keys chosen by kid, the default key, use:enc skipped, alg honoured',
  async (t) => {
    const { kid: _ignored, ...defaultJwk } = RSA_KEY_2.publicJwk;
    const dir = t.testdir({
      'jwks.json': JSON.stringify({
        keys: [
          RSA_KEY.publicJwk,
          { ...EC_KEY.publicJwk },
          defaultJwk,
          { ...RSA_KEY_2.publicJwk, kid: 'enc-key', use: 'enc' },
          { ...RSA_KEY_2.publicJwk, kid: 'rs384-only', alg: 'RS384' },
          { kty: 'oct', kid: 'hmac', k: Buffer.from(HS_SECRET).toString('base64url') },
          { ...RSA_KEY_2.publicJwk, kid: 'sig-key', use: 'sig' },
        ],
      }),
    });
    const { keySet, problems, warnings } = await createKeySet(
      settingsOf({ jwks_file: 'jwks.json', algorithm: ['RS256', 'ES256', 'HS256'] }),
      depsIn(dir),
    );
    t.same(problems, []);
    t.same(warnings, []);
    t.same(
      keySet.jwks.map((k) => k.kid),
      ['rsa-1', 'ec-1', null, 'hmac', 'sig-key'],
      'enc key skipped; RS384-only key verifies nothing accepted',
    );
    t.same(algs(keySet.jwks[3]), ['HS256'], 'an oct key is a secret');
    t.equal(keySet.candidates('rsa-1', 'RS256')[0], keySet.jwks[0], 'by kid');
    t.equal(keySet.candidates(undefined, 'RS256')[0], keySet.jwks[2], 'no kid: the default key');
    t.same(
      keySet.candidates('ec-1', 'RS256'),
      [],
      'a kid whose key cannot verify the alg: statics (none)',
    );
    t.same(keySet.candidates('enc-key', 'RS256'), [], 'an enc key is never a candidate');
  },
);

t.test('the alg a JWK names narrows its algorithms', async (t) => {
  const dir = t.testdir({
    'jwks.json': JSON.stringify({ keys: [{ ...RSA_KEY.publicJwk, alg: 'PS256' }] }),
  });
  const { keySet } = await createKeySet(
    settingsOf({ jwks_file: 'jwks.json', algorithm: ['RS256', 'PS256'] }),
    depsIn(dir),
  );
  t.same(algs(keySet.jwks[0]), ['PS256']);
});

t.test('JWKS files that cannot be used are problems naming the path, never the keys', async (t) => {
  const dir = t.testdir({
    'not-json.json': '{"keys": [',
    'no-keys.json': JSON.stringify({ kids: [] }),
    'array.json': JSON.stringify([RSA_KEY.publicJwk]),
    'null.json': 'null',
    'bad-entries.json': JSON.stringify({
      keys: [
        'a string',
        null,
        [1],
        { ...RSA_KEY.publicJwk, kid: 7 },
        { kty: 'oct', kid: 'no-k' },
        { kty: 'oct', k: '' },
        { kty: 'RSA', kid: 'broken', e: 'AQAB' },
        { kty: 'RSA', n: 'AAAA' },
        RSA_KEY.publicJwk,
      ],
    }),
  });
  const problemsOf = async (file: string) =>
    (await createKeySet(settingsOf({ jwks_file: file }), depsIn(dir))).problems;
  t.same(await problemsOf('missing.json'), [
    {
      file: CONFIG,
      key: 'auth.jwks_file',
      message: 'cannot read JWKS file "missing.json" (ENOENT)',
    },
  ]);
  t.same(await problemsOf('not-json.json'), [
    { file: CONFIG, key: 'auth.jwks_file', message: 'JWKS file "not-json.json" is not valid JSON' },
  ]);
  for (const file of ['no-keys.json', 'array.json', 'null.json']) {
    t.same(
      await problemsOf(file),
      [
        {
          file: CONFIG,
          key: 'auth.jwks_file',
          message: `JWKS file "${file}" must be a JSON object with a "keys" list`,
        },
      ],
      file,
    );
  }
  const where = 'JWKS file "bad-entries.json": keys';
  t.same(
    (await problemsOf('bad-entries.json')).map((p) => p.message),
    [
      `${where}[0] is not a JSON object`,
      `${where}[1] is not a JSON object`,
      `${where}[2] is not a JSON object`,
      `${where}[3] has a "kid" that is not a string`,
      `${where}[4] (kid "no-k") is an oct key without a usable "k"`,
      `${where}[5] is an oct key without a usable "k"`,
      `${where}[6] (kid "broken") cannot be imported as a public key`,
      `${where}[7] cannot be imported as a public key`,
    ],
  );
});

t.test('a JWKS with no usable key, or an unusable one, warns', async (t) => {
  const dir = t.testdir({
    'ec-only.json': JSON.stringify({ keys: [EC_KEY.publicJwk] }),
    'small.json': JSON.stringify({ keys: [lazyKeys.smallRsa().publicJwk, RSA_KEY.publicJwk] }),
  });
  const ecOnly = await createKeySet(settingsOf({ jwks_file: 'ec-only.json' }), depsIn(dir));
  t.same(ecOnly.problems, []);
  t.same(ecOnly.warnings, [
    {
      file: CONFIG,
      key: 'auth.jwks_file',
      code: UNUSABLE_KEY_WARNING,
      message: 'JWKS file "ec-only.json" holds no key that verifies RS256',
    },
  ]);
  const small = await createKeySet(settingsOf({ jwks_file: 'small.json' }), depsIn(dir));
  t.same(
    small.warnings.map((w) => w.message),
    [
      'JWKS file "small.json": keys[0] is an RSA key of 1024 bits (at least 2048 needed); it is skipped',
    ],
  );
  t.same(
    small.keySet.jwks.map((k) => k.kid),
    ['rsa-1'],
  );
  const empty = await createKeySet(settingsOf({ jwks_file: '' }), depsIn(dir));
  t.same(empty.warnings, [], 'an empty jwks_file is none');
});

t.test('extra keys (the development key) are chosen by their kid', async (t) => {
  const { keySet, warnings } = await createKeySet(
    settingsOf({ verification_keys: [RSA_KEY.publicPem], algorithm: ['ES256', 'RS256'] }),
    depsIn(t.testdirName, { extraKeys: [{ key: EC_KEY.publicKey, kid: 'dev-1' }] }),
  );
  t.same(warnings, []);
  t.same(
    keySet.jwks.map((k) => [k.kid, ...algs(k)]),
    [['dev-1', 'ES256']],
  );
  t.equal(keySet.candidates('dev-1', 'ES256')[0]?.key, EC_KEY.publicKey);

  const unusable = await createKeySet(
    settingsOf(),
    depsIn(t.testdirName, {
      extraKeys: [
        { key: EC_KEY.publicKey, kid: 'dev-1' },
        { key: lazyKeys.x25519().publicKey, kid: 'x' },
      ],
    }),
  );
  t.same(unusable.keySet.jwks, []);
  t.same(
    unusable.warnings.map((w) => [w.key, w.code, w.message]),
    [
      ['auth.dev_keys', UNUSABLE_KEY_WARNING, 'extra key 0 (kid "dev-1") verifies none of RS256'],
      ['auth.dev_keys', UNUSABLE_KEY_WARNING, 'extra key 1 (kid "x") verifies none of RS256'],
    ],
  );
});

t.test('buildKeySet: candidates in order, kid first, then every static key', async (t) => {
  const key = (kid: string | null, algorithms: string[]): VerificationKey => ({
    kid,
    key: new Uint8Array([1]),
    algorithms: new Set(algorithms),
  });
  const a1 = key('a', ['HS256']);
  const a2 = key('a', ['HS256', 'HS384']);
  const d = key(null, ['HS256']);
  const s1 = key(null, ['HS256']);
  const s2 = key(null, ['HS384']);
  const set = buildKeySet(['HS256', 'HS384', 'none'], [a1, d, a2], [s1, s2]);
  t.same([...set.algorithms], ['HS256', 'HS384'], '`none` is never accepted');
  t.same(set.candidates('a', 'HS256'), [a1, a2, s1], 'kid matches, then statics');
  t.same(set.candidates('a', 'HS384'), [a2, s2]);
  t.same(set.candidates(undefined, 'HS256'), [d, s1], 'no kid: the default key, then statics');
  t.same(set.candidates(undefined, 'HS384'), [s2]);
  t.same(set.candidates('unknown', 'HS256'), [s1], 'unknown kid: statics');
  t.same(set.candidates('a', 'none'), []);
  t.same(set.candidates('a', 'HS512'), [], 'an alg not accepted');
  t.equal(set.static.length, 2);
  t.equal(set.jwks.length, 3);
  t.equal(set.knowsKid('a', 'HS256'), true, 'a kid-chosen key carries kid a');
  t.equal(set.knowsKid('a', 'HS512'), false, 'not for an alg not accepted');
  t.equal(set.knowsKid('unknown', 'HS256'), false, 'static keys carry no kid');
});

t.test('importRemoteJwks: the usable keys of a fetched set, anything else skipped', async (t) => {
  const accepted = new Set(['RS256', 'ES256', 'HS256']);
  const secret = { kty: 'oct', kid: 'hs', k: Buffer.from('shared').toString('base64url') };
  const keys = importRemoteJwks(
    [
      RSA_KEY.publicJwk,
      secret,
      { ...EC_KEY.publicJwk, use: 'enc' },
      { ...RSA_KEY_2.publicJwk, alg: 'PS256' },
      { kty: 'RSA', kid: 'broken' },
      'not an object',
      null,
      { ...EC_KEY.publicJwk, kid: undefined },
    ],
    accepted,
  );
  t.same(
    keys.map((k) => [k.kid, [...k.algorithms]]),
    [
      ['rsa-1', ['RS256']],
      [null, ['ES256']],
    ],
    'the RSA key, and the EC key without a kid (a default key); oct, enc, PS256-only and broken entries skipped',
  );
});
