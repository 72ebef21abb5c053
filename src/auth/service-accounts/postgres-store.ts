/**
 * The service-account store on PostgreSQL (node-postgres): the SQLite store's `service_accounts`
 * table, its change log, and a `NOTIFY` on every revoke for replicas that listen. Never prints the
 * URL's password, never lets a driver error out unwrapped, and never lets a dying connection
 * crash the process: the store turns unavailable and the next operation is the probe.
 */
import pg from 'pg';

import {
  CHANGE_CHANNEL,
  FLUSH_INTERVAL_MS,
  MAX_PENDING_TOUCHES,
  ServiceAccountStoreError,
  createTouchQueue,
  isServiceAccountStoreError,
  scopesOf,
  type ChangeBatch,
  type ChangeListener,
  type ChangeSubscription,
  type RevokeOutcome,
  type ServiceAccountRecord,
  type ServiceAccountStore,
} from './store.js';
import { describePostgresError } from '../../shared/postgres-error.js';
import { printableUrl } from '../../shared/store-location.js';

/** One schema step; step `n` moves the `service_accounts` row of `scopegate_schema` from `n - 1` to `n`. Append-only. */
export interface PostgresMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every schema step, oldest first. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'service_accounts',
    // The columns of the SQLite store, so operators audit both engines with the same SQL. The
    // UNIQUE token_hash is the lookup index; the name index serves the duplicate-active-name
    // check, the created index the newest-first list, the changed_at index the pruning.
    sql: `
      CREATE TABLE service_accounts (
        id           text   NOT NULL PRIMARY KEY,
        name         text   NOT NULL,
        token_hash   text   NOT NULL UNIQUE CHECK (length(token_hash) = 64),
        token_prefix text   NOT NULL,
        scopes       jsonb  NOT NULL CHECK (jsonb_typeof(scopes) = 'array'),
        created_at   bigint NOT NULL,
        expires_at   bigint,
        last_used_at bigint,
        revoked_at   bigint,
        created_by   text   NOT NULL
      );
      CREATE INDEX service_accounts_by_name ON service_accounts (name);
      CREATE INDEX service_accounts_by_created ON service_accounts (created_at, id);
      CREATE TABLE service_account_changes (
        seq        bigserial PRIMARY KEY,
        account_id text      NOT NULL,
        token_hash text      NOT NULL,
        change     text      NOT NULL,
        changed_at bigint    NOT NULL
      );
      CREATE INDEX service_account_changes_by_time ON service_account_changes (changed_at);
    `,
  },
];

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /**
   * Names this gateway in `pg_stat_activity`: application_name `scopegate:<replicaId>` (the pool)
   * and `scopegate-feed:<replicaId>` (the listening connection). An `application_name` in the
   * URL wins over both.
   */
  readonly replicaId: string;
  /** Connections in the pool (default 5). */
  readonly poolMax?: number;
  /** How long opening one connection may take (default 2000 ms). */
  readonly connectTimeoutMs?: number;
  /** `statement_timeout` of every pooled connection (default 5000 ms). */
  readonly statementTimeoutMs?: number;
  /**
   * What a server that cannot be reached at open means. `retry` (serve): the store opens
   * unavailable and connects and migrates in the background, with backoff, until it works.
   * `fail` (default; the CLI and checks): the open rejects. Permanent problems (bad
   * credentials, an unknown database, a schema newer than this build) reject in both modes.
   */
  readonly unreachable?: 'retry' | 'fail';
  /** Bound of the `last_used_at` queue (default {@link MAX_PENDING_TOUCHES}). */
  readonly maxPendingTouches?: number;
  /** Tests only: the schema steps (default {@link POSTGRES_MIGRATIONS}). */
  readonly migrations?: readonly PostgresMigration[];
}

const DEFAULT_POOL_MAX = 5;
const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;
const IDLE_TIMEOUT_MS = 30_000;
/** Reconnect backoff (the background migration and the listening connection): 250 ms doubling to 5 s. */
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5_000;

// Fixed advisory-lock keys ('sg:sa-mg', 'sg:sa-fd' as 64-bit integers): one serializes
// migrations across replicas, the other appends to the change log in commit order.
const MIGRATION_LOCK = '8315679504188927335';
const FEED_LOCK = '8315679504188925540';
const COMPONENT = 'service_accounts';

