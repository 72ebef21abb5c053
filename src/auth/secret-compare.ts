/**
 * Constant-time comparison of a presented secret with a configured one. Never compares the raw
 * strings (timing and length would leak), and never keeps or logs the presented value.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digestOf(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Builds a matcher for `secret`: true when a candidate equals it. Both sides are reduced to
 * SHA-256 digests of equal length and compared with `crypto.timingSafeEqual`, so neither the
 * contents nor the length of the secret shows in the time taken. The secret's digest is
 * computed once, here.
 */
export function createSecretMatcher(secret: string): (candidate: string) => boolean {
  const expected = digestOf(secret);
  return (candidate) => timingSafeEqual(digestOf(candidate), expected);
}
