/**
 * Verifying `svc_pat_` tokens against a real store: one generic
 * failure for unknown, revoked and expired; the principal `sa:<name>`; a bounded TTL cache whose
 * hits still honour expiry and revocation; last_used_at at most once a minute; the per-address
 * throttle; and fail-closed 503s when the store breaks.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../../src/auth/service-accounts/sqlite-store.js';
import type {
  ServiceAccountRecord,
  ServiceAccountStore,
} from '../../../src/auth/service-accounts/store.js';
import { createFailureThrottle } from '../../../src/auth/service-accounts/throttle.js';
import {
  hashServiceAccountToken,
  mintServiceAccountToken,
  tokenPrefixOf,
} from '../../../src/auth/service-accounts/token.js';
import {
  createServiceAccountVerifier,
  DEFAULT_SERVICE_ACCOUNT_CACHE_MAX,
  LAST_USED_INTERVAL_SECONDS,
  type ServiceAccountVerifierOptions,
} from '../../../src/auth/service-accounts/verifier.js';
import { createTestClock, TEST_NOW, type TestClock } from '../../fixtures/tokens.js';

const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => {
  exec(sql: string): unknown;
  close(): unknown;
};

const INVALID = { ok: false, failure: 'service_account_invalid', presented: true };
const THROTTLED = { ok: false, failure: 'service_account_throttled', presented: true };
const UNAVAILABLE = { ok: false, failure: 'service_account_store_unavailable', presented: true };
const PEER = '198.51.100.7';

interface Harness {
  readonly clock: TestClock;
  readonly store: ServiceAccountStore;
  readonly path: string;
  readonly verifier: ReturnType<typeof createServiceAccountVerifier>;
  /** Stores an account and returns its token. */
  add(over?: Partial<ServiceAccountRecord>): Promise<string>;
  /** Runs SQL on a second connection (what an operator's shell would do). */
  sql(text: string): void;
  lastUsed(token: string): Promise<number | null | undefined>;
  /** The change feed's freshness, as the verifier sees it (true unless a test says otherwise). */
  fresh: boolean;
}

/** A feed whose freshness a test sets. */
function settableFeed(): { fresh: boolean; isFresh(): boolean } {
  return {
    fresh: true,
    isFresh() {
      return this.fresh;
    },
  };
}

async function harness(
  t: Test,
  options: Partial<ServiceAccountVerifierOptions> = {},
): Promise<Harness> {
  const clock = createTestClock();
  const path = join(t.testdir(), 'gateway.db');
  const store = await openSqliteStore(path);
  t.teardown(() => store.close());
  const feed = settableFeed();
  const verifier = createServiceAccountVerifier({
    store,
    feed,
    clock,
    cacheTtlSeconds: 30,
    ...options,
  });
  let n = 0;
  return {
    clock,
    store,
    path,
    verifier,
    get fresh() {
      return feed.fresh;
    },
    set fresh(value: boolean) {
      feed.fresh = value;
    },
    async add(over = {}) {
      const token = mintServiceAccountToken();
      n += 1;
      await store.insert(
        {
          id: `id-${n}`,
          name: `robot-${n}`,
          token_hash: hashServiceAccountToken(token),
          token_prefix: tokenPrefixOf(token),
          scopes: ['agents:run', 'config:read'],
          created_at: TEST_NOW,
          expires_at: TEST_NOW + 86_400,
          last_used_at: null,
          revoked_at: null,
          created_by: 'user-1',
          ...over,
        },
        TEST_NOW,
      );
      return token;
    },
    sql(text) {
      const db = new Sqlite(path);
      db.exec(text);
      db.close();
    },
    async lastUsed(token) {
      // Uses are queued; the store's own timer would flush them within a second.
      await store.flush();
      return (await store.findByHash(hashServiceAccountToken(token)))?.last_used_at;
    },
  };
}