/**
 * Reads int8 (bigint, bigserial, count) as a JS number, on this store's connections only (the
 * global `pg.types` is left alone): epoch seconds and sequence numbers stay far below 2^53.
 */
const INT8_OID = 20;
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format),
} as pg.CustomTypesConfig;

const COLUMNS =
  'id, name, token_hash, token_prefix, scopes, created_at, expires_at, last_used_at, revoked_at, created_by';

/** A row as pg returns it (scopes parsed from jsonb, not yet checked). */
type Row = Omit<ServiceAccountRecord, 'scopes'> & { scopes: unknown };

function recordOf(row: Row): ServiceAccountRecord {
  return Object.freeze({ ...row, scopes: scopesOf(row.scopes) });
}

const SQL = {
  byHash: `SELECT ${COLUMNS} FROM service_accounts WHERE token_hash = $1`,
  nameLock: `SELECT pg_advisory_xact_lock(hashtextextended('sa-name:' || $1, 0))`,
  activeName:
    'SELECT 1 FROM service_accounts WHERE name = $1 AND revoked_at IS NULL ' +
    'AND (expires_at IS NULL OR expires_at > $2) LIMIT 1',
  insert:
    `INSERT INTO service_accounts (${COLUMNS}) ` +
    'VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10)',
  // One statement, so the page and the count come from one snapshot; the outer row exists even
  // for a page past the end, to carry the count. Ids order byte-wise (COLLATE "C"), as in SQLite.
  page:
    `SELECT t.total, p.* FROM (SELECT count(*) AS total FROM service_accounts) t ` +
    `LEFT JOIN LATERAL (SELECT ${COLUMNS} FROM service_accounts ` +
    'ORDER BY created_at DESC, id COLLATE "C" LIMIT $1 OFFSET $2) p ON true ' +
    'ORDER BY p.created_at DESC, p.id COLLATE "C"',
  lockForRevoke: 'SELECT token_hash, revoked_at FROM service_accounts WHERE id = $1 FOR UPDATE',
  revoke: 'UPDATE service_accounts SET revoked_at = $2 WHERE id = $1',
  // Held until COMMIT: a change committed later never gets a smaller sequence number, so a
  // reader that saw sequence n has seen every change before it.
  feedLock: `SELECT pg_advisory_xact_lock(${FEED_LOCK})`,
  appendChange:
    'INSERT INTO service_account_changes (account_id, token_hash, change, changed_at) ' +
    "VALUES ($1, $2, 'revoked', $3)",
  notify: `SELECT pg_notify('${CHANGE_CHANNEL}', '')`,
  head: 'SELECT coalesce(max(seq), 0) AS head FROM service_account_changes',
  changesAfter: 'SELECT seq, token_hash FROM service_account_changes WHERE seq > $1 ORDER BY seq',
  prune:
    'WITH gone AS (DELETE FROM service_account_changes WHERE changed_at < $1 ' +
    'AND seq < (SELECT max(seq) FROM service_account_changes) RETURNING 1) ' +
    'SELECT count(*) AS n FROM gone',
  // One statement for every queued use; never moves last_used_at back.
  touch:
    'UPDATE service_accounts AS s SET last_used_at = u.at ' +
    'FROM unnest($1::text[], $2::bigint[]) AS u(id, at) ' +
    'WHERE s.id = u.id AND (s.last_used_at IS NULL OR s.last_used_at < u.at)',
  schemaPresent: "SELECT to_regclass('scopegate_schema') IS NOT NULL AS present",
  schemaVersion: 'SELECT version FROM scopegate_schema WHERE component = $1',
  createSchemaTable:
    'CREATE TABLE IF NOT EXISTS scopegate_schema (component text PRIMARY KEY, ' +
    'version integer NOT NULL, applied_at bigint NOT NULL)',
  migrationLock: `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`,
  setVersion:
    'INSERT INTO scopegate_schema (component, version, applied_at) ' +
    'VALUES ($1, $2, extract(epoch FROM now())::bigint) ON CONFLICT (component) ' +
    'DO UPDATE SET version = excluded.version, applied_at = excluded.applied_at',
} as const;

/**
 * Whether waiting will not cure `err`: SQLSTATE class 28 (bad credentials), 3D000 (unknown
 * database) and class 42 (a missing privilege, or tables that are not this store's). Everything
 * else (refused, unreachable or dropped connections, time-outs, a server shutting down or out of
 * connections) is transient.
 */
