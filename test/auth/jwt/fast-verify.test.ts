// The node:crypto verifier against jose's verdicts: the same tokens, valid and hostile, through
// jose's jwtVerify (test/fixtures/jose-verifier.ts, with the options the gateway passes) and
// through createJwtVerifier must be judged the same, token by token.
import t from 'tap';
import { deepStrictEqual } from 'node:assert';
import {
  constants,
  createHmac,
  createSecretKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import fc from 'fast-check';
import { base64url, compactVerify, errors } from 'jose';
import { buildKeySet, type KeySet, type VerificationKey } from '../../../src/auth/jwt/keys.js';
import {
  ALGORITHM_SPECS,
  checkClaims,
  decodeSegment,
  fastKeyOf,
  NEXT_KEY,
  payloadEncoding,
} from '../../../src/auth/jwt/fast-verify.js';
import { createJwtVerifier, type VerifySettings } from '../../../src/auth/jwt/verify.js';
import type { Clock } from '../../../src/shared/clock.js';
import { JWS_ALGORITHMS } from '../../../src/shared/jws-algorithms.js';
import { createJoseVerifier } from '../../fixtures/jose-verifier.js';
import { EC_KEY, HS_SECRET, lazyKeys, RSA_KEY, RSA_KEY_2 } from '../../fixtures/keys.js';
import { createTestClock, TEST_NOW, TEST_SERVICE_ID } from '../../fixtures/tokens.js';

const ALL = [...JWS_ALGORITHMS];
const ed = lazyKeys.ed25519();
const ec384 = lazyKeys.ec384();
const ec521 = lazyKeys.ec521();
const small = lazyKeys.smallRsa();
const k1 = lazyKeys.secp256k1();
const x25519 = generateKeyPairSync('x25519').publicKey;

/**
 * How jose judges an X25519 key offered for an RS256 token, which depends on the Node.js
 * underneath: on Node 20 jose finds the key unsupported (the token is malformed); on newer ones
 * WebCrypto may refuse it as the wrong type, so it is not the token's key and the next one is tried.
 */
const X25519_FOR_RS256: string | null = await compactVerify(
  `${base64url.encode('{"alg":"RS256"}')}.${base64url.encode('{}')}.${base64url.encode('x')}`,
  x25519,
).then(
  () => 'unexpected',
  (err: unknown) => (err instanceof errors.JOSENotSupported ? 'token_malformed' : null),
);
const HS = new TextEncoder().encode(HS_SECRET);
const HS_OTHER = new Uint8Array(randomBytes(32));
const PEM_AS_SECRET = new TextEncoder().encode(RSA_KEY.publicPem);

const key = (
  material: KeyObject | Uint8Array,
  algorithms: readonly string[],
  kid: string | null = null,
): VerificationKey => ({ kid, key: material, algorithms: new Set(algorithms) });

const HMAC_ALGS = ['HS256', 'HS384', 'HS512'];
const RSA_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

/** Each key bound to its own algorithms, chosen by kid, then a static RSA key. */
const PROPER: KeySet = buildKeySet(
  ALL,
  [
    key(RSA_KEY.publicKey, RSA_ALGS, 'rsa-1'),
    key(EC_KEY.publicKey, ['ES256'], 'ec-1'),
    key(ec384.publicKey, ['ES384'], 'ec-384'),
    key(ec521.publicKey, ['ES512'], 'ec-521'),
    key(ed.publicKey, ['EdDSA', 'Ed25519'], 'ed-1'),
    key(HS, HMAC_ALGS, 'hs'),
    key(HS, HMAC_ALGS, null),
  ],
  [key(RSA_KEY_2.publicKey, RSA_ALGS)],
);

/**
 * Every key offered for every algorithm, so each algorithm meets each key type: the binding must
 * refuse what jose refuses. The PEM text as an HMAC secret is the algorithm-confusion attempt;
 * the secret KeyObject, the private key and the X25519 key are kinds only jose judges.
 */
const PROMISCUOUS: KeySet = buildKeySet(
  ALL,
  [],
  [
    key(new Uint8Array(0), ALL),
    key(PEM_AS_SECRET, ALL),
    key(small.publicKey, ALL),
    key(k1.publicKey, ALL),
    key(x25519, ALL),
    key(RSA_KEY.privateKey, ALL),
    key(createSecretKey(HS_OTHER), ALL),
    key(EC_KEY.publicKey, ALL),
    key(ec384.publicKey, ALL),
    key(ec521.publicKey, ALL),
    key(ed.publicKey, ALL),
    key(RSA_KEY_2.publicKey, ALL),
    key(RSA_KEY.publicKey, ALL),
    key(HS, ALL),
  ],
);

const SETTINGS: VerifySettings = {
  algorithm: ALL,
  validate: true,
  leeway_seconds: 10,
  verify_audience: false,
  audience: null,
  audience_claim: 'aud',
  issuer: null,
};

interface Variant {
  readonly name: string;
  readonly keySet: KeySet;
  readonly settings: VerifySettings;
}

const VARIANTS: readonly Variant[] = [
  { name: 'proper keys', keySet: PROPER, settings: SETTINGS },
  { name: 'every key for every alg', keySet: PROMISCUOUS, settings: SETTINGS },
  {
    name: 'no leeway, one issuer, audience',
    keySet: PROPER,
    settings: { ...SETTINGS, leeway_seconds: 0, issuer: 'https://a', verify_audience: true },
  },
  {
    name: 'issuer list',
    keySet: PROMISCUOUS,
    settings: { ...SETTINGS, issuer: ['https://a', 'https://b'], leeway_seconds: 3 },
  },
];

/** Both verifiers for a variant, at one clock. */
function pair(variant: Variant, clock: Clock = createTestClock()) {
  return {
    fast: createJwtVerifier(variant.settings, {
      keySet: variant.keySet,
      clock,
      serviceId: TEST_SERVICE_ID,
    }),
    jose: createJoseVerifier(variant.settings, variant.keySet, clock, TEST_SERVICE_ID),
  };
}

const SIGNERS = {
  rsa: RSA_KEY.privateKey,
  rsa2: RSA_KEY_2.privateKey,
  small: small.privateKey,
  ec256: EC_KEY.privateKey,
  ec384: ec384.privateKey,
  ec521: ec521.privateKey,
  k1: k1.privateKey,
  ed: ed.privateKey,
  hs: HS,
  hsOther: HS_OTHER,
  pem: PEM_AS_SECRET,
  garbage: null,
} as const;
type SignerName = keyof typeof SIGNERS;

/** A signature of `input` for `alg` by the named signer, or random bytes where none can be made. */
function signatureOf(alg: string, signer: SignerName, input: string): Buffer {
  const material = SIGNERS[signer];
  const spec = ALGORITHM_SPECS.get(alg);
  const data = Buffer.from(input, 'latin1');
  if (material === null || spec === undefined) return randomBytes(64);
  try {
    if (material instanceof Uint8Array) {
      return createHmac(spec.hash ?? 'sha256', material)
        .update(data)
        .digest();
    }
    switch (spec.family) {
      case 'pss':
        return sign(spec.hash, data, {
          key: material,
          padding: constants.RSA_PKCS1_PSS_PADDING,
          saltLength: spec.saltLength,
        });
      case 'ecdsa':
        return sign(spec.hash, data, { key: material, dsaEncoding: 'ieee-p1363' });
      case 'eddsa':
        return sign(null, data, material);
      default:
        return sign(spec.hash, data, material);
    }
  } catch {
    // This key cannot sign this way (an EC key for RS256): a signature nobody made.
    return randomBytes(64);
  }
}

const b64 = (bytes: Buffer | string): string => Buffer.from(bytes).toString('base64url');

/** A segment's text in one of the shapes jose's decoder reads (or refuses). */
type Encoding = 'plain' | 'padded' | 'spaced' | 'plus' | 'nonascii' | 'short';
function encode(bytes: Buffer, how: Encoding): string {
  const text = b64(bytes);
  switch (how) {
    case 'plain':
      return text;
    case 'padded':
      return text + '='.repeat((4 - (text.length % 4)) % 4);
    case 'spaced':
      return `${text.slice(0, 3)} \t${text.slice(3)}`;
    case 'plus':
      return `+${text.slice(1)}`;
    case 'nonascii':
      return `${text}é`;
    case 'short':
      return text.length % 4 === 1
        ? text
        : `${text}A`.repeat(1).slice(0, text.length + ((1 - (text.length % 4) + 4) % 4));
  }
}

const TIME = fc.oneof(
  fc.constantFrom(undefined, '"1"', 'null', 'true', '[]', '1e999', '-1e999'),
  fc.integer({ min: -15, max: 15 }).map((d) => String(TEST_NOW + d)),
  fc.integer({ min: -15, max: 15 }).map((d) => String(TEST_NOW + d + 0.5)),
);

const HEADER_SHAPES = ['object', 'array', 'number', 'null', 'not-json', 'bad-utf8', 'empty'];
const PAYLOAD_SHAPES = ['object', 'array', 'string', 'null', 'not-json', 'bad-utf8', 'empty'];

const TOKEN = fc.record({
  headerShape: fc.oneof(
    { weight: 8, arbitrary: fc.constant('object') },
    { weight: 2, arbitrary: fc.constantFrom(...HEADER_SHAPES) },
  ),
  alg: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...ALL) },
    { weight: 1, arbitrary: fc.constantFrom('none', 'ES256K', '', 7) },
  ),
  kid: fc.constantFrom(undefined, undefined, 'rsa-1', 'ec-1', 'ed-1', 'hs', 'nope', 5),
  crit: fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        [],
        ['b64'],
        ['x'],
        'b64',
        [''],
        [1],
        ['b64', 'b64'],
        ['b64', 'x'],
      ),
    },
  ),
  b64: fc.constantFrom(undefined, undefined, true, false, 'no'),
  payloadShape: fc.oneof(
    { weight: 8, arbitrary: fc.constant('object') },
    { weight: 2, arbitrary: fc.constantFrom(...PAYLOAD_SHAPES) },
  ),
  iss: fc.constantFrom(undefined, undefined, '"https://a"', '"https://b"', '"https://c"', '1'),
  aud: fc.constantFrom(undefined, `"${TEST_SERVICE_ID}"`, `["x","${TEST_SERVICE_ID}"]`, '7'),
  iat: TIME,
  nbf: TIME,
  exp: TIME,
  headerEncoding: fc.oneof(
    { weight: 8, arbitrary: fc.constant<Encoding>('plain') },
    { weight: 2, arbitrary: fc.constantFrom<Encoding[]>('padded', 'spaced', 'plus', 'short') },
  ),
  payloadEncoding: fc.oneof(
    { weight: 8, arbitrary: fc.constant<Encoding>('plain') },
    {
      weight: 2,
      arbitrary: fc.constantFrom<Encoding[]>('padded', 'spaced', 'plus', 'nonascii', 'short'),
    },
  ),
  signer: fc.constantFrom(...(Object.keys(SIGNERS) as SignerName[])),
  signature: fc.oneof(
    { weight: 6, arbitrary: fc.constant('intact') },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'flip',
        'truncate',
        'append',
        'empty',
        'padded',
        'spaced',
        'plus',
        'extra-dot',
      ),
    },
  ),
  flipAt: fc.nat(),
});
type TokenShape = typeof TOKEN extends fc.Arbitrary<infer T> ? T : never;

