/**
 * The change feed over a real SQLite store shared by two connections: it starts at the log's
 * head, reports each revoke once to every subscriber, confirms itself on every read (fresh within
 * the staleness bound, stale after), drops everything after a gap or a first read that failed,
 * coalesces reads, reads again when notified or reconnected, backs off while reads fail, prunes,
 * and closes once.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import {
  MAX_BACKOFF_MS,
  startChangeFeed,
  type ChangeFeedOptions,
  type ChangeSink,
} from '../../../src/auth/service-accounts/change-feed.js';
import { openSqliteStore } from '../../../src/auth/service-accounts/sqlite-store.js';
import type {
  ChangeListener,
  ServiceAccountRecord,
  ServiceAccountStore,
} from '../../../src/auth/service-accounts/store.js';
import { createTestClock, TEST_NOW } from '../../fixtures/tokens.js';

function record(name: string): ServiceAccountRecord {
  return {
    id: name,
    name,
    token_hash: name.padEnd(64, '0'),
    token_prefix: 'svc_pat_abcdefgh',
    scopes: [],
    created_at: 1,
    expires_at: null,
    last_used_at: null,
    revoked_at: null,
    created_by: 'test',
  };
}

/** A sink that records what it was told. */
function recorder(): ChangeSink & { told: string[] } {
  const told: string[] = [];
  return {
    told,
    forget: (hash) => void told.push(hash.slice(0, 3)),
    forgetAll: () => void told.push('*'),
  };
}

/** Two stores on one file: the feed's, and a writer standing for another process. */
async function pair(
  t: Test,
): Promise<{ feedStore: ServiceAccountStore; writer: ServiceAccountStore }> {
  const path = join(t.testdir(), 'gateway.db');
  const feedStore = await openSqliteStore(path);
  const writer = await openSqliteStore(path);
  t.teardown(() => feedStore.close());
  t.teardown(() => writer.close());
  for (const name of ['aaa', 'bbb', 'ccc']) await writer.insert(record(name), 1);
  return { feedStore, writer };
}

async function feedOf(
  t: Test,
  options: Partial<ChangeFeedOptions> & { store: ServiceAccountStore },
) {
  const feed = await startChangeFeed({
    clock: createTestClock(),
    pollMs: 60_000,
    maxStalenessMs: 1_000,
    ...options,
  });
  t.teardown(() => feed.close());
  return feed;
}

t.test('reports each revoke after the head to every subscriber, once', async (t) => {
  const { feedStore, writer } = await pair(t);
  await writer.revoke('aaa', 2);
  const clock = createTestClock();
  const feed = await feedOf(t, { store: feedStore, clock });
  const [one, two] = [recorder(), recorder()];
  feed.subscribe(one);
  const second = feed.subscribe(two);
  await feed.poll();
  t.same(one.told, [], 'a revoke before the start is not news: nothing was cached then');
  await writer.revoke('bbb', 3);
  await writer.revoke('ccc', 4);
  await feed.poll();
  t.same(one.told, ['bbb', 'ccc']);
  t.same(two.told, ['bbb', 'ccc']);
  second.close();
  await writer.revoke('aaa', 5); // already revoked: no row
  await feed.poll();
  t.same(one.told, ['bbb', 'ccc'], 'nothing new');
  t.same(two.told, ['bbb', 'ccc'], 'an unsubscribed sink hears nothing');
});

t.test('fresh within the staleness bound of the last good read, stale after', async (t) => {
  const { feedStore } = await pair(t);
  const clock = createTestClock();
  const feed = await feedOf(t, { store: feedStore, clock, maxStalenessMs: 1_000 });
  t.equal(feed.isFresh(clock.now()), true, 'just read');
  t.equal(feed.lagSeconds(), 0);
  clock.advance(1_000);
  t.equal(feed.isFresh(clock.now()), true, 'at the bound');
  t.equal(feed.lagSeconds(), 1);
  clock.advance(1);
  t.equal(feed.isFresh(clock.now()), false, 'past it');
  await feed.poll();
  t.equal(feed.isFresh(clock.now()), true, 'a read confirms it again');
});

t.test(
  'a first read that fails leaves the feed unconfirmed; the next good one drops all',
  async (t) => {
    const path = join(t.testdir(), 'gateway.db');
    const store = await openSqliteStore(path);
    const clock = createTestClock();
    // The feed's store is closed before the feed starts: its first read fails.
    await store.close();
    const feed = await feedOf(t, { store, clock });
    t.equal(feed.isFresh(clock.now()), false, 'never confirmed');
    t.equal(feed.lagSeconds(), null);

    // The same sequence with a store that recovers: a wrapper that fails its first read.
    const real = await openSqliteStore(join(t.testdir(), 'other.db'));
    t.teardown(() => real.close());
    let failFirst = true;
    const flaky: ServiceAccountStore = Object.create(real) as ServiceAccountStore;
    Object.assign(flaky, {
      readChanges(cursor: number | null) {
        if (failFirst) {
          failFirst = false;
          return Promise.reject(new Error('down'));
        }
        return real.readChanges(cursor);
      },
    });
    const recovering = await feedOf(t, { store: flaky, clock });
    const sink = recorder();
    recovering.subscribe(sink);
    t.equal(recovering.isFresh(clock.now()), false);
    await recovering.poll();
    t.same(sink.told, ['*'], 'whatever was cached meanwhile is dropped');
    t.equal(recovering.isFresh(clock.now()), true);
  },
);