function isPermanent(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return (
    typeof code === 'string' && (code.startsWith('28') || code === '3D000' || code.startsWith('42'))
  );
}

const nextRetry = (ms: number): number => Math.min(ms * 2, LAST_RETRY_MS);

/**
 * Opens the store at `url` (a `postgres://` or `postgresql://` URL): a pool of connections,
 * then the schema, migrated under an advisory lock so replicas starting together apply each step
 * once.
 *
 * @throws {ServiceAccountStoreError} `permanent` for a URL that cannot be parsed, bad
 *   credentials, an unknown database, a missing privilege or a newer schema; not permanent for a
 *   server that cannot be reached (only with `unreachable: 'fail'`). Nothing stays open.
 */
export async function openPostgresStore(
  url: string,
  options: PostgresStoreOptions,
): Promise<ServiceAccountStore> {
  const location = printableUrl(url);
  try {
    // pg parses the URL per connection; parse it once here to refuse it at open. The error is
    // not kept as the cause: Node's URL errors carry the input, password included.
    new pg.Client({ connectionString: url });
  } catch {
    throw new ServiceAccountStoreError(
      location,
      'the URL cannot be parsed (check its host, port and percent-encoding)',
      { permanent: true },
    );
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    application_name: `scopegate:${options.replicaId}`,
    max: options.poolMax ?? DEFAULT_POOL_MAX,
    connectionTimeoutMillis: connectTimeoutMs,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    // A server that vanished without closing the socket answers nothing: give up a little after
    // the server would have cancelled the statement itself.
    query_timeout: statementTimeoutMs + connectTimeoutMs,
    keepAlive: true,
    // Idle connections do not keep a finished CLI command alive.
    allowExitOnIdle: true,
    types,
  });
  const store = createStore(url, location, pool, options, connectTimeoutMs, statementTimeoutMs);
  try {
    await store.open();
  } catch (err) {
    const error = err as ServiceAccountStoreError;
    if (error.permanent || options.unreachable !== 'retry') {
      await store.close();
      throw error;
    }
    store.retryInBackground();
  }
  return store;
}

