/**
 * What every service-account store offers, whatever engine holds it: one table of accounts
 * (`service_accounts`) that operators audit with plain SQL, and a change log
 * (`service_account_changes`) that replicas sharing the store read to evict what another
 * replica revoked. Stores keep only SHA-256 digests of tokens, never a token; never build HTTP
 * shapes; and wrap every failure after opening in a {@link ServiceAccountStoreError}, so callers
 * fail closed. The engines live beside this file (`sqlite-store.ts`, `postgres-store.ts`);
 * `open-store.ts` picks one from `auth.service_accounts.store`.
 */

/** One stored account. Times are epoch seconds. */
export interface ServiceAccountRecord {
  readonly id: string;
  readonly name: string;
  /** SHA-256 of the token, lower-case hex. */
  readonly token_hash: string;
  /** The token's first 16 characters. */
  readonly token_prefix: string;
  /** Scope strings as granted. */
  readonly scopes: readonly string[];
  readonly created_at: number;
  /** `null`: never expires. */
  readonly expires_at: number | null;
  readonly last_used_at: number | null;
  readonly revoked_at: number | null;
  /** Who minted it: a user id, `sa:<name>`, `security_key`, or `cli:<user>`. */
  readonly created_by: string;
}

/** What revoking an id came to. `tokenHash` lets the caller evict its cache. */
export type RevokeOutcome =
  | { readonly outcome: 'revoked' | 'already_revoked'; readonly tokenHash: string }
  | { readonly outcome: 'not_found' };

/** What reading the change log after a cursor found. */
export interface ChangeBatch {
  /**
   * The newest change seen: the cursor of the next read. The cursor given when nothing changed;
   * the log's newest sequence number (0 for an empty log) when no cursor was given.
   */
  readonly cursor: number;
  /** Digests of the tokens changed (revoked) after the cursor given, oldest first. */
  readonly tokenHashes: readonly string[];
  /**
   * True when changes after the cursor given were pruned before this reader saw them: the
   * reader cannot know what changed and must drop everything it cached.
   */
  readonly gap: boolean;
}

/** A live subscription to a store's change notifications. */
export interface ChangeSubscription {
  /** Stops listening and closes the connection it holds. */
  close(): Promise<void>;
}

/** What a store tells a change subscriber. */
export interface ChangeListener {
  /** A replica wrote a change: read the log now. */
  onNotify(): void;
  /**
   * The listening connection came up (`true`: read the log, something may have been missed
   * while it was down) or went down (`false`; the store reconnects it with backoff).
   */
  onConnection(up: boolean): void;
}

/** The engines a store can be on. */
export type StoreKind = 'sqlite' | 'postgres';

/**
 * The service-account table and its change log. Every operation that reads or writes answers a
 * promise and never blocks the event loop waiting for another connection's lock: it fails with a
 * store error instead (`busy` when the lock was the only problem).
 */
export interface ServiceAccountStore {
  readonly kind: StoreKind;
  /** Where the store is, safe to print: the SQLite path, or the URL with its password hidden. */
  readonly location: string;
  /**
   * False once closed, while the last operation (or connection) failed, or, for SQLite, once
   * the path no longer names the file opened. The verifier then stops trusting its cache and
   * asks the store, which answers with an error: fail closed, 503. One success makes it true
   * again (except a lost SQLite file, which only a reload or restart reopens).
   */
  readonly available: boolean;
  /**
   * Re-checks what can be checked without a round trip (SQLite: that the path still names the
   * file opened) and answers {@link ServiceAccountStore.available}.
   */
  check(): boolean;
  /** The account whose token has this digest, whatever its state; `null` when none. */
  findByHash(tokenHash: string): Promise<ServiceAccountRecord | null>;
  /**
   * Inserts `record` unless an active account (not revoked, not expired at `now`) has its name,
   * atomically, so two gateways cannot both mint the same name. Answers `inserted` only once the
   * write is durable and readable by every other reader of the store.
   */
  insert(record: ServiceAccountRecord, now: number): Promise<'inserted' | 'name_taken'>;
  /** One page, newest first (`created_at` descending, then `id`), and the total count. */
  list(offset: number, limit: number): Promise<{ rows: ServiceAccountRecord[]; total: number }>;
  /**
   * Sets `revoked_at = now` unless already revoked, and appends a change-log row for the token,
   * in one transaction; then tells every listening replica (Postgres `NOTIFY`).
   */
  revoke(id: string, now: number): Promise<RevokeOutcome>;
  /**
   * The changes after `cursor` (`null`: none, only the log's head, to start from). Changes are
   * read in commit order: a change committed later never has a smaller sequence number.
   */
  readChanges(cursor: number | null): Promise<ChangeBatch>;
  /**
   * Deletes change-log rows older than `before` (epoch seconds), always keeping the newest row;
   * answers how many went.
   */
  pruneChanges(before: number): Promise<number>;
  /**
   * Subscribes to change notifications on a connection of its own (Postgres `LISTEN`), kept up
   * with backoff until the subscription is closed. Null for a store without notifications
   * (SQLite): its readers poll.
   */
  listen(listener: ChangeListener): ChangeSubscription | null;
  /**
   * Queues `last_used_at = now` for `id` (never moving it back); synchronous, never touches the
   * store and never throws. Queued writes go out at the next {@link ServiceAccountStore.flush}.
   * The queue is bounded; past the bound a new account's use is not recorded.
   */
  touch(id: string, now: number): void;
  /**
   * Writes the queued `last_used_at` values in one transaction; on failure they stay queued for
   * the next flush. Runs about once a second and on close; never rejects.
   */
  flush(): Promise<void>;
  /** Accounts whose `last_used_at` is queued. */
  readonly pendingTouches: number;
  /**
   * Flushes, then closes every connection; closing twice is harmless. Later operations reject.
   * Uses not yet flushed when the process ends without closing (a crash, SIGKILL) are lost.
   */
  close(): Promise<void>;
}