t.test('a stored token authenticates as sa:<name> with its stored scopes', async (t) => {
  const h = await harness(t);
  const token = await h.add({ name: 'ci-bot', scopes: ['agents:a1:run', 'config:read'] });
  const result = await h.verifier.verify(token, PEER);
  t.equal(result.ok, true);
  if (!result.ok) return;
  t.same(result.principal, {
    type: 'service_account',
    authenticated: true,
    userId: 'sa:ci-bot',
    sessionId: null,
    scopes: ['agents:a1:run', 'config:read'],
    claims: {},
    audience: null,
    dependencies: {},
    sessionState: {},
    serviceAccountName: 'ci-bot',
    expiresAt: TEST_NOW + 86_400,
  });
  t.ok(Object.isFrozen(result.principal));
  t.equal(DEFAULT_SERVICE_ACCOUNT_CACHE_MAX, 10_000);
});

t.test('unknown, revoked and expired tokens fail alike', async (t) => {
  const h = await harness(t);
  const revoked = await h.add({ revoked_at: TEST_NOW - 1 });
  const expired = await h.add({ expires_at: TEST_NOW });
  const never = await h.add({ expires_at: null });
  t.same(await h.verifier.verify(mintServiceAccountToken(), PEER), INVALID, 'unknown');
  t.same(await h.verifier.verify(revoked, PEER), INVALID, 'revoked');
  t.same(await h.verifier.verify(expired, PEER), INVALID, 'expired (expires_at = now)');
  t.equal((await h.verifier.verify(never, PEER)).ok, true, 'never expires');
});

t.test('a malformed token fails without asking the store', async (t) => {
  const h = await harness(t);
  h.store.close();
  // A closed store would answer 503 to a look-up; these never get that far.
  for (const token of ['svc_pat_', 'svc_pat_short', `svc_pat_${'!'.repeat(43)}`]) {
    t.same(await h.verifier.verify(token, PEER), INVALID, token);
  }
});

t.test('a verification is cached for cache_ttl_seconds, then asked again', async (t) => {
  const h = await harness(t);
  const token = await h.add();
  t.equal((await h.verifier.verify(token, PEER)).ok, true);
  t.equal(h.verifier.cacheSize, 1);
  // Deleted behind the gateway's back (another replica revoking would be the same).
  h.sql('DELETE FROM service_accounts');
  h.clock.advance(29_999);
  t.equal((await h.verifier.verify(token, PEER)).ok, true, 'a hit within the TTL skips the store');
  h.clock.advance(1);
  t.same(await h.verifier.verify(token, PEER), INVALID, 'past the TTL the store decides');
  t.equal(h.verifier.cacheSize, 0, 'the stale entry is gone');
});

t.test('a hit re-checks the account expiry', async (t) => {
  const h = await harness(t, { cacheTtlSeconds: 3600 });
  const token = await h.add({ expires_at: TEST_NOW + 10 });
  t.equal((await h.verifier.verify(token, PEER)).ok, true);
  h.clock.advance(9_999);
  t.equal((await h.verifier.verify(token, PEER)).ok, true);
  h.clock.advance(1);
  t.same(await h.verifier.verify(token, PEER), INVALID, 'expired on the second, cache or not');
});

t.test('forget evicts at once: revocation on this gateway is immediate', async (t) => {
  const h = await harness(t);
  const token = await h.add();
  t.equal((await h.verifier.verify(token, PEER)).ok, true);
  h.store.revoke('id-1', TEST_NOW);
  t.equal((await h.verifier.verify(token, PEER)).ok, true, 'cached (as on another replica)');
  h.verifier.forget(hashServiceAccountToken(token));
  t.same(await h.verifier.verify(token, PEER), INVALID, 'gone once forgotten');
});

t.test('the cache is bounded', async (t) => {
  const h = await harness(t, { cacheMax: 2 });
  for (let i = 0; i < 5; i++) await h.verifier.verify(await h.add(), PEER);
  t.equal(h.verifier.cacheSize, 2);
});