function createStore(
  url: string,
  location: string,
  pool: pg.Pool,
  options: PostgresStoreOptions,
  connectTimeoutMs: number,
  statementTimeoutMs: number,
): ServiceAccountStore & { open(): Promise<void>; retryInBackground(): void } {
  const migrations = options.migrations ?? POSTGRES_MIGRATIONS;
  const latest = migrations.length;
  const queue = createTouchQueue(options.maxPendingTouches ?? MAX_PENDING_TOUCHES);
  const feeds = new Set<Feed>();
  let migrated = false;
  let healthy = false;
  let closed = false;
  let closing: Promise<void> | null = null;
  let migrating: Promise<void> | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  // A pooled connection that dies (a server restart, an administrator's terminate, a cut
  // network) must not crash the process; until an operation succeeds again, nothing is trusted.
  // The pool listens to its idle connections only: one that dies while handed out (in a
  // transaction) would emit an unhandled 'error', so every connection gets a listener of ours.
  const distrust = (): void => {
    healthy = false;
  };
  pool.on('error', distrust);
  // SET rather than a startup parameter, which a PgBouncer in front of the server refuses. Queued
  // before anything the pool hands the connection out for; a failure fails that next statement.
  const setStatementTimeout = `SET statement_timeout = ${Math.floor(statementTimeoutMs)}`;
  pool.on('connect', (client) => {
    client.on('error', distrust);
    client.query(setStatementTimeout, () => undefined);
  });

  const isAvailable = (): boolean => migrated && healthy && !closed;

  const storeError = (what: string, err: unknown): ServiceAccountStoreError =>
    isServiceAccountStoreError(err)
      ? err
      : new ServiceAccountStoreError(
          location,
          `${what} failed: ${describePostgresError(err as Error)}`,
          {
            cause: err,
            permanent: isPermanent(err),
          },
        );

  const newerSchema = (found: number): ServiceAccountStoreError =>
    new ServiceAccountStoreError(
      location,
      `schema version ${found} is newer than version ${latest}, the newest this build knows; ` +
        'refusing to open it (run a newer scopegate, or point auth.service_accounts.store at another database)',
      { permanent: true },
    );

  const versionOf = async (client: pg.PoolClient): Promise<number> => {
    const { rows } = await client.query<{ present: boolean }>(SQL.schemaPresent);
    if (!rows[0]!.present) return 0;
    const found = await client.query<{ version: number }>(SQL.schemaVersion, [COMPONENT]);
    return found.rows[0]?.version ?? 0;
  };

  /**
   * Brings the database to the last step. An up-to-date database costs one look and no lock;
   * otherwise every step runs in one transaction under the migration lock, re-reading the
   * version once the lock is held, so replicas starting together apply each step once.
   */
  const migrate = async (): Promise<void> => {
    const client = await pool.connect();
    try {
      let found = await versionOf(client);
      if (found > latest) throw newerSchema(found);
      if (found < latest) {
        await client.query('BEGIN');
        await client.query(SQL.migrationLock);
        await client.query(SQL.createSchemaTable);
        found = await versionOf(client);
        if (found > latest) throw newerSchema(found);
        for (const step of migrations.slice(found)) {
          await client.query(step.sql);
          await client.query(SQL.setVersion, [COMPONENT, step.version]);
        }
        await client.query('COMMIT');
      }
      client.release();
    } catch (err) {
      // Dropping the connection rolls back whatever was open and frees the lock.
      client.release(true);
      throw err;
    }
    migrated = true;
    healthy = true;
  };

  /** Migrates once; callers arriving meanwhile share the attempt. */
  const ensureMigrated = async (): Promise<void> => {
    if (migrated) return;
    migrating ??= migrate().finally(() => {
      migrating = null;
    });
    await migrating;
  };

  /** Runs `fn` once migrated; its success or failure is what `available` says next. */
  const attempt = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      await ensureMigrated();
      const result = await fn();
      healthy = true;
      return result;
    } catch (err) {
      healthy = false;
      throw storeError(what, err);
    }
  };

  const run = <T>(what: string, fn: () => Promise<T>): Promise<T> =>
    closed
      ? Promise.reject(
          new ServiceAccountStoreError(location, `${what} failed: the store is closed`),
        )
      : attempt(what, fn);

  /** One transaction on one connection; on any failure the connection is dropped (rolling back). */
  const inTransaction = async <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (err) {
      client.release(true);
      throw err;
    }
  };

  const retryInBackground = (delay = FIRST_RETRY_MS): void => {
    retryTimer = setTimeout(() => {
      ensureMigrated().catch(() => {
        if (!closed) retryInBackground(nextRetry(delay));
      });
    }, delay);
    retryTimer.unref();
  };

  const flushOnce = async (): Promise<void> => {
    if (queue.size === 0) return;
    const touches = queue.drain();
    try {
      await attempt('flush', () =>
        pool.query(SQL.touch, [touches.map(([id]) => id), touches.map(([, at]) => at)]),
      );
    } catch {
      queue.restore(touches);
    }
  };
  const flush = (): Promise<void> => {
    flushing = flushing.then(flushOnce);
    return flushing;
  };
  const flushTimer = setInterval(() => void flush(), FLUSH_INTERVAL_MS);
  flushTimer.unref();

  return {
    kind: 'postgres',
    location,
    get available() {
      return isAvailable();
    },
    check: isAvailable,
    open: () => attempt('open', () => Promise.resolve()),
    retryInBackground,
    findByHash: (tokenHash) =>
      run('find', async () => {
        const { rows } = await pool.query<Row>(SQL.byHash, [tokenHash]);
        return rows[0] === undefined ? null : recordOf(rows[0]);
      }),
    insert: (record, now) =>
      run('insert', () =>
        inTransaction(async (client) => {
          await client.query(SQL.nameLock, [record.name]);
          const taken = await client.query(SQL.activeName, [record.name, now]);
          if (taken.rows.length > 0) return 'name_taken' as const;
          await client.query(SQL.insert, [
            record.id,
            record.name,
            record.token_hash,
            record.token_prefix,
            JSON.stringify(record.scopes),
            record.created_at,
            record.expires_at,
            record.last_used_at,
            record.revoked_at,
            record.created_by,
          ]);
          return 'inserted' as const;
        }),
      ),
    list: (offset, limit) =>
      run('list', async () => {
        const { rows } = await pool.query<Row & { total: number }>(SQL.page, [limit, offset]);
        const page: ServiceAccountRecord[] = [];
        for (const { total: _total, ...row } of rows) if (row.id !== null) page.push(recordOf(row));
        return { rows: page, total: rows[0]!.total };
      }),
    revoke: (id, now) =>
      run('revoke', () =>
        inTransaction(async (client): Promise<RevokeOutcome> => {
          const { rows } = await client.query<{ token_hash: string; revoked_at: number | null }>(
            SQL.lockForRevoke,
            [id],
          );
          const row = rows[0];
          if (row === undefined) return { outcome: 'not_found' };
          if (row.revoked_at !== null) {
            return { outcome: 'already_revoked', tokenHash: row.token_hash };
          }
          await client.query(SQL.revoke, [id, now]);
          await client.query(SQL.feedLock);
          await client.query(SQL.appendChange, [id, row.token_hash, now]);
          // Delivered at COMMIT, and only if it commits.
          await client.query(SQL.notify);
          return { outcome: 'revoked', tokenHash: row.token_hash };
        }),
      ),
    readChanges: (cursor) =>
      run('read changes', async (): Promise<ChangeBatch> => {
        if (cursor === null) {
          const { rows } = await pool.query<{ head: number }>(SQL.head);
          return { cursor: rows[0]!.head, tokenHashes: [], gap: false };
        }
        const { rows } = await pool.query<{ seq: number; token_hash: string }>(SQL.changesAfter, [
          cursor,
        ]);
        // A sequence number skipped after the cursor means rows the reader never saw were
        // pruned. (A revoke rolled back after taking its number leaves a hole too: reading it as
        // a gap costs the reader its cache, never a stale answer.)
        const first = rows[0];
        return {
          cursor: rows.length === 0 ? cursor : rows[rows.length - 1]!.seq,
          tokenHashes: rows.map((r) => r.token_hash),
          gap: first !== undefined && first.seq > cursor + 1,
        };
      }),
    pruneChanges: (before) =>
      run('prune changes', async () => {
        const { rows } = await pool.query<{ n: number }>(SQL.prune, [before]);
        return rows[0]!.n;
      }),
    listen(listener: ChangeListener): ChangeSubscription {
      if (closed) return { close: () => Promise.resolve() };
      const feed = createFeed(
        url,
        `scopegate-feed:${options.replicaId}`,
        connectTimeoutMs,
        listener,
      );
      feeds.add(feed);
      return {
        close: () => {
          feeds.delete(feed);
          return feed.close();
        },
      };
    },
    touch: queue.touch,
    flush,
    get pendingTouches() {
      return queue.size;
    },
    close() {
      closing ??= (async () => {
        closed = true;
        clearInterval(flushTimer);
        clearTimeout(retryTimer);
        await Promise.all([...feeds].map((feed) => feed.close()));
        feeds.clear();
        await flush();
        await pool.end();
      })();
      return closing;
    },
  };
}

