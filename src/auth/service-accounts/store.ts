/**
 * The service-account store (CONTRACT.md §7): one SQLite file (better-sqlite3, WAL) holding one
 * table, `service_accounts`, that operators can audit with plain SQL. Its schema is versioned in
 * `PRAGMA user_version`. Stores only SHA-256 digests of tokens, never a token; never builds HTTP
 * shapes. Every failure after opening is a {@link ServiceAccountStoreError}: callers fail closed.
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
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

/** The service-account table, read and written synchronously. */
export interface ServiceAccountStore {
  /** The database path as given. */
  readonly path: string;
  /**
   * False once the connection is closed, or while the last operation failed: the verifier then
   * stops trusting its cache and asks the store again (CONTRACT.md §5: fail closed, 503).
   */
  readonly available: boolean;
  /** The account whose token has this digest, whatever its state; `null` when none. */
  findByHash(tokenHash: string): ServiceAccountRecord | null;
  /**
   * Inserts `record` unless an active account (not revoked, not expired at `now`) has its name;
   * both in one write transaction, so two gateways cannot both mint the same name.
   */
  insert(record: ServiceAccountRecord, now: number): 'inserted' | 'name_taken';
  /** One page, newest first (`created_at` descending, then `id`), and the total count. */
  list(offset: number, limit: number): { rows: ServiceAccountRecord[]; total: number };
  /** Sets `revoked_at = now` unless already revoked. */
  revoke(id: string, now: number): RevokeOutcome;
  /** Sets `last_used_at = now` unless it is already at or past `now`. */
  touch(id: string, now: number): void;
  /** Closes the connection; closing twice is harmless. Later calls throw. */
  close(): void;
}

/** A store that cannot be opened, migrated or used. The message names the file. */
export class ServiceAccountStoreError extends Error {
  override readonly name = 'ServiceAccountStoreError';
  /** Stable code to match on (never the message). */
  readonly code = STORE_ERROR_CODE;
  readonly path: string;

  constructor(path: string, problem: string, cause?: unknown) {
    super(`service-account store '${path}': ${problem}`, { cause });
    this.path = path;
  }
}

const STORE_ERROR_CODE = 'ERR_SERVICE_ACCOUNT_STORE';

/** Whether `err` is a store failure (by code). */
export function isServiceAccountStoreError(err: unknown): err is ServiceAccountStoreError {
  return (err as { code?: unknown } | null)?.code === STORE_ERROR_CODE;
}

/** How long a statement waits for another connection's write lock before failing. */
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
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = new Sqlite(path, { timeout: BUSY_TIMEOUT_MS });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    migrate(db, path, options.migrations ?? STORE_MIGRATIONS);
    // WAL only after the version check, so a newer database is never touched. Readers never
    // block the writer; NORMAL is durable across process crashes in WAL mode.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    statements = prepareStatements(db);
  } catch (err) {
    db?.close();
    if (isServiceAccountStoreError(err)) throw err;
    throw new ServiceAccountStoreError(path, `cannot open: ${String(err)}`, err);
  }
  return createStore(path, db, statements);
}

function createStore(
  path: string,
  db: Database,
  s: ReturnType<typeof prepareStatements>,
): ServiceAccountStore {
  let failed = false;
  /** Runs one operation; any failure marks the store unavailable until one succeeds again. */
  const guard = <T>(what: string, fn: () => T): T => {
    try {
      const result = fn();
      failed = false;
      return result;
    } catch (err) {
      failed = true;
      throw new ServiceAccountStoreError(path, `${what} failed: ${String(err)}`, err);
    }
  };
  const insertIfFree = db.transaction((record: ServiceAccountRecord, now: number) => {
    if (s.activeName.get(record.name, now) !== undefined) return 'name_taken' as const;
    s.insert.run({ ...record, scopes: JSON.stringify(record.scopes) });
    return 'inserted' as const;
  });
  return {
    path,
    get available() {
      return db.open && !failed;
    },
    findByHash: (tokenHash) =>
      guard('look-up', () => {
        const row = s.byHash.get(tokenHash) as Row | undefined;
        return row === undefined ? null : recordOf(row);
      }),
    insert: (record, now) => guard('insert', () => insertIfFree.immediate(record, now)),
    list: (offset, limit) =>
      guard('list', () => ({
        rows: (s.page.all(limit, offset) as Row[]).map(recordOf),
        total: (s.count.get() as { n: number }).n,
      })),
    revoke: (id, now) =>
      guard('revoke', () => {
        const row = s.byId.get(id) as { token_hash: string; revoked_at: number | null } | undefined;
        if (row === undefined) return { outcome: 'not_found' };
        if (row.revoked_at !== null)
          return { outcome: 'already_revoked', tokenHash: row.token_hash };
        s.revoke.run(now, id);
        return { outcome: 'revoked', tokenHash: row.token_hash };
      }),
    touch: (id, now) =>
      guard('last_used_at update', () => {
        s.touch.run(now, id, now);
      }),
    close() {
      if (db.open) db.close();
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