t.test('last_used_at is written at most once a minute per account', async (t) => {
  const h = await harness(t, { cacheTtlSeconds: 3600 });
  t.equal(LAST_USED_INTERVAL_SECONDS, 60);
  const token = await h.add();
  t.equal(await h.lastUsed(token), null);
  await h.verifier.verify(token, PEER);
  t.equal(await h.lastUsed(token), TEST_NOW, 'first use');
  h.clock.advance(59_000);
  await h.verifier.verify(token, PEER);
  t.equal(await h.lastUsed(token), TEST_NOW, 'not again within the minute');
  h.clock.advance(1_000);
  await h.verifier.verify(token, PEER);
  t.equal(await h.lastUsed(token), TEST_NOW + 60, 'a minute later');
});

t.test('a recent last_used_at in the store is not written again on a miss', async (t) => {
  const h = await harness(t);
  const token = await h.add({ last_used_at: TEST_NOW - 30 });
  await h.verifier.verify(token, PEER);
  t.equal(await h.lastUsed(token), TEST_NOW - 30, 'written 30 s ago by another replica: kept');
  h.clock.advance(30_000);
  h.verifier.forget(hashServiceAccountToken(token));
  await h.verifier.verify(token, PEER);
  t.equal(await h.lastUsed(token), TEST_NOW + 30, 'a minute after that write: written');
});

t.test('20 failed look-ups from one address are 401, then 429; a valid token passes', async (t) => {
  const h = await harness(t);
  const valid = await h.add();
  for (let i = 1; i <= 20; i++) {
    t.same(await h.verifier.verify(mintServiceAccountToken(), PEER), INVALID, `failure ${i}`);
  }
  t.same(await h.verifier.verify(mintServiceAccountToken(), PEER), THROTTLED, '21st');
  t.same(await h.verifier.verify('svc_pat_malformed', PEER), THROTTLED, 'malformed ones count too');
  t.equal(
    (await h.verifier.verify(valid, PEER)).ok,
    true,
    'a valid token from there is not throttled',
  );
  t.same(
    await h.verifier.verify(mintServiceAccountToken(), '203.0.113.1'),
    INVALID,
    'other address',
  );
  h.clock.advance(60_000);
  t.same(await h.verifier.verify(mintServiceAccountToken(), PEER), INVALID, 'after the window');
});

t.test('an injected throttle is used', async (t) => {
  const h = await harness(t, {
    throttle: createFailureThrottle({ clock: createTestClock(), limit: 0 }),
  });
  t.same(await h.verifier.verify(mintServiceAccountToken(), PEER), THROTTLED);
});

t.test('a store that breaks answers 503, even for a cached token, until it works', async (t) => {
  const h = await harness(t);
  const cached = await h.add();
  const fresh = await h.add();
  t.equal((await h.verifier.verify(cached, PEER)).ok, true);
  h.sql('ALTER TABLE service_accounts RENAME TO parked');
  t.same(await h.verifier.verify(fresh, PEER), UNAVAILABLE, 'a look-up fails: 503, not 401');
  t.same(await h.verifier.verify(cached, PEER), UNAVAILABLE, 'the cache is not trusted meanwhile');
  for (let i = 0; i < 25; i++) await h.verifier.verify(fresh, PEER);
  t.same(await h.verifier.verify(fresh, PEER), UNAVAILABLE, 'never counted as failures: no 429');
  h.sql('ALTER TABLE parked RENAME TO service_accounts');
  t.equal((await h.verifier.verify(cached, PEER)).ok, true, 'back');
  t.equal((await h.verifier.verify(fresh, PEER)).ok, true, 'back');
});

