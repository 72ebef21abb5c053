/**
 * Verifies `svc_pat_` tokens against the store: unknown, revoked and expired tokens fail alike;
 * failures are throttled per client address, before the store is asked; verified accounts are
 * cached briefly by token digest (or not at all with a TTL of 0), and a cached verification is
 * used only while the change feed is fresh. Never writes responses, never holds or logs a token,
 * never awaits anything on a cache hit.
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../shared/clock.js';
import type { AuthFailure } from '../failure.js';
import { createPrincipal, type Principal } from '../principal.js';
import type { ChangeSink } from './change-feed.js';
import type { ServiceAccountRecord, ServiceAccountStore } from './store.js';
import { createFailureThrottle, type FailureThrottle } from './throttle.js';
import {
  hashServiceAccountToken,
  isWellFormedServiceAccountToken,
  sameTokenHash,
} from './token.js';

/** What verifying a token comes to; assignable to the auth chain's `AuthResult`. */
export type ServiceAccountVerification =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly failure: AuthFailure; readonly presented: true };

/**
 * The verifier the auth chain calls for `svc_pat_` tokens, and the API and the change feed evict
 * from.
 */
export interface ServiceAccountTokenVerifier extends ChangeSink {
  /**
   * Verifies `token` presented from `clientAddress` (the client address the pipeline derived).
   * Synchronous when the store need not be asked (a malformed token, a cache hit, a throttled
   * address); a promise otherwise, which never rejects.
   */
  verify(
    token: string,
    clientAddress: string,
  ): ServiceAccountVerification | Promise<ServiceAccountVerification>;
  /** Drops the cached verification of the token with this digest (revocation). */
  forget(tokenHash: string): void;
  /** Drops every cached verification (the feed missed changes). */
  forgetAll(): void;
  /** Cached verifications held. */
  readonly cacheSize: number;
}

/** Default bound of the verification cache. */
export const DEFAULT_SERVICE_ACCOUNT_CACHE_MAX = 10_000;

/** `last_used_at` is written at most this often per account. */
export const LAST_USED_INTERVAL_SECONDS = 60;

/** Dependencies and bounds of {@link createServiceAccountVerifier}. */
export interface ServiceAccountVerifierOptions {
  readonly store: ServiceAccountStore;
  /** Says whether the change feed was confirmed recently enough for cached verifications. */
  readonly feed: { isFresh(nowMs: number): boolean };
  readonly clock: Clock;
  /** How long a verification is reused before the store is asked again; 0: never cached. */
  readonly cacheTtlSeconds: number;
  readonly cacheMax?: number;
  /** The failure throttle (default: 20 failures per address per 60 s). */
  readonly throttle?: FailureThrottle;
}

interface Entry {
  readonly principal: Principal;
  readonly id: string;
  /** Epoch ms from which the entry is not used: the TTL or the account's expiry, if sooner. */
  readonly deadline: number;
  /** The last `last_used_at` written or read, epoch seconds. */
  lastUsedAt: number | null;
}

function refusal(failure: AuthFailure): ServiceAccountVerification {
  return Object.freeze({ ok: false, failure, presented: true });
}

const INVALID = refusal('service_account_invalid');
const THROTTLED = refusal('service_account_throttled');
const UNAVAILABLE = refusal('service_account_store_unavailable');

/** The principal a stored account authenticates as: `sa:<name>` with its stored scopes. */
export function principalOfAccount(record: ServiceAccountRecord): Principal {
  return createPrincipal({
    type: 'service_account',
    userId: `sa:${record.name}`,
    scopes: record.scopes,
    serviceAccountName: record.name,
    expiresAt: record.expires_at,
  });
}

