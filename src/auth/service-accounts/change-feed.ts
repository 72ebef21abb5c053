/**
 * The change feed: how a gateway learns that another replica (or `scopegate accounts revoke`)
 * revoked a token it may have cached. It reads the store's change log after its cursor on every
 * notification (Postgres `LISTEN`), whenever the listening connection comes back, and every poll
 * interval (the heartbeat; on SQLite the only way), and tells its subscribers which digests to
 * drop. Each successful read "confirms" the feed; the verifier trusts a cached verification only
 * while the last confirmation is recent enough. Reads never overlap; a notification during a read
 * causes one more read right after it. Never throws; a failed read only leaves the feed
 * unconfirmed (and is retried with backoff).
 */
import type { Clock } from '../../shared/clock.js';
import type { ChangeSubscription, ServiceAccountStore } from './store.js';

/** What the feed tells: a digest to drop, or everything (changes were missed). */
export interface ChangeSink {
  forget(tokenHash: string): void;
  forgetAll(): void;
}

/** The running feed of one store; shared by every gateway generation that keeps the store. */
export interface ChangeFeed {
  /**
   * Whether the log was read successfully within the staleness bound before `nowMs`: cached
   * verifications may be used. Synchronous and allocation-free (the request path calls it).
   */
  isFresh(nowMs: number): boolean;
  /** Seconds since the last confirmation, by the feed's clock; null before the first. */
  lagSeconds(): number | null;
  /** Adds a sink until the answered handle is closed. */
  subscribe(sink: ChangeSink): { close(): void };
  /** Reads the log now (or once more after the read in progress); settles when read. */
  poll(): Promise<void>;
  /** Stops the timers and the store's listening connection; idempotent. */
  close(): Promise<void>;
}

/** Options of {@link startChangeFeed}. */
export interface ChangeFeedOptions {
  readonly store: ServiceAccountStore;
  readonly clock: Clock;
  /** Poll (heartbeat) interval, ms (`cluster.feed_poll_ms`). */
  readonly pollMs: number;
  /** How long a confirmation is trusted, ms (`cluster.max_staleness_ms`). */
  readonly maxStalenessMs: number;
  /** How often old log rows are pruned (default {@link PRUNE_INTERVAL_MS}). */
  readonly pruneIntervalMs?: number;
  /** How long log rows are kept (default {@link CHANGE_RETENTION_SECONDS}). */
  readonly retentionSeconds?: number;
  /** Told when the listening connection goes down or comes back (logs). */
  readonly onConnection?: (up: boolean) => void;
}

/** Log rows older than this are pruned; a replica away longer drops its whole cache. */
export const CHANGE_RETENTION_SECONDS = 3_600;
/** How often each replica prunes the log. */
export const PRUNE_INTERVAL_MS = 600_000;
/** The longest pause between reads while reading fails. */
export const MAX_BACKOFF_MS = 5_000;

/**
 * Starts the feed: subscribes to the store's notifications (when it has any), reads the log's
 * head, and starts polling. Resolves after that first read, whether it worked or not: a store
 * that cannot be read at start leaves the feed unconfirmed until it can.
 */
export async function startChangeFeed(options: ChangeFeedOptions): Promise<ChangeFeed> {
  const { store, clock, pollMs, maxStalenessMs } = options;
  const retentionSeconds = options.retentionSeconds ?? CHANGE_RETENTION_SECONDS;
  const sinks = new Set<ChangeSink>();
  let cursor: number | null = null;
  let confirmedAt = Number.NEGATIVE_INFINITY;
  let failures = 0;
  let closed = false;
  let reading: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  const readOnce = async (): Promise<void> => {
    const startedAt = clock.now();
    try {
      const batch = await store.readChanges(cursor);
      // Before the first read nothing is known of what changed: whatever was cached meanwhile
      // is dropped, as after a gap.
      if (cursor === null || batch.gap) {
        for (const sink of sinks) sink.forgetAll();
      } else {
        for (const hash of batch.tokenHashes) for (const sink of sinks) sink.forget(hash);
      }
      cursor = batch.cursor;
      confirmedAt = startedAt;
      failures = 0;
    } catch {
      failures += 1;
    }
  };
  const read = (): Promise<void> => {
    if (reading !== null) {
      again = true;
      return reading;
    }
    reading = (async () => {
      do {
        again = false;
        await readOnce();
      } while (again && !closed);
      reading = null;
    })();
    return reading;
  };
  const schedule = (): void => {
    if (closed) return;
    const delay = failures === 0 ? pollMs : Math.min(pollMs * 2 ** failures, MAX_BACKOFF_MS);
    timer = setTimeout(() => {
      void read().then(schedule);
    }, delay);
    timer.unref();
  };
  const pruner = setInterval(() => {
    store.pruneChanges(Math.floor(clock.now() / 1000) - retentionSeconds).catch(() => undefined);
  }, options.pruneIntervalMs ?? PRUNE_INTERVAL_MS);
  pruner.unref();

  const subscription: ChangeSubscription | null = store.listen({
    onNotify: () => void read(),
    onConnection(up) {
      options.onConnection?.(up);
      if (up) void read();
    },
  });
  await read();
  schedule();

  return {
    isFresh: (nowMs) => nowMs - confirmedAt <= maxStalenessMs,
    lagSeconds: () =>
      confirmedAt === Number.NEGATIVE_INFINITY
        ? null
        : Math.max(0, clock.now() - confirmedAt) / 1000,
    subscribe(sink) {
      sinks.add(sink);
      return { close: () => void sinks.delete(sink) };
    },
    poll: read,
    async close() {
      if (closed) return;
      closed = true;
      if (timer !== null) clearTimeout(timer);
      clearInterval(pruner);
      await subscription?.close();
      await reading;
    },
  };
}
