import t from 'tap';
import { createHash } from 'node:crypto';
import { createPrincipal, type Principal } from '../../../src/auth/principal.js';
import type { AuthFailure } from '../../../src/auth/failure.js';
import {
  BYTES_PER_TOKEN_CHAR,
  createRejectionCache,
  createTokenCache,
  ENTRY_OVERHEAD_BYTES,
  entryBytes,
  NO_EXPIRY_TTL_MS,
  tokenCacheKey,
} from '../../../src/auth/jwt/cache.js';
import { createTestClock, TEST_NOW, TEST_NOW_MS } from '../../fixtures/tokens.js';

const principal = (expiresAt: number | null, userId = 'u'): Principal =>
  createPrincipal({ type: 'jwt', userId, expiresAt });

t.test('a hit returns the cached principal; a miss returns nothing', async (t) => {
  const cache = createTokenCache({ max: 10, clock: createTestClock() });
  const p = principal(TEST_NOW + 60);
  t.equal(cache.get('token-a'), undefined, 'miss before set');
  cache.set('token-a', p);
  t.equal(cache.get('token-a'), p, 'hit');
  t.equal(cache.get('token-b'), undefined, 'another token misses');
  t.equal(cache.size, 1);
  t.equal(cache.hits, 1);
  t.equal(cache.misses, 2);
});

t.test('an observer is told of every hit and miss, an expired entry being a miss', async (t) => {
  const seen: string[] = [];
  const clock = createTestClock();
  const cache = createTokenCache({
    max: 10,
    clock,
    observer: { hit: () => seen.push('hit'), miss: () => seen.push('miss') },
  });
  cache.get('tok');
  cache.set('tok', principal(TEST_NOW + 60));
  cache.get('tok');
  clock.advance(60_000);
  cache.get('tok');
  t.same(seen, ['miss', 'hit', 'miss']);
  t.same([cache.hits, cache.misses], [1, 2], 'the totals agree');
});

t.test('a hit re-checks expiry against the clock (exp + leeway)', async (t) => {
  const clock = createTestClock();
  const cache = createTokenCache({ max: 10, clock, leewaySeconds: 10 });
  const p = principal(TEST_NOW + 60);
  cache.set('tok', p);
  clock.set(TEST_NOW_MS + 69_999);
  t.equal(cache.get('tok'), p, 'usable until exp + leeway');
  clock.set(TEST_NOW_MS + 70_000);
  t.equal(cache.get('tok'), undefined, 'never returned once expired');
  t.equal(cache.size, 0, 'and dropped');
  clock.set(TEST_NOW_MS);
  t.equal(cache.get('tok'), undefined, 'stays dropped when the clock goes back');
});

t.test('leeway defaults to 0', async (t) => {
  const clock = createTestClock();
  const cache = createTokenCache({ max: 10, clock });
  cache.set('tok', principal(TEST_NOW + 1));
  clock.advance(999);
  t.ok(cache.get('tok'));
  clock.advance(1);
  t.equal(cache.get('tok'), undefined);
});

t.test('an already-expired principal is not stored', async (t) => {
  const cache = createTokenCache({ max: 10, clock: createTestClock() });
  cache.set('tok', principal(TEST_NOW));
  t.equal(cache.size, 0);
});

t.test('without exp an entry lives a bounded 5 minutes', async (t) => {
  const clock = createTestClock();
  const cache = createTokenCache({ max: 10, clock });
  const p = principal(null);
  cache.set('tok', p);
  clock.advance(NO_EXPIRY_TTL_MS - 1);
  t.equal(cache.get('tok'), p);
  clock.advance(1);
  t.equal(cache.get('tok'), undefined);
  t.equal(NO_EXPIRY_TTL_MS, 300_000);
});

t.test('the cache holds at most max entries, least recently used out first', async (t) => {
  const cache = createTokenCache({ max: 2, clock: createTestClock() });
  cache.set('a', principal(null, 'a'));
  cache.set('b', principal(null, 'b'));
  cache.get('a');
  cache.set('c', principal(null, 'c'));
  t.equal(cache.size, 2);
  t.equal(cache.get('b'), undefined, 'b was least recently used');
  t.equal(cache.get('a')?.userId, 'a');
  t.equal(cache.get('c')?.userId, 'c');
});

