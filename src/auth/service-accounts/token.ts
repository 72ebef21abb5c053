/**
 * Service-account tokens: mint `svc_pat_` + base62 of 32 random
 * bytes, hash them (SHA-256, hex: the only form ever stored), and recognise their shape. Never
 * stores, logs or returns a token except to the one caller that minted it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The service-account token prefix. */
export const SERVICE_ACCOUNT_PREFIX = 'svc_pat_';

/** Random bytes behind each token. */
export const TOKEN_RANDOM_BYTES = 32;

/**
 * Characters of the base62 part: 32 bytes need 43 base62 digits (62^43 > 2^256), and every
 * token is padded to that length, so a well-formed token is always 51 characters.
 */
export const TOKEN_BODY_LENGTH = 43;

/** How many leading characters of a token are kept to recognise it (`token_prefix`). */
export const TOKEN_PREFIX_LENGTH = 16;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const WELL_FORMED = new RegExp(`^${SERVICE_ACCOUNT_PREFIX}[0-9A-Za-z]{${TOKEN_BODY_LENGTH}}$`);

/** `bytes` as a big-endian number in base62, left-padded with `0` to `length` digits. */
export function encodeBase62(bytes: Uint8Array, length: number): string {
  let n = bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = (ALPHABET[Number(n % 62n)] as string) + out;
    n /= 62n;
  }
  return out.padStart(length, '0');
}

/** A source of random bytes (injected in tests; `crypto.randomBytes` otherwise). */
export type RandomSource = (size: number) => Uint8Array;

/** Mints a new token: the prefix and the base62 of {@link TOKEN_RANDOM_BYTES} random bytes. */
export function mintServiceAccountToken(random: RandomSource = randomBytes): string {
  return SERVICE_ACCOUNT_PREFIX + encodeBase62(random(TOKEN_RANDOM_BYTES), TOKEN_BODY_LENGTH);
}

/** The stored form of a token: its SHA-256, lower-case hex. */
export function hashServiceAccountToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The first {@link TOKEN_PREFIX_LENGTH} characters: enough to recognise a token, never to use it. */
export function tokenPrefixOf(token: string): string {
  return token.slice(0, TOKEN_PREFIX_LENGTH);
}

/** Whether `token` has the exact shape this gateway mints (prefix, 43 base62 characters). */
export function isWellFormedServiceAccountToken(token: string): boolean {
  return WELL_FORMED.test(token);
}

/**
 * Whether two hex SHA-256 digests are equal, in constant time. The store finds a row by the
 * digest; comparing again without a timing side channel keeps the check independent of how
 * the database compares strings.
 */
export function sameTokenHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