t.test(
  'a failing last_used_at write never refuses the request: the use stays queued',
  async (t) => {
    const h = await harness(t, { cacheTtlSeconds: 3600 });
    const token = await h.add();
    t.equal((await h.verifier.verify(token, PEER)).ok, true);
    h.sql(
      "CREATE TRIGGER no_writes BEFORE UPDATE ON service_accounts BEGIN SELECT RAISE(ABORT, 'read-only'); END",
    );
    h.clock.advance(60_000);
    t.equal(
      (await h.verifier.verify(token, PEER)).ok,
      true,
      'served: the write is not on the request path',
    );
    h.store.flush();
    t.equal(h.store.pendingTouches, 1, 'the failed write stays queued');
    h.sql('DROP TRIGGER no_writes');
    t.equal(await h.lastUsed(token), TEST_NOW + 60, 'written by the next flush');
    t.equal(h.store.pendingTouches, 0);
  },
);

t.test('cache_ttl_seconds 0: no cache, every request asks the store', async (t) => {
  const h = await harness(t, { cacheTtlSeconds: 0 });
  const token = await h.add();
  t.equal((await h.verifier.verify(token, PEER)).ok, true);
  t.equal((await h.verifier.verify(token, PEER)).ok, true);
  t.equal(h.verifier.cacheSize, 0, 'nothing cached');
  // Revoked by another process, at the same instant: the very next request sees it.
  h.sql(`UPDATE service_accounts SET revoked_at = ${TEST_NOW}`);
  t.same(await h.verifier.verify(token, PEER), INVALID, 'revoked elsewhere: refused at once');
});

/** The real store, counting its look-ups (a wrapper, not a stand-in). */
function countingLookUps(store: ServiceAccountStore): {
  store: ServiceAccountStore;
  lookUps: () => number;
} {
  let n = 0;
  const counting = Object.create(store) as ServiceAccountStore & {
    findByHash: ServiceAccountStore['findByHash'];
  };
  counting.findByHash = (hash) => {
    n += 1;
    return store.findByHash(hash);
  };
  return { store: counting, lookUps: () => n };
}

t.test('a throttled address costs the store at most one look-up a second', async (t) => {
  const clock = createTestClock();
  const real = await openSqliteStore(join(t.testdir(), 'gateway.db'));
  t.teardown(() => real.close());
  const { store, lookUps } = countingLookUps(real);
  const verifier = createServiceAccountVerifier({
    store,
    feed: settableFeed(),
    clock,
    cacheTtlSeconds: 30,
  });
  const valid = mintServiceAccountToken();
  await real.insert(
    {
      id: 'id-1',
      name: 'robot',
      token_hash: hashServiceAccountToken(valid),
      token_prefix: tokenPrefixOf(valid),
      scopes: ['agents:run'],
      created_at: TEST_NOW,
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
      created_by: 'user-1',
    },
    TEST_NOW,
  );
  const cachedValid = mintServiceAccountToken();
  await real.insert(
    {
      id: 'id-2',
      name: 'cached',
      token_hash: hashServiceAccountToken(cachedValid),
      token_prefix: tokenPrefixOf(cachedValid),
      scopes: ['agents:run'],
      created_at: TEST_NOW,
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
      created_by: 'user-1',
    },
    TEST_NOW,
  );
  t.equal((await verifier.verify(cachedValid, PEER)).ok, true, 'cached before the flood');
  const failedBefore = mintServiceAccountToken();
  for (let i = 1; i <= 20; i++) {
    t.same(
      await verifier.verify(i === 1 ? failedBefore : mintServiceAccountToken(), PEER),
      INVALID,
    );
  }
  t.same(await verifier.verify(mintServiceAccountToken(), PEER), THROTTLED, '21st: looked up, 429');
  t.equal(lookUps(), 22, 'one look-up each so far (and one for the cached token)');

  const rows: [string, string, unknown, number][] = [
    ['the first new digest in this second is looked up', mintServiceAccountToken(), THROTTLED, 1],
    ['the next one in the same second is not', mintServiceAccountToken(), THROTTLED, 0],
    ['a valid token in that second is 429 too, unasked', valid, THROTTLED, 0],
    ['a digest that failed recently is never looked up', failedBefore, THROTTLED, 0],
    ['a malformed token is never looked up', 'svc_pat_short', THROTTLED, 0],
  ];
  for (const [name, token, expected, cost] of rows) {
    const before = lookUps();
    t.same(await verifier.verify(token, PEER), expected, name);
    t.equal(lookUps() - before, cost, `${name}: ${cost} look-up(s)`);
  }
  let before = lookUps();
  t.equal(
    (await verifier.verify(cachedValid, PEER)).ok,
    true,
    'a cached token passes, throttled or not',
  );
  t.equal(lookUps(), before, 'a cache hit asks nothing');

  clock.advance(1_000);
  before = lookUps();
  t.equal(
    (await verifier.verify(valid, PEER)).ok,
    true,
    'a quiet second later the valid token passes',
  );
  t.equal(lookUps(), before + 1, 'with one look-up');
  for (let i = 0; i < 100; i++) await verifier.verify(mintServiceAccountToken(), PEER);
  t.equal(lookUps(), before + 1, 'a flood in that second asks nothing more');
  clock.advance(1_000);
  t.same(
    await verifier.verify(failedBefore, PEER),
    THROTTLED,
    'a failed digest: 429 in a later second',
  );
  t.equal(lookUps(), before + 1, 'still unasked');

  // Proof without counting: the store is closed, and a known-bad digest still gets 429, not 503.
  real.close();
  t.same(await verifier.verify(failedBefore, PEER), THROTTLED, 'no look-up even with no store');
  t.same(
    await verifier.verify(mintServiceAccountToken(), PEER),
    UNAVAILABLE,
    'a new digest is asked',
  );
});

