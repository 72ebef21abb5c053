/**
 * The synchronous JWS and JWT checks, with node:crypto, that give the verdicts jose's `jwtVerify`
 * gives for the options the verifier passes (one algorithm, issuer, clock tolerance, current
 * date), in jose's order: header, `crit` and `b64`, payload text, signature encoding, key type
 * for the algorithm, signature, payload, claims. No check throws or catches on a bad signature,
 * and no key is imported per token: each key's node:crypto form is derived once, when its key
 * set is built. A key of a kind not listed here is left to jose (the caller's fallback).
 */
import { isUtf8 } from 'node:buffer';
import {
  constants,
  createHmac,
  createSecretKey,
  timingSafeEqual,
  verify as verifySignature,
  type KeyObject,
} from 'node:crypto';
import type { AuthFailure } from '../failure.js';

/** One key's outcome for a token: "not this key" (jose: a failed or impossible check). */
export const NEXT_KEY = 'next_key';
/** One key's outcome for a token: this key is of a kind only jose verifies; ask jose. */
export const ASK_JOSE = 'ask_jose';

/** How an algorithm verifies. */
export interface AlgorithmSpec {
  readonly family: 'hmac' | 'rsa' | 'pss' | 'ecdsa' | 'eddsa';
  /** The node:crypto digest name; null for EdDSA (the digest is part of the scheme). */
  readonly hash: string | null;
  /** PS*: the salt length, the digest's length (JWA). */
  readonly saltLength: number;
  /** ES*: the curve (node:crypto name) and the exact length of the raw `r||s` signature. */
  readonly curve: string | null;
  readonly signatureLength: number;
}

function spec(
  family: AlgorithmSpec['family'],
  hash: string | null,
  extra: Partial<AlgorithmSpec> = {},
): AlgorithmSpec {
  return Object.freeze({ family, hash, saltLength: 0, curve: null, signatureLength: 0, ...extra });
}

/** The algorithms this module verifies: each of the shared JWS list, as JWA defines it. */
export const ALGORITHM_SPECS: ReadonlyMap<string, AlgorithmSpec> = new Map([
  ['HS256', spec('hmac', 'sha256', { signatureLength: 32 })],
  ['HS384', spec('hmac', 'sha384', { signatureLength: 48 })],
  ['HS512', spec('hmac', 'sha512', { signatureLength: 64 })],
  ['RS256', spec('rsa', 'sha256')],
  ['RS384', spec('rsa', 'sha384')],
  ['RS512', spec('rsa', 'sha512')],
  ['PS256', spec('pss', 'sha256', { saltLength: 32 })],
  ['PS384', spec('pss', 'sha384', { saltLength: 48 })],
  ['PS512', spec('pss', 'sha512', { saltLength: 64 })],
  ['ES256', spec('ecdsa', 'sha256', { curve: 'prime256v1', signatureLength: 64 })],
  ['ES384', spec('ecdsa', 'sha384', { curve: 'secp384r1', signatureLength: 96 })],
  ['ES512', spec('ecdsa', 'sha512', { curve: 'secp521r1', signatureLength: 132 })],
  ['EdDSA', spec('eddsa', null, { signatureLength: 64 })],
  ['Ed25519', spec('eddsa', null, { signatureLength: 64 })],
]);

// jose refuses RSA keys below this size for every RS and PS algorithm.
const MIN_RSA_BITS = 2048;

/** A verification key in the form node:crypto uses, derived once per key. */
export type FastKey =
  | { readonly kind: 'hmac'; readonly secret: KeyObject | null }
  | { readonly kind: 'rsa'; readonly key: KeyObject; readonly bits: number }
  | { readonly kind: 'ec'; readonly key: KeyObject; readonly curve: string }
  | { readonly kind: 'ed25519'; readonly key: KeyObject }
  | { readonly kind: 'jose' };

const JOSE_KEY: FastKey = Object.freeze({ kind: 'jose' });
const prepared = new WeakMap<object, FastKey>();

