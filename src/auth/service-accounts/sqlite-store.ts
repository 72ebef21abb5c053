/**
 * The service-account store on one SQLite file (better-sqlite3, WAL): the `service_accounts`
 * table and the `service_account_changes` log, versioned in `PRAGMA user_version`. Several
 * processes on one file share it; they learn of each other's revokes by polling the log (SQLite
 * has no notifications). Never waits for another connection's lock while serving (busy timeout
 * 0): better-sqlite3 is synchronous, so a wait would stall the event loop. Every failure after
 * opening is a {@link ServiceAccountStoreError}: callers fail closed.
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
import {
  createTouchQueue,
  FLUSH_INTERVAL_MS,
  MAX_PENDING_TOUCHES,
  scopesOf,
  ServiceAccountStoreError,
  isServiceAccountStoreError,
  type ChangeBatch,
  type RevokeOutcome,
  type ServiceAccountRecord,
  type ServiceAccountStore,
} from './store.js';

/**
 * How long opening and migrating a store waits for another connection's lock, and how long every
 * statement waits when the opener asks for it (`scopegate accounts`, a command with nothing else
 * on its event loop). The gateway's statements never wait: better-sqlite3 waits synchronously,
 * on the event loop, so a wait there would stall every request, JWT ones included.
 */
export const BUSY_TIMEOUT_MS = 2_000;

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
  {
    version: 2,
    name: 'service_account_changes',
    // The change log replicas read to evict what another process revoked. AUTOINCREMENT: a
    // sequence number is never reused, even after the newest rows were deleted.
    sql: `
      CREATE TABLE service_account_changes (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id TEXT    NOT NULL,
        token_hash TEXT    NOT NULL,
        change     TEXT    NOT NULL,
        changed_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX service_account_changes_by_time ON service_account_changes (changed_at);
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

/** Whether `err` is SQLite's "another connection holds the lock" (any SQLITE_BUSY variant). */
function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
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
      { permanent: true },
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
    logChange: db.prepare(
      'INSERT INTO service_account_changes (account_id, token_hash, change, changed_at) ' +
        "VALUES (?, ?, 'revoked', ?)",
    ),
    head: db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM service_account_changes'),
    oldest: db.prepare('SELECT min(seq) AS seq FROM service_account_changes'),
    changesAfter: db.prepare(
      'SELECT seq, token_hash FROM service_account_changes WHERE seq > ? ORDER BY seq',
    ),
    prune: db.prepare(
      'DELETE FROM service_account_changes WHERE changed_at < ? ' +
        'AND seq < (SELECT max(seq) FROM service_account_changes)',
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
export async function openSqliteStore(
  path: string,
  options: OpenStoreOptions = {},
): Promise<ServiceAccountStore> {
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
    throw new ServiceAccountStoreError(path, `cannot open: ${String(err)}`, {
      cause: err,
      permanent: true,
    });
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
  const touches = createTouchQueue(maxPendingTouches);
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
   * succeeds again, except SQLITE_BUSY (another connection's write lock: the store is fine). The
   * work itself is synchronous (better-sqlite3); the answer is a promise like every engine's.
   */
  const guard = <T>(what: string, fn: () => T): Promise<T> => {
    try {
      confirmFile();
      const result = fn();
      failed = false;
      return Promise.resolve(result);
    } catch (err) {
      const busy = isBusy(err);
      if (!busy) failed = true;
      return Promise.reject(
        new ServiceAccountStoreError(path, `${what} failed: ${String(err)}`, { cause: err, busy }),
      );
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
    s.logChange.run(id, row.token_hash, now);
    return { outcome: 'revoked', tokenHash: row.token_hash };
  });
  const touchAll = db.transaction((batch: readonly (readonly [string, number])[]) => {
    for (const [id, at] of batch) s.touch.run(at, id, at);
  });
  const flushNow = (): void => {
    check();
    // A failed store is tried again (a success is how it recovers); a lost file never is.
    if (lost || touches.size === 0) return;
    const batch = touches.drain();
    try {
      touchAll.immediate(batch);
    } catch (err) {
      // Kept for the next flush; a lock (SQLITE_BUSY) says nothing about the store's health.
      touches.restore(batch);
      if (!isBusy(err)) failed = true;
    }
  };
  // The periodic check notices a lost file even when no request reaches the store (every token
  // served from the cache); unref'd, so an open store never keeps the process alive.
  const ticker = setInterval(flushNow, FLUSH_INTERVAL_MS);
  ticker.unref();
  return {
    kind: 'sqlite',
    location: path,
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
    readChanges: (cursor) =>
      guard('change-log read', (): ChangeBatch => {
        if (cursor === null) {
          return { cursor: (s.head.get() as { seq: number }).seq, tokenHashes: [], gap: false };
        }
        const rows = s.changesAfter.all(cursor) as { seq: number; token_hash: string }[];
        const oldest = (s.oldest.get() as { seq: number | null }).seq;
        return {
          cursor: rows.length === 0 ? cursor : rows[rows.length - 1]!.seq,
          tokenHashes: rows.map((row) => row.token_hash),
          gap: oldest !== null && oldest > cursor + 1,
        };
      }),
    pruneChanges: (before) => guard('change-log prune', () => s.prune.run(before).changes),
    listen: () => null,
    touch: touches.touch,
    flush: () => {
      flushNow();
      return Promise.resolve();
    },
    get pendingTouches() {
      return touches.size;
    },
    close() {
      clearInterval(ticker);
      if (db.open) {
        flushNow();
        db.close();
      }
      return Promise.resolve();
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
