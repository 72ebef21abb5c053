/**
 * The service-account store: one SQLite file (better-sqlite3, WAL) holding one table,
 * `service_accounts`, that operators can audit with plain SQL. Its schema is versioned in
 * `PRAGMA user_version`. Stores only SHA-256 digests of tokens, never a token; never builds HTTP
 * shapes; never waits for another connection's lock while serving (busy timeout 0). Every failure
 * after opening is a {@link ServiceAccountStoreError}: callers fail closed.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

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

/**
 * The service-account table, read and written synchronously but never waiting for a lock: a
 * statement that meets another connection's write lock fails at once with a `busy` store error
 * (readers of a WAL file are never blocked by a writer, so in practice only writes meet it).
 */
export interface ServiceAccountStore {
  /** The database path as given. */
  readonly path: string;
  /**
   * False once the connection is closed, while the last operation failed, or once the path no
   * longer names the file this connection opened (removed, replaced or unreadable: see
   * {@link ServiceAccountStore.check}). The verifier then stops trusting its cache and asks the
   * store, which answers with an error: fail closed, 503.
   */
  readonly available: boolean;
  /**
   * Compares the file at the path with the one opened (device and inode, and that it can still
   * be read and written) and answers {@link ServiceAccountStore.available}. Once the path has
   * lost the opened file the store stays unavailable until it is reopened (a reload or a
   * restart): a file put back or put in its place is never trusted silently. Runs before every
   * operation below (never on a verification-cache hit) and every {@link CHECK_INTERVAL_MS}.
   */
  check(): boolean;
  /** The account whose token has this digest, whatever its state; `null` when none. */
  findByHash(tokenHash: string): ServiceAccountRecord | null;
  /**
   * Inserts `record` unless an active account (not revoked, not expired at `now`) has its name;
   * both in one write transaction, so two gateways cannot both mint the same name. Answers
   * `inserted` only once the transaction committed, the path still names the opened file and
   * the row reads back: the next reader of that file sees it.
   */
  insert(record: ServiceAccountRecord, now: number): 'inserted' | 'name_taken';
  /** One page, newest first (`created_at` descending, then `id`), and the total count. */
  list(offset: number, limit: number): { rows: ServiceAccountRecord[]; total: number };
  /** Sets `revoked_at = now` unless already revoked, in one write transaction. */
  revoke(id: string, now: number): RevokeOutcome;
  /**
   * Queues `last_used_at = now` for `id` (never moving it back); never touches the file and never
   * throws. Queued writes go out at the next {@link ServiceAccountStore.flush}. The queue holds
   * at most `maxPendingTouches` accounts; past it a new account's use is not recorded.
   */
  touch(id: string, now: number): void;
  /**
   * Writes the queued `last_used_at` values in one transaction, without waiting: when another
   * connection holds the write lock (or the write fails) they stay queued for the next flush.
   * Runs every {@link CHECK_INTERVAL_MS} and on close; never throws.
   */
  flush(): void;
  /** Accounts whose `last_used_at` is queued. */
  readonly pendingTouches: number;
  /**
   * Flushes, then closes the connection; closing twice is harmless. Later calls throw. Uses not
   * yet flushed when the process ends without closing (a crash, SIGKILL) are lost.
   */
  close(): void;
}

/** A store that cannot be opened, migrated or used. The message names the file. */
export class ServiceAccountStoreError extends Error {
  override readonly name = 'ServiceAccountStoreError';
  /** Stable code to match on (never the message). */
  readonly code = STORE_ERROR_CODE;
  readonly path: string;
  /**
   * True when another connection held the write lock (SQLITE_BUSY): the store itself is fine and
   * the same write may succeed a moment later.
   */
  readonly busy: boolean;

  constructor(path: string, problem: string, cause?: unknown) {
    super(`service-account store '${path}': ${problem}`, { cause });
    this.path = path;
    this.busy = isBusy(cause);
  }
}

/** Whether `err` is SQLite's "another connection holds the lock" (any SQLITE_BUSY variant). */
function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

const STORE_ERROR_CODE = 'ERR_SERVICE_ACCOUNT_STORE';

/** Whether `err` is a store failure (by code). */
export function isServiceAccountStoreError(err: unknown): err is ServiceAccountStoreError {
  return (err as { code?: unknown } | null)?.code === STORE_ERROR_CODE;
}

/**
 * How long opening and migrating a store waits for another connection's lock, and how long every
 * statement waits when the opener asks for it (`scopegate accounts`, a command with nothing else
 * on its event loop). The gateway's statements never wait: better-sqlite3 waits synchronously,
 * on the event loop, so a wait there would stall every request, JWT ones included.
 */
