import t from 'tap';
import { createHash } from 'node:crypto';
import { createPrincipal, type Principal } from '../../../src/auth/principal.js';
import { createTokenCache, NO_EXPIRY_TTL_MS, tokenCacheKey } from '../../../src/auth/jwt/cache.js';
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