function derive(material: KeyObject | Uint8Array): FastKey {
  if (material instanceof Uint8Array) {
    // WebCrypto refuses a zero-length HMAC key, so jose verifies nothing with one.
    return { kind: 'hmac', secret: material.length === 0 ? null : createSecretKey(material) };
  }
  if (material.type !== 'public') return JOSE_KEY;
  // Node sets modulusLength on every RSA key and namedCurve on every EC key it imports.
  const details = material.asymmetricKeyDetails as { modulusLength: number; namedCurve: string };
  switch (material.asymmetricKeyType) {
    case 'rsa':
      return { kind: 'rsa', key: material, bits: details.modulusLength };
    case 'ec':
      return { kind: 'ec', key: material, curve: details.namedCurve };
    case 'ed25519':
      return { kind: 'ed25519', key: material };
    default:
      return JOSE_KEY;
  }
}

/**
 * The node:crypto form of a key (a KeyObject, or an HMAC secret as one), derived on the first
 * call and kept for as long as the key is: the key set calls this for every key it indexes.
 */
export function fastKeyOf(material: KeyObject | Uint8Array): FastKey {
  let key = prepared.get(material);
  if (key === undefined) {
    key = derive(material);
    prepared.set(material, key);
  }
  return key;
}

/**
 * Checks `signature` over `input` with `material` for `alg`. The algorithm ↔ key-type binding is
 * exact: a key of another type, an RSA key under 2048 bits, an EC key on another curve, an empty
 * HMAC secret, or a signature of the wrong length is {@link NEXT_KEY}, as with jose.
 */