export const BUSY_TIMEOUT_MS = 2_000;

/** How often an open store compares its file with the path and flushes `last_used_at`. */
export const CHECK_INTERVAL_MS = 1_000;

/** Default bound of the queue of `last_used_at` writes (accounts). */
export const MAX_PENDING_TOUCHES = 10_000;

/** One schema step; step `n` moves `user_version` from `n - 1` to `n`. Append-only. */
export interface StoreMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every schema step, oldest first. */
export const STORE_MIGRATIONS: readonly StoreMigration[] = [
  {
    version: 1,
    name: 'service_accounts',
    // STRICT keeps epoch seconds integers. The UNIQUE token_hash is the lookup index; the name
    // index serves the duplicate-active-name check, the created index the newest-first list.
    sql: `
      CREATE TABLE service_accounts (
        id           TEXT    NOT NULL PRIMARY KEY,
        name         TEXT    NOT NULL,
        token_hash   TEXT    NOT NULL UNIQUE CHECK (length(token_hash) = 64),
        token_prefix TEXT    NOT NULL,
        scopes       TEXT    NOT NULL CHECK (json_valid(scopes) AND json_type(scopes) = 'array'),
        created_at   INTEGER NOT NULL,
        expires_at   INTEGER,
        last_used_at INTEGER,
        revoked_at   INTEGER,
        created_by   TEXT    NOT NULL
      ) STRICT;
      CREATE INDEX service_accounts_by_name ON service_accounts (name);
      CREATE INDEX service_accounts_by_created ON service_accounts (created_at, id);
    `,
  },
];

// The typed seam to better-sqlite3 (CommonJS, no bundled types): only what this store uses.
interface Statement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface Database {
  readonly open: boolean;
  prepare(sql: string): Statement;
  exec(sql: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): F & { immediate: F };
  close(): unknown;
}
const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (
  path: string,
  options?: { timeout?: number; readonly?: boolean; fileMustExist?: boolean },
) => Database;

/** A row as SQLite returns it (scopes still JSON text). */
type Row = Omit<ServiceAccountRecord, 'scopes'> & { scopes: string };

const COLUMNS =
  'id, name, token_hash, token_prefix, scopes, created_at, expires_at, last_used_at, revoked_at, created_by';

