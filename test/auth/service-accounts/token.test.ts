/**
 * Service-account tokens: `svc_pat_` + base62 of 32 random bytes, a SHA-256 hex
 * digest as the stored form, a 16-character prefix, and a constant-time digest comparison.
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import {
  encodeBase62,
  hashServiceAccountToken,
  isWellFormedServiceAccountToken,
  mintServiceAccountToken,
  sameTokenHash,
  SERVICE_ACCOUNT_PREFIX,
  TOKEN_BODY_LENGTH,
  TOKEN_PREFIX_LENGTH,
  TOKEN_RANDOM_BYTES,
  tokenPrefixOf,
} from '../../../src/auth/service-accounts/token.js';

t.test('a minted token is svc_pat_ + 43 base62 characters of 32 random bytes', async (t) => {
  const token = mintServiceAccountToken();
  t.match(token, /^svc_pat_[0-9A-Za-z]{43}$/);
  t.equal(token.length, SERVICE_ACCOUNT_PREFIX.length + TOKEN_BODY_LENGTH);
  t.ok(isWellFormedServiceAccountToken(token));
  t.not(mintServiceAccountToken(), token, 'two mints differ');
});

t.test('the base62 part encodes exactly the random bytes it was given', async (t) => {
  const sizes: number[] = [];
  const zeros = mintServiceAccountToken((size) => {
    sizes.push(size);
    return new Uint8Array(size);
  });
  t.same(sizes, [TOKEN_RANDOM_BYTES], 'asks for 32 bytes');
  t.equal(zeros, `svc_pat_${'0'.repeat(43)}`, 'all-zero bytes pad to 43 zeros');
  const max = mintServiceAccountToken((size) => new Uint8Array(size).fill(255));
  t.equal(max.length, 51, '2^256 - 1 still fits 43 digits');
  const value = BigInt(`0x${'ff'.repeat(32)}`);
  let decoded = 0n;
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  for (const c of max.slice(8)) decoded = decoded * 62n + BigInt(alphabet.indexOf(c));
  t.equal(decoded, value, 'decodes back to the bytes');
});

t.test('encodeBase62 pads small values and encodes nothing as zeros', async (t) => {
  t.equal(encodeBase62(new Uint8Array([61]), 3), '00z');
  t.equal(encodeBase62(new Uint8Array([62]), 3), '010');
  t.equal(encodeBase62(new Uint8Array([]), 2), '00');
});

t.test('the stored form is the SHA-256 hex of the token, never the token', async (t) => {
  const token = mintServiceAccountToken();
  const hash = hashServiceAccountToken(token);
  t.equal(hash, createHash('sha256').update(token).digest('hex'));
  t.match(hash, /^[0-9a-f]{64}$/);
  t.notMatch(hash, token.slice(8));
});

t.test('token_prefix is the first 16 characters', async (t) => {
  const token = mintServiceAccountToken();
  t.equal(TOKEN_PREFIX_LENGTH, 16);
  t.equal(tokenPrefixOf(token), token.slice(0, 16));
  t.match(tokenPrefixOf(token), /^svc_pat_[0-9A-Za-z]{8}$/);
});

t.test('shapes this gateway never mints are not well-formed', async (t) => {
  const good = `svc_pat_${'a'.repeat(43)}`;
  const rows: [string, string][] = [
    ['one character short', good.slice(0, -1)],
    ['one character long', `${good}a`],
    ['a character outside base62', `svc_pat_${'a'.repeat(42)}-`],
    ['another prefix', `svc_pak_${'a'.repeat(43)}`],
    ['the bare prefix', 'svc_pat_'],
    ['whitespace', `${good} `],
  ];
  t.ok(isWellFormedServiceAccountToken(good), 'control');
  for (const [name, token] of rows) t.notOk(isWellFormedServiceAccountToken(token), name);
});

t.test('digests compare equal only when identical, whatever the length', async (t) => {
  const a = hashServiceAccountToken('svc_pat_a');
  const b = hashServiceAccountToken('svc_pat_b');
  t.ok(sameTokenHash(a, a));
  t.notOk(sameTokenHash(a, b));
  t.notOk(sameTokenHash(a, a.slice(1)), 'a shorter value');
});