const STORE_ERROR_CODE = 'ERR_SERVICE_ACCOUNT_STORE';

/** A store that cannot be opened, migrated or used. The message names the store's location. */
export class ServiceAccountStoreError extends Error {
  override readonly name = 'ServiceAccountStoreError';
  /** Stable code to match on (never the message). */
  readonly code = STORE_ERROR_CODE;
  /** The store's printable location (never a password). */
  readonly location: string;
  /**
   * True when another connection held a lock (SQLITE_BUSY) and only that: the store itself is
   * fine and the same write may succeed a moment later.
   */
  readonly busy: boolean;
  /**
   * True when the problem is one of configuration that waiting will not cure (bad credentials,
   * an unknown database, a schema newer than this build, a malformed location): `serve` stops.
   * False for a server that cannot be reached (transient: serve starts and retries).
   */
  readonly permanent: boolean;

  constructor(
    location: string,
    problem: string,
    options: { cause?: unknown; busy?: boolean; permanent?: boolean } = {},
  ) {
    super(`service-account store '${location}': ${problem}`, { cause: options.cause });
    this.location = location;
    this.busy = options.busy ?? false;
    this.permanent = options.permanent ?? false;
  }
}

/** Whether `err` is a store failure (by code). */
export function isServiceAccountStoreError(err: unknown): err is ServiceAccountStoreError {
  return (err as { code?: unknown } | null)?.code === STORE_ERROR_CODE;
}

/** How often an open store flushes `last_used_at` (and SQLite re-checks its file). */
export const FLUSH_INTERVAL_MS = 1_000;

/** Default bound of the queue of `last_used_at` writes (accounts). */
export const MAX_PENDING_TOUCHES = 10_000;

/** The channel revokes are notified on (Postgres `NOTIFY`). */
export const CHANGE_CHANNEL = 'scopegate_service_accounts';

/**
 * Scopes as stored: a JSON array; a member that is not a string, as an operator could write by
 * hand, grants nothing.
 */
export function scopesOf(stored: unknown): readonly string[] {
  const parsed = typeof stored === 'string' ? (JSON.parse(stored) as unknown) : stored;
  const list = Array.isArray(parsed) ? (parsed as unknown[]) : [];
  return Object.freeze(list.filter((s): s is string => typeof s === 'string'));
}

/**
 * A bounded queue of `last_used_at` writes, shared by the engines: the newest use per account,
 * never moved back.
 */
export function createTouchQueue(max: number): {
  touch(id: string, now: number): void;
  /** Takes everything queued (the caller puts back what it could not write). */
  drain(): [string, number][];
  /** Puts back uses a failed flush took, unless a newer one was queued meanwhile. */
  restore(touches: readonly (readonly [string, number])[]): void;
  readonly size: number;
} {
  const pending = new Map<string, number>();
  const touch = (id: string, now: number): void => {
    const queued = pending.get(id);
    if (queued === undefined ? pending.size < max : queued < now) pending.set(id, now);
  };
  return {
    touch,
    drain() {
      const all = [...pending];
      pending.clear();
      return all;
    },
    restore(touches) {
      for (const [id, at] of touches) touch(id, at);
    },
    get size() {
      return pending.size;
    },
  };
}