function headerBytes(shape: TokenShape): Buffer {
  switch (shape.headerShape) {
    case 'object': {
      const header: Record<string, unknown> = { alg: shape.alg, typ: 'JWT' };
      if (shape.kid !== undefined) header['kid'] = shape.kid;
      if (shape.crit !== undefined) header['crit'] = shape.crit;
      if (shape.b64 !== undefined) header['b64'] = shape.b64;
      return Buffer.from(JSON.stringify(header));
    }
    case 'array':
      return Buffer.from(JSON.stringify([shape.alg]));
    case 'number':
      return Buffer.from('42');
    case 'null':
      return Buffer.from('null');
    case 'not-json':
      return Buffer.from(`{"alg":"${String(shape.alg)}"`);
    case 'bad-utf8':
      return Buffer.concat([
        Buffer.from(`{"alg":"${String(shape.alg)}","x":"`),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}'),
      ]);
    default:
      return Buffer.alloc(0);
  }
}

function payloadBytes(shape: TokenShape): Buffer {
  switch (shape.payloadShape) {
    case 'object': {
      const fields = ['"sub":"user-1"'];
      for (const name of ['iss', 'aud', 'iat', 'nbf', 'exp'] as const) {
        const value = shape[name];
        if (value !== undefined) fields.push(`"${name}":${value}`);
      }
      return Buffer.from(`{${fields.join(',')}}`);
    }
    case 'array':
      return Buffer.from('[{"sub":"user-1"}]');
    case 'string':
      return Buffer.from('"user-1"');
    case 'null':
      return Buffer.from('null');
    case 'not-json':
      return Buffer.from('{"sub":');
    case 'bad-utf8':
      return Buffer.concat([Buffer.from('{"sub":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    default:
      return Buffer.alloc(0);
  }
}

/** The token a shape describes: segments encoded as told, signed over what they became. */
function tokenOf(shape: TokenShape): string {
  const input = `${encode(headerBytes(shape), shape.headerEncoding)}.${encode(payloadBytes(shape), shape.payloadEncoding)}`;
  const signature = signatureOf(String(shape.alg), shape.signer, input);
  const at = signature.length === 0 ? 0 : shape.flipAt % signature.length;
  switch (shape.signature) {
    case 'flip': {
      const flipped = Buffer.from(signature);
      flipped[at] = (flipped[at] ?? 0) ^ (1 << (shape.flipAt % 8));
      return `${input}.${b64(flipped)}`;
    }
    case 'truncate':
      return `${input}.${b64(signature.subarray(0, at))}`;
    case 'append':
      return `${input}.${b64(Buffer.concat([signature, Buffer.from([0])]))}`;
    case 'empty':
      return `${input}.`;
    case 'extra-dot':
      return `${input}.${b64(signature)}.`;
    case 'intact':
      return `${input}.${b64(signature)}`;
    default:
      return `${input}.${encode(signature, shape.signature as Encoding)}`;
  }
}

t.test('decodeSegment reads exactly what jose decodes, and refuses what it refuses', async (t) => {
  const joseDecode = (text: string): Buffer | null => {
    try {
      return Buffer.from(base64url.decode(text));
    } catch {
      return null;
    }
  };
  const chars = [
    'A',
    'b',
    'Q',
    '0',
    '-',
    '_',
    '=',
    ' ',
    '\t',
    '\n',
    '\r',
    '\f',
    '+',
    '/',
    '.',
    'é',
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 14 }), (parts) => {
      const text = parts.join('');
      deepStrictEqual(decodeSegment(text), joseDecode(text), JSON.stringify(text));
    }),
    { numRuns: 5000, seed: 15 },
  );
  const rows: [string, string][] = [
    ['empty', ''],
    ['one quantum padded', 'QQ=='],
    ['padding then whitespace', 'QQ= ='],
    ['three equals', 'Q==='],
    ['padding inside', 'Q=Q='],
    ['a lone character', 'Q'],
    ['trailing bits set', 'QR'],
    ['whitespace only', ' \t\n'],
    ['base64 not base64url', 'ab+/'],
  ];
  for (const [name, text] of rows) t.same(decodeSegment(text), joseDecode(text), name);
});