/**
 * Creates the verifier. In order: a token that is not well formed fails at once (no look-up); a
 * verified-cache hit passes, even from a throttled address; a throttled address is answered 429
 * without a look-up for a digest that failed recently, and gets at most one look-up a second
 * otherwise (so a valid token still passes in a quiet second, and a flood costs almost nothing);
 * then the store is asked.
 *
 * A cache hit skips only the store look-up: expiry is re-checked on every hit by the entry's
 * deadline, revocation on this gateway evicts at once ({@link ServiceAccountTokenVerifier.forget}),
 * and other processes' revocations arrive through the change feed. The cache is trusted only
 * while the store is available and the feed was confirmed within its staleness bound: otherwise
 * every request asks the store, so a broken store answers 503 and never lets a request through
 * on stale knowledge.
 * `last_used_at` is queued in the store (written by its next flush), never written here.
 */
export function createServiceAccountVerifier(
  options: ServiceAccountVerifierOptions,
): ServiceAccountTokenVerifier {
  const { store, feed, clock } = options;
  const ttlMs = options.cacheTtlSeconds * 1000;
  const caching = ttlMs > 0;
  const throttle = options.throttle ?? createFailureThrottle({ clock });
  const cache = new LRUCache<string, Entry>({
    max: options.cacheMax ?? DEFAULT_SERVICE_ACCOUNT_CACHE_MAX,
  });

  const failed = (clientAddress: string, digest?: string): ServiceAccountVerification =>
    throttle.fail(clientAddress, digest) ? THROTTLED : INVALID;

  /** Answers a verified entry, queueing `last_used_at` when the last write is a minute old. */
  const accepted = (entry: Entry, nowMs: number): ServiceAccountVerification => {
    const now = Math.floor(nowMs / 1000);
    if (entry.lastUsedAt === null || now - entry.lastUsedAt >= LAST_USED_INTERVAL_SECONDS) {
      store.touch(entry.id, now);
      entry.lastUsedAt = now;
    }
    return { ok: true, principal: entry.principal };
  };

  // Counts evictions: a look-up that was in flight when one happened answers what it read, but
  // does not cache it, since the eviction may have been of this very token (a revoke on another
  // replica committed after the read).
  let evictions = 0;

  /** Judges what the store answered; caches a verified account unless evictions happened since. */
  const settle = (
    record: ServiceAccountRecord | null,
    hash: string,
    clientAddress: string,
    evictionsAtRead: number,
  ): ServiceAccountVerification => {
    const nowMs = clock.now();
    const now = Math.floor(nowMs / 1000);
    if (
      record === null ||
      !sameTokenHash(record.token_hash, hash) ||
      record.revoked_at !== null ||
      (record.expires_at !== null && record.expires_at <= now)
    ) {
      return failed(clientAddress, hash);
    }
    const entry: Entry = {
      principal: principalOfAccount(record),
      id: record.id,
      deadline: Math.min(
        nowMs + ttlMs,
        record.expires_at === null ? Number.POSITIVE_INFINITY : record.expires_at * 1000,
      ),
      lastUsedAt: record.last_used_at,
    };
    if (caching && evictions === evictionsAtRead) cache.set(hash, entry);
    return accepted(entry, nowMs);
  };

  return {
    verify(token, clientAddress) {
      // A token this gateway could never have minted needs no look-up, but is still a failure.
      if (!isWellFormedServiceAccountToken(token)) return failed(clientAddress);
      const hash = hashServiceAccountToken(token);
      const nowMs = clock.now();
      if (caching && store.available && feed.isFresh(nowMs)) {
        const entry = cache.get(hash);
        if (entry !== undefined && nowMs < entry.deadline) return accepted(entry, nowMs);
        if (entry !== undefined) cache.delete(hash);
      }
      if (throttle.isThrottled(clientAddress) && !throttle.mayLookUp(clientAddress, hash)) {
        return failed(clientAddress);
      }
      const evictionsAtRead = evictions;
      return store.findByHash(hash).then(
        (record) => settle(record, hash, clientAddress, evictionsAtRead),
        // The store wraps every failure in its own error: fail closed.
        () => UNAVAILABLE,
      );
    },
    forget(tokenHash) {
      evictions += 1;
      cache.delete(tokenHash);
    },
    forgetAll() {
      evictions += 1;
      cache.clear();
    },
    get cacheSize() {
      return cache.size;
    },
  };
}