export function checkSignature(
  algorithm: AlgorithmSpec,
  material: KeyObject | Uint8Array,
  input: Buffer,
  signature: Buffer,
): true | typeof NEXT_KEY | typeof ASK_JOSE {
  const key = fastKeyOf(material);
  if (key.kind === 'jose') return ASK_JOSE;
  let ok = false;
  switch (algorithm.family) {
    case 'hmac':
      if (key.kind !== 'hmac' || key.secret === null) return NEXT_KEY;
      if (signature.length !== algorithm.signatureLength) return NEXT_KEY;
      ok = timingSafeEqual(
        createHmac(algorithm.hash as string, key.secret)
          .update(input)
          .digest(),
        signature,
      );
      break;
    case 'rsa':
      if (key.kind !== 'rsa' || key.bits < MIN_RSA_BITS) return NEXT_KEY;
      ok = verifySignature(algorithm.hash, input, key.key, signature);
      break;
    case 'pss':
      if (key.kind !== 'rsa' || key.bits < MIN_RSA_BITS) return NEXT_KEY;
      ok = verifySignature(
        algorithm.hash,
        input,
        {
          key: key.key,
          padding: constants.RSA_PKCS1_PSS_PADDING,
          saltLength: algorithm.saltLength,
        },
        signature,
      );
      break;
    case 'ecdsa':
      if (key.kind !== 'ec' || key.curve !== algorithm.curve) return NEXT_KEY;
      if (signature.length !== algorithm.signatureLength) return NEXT_KEY;
      ok = verifySignature(
        algorithm.hash,
        input,
        { key: key.key, dsaEncoding: 'ieee-p1363' },
        signature,
      );
      break;
    case 'eddsa':
      if (key.kind !== 'ed25519' || signature.length !== algorithm.signatureLength) {
        return NEXT_KEY;
      }
      ok = verifySignature(null, input, key.key, signature);
      break;
  }
  return ok ? true : NEXT_KEY;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const ASCII_WHITESPACE = /[\t\n\f\r ]/g;
const TRAILING_PADDING = /==?$/;

/**
 * Decodes one segment as jose does (the WHATWG forgiving base64 decoder over the base64url
 * alphabet: ASCII whitespace skipped, `=` padding allowed on a whole quantum, trailing bits
 * ignored; `+` and `/` refused), or null where jose's decoder throws.
 */
export function decodeSegment(segment: string): Buffer | null {
  let data = segment;
  if (!BASE64URL.test(data)) {
    data = data.replace(ASCII_WHITESPACE, '');
    if (data.length % 4 === 0) data = data.replace(TRAILING_PADDING, '');
    if (!BASE64URL.test(data)) return null;
  }
  return data.length % 4 === 1 ? null : Buffer.from(data, 'base64url');
}

/** A JSON object as jose's `isObject` sees one: a plain object, not a list or null. */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON text of strictly valid UTF-8 that is an object, or null (never throws on bad input). */
export function parseJsonObject(bytes: Buffer): Record<string, unknown> | null {
  if (!isUtf8(bytes)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  return isJsonObject(parsed) ? parsed : null;
}

/** The protected header of a token: its decoded segment, a JSON object; or null (malformed). */
export function parseHeader(segment: string): Record<string, unknown> | null {
  if (segment === '') return null;
  const bytes = decodeSegment(segment);
  return bytes === null ? null : parseJsonObject(bytes);
}

/**
 * jose's `crit` and `b64` rules for a JWS verified without extra recognised extensions: `crit`,
 * when present, is a non-empty list of non-empty strings, each `b64` (the only one jose knows)
 * and present; `b64` named in `crit` is a boolean. Returns the `b64` value (true when not
 * critical), or null when the token is malformed.
 */
export function payloadEncoding(header: Readonly<Record<string, unknown>>): boolean | null {
  const crit = header['crit'];
  if (crit === undefined) return true;
  if (!Array.isArray(crit) || crit.length === 0) return null;
  for (const name of crit) {
    if (typeof name !== 'string' || name.length === 0) return null;
  }
  // Every name must be recognised (only `b64`), and present in the (protected) header.
  for (const name of crit) {
    if (name !== 'b64' || !Object.hasOwn(header, 'b64')) return null;
  }
  const b64 = header['b64'];
  return typeof b64 === 'boolean' ? b64 : null;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Whether a string is ASCII only (jose encodes the signing input only from ASCII). */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** What the claims check needs, fixed when the verifier is built. */
export interface ClaimRules {
  /** The accepted `iss` values, or null when the issuer is not checked. */
  readonly issuers: readonly string[] | null;
  /** The clock tolerance in seconds (`leeway_seconds`). */
  readonly toleranceSeconds: number;
}

/** A verified payload's claims, or why the token is refused, or "not this key". */
export type ClaimsVerdict = Record<string, unknown> | AuthFailure | typeof NEXT_KEY;

/**
 * jose's claim checks (`validateClaimsSet`), in its order, for a payload whose signature
 * verified: a JSON object; `iss` present and accepted; the tolerance and the clock usable (jose
 * throws a plain TypeError otherwise, which makes the key "not this one"); `iat`, `nbf`, `exp`
 * numbers when present; `nbf > now + tolerance` is early, `exp <= now - tolerance` expired,
 * with `now` the clock's whole seconds.
 */
export function checkClaims(payload: Buffer, nowMs: number, rules: ClaimRules): ClaimsVerdict {
  const claims = parseJsonObject(payload);
  if (claims === null) return 'token_malformed';
  if (rules.issuers !== null) {
    if (!Object.hasOwn(claims, 'iss') || !rules.issuers.includes(claims['iss'] as string)) {
      return 'issuer_mismatch';
    }
  }
  const tolerance = rules.toleranceSeconds;
  // `new Date(ms).getTime()`: NaN beyond the Date range, else the ms truncated.
  const time = Math.abs(nowMs) <= 8.64e15 ? Math.trunc(nowMs) : NaN;
  const now = Math.floor(time / 1000);
  if (!Number.isFinite(tolerance) || tolerance < 0 || !Number.isFinite(now)) return NEXT_KEY;
  const iat = claims['iat'];
  if (iat !== undefined && typeof iat !== 'number') return 'token_malformed';
  const nbf = claims['nbf'];
  if (nbf !== undefined) {
    if (typeof nbf !== 'number') return 'token_malformed';
    if (nbf > now + tolerance) return 'token_not_yet_valid';
  }
  const exp = claims['exp'];
  if (exp !== undefined) {
    if (typeof exp !== 'number') return 'token_malformed';
    if (exp <= now - tolerance) return 'token_expired';
  }
  return claims;
}