t.test('payloadEncoding follows jose: only b64 is a known critical extension', async (t) => {
  const rows: [string, Record<string, unknown>, boolean | null][] = [
    ['no crit', { b64: false }, true],
    ['crit b64 true', { crit: ['b64'], b64: true }, true],
    ['crit b64 false', { crit: ['b64'], b64: false }, false],
    ['crit b64 twice', { crit: ['b64', 'b64'], b64: false }, false],
    ['crit b64 absent', { crit: ['b64'] }, null],
    ['crit b64 not a boolean', { crit: ['b64'], b64: 'no' }, null],
    ['crit unknown', { crit: ['exp'], exp: 1 }, null],
    ['crit empty', { crit: [] }, null],
    ['crit not a list', { crit: 'b64', b64: true }, null],
    ['crit with an empty name', { crit: [''] }, null],
    ['crit with a number', { crit: [1] }, null],
  ];
  for (const [name, header, expected] of rows) t.equal(payloadEncoding(header), expected, name);
});

t.test('checkClaims: a clock or tolerance jose refuses makes the key "not this one"', async (t) => {
  const payload = Buffer.from(JSON.stringify({ exp: TEST_NOW + 60 }));
  const rules = { issuers: null, toleranceSeconds: 0 };
  const rows: [string, number, number][] = [
    ['NaN clock', Number.NaN, 0],
    ['clock past the Date range', 8.64e15 + 1, 0],
    ['negative tolerance', TEST_NOW * 1000, -1],
    ['infinite tolerance', TEST_NOW * 1000, Number.POSITIVE_INFINITY],
  ];
  for (const [name, now, tolerance] of rows) {
    t.equal(checkClaims(payload, now, { ...rules, toleranceSeconds: tolerance }), NEXT_KEY, name);
  }
  t.same(checkClaims(payload, TEST_NOW * 1000 - 0.5, rules), { exp: TEST_NOW + 60 }, 'ms cut');
});