t.test('a reader behind pruned rows drops everything', async (t) => {
  const { feedStore, writer } = await pair(t);
  const feed = await feedOf(t, { store: feedStore });
  const sink = recorder();
  feed.subscribe(sink);
  await writer.revoke('aaa', 2);
  await writer.revoke('bbb', 3);
  await writer.revoke('ccc', 4);
  t.equal(await writer.pruneChanges(100), 2, 'all but the newest');
  await feed.poll();
  t.same(sink.told, ['*']);
});

t.test('reads never overlap: a poll during a read costs one more read, not two', async (t) => {
  const { feedStore, writer } = await pair(t);
  let reads = 0;
  const counting: ServiceAccountStore = Object.create(feedStore) as ServiceAccountStore;
  Object.assign(counting, {
    readChanges(cursor: number | null) {
      reads += 1;
      return feedStore.readChanges(cursor);
    },
  });
  const feed = await feedOf(t, { store: counting });
  const sink = recorder();
  feed.subscribe(sink);
  reads = 0;
  await writer.revoke('aaa', 2);
  await Promise.all([feed.poll(), feed.poll(), feed.poll()]);
  t.equal(reads, 2, 'the read in progress, then one more');
  t.same(sink.told, ['aaa']);
});

t.test('a notification or a reconnect reads at once; closing stops it all', async (t) => {
  const { feedStore, writer } = await pair(t);
  let listener: ChangeListener | null = null;
  let closedSubscriptions = 0;
  const notifying: ServiceAccountStore = Object.create(feedStore) as ServiceAccountStore;
  Object.assign(notifying, {
    listen(l: ChangeListener) {
      listener = l;
      return { close: async () => void (closedSubscriptions += 1) };
    },
  });
  const states: boolean[] = [];
  const feed = await feedOf(t, {
    store: notifying,
    onConnection: (up) => void states.push(up),
  });
  const sink = recorder();
  feed.subscribe(sink);
  await writer.revoke('aaa', 2);
  (listener as unknown as ChangeListener).onNotify();
  await feed.poll();
  t.same(sink.told, ['aaa'], 'read on the notification');
  await writer.revoke('bbb', 3);
  (listener as unknown as ChangeListener).onConnection(false);
  (listener as unknown as ChangeListener).onConnection(true);
  await feed.poll();
  t.same(sink.told, ['aaa', 'bbb'], 'read on the reconnect');
  t.same(states, [false, true], 'told to the owner');
  await feed.close();
  await feed.close();
  t.equal(closedSubscriptions, 1, 'the subscription closed once');
});

t.test('polls on its timer, backs off while reads fail, and prunes', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const store = await openSqliteStore(path);
  t.teardown(() => store.close());
  let reads = 0;
  let failing = false;
  let prunes = 0;
  const cutoffs = new Set<number>();
  const watched: ServiceAccountStore = Object.create(store) as ServiceAccountStore;
  Object.assign(watched, {
    readChanges(cursor: number | null) {
      reads += 1;
      return failing ? Promise.reject(new Error('down')) : store.readChanges(cursor);
    },
    pruneChanges(before: number) {
      prunes += 1;
      cutoffs.add(before);
      return prunes === 1 ? store.pruneChanges(before) : Promise.reject(new Error('down'));
    },
  });
  await feedOf(t, { store: watched, pollMs: 20, maxStalenessMs: 100, pruneIntervalMs: 20 });
  while (reads < 3 || prunes < 2) await sleep(10);
  failing = true;
  const failingSince = reads;
  // Waits 20 ms, then 40, 80, … (capped at MAX_BACKOFF_MS) between failing reads.
  while (reads < failingSince + 3) await sleep(10);
  t.pass('it keeps trying while reads fail');
  t.equal(MAX_BACKOFF_MS, 5_000);
  t.same([...cutoffs], [TEST_NOW - 3_600], 'an hour of rows kept by default (the clock is still)');
});

t.test('a feed closed while a timed read is in flight schedules no more reads', async (t) => {
  const { feedStore } = await pair(t);
  let reads = 0;
  let release: () => void = () => undefined;
  const gated: ServiceAccountStore = Object.create(feedStore) as ServiceAccountStore;
  Object.assign(gated, {
    async readChanges(cursor: number | null) {
      reads += 1;
      if (reads === 2) await new Promise<void>((resolve) => (release = resolve));
      return feedStore.readChanges(cursor);
    },
  });
  const feed = await startChangeFeed({
    store: gated,
    clock: createTestClock(),
    pollMs: 20,
    maxStalenessMs: 1_000,
  });
  while (reads < 2) await sleep(5);
  const closing = feed.close();
  release();
  await closing;
  await sleep(60);
  t.equal(reads, 2, 'nothing after the close');
});
