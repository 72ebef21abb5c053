/**
 * The verified-JWT cache: token digest → principal, bounded by count and by (estimated) memory,
 * never past the token's `exp`; and the refused-JWT cache: token digest → failure, bounded, for
 * a short time. Never keys by (or holds) the raw token, and never returns an entry whose expiry
 * has passed by the injected clock.
 */
import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../shared/clock.js';
import type { AuthFailure } from '../failure.js';
import type { Principal } from '../principal.js';

/** How long a principal without `exp` stays cached: a bound, since nothing else ends it. */
export const NO_EXPIRY_TTL_MS = 5 * 60 * 1000;

/** The cache key of a token: its SHA-256, hex. A leaked cache dump leaks no credential. */
export function tokenCacheKey(token: string): string {
  // The one-shot hash: no Hash object per request.
  return hash('sha256', token, 'hex');
}

/**
 * What one entry counts against `maxBytes`: this fixed part (the digest key, the entry and the
 * principal's own fields) plus {@link BYTES_PER_TOKEN_CHAR} per character of the token, which
 * stands for its claims (held parsed, in memory, with the principal). Calibrated on Node 20: a
 * 700-character token's entry took about 990 bytes of heap; this counts it as 1,020.
 */
export const ENTRY_OVERHEAD_BYTES = 320;
/** See {@link ENTRY_OVERHEAD_BYTES}. */
export const BYTES_PER_TOKEN_CHAR = 1;

/** The bytes an entry for a token of `tokenLength` characters counts against `maxBytes`. */
export function entryBytes(tokenLength: number): number {
  return ENTRY_OVERHEAD_BYTES + BYTES_PER_TOKEN_CHAR * tokenLength;
}

/** Verified principals by token. A hit skips the signature check only. */
export interface TokenCache {
  /** The principal cached for `token`, unless absent or expired by the clock (then dropped). */
  get(token: string): Principal | undefined;
  /** Caches `principal` for `token` until its expiry (plus leeway), or {@link NO_EXPIRY_TTL_MS}. */
  set(token: string, principal: Principal): void;
  /** {@link TokenCache.get} by the token's {@link tokenCacheKey}, computed once by the caller. */
  getByKey(key: string): Principal | undefined;
  /** {@link TokenCache.set} by the token's {@link tokenCacheKey} and length. */
  setByKey(key: string, principal: Principal, tokenLength: number): void;
  /** Drops every entry. */
  clear(): void;
  /** The number of entries held (expired ones included until they are looked up or evicted). */
  readonly size: number;
  /** The estimated bytes held (see {@link entryBytes}). */
  readonly bytes: number;
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
  /** Most estimated bytes held (see {@link entryBytes}); none: bounded by `max` only. */
  readonly maxBytes?: number | undefined;
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
  const { maxBytes } = options;
  if (maxBytes !== undefined && (!Number.isInteger(maxBytes) || maxBytes < 1)) {
    throw new TypeError('token cache maxBytes must be a positive integer');
  }
  const leewayMs = (options.leewaySeconds ?? 0) * 1000;
  const { clock, observer } = options;
  // Without maxBytes every entry still has a size, against a bound it can never reach.
  const lru = new LRUCache<string, Entry>({
    max: options.max,
    maxSize: maxBytes ?? Number.MAX_SAFE_INTEGER,
  });
  let hits = 0;
  let misses = 0;
  const getByKey = (key: string): Principal | undefined => {
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
  };
  const setByKey = (key: string, principal: Principal, tokenLength: number): void => {
    const now = clock.now();
    const deadline =
      principal.expiresAt === null ? now + NO_EXPIRY_TTL_MS : principal.expiresAt * 1000 + leewayMs;
    // An entry larger than the whole bound is not stored (lru-cache refuses it).
    if (deadline > now) lru.set(key, { principal, deadline }, { size: entryBytes(tokenLength) });
  };
  return {
    get: (token) => getByKey(tokenCacheKey(token)),
    set: (token, principal) => setByKey(tokenCacheKey(token), principal, token.length),
    getByKey,
    setByKey,
    clear() {
      lru.clear();
    },
    get size() {
      return lru.size;
    },
    get bytes() {
      return lru.calculatedSize;
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

/**
 * The failures a refused-JWT cache keeps: those a token keeps whatever later happens. Never
 * `token_not_yet_valid` (the token becomes valid) or `key_unknown` (the key may arrive); a
 * `signature_invalid` is kept only until the keys change, when the owner clears the cache.
 */
const REMEMBERED: ReadonlySet<AuthFailure> = new Set<AuthFailure>([
  'token_malformed',
  'algorithm_not_allowed',
  'signature_invalid',
  'token_expired',
  'audience_mismatch',
  'issuer_mismatch',
  'subject_invalid',
]);

/** Refused tokens by digest: a repeated bad token is answered without a signature check. */
export interface RejectionCache {
  /** The failure remembered for a token's {@link tokenCacheKey}, unless absent or past its time. */
  get(key: string): AuthFailure | undefined;
  /** Remembers `failure` for `ttlMs` if it is one a token keeps (see above); else does nothing. */
  set(key: string, failure: AuthFailure): void;
  /** Forgets everything (the keys changed). */
  clear(): void;
  /** The number of entries held (expired ones included until looked up or evicted). */
  readonly size: number;
}

/** Bounds and time source of a {@link RejectionCache}. */
export interface RejectionCacheOptions {
  /** Most entries held; the least recently used goes first. */
  readonly max: number;
  /** How long a failure is remembered, in ms. */
  readonly ttlMs: number;
  readonly clock: Clock;
}

interface Rejection {
  readonly failure: AuthFailure;
  /** Epoch ms from which the entry is forgotten. */
  readonly deadline: number;
}

/** Creates a refused-JWT cache. Time is the injected clock's; no timer runs. */
export function createRejectionCache(options: RejectionCacheOptions): RejectionCache {
  if (!Number.isInteger(options.max) || options.max < 1) {
    throw new TypeError('rejection cache max must be a positive integer');
  }
  const { clock, ttlMs } = options;
  const lru = new LRUCache<string, Rejection>({ max: options.max });
  return {
    get(key) {
      const entry = lru.get(key);
      if (entry === undefined) return undefined;
      if (clock.now() < entry.deadline) return entry.failure;
      lru.delete(key);
      return undefined;
    },
    set(key, failure) {
      if (REMEMBERED.has(failure)) lru.set(key, { failure, deadline: clock.now() + ttlMs });
    },
    clear() {
      lru.clear();
    },
    get size() {
      return lru.size;
    },
  };
}