t.test('fastKeyOf derives each key once, and only kinds it verifies', async (t) => {
  t.equal(fastKeyOf(RSA_KEY.publicKey), fastKeyOf(RSA_KEY.publicKey), 'the same form');
  const rows: [string, KeyObject | Uint8Array, string][] = [
    ['an HMAC secret', HS, 'hmac'],
    ['an RSA public key', RSA_KEY.publicKey, 'rsa'],
    ['an EC public key', EC_KEY.publicKey, 'ec'],
    ['an Ed25519 public key', ed.publicKey, 'ed25519'],
    ['an X25519 key', x25519, 'jose'],
    ['a private key', RSA_KEY.privateKey, 'jose'],
    ['a secret KeyObject', createSecretKey(HS_OTHER), 'jose'],
  ];
  for (const [name, material, kind] of rows) t.equal(fastKeyOf(material).kind, kind, name);
});

t.test('named hostile tokens: the same verdict as jose', async (t) => {
  const sig = (alg: string, signer: SignerName, input: string) =>
    `${input}.${b64(signatureOf(alg, signer, input))}`;
  const h = (header: unknown) => b64(Buffer.from(JSON.stringify(header)));
  const p = (claims: unknown) => b64(Buffer.from(JSON.stringify(claims)));
  const good = { sub: 'user-1', exp: TEST_NOW + 60 };
  /** A PS256 signature whose first byte is zero, sent without it. */
  const pssShort = (): string => {
    for (let i = 0; ; i += 1) {
      const input = `${h({ alg: 'PS256', kid: 'rsa-1' })}.${p({ ...good, n: i })}`;
      const signature = signatureOf('PS256', 'rsa', input);
      if (signature[0] === 0) return `${input}.${b64(signature.subarray(1))}`;
    }
  };
  const rows: { name: string; token: string; failure: string | null; variant?: Variant }[] = [
    {
      name: 'RS256 valid',
      token: sig('RS256', 'rsa', `${h({ alg: 'RS256', kid: 'rsa-1' })}.${p(good)}`),
      failure: null,
    },
    {
      name: 'PS512 valid',
      token: sig('PS512', 'rsa', `${h({ alg: 'PS512', kid: 'rsa-1' })}.${p(good)}`),
      failure: null,
    },
    {
      name: 'ES512 valid',
      token: sig('ES512', 'ec521', `${h({ alg: 'ES512', kid: 'ec-521' })}.${p(good)}`),
      failure: null,
    },
    {
      name: 'Ed25519 valid',
      token: sig('Ed25519', 'ed', `${h({ alg: 'Ed25519', kid: 'ed-1' })}.${p(good)}`),
      failure: null,
    },
    {
      name: 'HS384 valid',
      token: sig('HS384', 'hs', `${h({ alg: 'HS384', kid: 'hs' })}.${p(good)}`),
      failure: null,
    },
    {
      name: 'alg none, empty signature',
      token: `${h({ alg: 'none' })}.${p(good)}.`,
      failure: 'algorithm_not_allowed',
    },
    {
      name: 'HS256 with the RSA public key PEM as its secret',
      token: sig('HS256', 'pem', `${h({ alg: 'HS256', kid: 'rsa-1' })}.${p(good)}`),
      failure: 'key_unknown',
    },
    {
      name: 'ES256 signed with the P-384 key (wrong curve, wrong length)',
      token: sig('ES256', 'ec384', `${h({ alg: 'ES256', kid: 'ec-1' })}.${p(good)}`),
      failure: 'signature_invalid',
    },
    {
      name: 'RS256 by the 1024-bit key, every key offered',
      token: sig('RS256', 'small', `${h({ alg: 'RS256', kid: 'rsa-1' })}.${p(good)}`),
      failure: 'signature_invalid',
      variant: {
        name: 'the small key and another',
        keySet: buildKeySet(ALL, [], [key(small.publicKey, ALL), key(RSA_KEY_2.publicKey, ALL)]),
        settings: SETTINGS,
      },
    },
    {
      name: 'an X25519 key offered for RS256: as jose on this Node.js (see X25519_FOR_RS256)',
      token: sig('RS256', 'rsa', `${h({ alg: 'RS256' })}.${p(good)}`),
      failure: X25519_FOR_RS256,
      variant: VARIANTS[1],
    },
    {
      name: 'HS256 by the secret only jose judges (a KeyObject)',
      token: sig('HS256', 'hsOther', `${h({ alg: 'HS256' })}.${p(good)}`),
      failure: null,
      variant: VARIANTS[1],
    },
    {
      name: 'a key only jose judges verifies an expired token',
      token: sig('HS256', 'hsOther', `${h({ alg: 'HS256' })}.${p({ exp: TEST_NOW - 60 })}`),
      failure: 'token_expired',
      variant: VARIANTS[1],
    },
    {
      name: 'unencoded payload (b64 false), validly signed',
      token: sig(
        'RS256',
        'rsa',
        `${h({ alg: 'RS256', kid: 'rsa-1', crit: ['b64'], b64: false })}.{"sub":"u"}`,
      ),
      failure: 'token_malformed',
    },
    {
      name: 'unencoded payload (b64 false), bad signature',
      token: `${h({ alg: 'RS256', kid: 'rsa-1', crit: ['b64'], b64: false })}.{"sub":"u"}.${b64(randomBytes(256))}`,
      failure: 'signature_invalid',
    },
    {
      name: 'a huge payload',
      token: sig(
        'RS256',
        'rsa',
        `${h({ alg: 'RS256', kid: 'rsa-1' })}.${p({ ...good, pad: 'x'.repeat(100_000) })}`,
      ),
      failure: null,
    },
    {
      name: 'a validly signed payload that is not base64url',
      token: sig('RS256', 'rsa', `${h({ alg: 'RS256', kid: 'rsa-1' })}.${p(good)}!`),
      failure: 'token_malformed',
    },
    { name: 'a PS256 signature one byte short', token: pssShort(), failure: null },
    {
      name: 'exp as 1e999 (Infinity): never expires',
      token: sig('RS256', 'rsa', `${h({ alg: 'RS256', kid: 'rsa-1' })}.${b64('{"exp":1e999}')}`),
      failure: null,
    },
    {
      name: 'nbf exactly now + leeway',
      token: sig(
        'RS256',
        'rsa',
        `${h({ alg: 'RS256', kid: 'rsa-1' })}.${p({ nbf: TEST_NOW + 10 })}`,
      ),
      failure: null,
    },
    {
      name: 'exp exactly now - leeway',
      token: sig(
        'RS256',
        'rsa',
        `${h({ alg: 'RS256', kid: 'rsa-1' })}.${p({ exp: TEST_NOW - 10 })}`,
      ),
      failure: 'token_expired',
    },
    {
      name: 'nbf early and exp not a number: early first',
      token: sig(
        'RS256',
        'rsa',
        `${h({ alg: 'RS256', kid: 'rsa-1' })}.${p({ nbf: TEST_NOW + 11, exp: 'x' })}`,
      ),
      failure: 'token_not_yet_valid',
    },
    {
      name: 'iat not a number',
      token: sig('RS256', 'rsa', `${h({ alg: 'RS256', kid: 'rsa-1' })}.${p({ iat: '1' })}`),
      failure: 'token_malformed',
    },
    {
      name: 'issuer missing',
      token: sig('RS256', 'rsa', `${h({ alg: 'RS256', kid: 'rsa-1' })}.${p(good)}`),
      failure: 'issuer_mismatch',
      variant: VARIANTS[2],
    },
  ];
  // A key only jose judges (a secret KeyObject), first: every verdict then comes from jose.
  const joseOnly: Variant = {
    name: 'a key only jose judges',
    keySet: buildKeySet(ALL, [], [key(createSecretKey(HS_OTHER), HMAC_ALGS)]),
    settings: { ...SETTINGS, issuer: 'https://a' },
  };
  const hsOther = (claims: string, header: unknown = { alg: 'HS256' }) =>
    sig('HS256', 'hsOther', `${h(header)}.${claims}`);
  const withIss = (claims: object) => p({ iss: 'https://a', ...claims });
  rows.push(
    { name: 'jose: valid', token: hsOther(withIss(good)), failure: null },
    {
      name: 'jose: expired',
      token: hsOther(withIss({ exp: TEST_NOW - 60 })),
      failure: 'token_expired',
    },
    {
      name: 'jose: not yet valid',
      token: hsOther(withIss({ nbf: TEST_NOW + 60 })),
      failure: 'token_not_yet_valid',
    },
    {
      name: 'jose: nbf not a number',
      token: hsOther(withIss({ nbf: 'x' })),
      failure: 'token_malformed',
    },
    { name: 'jose: issuer missing', token: hsOther(p(good)), failure: 'issuer_mismatch' },
    {
      name: 'jose: a signed payload that is not base64url',
      token: hsOther(`${withIss(good)}!`),
      failure: 'token_malformed',
    },
    {
      name: 'jose: unencoded payload',
      token: hsOther('{}', { alg: 'HS256', crit: ['b64'], b64: false }),
      failure: 'token_malformed',
    },
    {
      name: 'jose: a bad signature',
      token: `${h({ alg: 'HS256' })}.${withIss(good)}.${b64(randomBytes(32))}`,
      failure: 'signature_invalid',
    },
  );
  for (const row of rows) {
    const variant = row.name.startsWith('jose: ') ? joseOnly : row.variant;
    const { fast, jose } = pair(variant ?? (VARIANTS[0] as Variant));
    const verdict = await fast(row.token);
    t.same(verdict, await jose(row.token), `${row.name}: as jose`);
    t.equal(
      verdict.ok ? null : verdict.failure,
      row.failure,
      `${row.name}: ${JSON.stringify(verdict).slice(0, 80)}`,
    );
  }
});

