/**
 * The verified-JWT cache: token digest → principal, bounded,
 * never past the token's `exp`. Never keys by (or holds) the raw token, and never returns an
 * entry whose expiry has passed by the injected clock.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../shared/clock.js';
import type { Principal } from '../principal.js';

/** How long a principal without `exp` stays cached: a bound, since nothing else ends it. */
export const NO_EXPIRY_TTL_MS = 5 * 60 * 1000;

/** The cache key of a token: its SHA-256, hex. A leaked cache dump leaks no credential. */
export function tokenCacheKey(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Verified principals by token. A hit skips the signature check only. */
export interface TokenCache {
  /** The principal cached for `token`, unless absent or expired by the clock (then dropped). */
  get(token: string): Principal | undefined;
  /** Caches `principal` for `token` until its expiry (plus leeway), or {@link NO_EXPIRY_TTL_MS}. */
  set(token: string, principal: Principal): void;
  /** Drops every entry. */
  clear(): void;
  /** The number of entries held (expired ones included until they are looked up or evicted). */
  readonly size: number;
  /** Lookups that returned a principal, since creation. */
  readonly hits: number;
  /** Lookups that returned nothing, since creation. */
  readonly misses: number;
  /** The keys held: SHA-256 digests, never tokens (for tests and diagnostics). */
  keys(): IterableIterator<string>;
}

/**
 * Told the outcome of every look-up, as it happens: the gateway counts them as metrics. A hook
 * rather than a metrics object, so auth/ never depends on how (or whether) they are exported.
 */
export interface TokenCacheObserver {
  hit(): void;
  miss(): void;
}

/** Bounds and time source of a {@link TokenCache}. */
export interface TokenCacheOptions {
  /** Most entries held; the least recently used goes first. */
  readonly max: number;
  readonly clock: Clock;
  /** Seconds an entry outlives `exp`, matching the verifier's `leeway_seconds` (default 0). */
  readonly leewaySeconds?: number;
  /** Told of each hit and miss (none: only the `hits`/`misses` totals count them). */
  readonly observer?: TokenCacheObserver | undefined;
}

interface Entry {
  readonly principal: Principal;
  /** Epoch ms from which the entry is expired. */
  readonly deadline: number;
}

/**
 * Creates a token cache. Expiry is checked against `clock` on every hit, by this module and not
 * lru-cache's TTL, so an injected clock decides and no timer runs. An entry is usable while
 * `now < (exp + leeway) * 1000`: exactly when jose would still accept the token.
 */
export function createTokenCache(options: TokenCacheOptions): TokenCache {
  if (!Number.isInteger(options.max) || options.max < 1) {
    throw new TypeError('token cache max must be a positive integer');
  }
  const leewayMs = (options.leewaySeconds ?? 0) * 1000;
  const { clock, observer } = options;
  const lru = new LRUCache<string, Entry>({ max: options.max });
  let hits = 0;
  let misses = 0;
  return {
    get(token) {
      const key = tokenCacheKey(token);
      const entry = lru.get(key);
      if (entry !== undefined && clock.now() < entry.deadline) {
        hits += 1;
        observer?.hit();
        return entry.principal;
      }
      if (entry !== undefined) lru.delete(key);
      misses += 1;
      observer?.miss();
      return undefined;
    },
    set(token, principal) {
      const now = clock.now();
      const deadline =
        principal.expiresAt === null
          ? now + NO_EXPIRY_TTL_MS
          : principal.expiresAt * 1000 + leewayMs;
      if (deadline > now) lru.set(tokenCacheKey(token), { principal, deadline });
    },
    clear() {
      lru.clear();
    },
    get size() {
      return lru.size;
    },
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
    keys() {
      return lru.keys();
    },
  };
}