t.test('a closed store answers 503 for cached tokens too', async (t) => {
  const h = await harness(t);
  const token = await h.add();
  t.equal((await h.verifier.verify(token, PEER)).ok, true);
  h.store.close();
  t.same(await h.verifier.verify(token, PEER), UNAVAILABLE);
});

t.test('a cached verification is used only while the change feed is fresh', async (t) => {
  const h = await harness(t);
  const token = await h.add();
  t.equal((await h.verifier.verify(token, PEER)).ok, true, 'looked up and cached');
  // A revoke the feed has not reported yet (written by hand on another connection).
  h.sql('UPDATE service_accounts SET revoked_at = 1');
  t.equal((await h.verifier.verify(token, PEER)).ok, true, 'fresh feed: the cache answers');
  h.fresh = false;
  t.same(await h.verifier.verify(token, PEER), INVALID, 'stale feed: the store is asked');
});

t.test('forgetAll drops every cached verification', async (t) => {
  const h = await harness(t);
  const [one, two] = [await h.add(), await h.add()];
  await h.verifier.verify(one, PEER);
  await h.verifier.verify(two, PEER);
  t.equal(h.verifier.cacheSize, 2);
  h.verifier.forgetAll();
  t.equal(h.verifier.cacheSize, 0);
});

t.test('a look-up in flight when an eviction happens answers but does not cache', async (t) => {
  const h = await harness(t);
  const token = await h.add();
  const pending = h.verifier.verify(token, PEER);
  t.ok(pending instanceof Promise, 'a miss asks the store');
  // The feed reports some revoke while the look-up is in flight.
  h.verifier.forget('0'.repeat(64));
  t.equal((await pending).ok, true, 'what the store said at the time');
  t.equal(h.verifier.cacheSize, 0, 'not cached: the eviction may have been this token');
  const again = h.verifier.verify(token, PEER);
  t.ok(again instanceof Promise, 'so the next request asks again');
  t.equal((await again).ok, true);
  t.equal(h.verifier.cacheSize, 1, 'and caches, no eviction having happened meanwhile');
  t.equal((h.verifier.verify(token, PEER) as { ok: boolean }).ok, true, 'a hit is synchronous');
});