t.test(
  'a broken clock: jose calls every key "not this one", and so does the fast path',
  async (t) => {
    const variant = VARIANTS[0] as Variant;
    const token = `${b64(JSON.stringify({ alg: 'RS256', kid: 'rsa-1' }))}.${b64(JSON.stringify({ sub: 'u' }))}`;
    const signed = `${token}.${b64(signatureOf('RS256', 'rsa', token))}`;
    for (const now of [Number.NaN, 9e15]) {
      const { fast, jose } = pair(variant, { now: () => now });
      const verdict = await fast(signed);
      t.same(verdict, await jose(signed));
      t.same(verdict, { ok: false, failure: 'signature_invalid' }, String(now));
    }
  },
);

t.test('random tokens, valid and hostile: the same verdicts as jose', async (t) => {
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(TOKEN, fc.constantFrom(...VARIANTS), async (shape, variant) => {
      const { fast, jose } = pair(variant);
      const token = tokenOf(shape);
      const answer = fast(token);
      const verdict = answer instanceof Promise ? await answer : answer;
      deepStrictEqual(verdict, await jose(token), `${variant.name}: ${token.slice(0, 300)}`);
      const kind = verdict.ok ? 'ok' : verdict.failure;
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
    }),
    { numRuns: 1500, seed: 15 },
  );
  // The generator reaches every verdict a JWT can get here.
  for (const kind of [
    'ok',
    'token_malformed',
    'algorithm_not_allowed',
    'key_unknown',
    'signature_invalid',
    'token_expired',
    'token_not_yet_valid',
    'issuer_mismatch',
    'audience_mismatch',
  ]) {
    t.ok((seen.get(kind) ?? 0) > 0, `reached ${kind} (${seen.get(kind) ?? 0})`);
  }
});

t.test('a valid token of every algorithm verifies synchronously', async (t) => {
  const signers: Record<string, SignerName> = {
    HS: 'hs',
    RS: 'rsa',
    PS: 'rsa',
    ES256: 'ec256',
    ES384: 'ec384',
    ES512: 'ec521',
    EdDSA: 'ed',
    Ed25519: 'ed',
  };
  const kids: Partial<Record<SignerName, string>> = {
    hs: 'hs',
    rsa: 'rsa-1',
    ec256: 'ec-1',
    ec384: 'ec-384',
    ec521: 'ec-521',
    ed: 'ed-1',
  };
  const { fast } = pair(VARIANTS[0] as Variant);
  for (const alg of ALL) {
    const signer = signers[alg] ?? (signers[alg.slice(0, 2)] as SignerName);
    const input = `${b64(JSON.stringify({ alg, kid: kids[signer] }))}.${b64(JSON.stringify({ sub: 'u' }))}`;
    const verdict = fast(`${input}.${b64(signatureOf(alg, signer, input))}`);
    if (verdict instanceof Promise) throw new Error(`${alg} must verify synchronously`);
    t.match(verdict, { ok: true, payload: { sub: 'u' } }, alg);
  }
});