/** The listening connection of one subscription. */
interface Feed {
  close(): Promise<void>;
}

/**
 * Keeps one `LISTEN` connection up, outside the pool (a pooled connection is shared and cannot
 * hold a subscription), reconnecting with backoff. Reports each up and each down once; never
 * throws and never leaves an `error` event unhandled.
 */
function createFeed(
  url: string,
  applicationName: string,
  connectTimeoutMs: number,
  listener: ChangeListener,
): Feed {
  let stopped = false;
  let up = false;
  let delay = FIRST_RETRY_MS;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | undefined;

  /** A listener's fault must not take the connection down with it. */
  const tell = (fn: () => void): void => {
    try {
      fn();
    } catch {
      // Nothing to do: the feed carries on; the listener's owner sees its own failures.
    }
  };

  const connect = async (): Promise<void> => {
    const current = new pg.Client({
      connectionString: url,
      application_name: applicationName,
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
    });
    client = current;
    let dropped = false;
    const drop = (): void => {
      if (dropped) return;
      dropped = true;
      void current.end().catch(() => undefined);
      if (up) {
        up = false;
        tell(() => listener.onConnection(false));
      }
      if (!stopped) {
        timer = setTimeout(() => void connect(), delay);
        timer.unref();
        delay = nextRetry(delay);
      }
    };
    current.on('error', drop);
    current.on('end', drop);
    current.on('notification', () => tell(() => listener.onNotify()));
    try {
      await current.connect();
      await current.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch {
      drop();
      return;
    }
    // Closed (or lost) while the LISTEN was on its way: not up, and its `end` reports the rest.
    up = !dropped && !stopped;
    if (up) {
      delay = FIRST_RETRY_MS;
      tell(() => listener.onConnection(true));
    }
  };

  void connect();
  return {
    async close() {
      stopped = true;
      up = false;
      clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