function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Scopes as stored: a JSON array (the table's CHECK refuses anything else); a member that is not
 * a string, as an operator could write by hand, grants nothing.
 */
function scopesOf(text: string): readonly string[] {
  const parsed = JSON.parse(text) as unknown[];
  return Object.freeze(parsed.filter((s): s is string => typeof s === 'string'));
}

function recordOf(row: Row): ServiceAccountRecord {
  return Object.freeze({ ...row, scopes: scopesOf(row.scopes) });
}

/**
 * Brings `db` to the last step of `migrations` in one IMMEDIATE transaction; a database newer
 * than this build is refused untouched.
 */
function migrate(db: Database, path: string, migrations: readonly StoreMigration[]): void {
  const latest = migrations.length;
  const found = schemaVersion(db);
  if (found > latest) {
    throw new ServiceAccountStoreError(
      path,
      `schema version ${found} is newer than version ${latest}, the newest this build knows; ` +
        'refusing to open it (run a newer scopegate, or point auth.service_accounts.store at another file)',
    );
  }
  if (found === latest) return;
  db.transaction(() => {
    for (const step of migrations.slice(schemaVersion(db))) {
      db.exec(step.sql);
      db.pragma(`user_version = ${step.version}`);
    }
  }).immediate();
}

/** Prepares every statement: a file whose table is missing or different fails here, at start. */
function prepareStatements(db: Database) {
  return {
    byHash: db.prepare(`SELECT ${COLUMNS} FROM service_accounts WHERE token_hash = ?`),
    activeName: db.prepare(
      'SELECT 1 FROM service_accounts WHERE name = ? AND revoked_at IS NULL ' +
        'AND (expires_at IS NULL OR expires_at > ?) LIMIT 1',
    ),
    insert: db.prepare(
      `INSERT INTO service_accounts (${COLUMNS}) VALUES ` +
        '(@id, @name, @token_hash, @token_prefix, @scopes, @created_at, @expires_at, ' +
        '@last_used_at, @revoked_at, @created_by)',
    ),
    count: db.prepare('SELECT count(*) AS n FROM service_accounts'),
    page: db.prepare(
      `SELECT ${COLUMNS} FROM service_accounts ORDER BY created_at DESC, id LIMIT ? OFFSET ?`,
    ),
    byId: db.prepare('SELECT token_hash, revoked_at FROM service_accounts WHERE id = ?'),
    revoke: db.prepare(
      'UPDATE service_accounts SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    ),
    touch: db.prepare(
      'UPDATE service_accounts SET last_used_at = ? WHERE id = ? ' +
        'AND (last_used_at IS NULL OR last_used_at < ?)',
    ),
  };
}

/** Options of {@link openServiceAccountStore}; only tests pass migrations. */
export interface OpenStoreOptions {
  readonly migrations?: readonly StoreMigration[];
  /**
   * How long each statement waits for another connection's lock once open. Default 0, the
   * gateway's: a statement that meets a lock fails at once (a `busy` store error) instead of
   * blocking the event loop. `scopegate accounts` passes {@link BUSY_TIMEOUT_MS}.
   */
  readonly busyTimeoutMs?: number;
  /** Bound of the `last_used_at` queue (default {@link MAX_PENDING_TOUCHES}). */
  readonly maxPendingTouches?: number;
}

/**
 * Opens (creating the file and its folders) and migrates the store at `path`, switches it to WAL,
 * and prepares every statement.
 *
 * @throws {ServiceAccountStoreError} naming `path` when any of that fails (nothing stays open)
 */
export function openServiceAccountStore(
  path: string,
  options: OpenStoreOptions = {},
): ServiceAccountStore {
  let db: Database | null = null;
  let statements: ReturnType<typeof prepareStatements>;
  let identity: FileIdentity;
  try {
    mkdirSync(dirname(path), { recursive: true });
    // Opening and migrating may wait for a lock (start-up, or a reload that opens a new file);
    // serving never does (below).
    db = new Sqlite(path, { timeout: BUSY_TIMEOUT_MS });
    migrate(db, path, options.migrations ?? STORE_MIGRATIONS);
    // WAL only after the version check, so a newer database is never touched. Readers are never
    // blocked by a writer. FULL syncs the log on every commit, so a minted or revoked account
    // survives a power loss too (NORMAL survives only a process crash); writes are rare (mints,
    // revokes, one batched last_used_at flush a second at most), so the cost is negligible.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 0}`);
    statements = prepareStatements(db);
    identity = identityOf(path);
  } catch (err) {
    db?.close();
    if (isServiceAccountStoreError(err)) throw err;
    throw new ServiceAccountStoreError(path, `cannot open: ${String(err)}`, err);
  }
  return createStore(path, db, statements, identity, options.maxPendingTouches);
}

/** Which file a path names: its device and inode. */
interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/**
 * The identity of the file at `path`, which must also be readable and writable by this process.
 * The access check means something only for a process that is not root: root passes permission
 * bits whatever they say, so a `chmod 000` is noticed only by a gateway not running as root.
 *
 * @throws when the path names nothing, or a file this process cannot read and write
 */
function identityOf(path: string): FileIdentity {
  const { dev, ino } = statSync(path);
  accessSync(path, constants.R_OK | constants.W_OK);
  return { dev, ino };
}

const FILE_LOST =
  'the file at this path is no longer the one opened (removed, replaced or unreadable); ' +
  'reload or restart the gateway to open it again';

function createStore(
  path: string,
  db: Database,
  s: ReturnType<typeof prepareStatements>,
  identity: FileIdentity,
  maxPendingTouches = MAX_PENDING_TOUCHES,
): ServiceAccountStore {
  let failed = false;
  // Sticky: an open connection keeps writing to the file it opened, which after a `rm` or a
  // replacement is no longer the file the path names (what the next gateway or CLI would read).
  let lost = false;
  const pending = new Map<string, number>();
  const check = (): boolean => {
    if (!lost) {
      try {
        const now = identityOf(path);
        lost = now.dev !== identity.dev || now.ino !== identity.ino;
      } catch {
        lost = true;
      }
    }
    return db.open && !failed && !lost;
  };
  /** Before every operation and after every write: the path must still name the file opened. */
  const confirmFile = (): void => {
    check();
    if (lost) throw new Error(FILE_LOST);
  };
  /**
   * Runs one operation after checking the file; a failure marks the store unavailable until one
   * succeeds again, except SQLITE_BUSY (another connection's write lock: the store is fine).
   */
  const guard = <T>(what: string, fn: () => T): T => {
    try {
      confirmFile();
      const result = fn();
      failed = false;
      return result;
    } catch (err) {
      if (!isBusy(err)) failed = true;
      throw new ServiceAccountStoreError(path, `${what} failed: ${String(err)}`, err);
    }
  };
  const insertIfFree = db.transaction((record: ServiceAccountRecord, now: number) => {
    if (s.activeName.get(record.name, now) !== undefined) return 'name_taken' as const;
    s.insert.run({ ...record, scopes: JSON.stringify(record.scopes) });
    return 'inserted' as const;
  });
  const revokeOnce = db.transaction((id: string, now: number): RevokeOutcome => {
    const row = s.byId.get(id) as { token_hash: string; revoked_at: number | null } | undefined;
    if (row === undefined) return { outcome: 'not_found' };
    if (row.revoked_at !== null) return { outcome: 'already_revoked', tokenHash: row.token_hash };
    s.revoke.run(now, id);
    return { outcome: 'revoked', tokenHash: row.token_hash };
  });
  const touchAll = db.transaction((touches: readonly (readonly [string, number])[]) => {
    for (const [id, at] of touches) s.touch.run(at, id, at);
  });
  const flush = (): void => {
    check();
    // A failed store is tried again (a success is how it recovers); a lost file never is.
    if (lost || pending.size === 0) return;
    try {
      touchAll.immediate([...pending]);
      pending.clear();
    } catch (err) {
      // Kept for the next flush; a lock (SQLITE_BUSY) says nothing about the store's health.
      if (!isBusy(err)) failed = true;
    }
  };
  // The periodic check notices a lost file even when no request reaches the store (every token
  // served from the cache); unref'd, so an open store never keeps the process alive.
  const ticker = setInterval(flush, CHECK_INTERVAL_MS);
  ticker.unref();
  return {
    path,
    get available() {
      return db.open && !failed && !lost;
    },
    check,
    findByHash: (tokenHash) =>
      guard('look-up', () => {
        const row = s.byHash.get(tokenHash) as Row | undefined;
        return row === undefined ? null : recordOf(row);
      }),
    insert: (record, now) =>
      guard('insert', () => {
        const outcome = insertIfFree.immediate(record, now);
        if (outcome === 'inserted') {
          confirmFile();
          const back = s.byId.get(record.id) as { token_hash: string } | undefined;
          if (back?.token_hash !== record.token_hash) {
            throw new Error('the new row does not read back');
          }
        }
        return outcome;
      }),
    list: (offset, limit) =>
      guard('list', () => ({
        rows: (s.page.all(limit, offset) as Row[]).map(recordOf),
        total: (s.count.get() as { n: number }).n,
      })),
    revoke: (id, now) =>
      guard('revoke', () => {
        const outcome = revokeOnce.immediate(id, now);
        confirmFile();
        return outcome;
      }),
    touch(id, now) {
      const queued = pending.get(id);
      if (queued === undefined ? pending.size < maxPendingTouches : queued < now) {
        pending.set(id, now);
      }
    },
    flush,
    get pendingTouches() {
      return pending.size;
    },
    close() {
      clearInterval(ticker);
      if (db.open) {
        flush();
        db.close();
      }
    },
  };
}

/**
 * Checks an existing store without opening it (`scopegate check`): even a read-only SQLite
 * connection creates the `-shm`/`-wal` files of a WAL database, and `check` must write nothing.
 * So this reads the file header: it must be a SQLite database (or empty, which `serve`
 * initialises) whose schema version (`user_version`, header offset 60) this build knows. A file
 * that does not exist yet is fine too: `serve` creates it.
 *
 * @returns a problem message naming the file, or null
 */
export function inspectServiceAccountStore(path: string): string | null {
  if (!existsSync(path)) return null;
  let header: Buffer;
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(100);
    header = buffer.subarray(0, readSync(fd, buffer, 0, 100, 0));
  } catch (err) {
    return new ServiceAccountStoreError(path, `cannot read: ${String(err)}`).message;
  } finally {
    if (fd !== null) closeSync(fd);
  }
  if (header.length === 0) return null;
  if (header.length < 100 || !header.subarray(0, 16).equals(SQLITE_MAGIC)) {
    return new ServiceAccountStoreError(path, 'not a SQLite database').message;
  }
  const found = header.readUInt32BE(60);
  const latest = STORE_MIGRATIONS.length;
  return found > latest
    ? new ServiceAccountStoreError(
        path,
        `schema version ${found} is newer than version ${latest}, the newest this build knows`,
      ).message
    : null;
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
