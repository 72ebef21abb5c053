/**
 * The failed-look-up throttle: failures per client address in a sliding window, and what a
 * throttled address may still cost the store. It only counts and answers; it never sees a token
 * (only its digest) and never throttles a verified-cache hit (the verifier asks it after that).
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../shared/clock.js';

/** Failures allowed per address within the window; the next ones are throttled. */
export const DEFAULT_FAILURE_LIMIT = 20;
/** The sliding window. */
export const DEFAULT_WINDOW_MS = 60_000;
/** Most addresses tracked at once; the least recently failing one is forgotten first. */
export const DEFAULT_MAX_ADDRESSES = 10_000;
/** Most failed digests remembered at once; the least recently failing one is forgotten first. */
export const DEFAULT_MAX_DIGESTS = 10_000;
/** A throttled address gets at most one store look-up per this interval. */
export const THROTTLED_LOOKUP_INTERVAL_MS = 1_000;

/** Bounds and time source of a {@link FailureThrottle}. */
export interface ThrottleOptions {
  readonly clock: Clock;
  readonly limit?: number;
  readonly windowMs?: number;
  readonly maxAddresses?: number;
  readonly maxDigests?: number;
}

/** Counts failures per address and rations a throttled address's look-ups. */
export interface FailureThrottle {
  /**
   * Records one failure from `address` now (and, when given, that the token with digest `digest`
   * failed); true when, counting it, more than `limit` failures came from there within the
   * window (answer 429 instead of 401).
   */
  fail(address: string, digest?: string): boolean;
  /** Whether `address` is over its limit now. Records nothing. */
  isThrottled(address: string): boolean;
  /**
   * For a throttled address: whether the token with digest `digest` may be looked up now. Not
   * when that digest failed within the window (anywhere), nor when this address already had a
   * look-up within {@link THROTTLED_LOOKUP_INTERVAL_MS}; otherwise yes, and the look-up is
   * recorded. So a flood costs one look-up a second, and a valid token still passes in a quiet
   * second.
   */
  mayLookUp(address: string, digest: string): boolean;
  /** The number of addresses tracked (bounded by `maxAddresses`). */
  readonly size: number;
}

interface AddressEntry {
  /** Times of the last `limit + 1` failures at most. */
  failures: number[];
  /** When this address was last allowed a look-up while throttled. */
  lookedUpAt: number;
}

/**
 * Creates a throttle. Each address keeps the times of its last `limit + 1` failures (a bounded
 * ring, enough to tell "over the limit"), and the map of addresses is an LRU of bounded size, so
 * a flood of addresses costs bounded memory; so is the map of failed digests. Every failure is
 * recorded, throttled ones too: an address that keeps failing stays throttled until it pauses for
 * a whole window.
 */
export function createFailureThrottle(options: ThrottleOptions): FailureThrottle {
  const limit = options.limit ?? DEFAULT_FAILURE_LIMIT;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const byAddress = new LRUCache<string, AddressEntry>({
    max: options.maxAddresses ?? DEFAULT_MAX_ADDRESSES,
  });
  const failedDigests = new LRUCache<string, number>({
    max: options.maxDigests ?? DEFAULT_MAX_DIGESTS,
  });
  const recentCount = (entry: AddressEntry | undefined, now: number): number => {
    let n = 0;
    for (const at of entry?.failures ?? []) if (at > now - windowMs) n += 1;
    return n;
  };
  return {
    fail(address, digest) {
      const now = options.clock.now();
      if (digest !== undefined) failedDigests.set(digest, now);
      const entry = byAddress.get(address) ?? { failures: [], lookedUpAt: -Infinity };
      const recent = entry.failures.filter((at) => at > now - windowMs);
      recent.push(now);
      if (recent.length > limit + 1) recent.shift();
      entry.failures = recent;
      byAddress.set(address, entry);
      return recent.length > limit;
    },
    isThrottled(address) {
      return recentCount(byAddress.get(address), options.clock.now()) > limit;
    },
    mayLookUp(address, digest) {
      const now = options.clock.now();
      const failedAt = failedDigests.get(digest);
      if (failedAt !== undefined && failedAt > now - windowMs) return false;
      const entry = byAddress.get(address);
      if (entry === undefined) return true;
      if (now - entry.lookedUpAt < THROTTLED_LOOKUP_INTERVAL_MS) return false;
      entry.lookedUpAt = now;
      return true;
    },
    get size() {
      return byAddress.size;
    },
  };
}