t.test('keys are SHA-256 digests of tokens, never the tokens', async (t) => {
  const cache = createTokenCache({ max: 10, clock: createTestClock() });
  const token = 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln';
  cache.set(token, principal(null));
  t.same([...cache.keys()], [tokenCacheKey(token)]);
  t.match(tokenCacheKey(token), /^[0-9a-f]{64}$/);
  t.equal(tokenCacheKey(token), createHash('sha256').update(token).digest('hex'));
  t.not([...cache.keys()][0], token);
});

t.test('clear() drops every entry', async (t) => {
  const cache = createTokenCache({ max: 10, clock: createTestClock() });
  cache.set('a', principal(null));
  cache.set('b', principal(null));
  cache.clear();
  t.equal(cache.size, 0);
  t.equal(cache.get('a'), undefined);
});

t.test('an unbounded cache is refused', async (t) => {
  for (const max of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    t.throws(() => createTokenCache({ max, clock: createTestClock() }), {
      name: 'TypeError',
      message: 'token cache max must be a positive integer',
    });
  }
});

t.test('getByKey and setByKey take the digest computed once by the caller', async (t) => {
  const cache = createTokenCache({ max: 10, clock: createTestClock() });
  const p = principal(TEST_NOW + 60);
  cache.setByKey(tokenCacheKey('tok'), p, 3);
  t.equal(cache.get('tok'), p, 'the same entry as set(token)');
  t.equal(cache.getByKey(tokenCacheKey('tok')), p);
  t.equal(cache.bytes, entryBytes(3), 'counted as an estimate of its memory');
});

t.test('maxBytes bounds the estimated memory, least recently used out first', async (t) => {
  const cache = createTokenCache({
    max: 100,
    maxBytes: 4 * entryBytes(1000),
    clock: createTestClock(),
  });
  for (const name of ['a', 'b', 'c', 'd', 'e']) cache.set(name.repeat(1000), principal(null, name));
  t.equal(cache.size, 4, 'max not reached: the memory bound evicts');
  t.equal(cache.get('a'.repeat(1000)), undefined, 'the oldest went first');
  t.equal(cache.bytes, 4 * entryBytes(1000));
  cache.set('f'.repeat(100_000), principal(null, 'f'));
  t.equal(cache.get('f'.repeat(100_000)), undefined, 'an entry larger than the bound is not kept');
  t.equal(entryBytes(700), ENTRY_OVERHEAD_BYTES + 700 * BYTES_PER_TOKEN_CHAR);
  for (const maxBytes of [0, -1, 1.5, Number.NaN]) {
    t.throws(() => createTokenCache({ max: 1, maxBytes, clock: createTestClock() }), {
      name: 'TypeError',
      message: 'token cache maxBytes must be a positive integer',
    });
  }
});

t.test('the rejection cache remembers a lasting failure for its ttl, by digest', async (t) => {
  const clock = createTestClock();
  const cache = createRejectionCache({ max: 10, ttlMs: 60_000, clock });
  const rows: [AuthFailure, boolean][] = [
    ['token_malformed', true],
    ['algorithm_not_allowed', true],
    ['signature_invalid', true],
    ['token_expired', true],
    ['audience_mismatch', true],
    ['issuer_mismatch', true],
    ['subject_invalid', true],
    ['token_not_yet_valid', false],
    ['key_unknown', false],
    ['service_account_invalid', false],
  ];
  for (const [failure, kept] of rows) {
    cache.set(failure, failure);
    t.equal(cache.get(failure), kept ? failure : undefined, failure);
  }
  t.equal(cache.size, 7);
  clock.advance(59_999);
  t.equal(cache.get('token_expired'), 'token_expired', 'within the ttl');
  clock.advance(1);
  t.equal(cache.get('token_expired'), undefined, 'forgotten at the ttl');
  t.equal(cache.size, 6, 'and dropped');
  cache.clear();
  t.equal(cache.size, 0, 'clear() forgets everything');
  t.equal(cache.get('absent'), undefined);
});

t.test('the rejection cache is bounded, least recently used out first', async (t) => {
  const cache = createRejectionCache({ max: 2, ttlMs: 60_000, clock: createTestClock() });
  cache.set('a', 'signature_invalid');
  cache.set('b', 'signature_invalid');
  cache.get('a');
  cache.set('c', 'signature_invalid');
  t.equal(cache.size, 2);
  t.equal(cache.get('b'), undefined);
  for (const max of [0, -1, 1.5, Number.NaN]) {
    t.throws(() => createRejectionCache({ max, ttlMs: 1, clock: createTestClock() }), {
      name: 'TypeError',
      message: 'rejection cache max must be a positive integer',
    });
  }
});
