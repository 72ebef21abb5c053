/**
 * The failed-look-up throttle (CONTRACT.md §5, §9.22): failures per client address in a sliding
 * window. It only counts and answers "over the limit or not"; it never sees a token and never
 * throttles a success (the verifier asks it only after a look-up failed).
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../shared/clock.js';

/** Failures allowed per address within the window; the next ones are throttled. */
export const DEFAULT_FAILURE_LIMIT = 20;
/** The sliding window. */
export const DEFAULT_WINDOW_MS = 60_000;
/** Most addresses tracked at once; the least recently failing one is forgotten first. */
export const DEFAULT_MAX_ADDRESSES = 10_000;

/** Bounds and time source of a {@link FailureThrottle}. */
export interface ThrottleOptions {
  readonly clock: Clock;
  readonly limit?: number;
  readonly windowMs?: number;
  readonly maxAddresses?: number;
}

/** Counts failures per address. */
export interface FailureThrottle {
  /**
   * Records one failure from `address` now; true when, counting it, more than `limit` failures
   * came from there within the window (answer 429 instead of 401).
   */
  fail(address: string): boolean;
  /** The number of addresses tracked (bounded by `maxAddresses`). */
  readonly size: number;
}

/**
 * Creates a throttle. Each address keeps the times of its last `limit + 1` failures (a bounded
 * ring, enough to tell "over the limit"), and the map of addresses is an LRU of bounded size, so
 * a flood of addresses costs bounded memory. Every failure is recorded, throttled ones too: an
 * address that keeps failing stays throttled until it pauses for a whole window.
 */
export function createFailureThrottle(options: ThrottleOptions): FailureThrottle {
  const limit = options.limit ?? DEFAULT_FAILURE_LIMIT;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const byAddress = new LRUCache<string, number[]>({
    max: options.maxAddresses ?? DEFAULT_MAX_ADDRESSES,
  });
  return {
    fail(address) {
      const now = options.clock.now();
      const times = byAddress.get(address) ?? [];
      const recent = times.filter((at) => at > now - windowMs);
      recent.push(now);
      if (recent.length > limit + 1) recent.shift();
      byAddress.set(address, recent);
      return recent.length > limit;
    },
    get size() {
      return byAddress.size;
    },
  };
}
