/**
 * The Postgres service-account store on a real server: the SQLite store's table and columns,
 * migrations that replicas starting together apply once, a newer schema refused, errors sorted
 * into permanent and transient (never showing the password), the change log and its NOTIFY, the
 * listening connection that comes back, batched last_used_at writes, and a server that goes away
 * and comes back without a restart.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import t, { type Test } from 'tap';
import { accountRecord, RECORD_NOW } from '../../fixtures/service-accounts.js';
import {
  openPostgresStore,
  POSTGRES_MIGRATIONS,
  type PostgresStoreOptions,
} from '../../../src/auth/service-accounts/postgres-store.js';
import {
  CHANGE_CHANNEL,
  isServiceAccountStoreError,
  type ChangeListener,
  type ServiceAccountRecord,
  type ServiceAccountStore,
} from '../../../src/auth/service-accounts/store.js';
import { startTestPostgres, testDatabase } from '../../fixtures/postgres.js';

const NOW = RECORD_NOW;

const record = accountRecord;

let replicas = 0;
/** Opens a store closed at teardown, with small time-outs (a unique replica id each). */
async function open(
  t: Test,
  url: string,
  options: Partial<PostgresStoreOptions> = {},
): Promise<ServiceAccountStore> {
  const store = await openPostgresStore(url, {
    replicaId: `test-${process.pid}-${++replicas}`,
    connectTimeoutMs: 1_000,
    statementTimeoutMs: 3_000,
    ...options,
  });
  t.teardown(() => store.close());
  return store;
}

/** A plain connection to `url`, what an operator's psql would be. */
async function sql(t: Test, url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  t.teardown(() => client.end());
  return client;
}

/** Waits (without asserting anything about time) until `ready` answers true. */
async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await ready())) await delay(20);
}

/** `url` with other credentials. */
function withCredentials(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  return u.href;
}

/** A port nothing listens on (bound, read and closed again). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A loopback TCP relay in front of a server, counting the connections it accepts: `refuse` drops
 * each at once (what a server away looks like to a client), `pass` relays it.
 */
async function relay(t: Test, url: string) {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  const state = { mode: 'refuse' as 'refuse' | 'pass', accepted: 0 };
  const server: Server = createServer((socket) => {
    state.accepted++;
    if (state.mode === 'refuse') {
      socket.destroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    const end = (): void => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const front = new URL(url);
  front.port = String((server.address() as { port: number }).port);
  return {
    state,
    url: front.href,
    /** Cuts every relayed connection at once, with no word from the server. */
    cut(): void {
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
  };
}

/** Records what a change listener hears, and waits for the next event of a kind. */
function recorder() {
  const seen: string[] = [];
  const waiting: { kind: string; resolve: () => void }[] = [];
  const push = (kind: string): void => {
    seen.push(kind);
    for (let i = waiting.length - 1; i >= 0; i--) {
      if (waiting[i]!.kind === kind) waiting.splice(i, 1)[0]!.resolve();
    }
  };
  const listener: ChangeListener = {
    onNotify: () => push('notify'),
    onConnection: (up) => push(up ? 'up' : 'down'),
  };
  return {
    seen,
    listener,
    /**
     * The store's retry timers are unref'd (they never keep a process alive); this wait keeps
     * the test process alive until the event comes.
     */
    next: (kind: 'notify' | 'up' | 'down') => {
      const alive = setInterval(() => undefined, 1_000);
      return new Promise<void>((resolve) => waiting.push({ kind, resolve })).finally(() =>
        clearInterval(alive),
      );
    },
  };
}

t.test('opening an empty database creates the schema at the last version', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const store = await open(t, url);
  t.equal(store.kind, 'postgres');
  t.equal(store.available, true);
  t.equal(store.check(), true);
  t.equal(store.pendingTouches, 0);
  const db = await sql(t, url);
  const columns = await db.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
     WHERE table_name IN ('service_accounts', 'service_account_changes', 'scopegate_schema')
     ORDER BY table_name, ordinal_position`,
  );
  t.same(
    columns.rows.map((c) => `${c.table_name}.${c.column_name} ${c.data_type}`),
    [
      'scopegate_schema.component text',
      'scopegate_schema.version integer',
      'scopegate_schema.applied_at bigint',
      'service_account_changes.seq bigint',
      'service_account_changes.account_id text',
      'service_account_changes.token_hash text',
      'service_account_changes.change text',
      'service_account_changes.changed_at bigint',
      'service_accounts.id text',
      'service_accounts.name text',
      'service_accounts.token_hash text',
      'service_accounts.token_prefix text',
      'service_accounts.scopes jsonb',
      'service_accounts.created_at bigint',
      'service_accounts.expires_at bigint',
      'service_accounts.last_used_at bigint',
      'service_accounts.revoked_at bigint',
      'service_accounts.created_by text',
    ],
  );
  const indexes = await db.query<{ indexname: string }>(
    "SELECT indexname FROM pg_indexes WHERE tablename LIKE 'service_account%' ORDER BY indexname",
  );
  t.same(
    indexes.rows.map((r) => r.indexname),
    [
      'service_account_changes_by_time',
      'service_account_changes_pkey',
      'service_accounts_by_created',
      'service_accounts_by_name',
      'service_accounts_pkey',
      'service_accounts_token_hash_key',
    ],
  );
  const version = await db.query('SELECT component, version FROM scopegate_schema');
  t.same(version.rows, [{ component: 'service_accounts', version: POSTGRES_MIGRATIONS.length }]);
  const plan = await db.query<{ 'QUERY PLAN': string }>(
    "EXPLAIN SELECT * FROM service_accounts WHERE token_hash = 'x'",
  );
  t.match(plan.rows[0]?.['QUERY PLAN'], /Index Scan/, 'look-ups by digest use an index');
});

t.test('defaults; the location prints the URL with its password hidden', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  // Every option but the replica id left at its default.
  const store = await openPostgresStore(url, { replicaId: 'defaults' });
  t.teardown(() => store.close());
  t.equal(store.available, true);
  const password = new URL(url).password;
  t.not(password, '');
  t.notMatch(store.location, password);
  t.match(store.location, /^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\//);
});

t.test('four replicas opening one empty database at once: all open, one schema', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const stores = await Promise.all([1, 2, 3, 4].map(() => open(t, url)));
  t.same(
    stores.map((s) => s.available),
    [true, true, true, true],
  );
  const db = await sql(t, url);
  const rows = await db.query('SELECT component, version FROM scopegate_schema');
  t.same(rows.rows, [{ component: 'service_accounts', version: 1 }], 'one version row');
  // Reopening an up-to-date database (no lock needed) keeps its rows.
  t.equal(await stores[0]!.insert(record(), NOW), 'inserted');
  const again = await open(t, url);
  t.same(await again.findByHash(record().token_hash), record());
});

const NEXT_STEP = {
  version: 2,
  name: 'extra',
  sql: 'CREATE TABLE service_accounts_extra (x integer)',
};
const NEWER =
  /schema version 2 is newer than version 1, the newest this build knows; refusing to open it \(run a newer scopegate/;

t.test('a schema newer than this build is refused as permanent, untouched', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const newer = await open(t, url, { migrations: [...POSTGRES_MIGRATIONS, NEXT_STEP] });
  t.equal(await newer.insert(record(), NOW), 'inserted');
  await newer.close();
  for (const unreachable of ['fail', 'retry'] as const) {
    await t.rejects(open(t, url, { unreachable }), {
      code: 'ERR_SERVICE_ACCOUNT_STORE',
      permanent: true,
      message: NEWER,
    });
  }
  const db = await sql(t, url);
  const rows = await db.query('SELECT version FROM scopegate_schema');
  t.same(rows.rows, [{ version: 2 }]);
});

t.test('a newer schema written while waiting for the migration lock is refused too', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const db = await sql(t, url);
  // Another replica holds the migration lock (as while migrating) ...
  await db.query('BEGIN');
  await db.query('SELECT pg_advisory_xact_lock(8315679504188927335)');
  const opening = open(t, url);
  opening.catch(() => undefined);
  await until(async () => {
    const waiting = await db.query(
      "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
    );
    return waiting.rows.length > 0;
  });
  // ... and leaves a schema newer than this build when it commits.
  await db.query(
    'CREATE TABLE scopegate_schema (component text PRIMARY KEY, version integer NOT NULL, applied_at bigint NOT NULL)',
  );
  await db.query("INSERT INTO scopegate_schema VALUES ('service_accounts', 2, 0)");
  await db.query('COMMIT');
  await t.rejects(opening, { permanent: true, message: NEWER });
});

t.test('errors that waiting will not cure are permanent; none shows the password', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const admin = await sql(t, url);
  const role = `weak_${process.pid}`;
  await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'weak-secret-pw'`);
  t.teardown(async () => {
    const cleanup = await sql(t, url);
    await cleanup.query(`DROP OWNED BY ${role}`);
    await cleanup.query(`DROP ROLE ${role}`);
  });
  const wrongPassword = 'not-the-password-9c1f';
  const unknownDb = new URL(url);
  unknownDb.pathname = '/no_such_database';
  const rows: { name: string; url: string; message: RegExp; secret: string }[] = [
    {
      name: 'wrong password',
      url: withCredentials(url, 'postgres', wrongPassword),
      message: /password authentication failed for user "postgres" \(SQLSTATE 28P01\)/,
      secret: wrongPassword,
    },
    {
      name: 'unknown database',
      url: unknownDb.href,
      message: /database "no_such_database" does not exist \(SQLSTATE 3D000\)/,
      secret: new URL(url).password,
    },
    {
      name: 'no privilege to create the tables',
      url: withCredentials(url, role, 'weak-secret-pw'),
      message: /permission denied for schema public \(SQLSTATE 42501\)/,
      secret: 'weak-secret-pw',
    },
    {
      name: 'a URL that cannot be parsed',
      url: 'postgres://postgres:parse-secret-pw@127.0.0.1:99999/db',
      message: /the URL cannot be parsed/,
      secret: 'parse-secret-pw',
    },
  ];
  for (const row of rows) {
    for (const unreachable of ['fail', 'retry'] as const) {
      const err: unknown = await open(t, row.url, { unreachable }).catch((e: unknown) => e);
      t.ok(isServiceAccountStoreError(err), `${row.name} [${unreachable}]: a store error`);
      t.match(err, { permanent: true, busy: false, message: row.message }, row.name);
      const text = `${(err as Error).message} ${(err as Error).stack} ${JSON.stringify(err)}`;
      t.notOk(text.includes(row.secret), `${row.name}: the password is not shown`);
    }
  }
});

t.test(
  'a server that cannot be reached at open: fail rejects, retry opens unavailable',
  async (t) => {
    const url = await testDatabase(t);
    if (url === null) return;
    const away = new URL(url);
    away.port = String(await closedPort());
    await t.rejects(open(t, away.href), {
      code: 'ERR_SERVICE_ACCOUNT_STORE',
      permanent: false,
      message: /open failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
    });
    const store = await open(t, away.href, { unreachable: 'retry' });
    t.equal(store.available, false);
    t.equal(store.check(), false);
    await t.rejects(store.findByHash(record().token_hash), {
      permanent: false,
      message: /find failed: connect ECONNREFUSED/,
    });
  },
);

t.test('retry: the background loop keeps trying until the server answers', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const front = await relay(t, url);
  const store = await open(t, front.url, { unreachable: 'retry' });
  t.equal(store.available, false, 'opened unavailable');
  t.ok(front.state.accepted >= 1, 'the open tried');
  // Two more refused attempts: the loop goes on after a failure.
  await until(() => front.state.accepted >= 3);
  t.equal(store.available, false);
  front.state.mode = 'pass';
  await until(() => store.available);
  t.equal(await store.insert(record(), NOW), 'inserted');
  const db = await sql(t, url);
  const version = await db.query('SELECT version FROM scopegate_schema');
  t.same(version.rows, [{ version: 1 }], 'migrated once it could');
});

t.test('find: by digest, whatever the state; numbers are numbers; records frozen', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const store = await open(t, url);
  t.equal(await store.findByHash(record().token_hash), null, 'nothing yet');
  const revoked = record({ name: 'gone', revoked_at: NOW - 1, last_used_at: NOW - 5 });
  const never = record({ name: 'forever', expires_at: null, scopes: [] });
  for (const r of [record(), revoked, never]) t.equal(await store.insert(r, NOW), 'inserted');
  for (const r of [record(), revoked, never]) {
    const found = await store.findByHash(r.token_hash);
    t.same(found, r, r.name);
    t.equal(typeof found?.created_at, 'number');
    t.ok(Object.isFrozen(found) && Object.isFrozen(found?.scopes), `${r.name}: frozen`);
  }
  const db = await sql(t, url);
  const stored = await db.query<{ scopes: string }>(
    "SELECT scopes::text AS scopes FROM service_accounts WHERE name = 'ci'",
  );
  t.equal(stored.rows[0]?.scopes, '["agents:run", "config:read"]', 'plain JSON an operator reads');
  // A hand-edited array: only its strings grant.
  await db.query(`UPDATE service_accounts SET scopes = '["a:b", 7, null]' WHERE name = 'ci'`);
  t.same((await store.findByHash(record().token_hash))?.scopes, ['a:b']);
  await t.rejects(
    db.query(`UPDATE service_accounts SET scopes = '{"a": 1}' WHERE name = 'ci'`),
    /check constraint/,
    'scopes must be an array',
  );
});

t.test('insert: one active account per name; an expired or revoked holder frees it', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const store = await open(t, url);
  const rows: { name: string; holder: Partial<ServiceAccountRecord>; want: string }[] = [
    { name: 'active holder', holder: {}, want: 'name_taken' },
    { name: 'holder that never expires', holder: { expires_at: null }, want: 'name_taken' },
    { name: 'holder expired before now', holder: { expires_at: NOW - 1 }, want: 'inserted' },
    { name: 'holder expiring exactly now', holder: { expires_at: NOW }, want: 'inserted' },
    { name: 'revoked holder', holder: { revoked_at: NOW - 10 }, want: 'inserted' },
  ];
  for (const [i, row] of rows.entries()) {
    const name = `name-${i}`;
    t.equal(await store.insert(record({ name, id: `${name}-a`, ...row.holder }), NOW), 'inserted');
    t.equal(await store.insert(record({ name, id: `${name}-b` }), NOW), row.want, row.name);
  }
  await t.rejects(store.insert(record({ name: 'other', id: 'name-0-a' }), NOW), {
    code: 'ERR_SERVICE_ACCOUNT_STORE',
    message:
      /insert failed: duplicate key value violates unique constraint "service_accounts_pkey" \(SQLSTATE 23505\)/,
  });
  t.equal(store.available, false, 'a failed write is not trusted until the next success');
  t.equal(await store.findByHash('x'.repeat(64)), null);
  t.equal(store.available, true);
});

t.test(
  'statements are bounded by the statement time-out (a mint waiting on the name lock)',
  async (t) => {
    const url = await testDatabase(t);
    if (url === null) return;
    const store = await open(t, url, { statementTimeoutMs: 200 });
    const db = await sql(t, url);
    // Another gateway is minting the same name and does not finish.
    await db.query('BEGIN');
    await db.query("SELECT pg_advisory_xact_lock(hashtextextended('sa-name:' || $1, 0))", ['held']);
    const err: unknown = await store.insert(record({ name: 'held' }), NOW).catch((e: unknown) => e);
    t.ok(isServiceAccountStoreError(err));
    t.match(err, {
      permanent: false,
      message: /insert failed: canceling statement due to statement timeout \(SQLSTATE 57014\)/,
    });
    await db.query('ROLLBACK');
    t.equal(await store.insert(record({ name: 'held' }), NOW), 'inserted', 'free again');
    t.equal(await store.insert(record({ name: 'other' }), NOW), 'inserted');
  },
);

t.test(
  'a connection terminated in the middle of a transaction fails that call, not the process',
  async (t) => {
    const url = await testDatabase(t);
    if (url === null) return;
    const replicaId = `killed-${process.pid}`;
    const store = await open(t, url, { replicaId });
    await store.insert(record(), NOW);
    const db = await sql(t, url);
    // Another transaction holds the account's row: the revoke waits inside its own transaction.
    await db.query('BEGIN');
    await db.query('SELECT 1 FROM service_accounts WHERE id = $1 FOR UPDATE', [record().id]);
    const revoking = store.revoke(record().id, NOW);
    revoking.catch(() => undefined);
    await until(async () => {
      const waiting = await db.query(
        "SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
        [`scopegate:${replicaId}`],
      );
      return waiting.rows.length > 0;
    });
    await db.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [`scopegate:${replicaId}`],
    );
    await t.rejects(revoking, {
      code: 'ERR_SERVICE_ACCOUNT_STORE',
      permanent: false,
      message:
        /revoke failed: terminating connection due to administrator command \(SQLSTATE 57P01\)/,
    });
    t.equal(store.available, false);
    await db.query('ROLLBACK');
    t.same(await store.revoke(record().id, NOW), {
      outcome: 'revoked',
      tokenHash: record().token_hash,
    });
    t.equal(store.available, true);
  },
);

t.test(
  'a connection cut in the middle of a transaction fails that call, not the process',
  async (t) => {
    const url = await testDatabase(t);
    if (url === null) return;
    const front = await relay(t, url);
    front.state.mode = 'pass';
    const store = await open(t, front.url);
    await store.insert(record(), NOW);
    const db = await sql(t, url);
    await db.query('BEGIN');
    await db.query('SELECT 1 FROM service_accounts WHERE id = $1 FOR UPDATE', [record().id]);
    const revoking = store.revoke(record().id, NOW);
    revoking.catch(() => undefined);
    await until(async () => {
      const waiting = await db.query(
        "SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted",
      );
      return waiting.rows.length > 0;
    });
    front.cut();
    await t.rejects(revoking, {
      code: 'ERR_SERVICE_ACCOUNT_STORE',
      permanent: false,
      message: /revoke failed: Connection terminated unexpectedly$/,
    });
    t.equal(store.available, false);
    await db.query('ROLLBACK');
    t.same(await store.revoke(record().id, NOW), {
      outcome: 'revoked',
      tokenHash: record().token_hash,
    });
    t.equal(store.available, true);
  },
);

t.test('two gateways minting one name at once: exactly one inserts', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const [one, two] = await Promise.all([open(t, url), open(t, url)]);
  for (let round = 0; round < 5; round++) {
    const name = `race-${round}`;
    const outcomes = await Promise.all([
      one!.insert(record({ name, id: `${name}-1` }), NOW),
      two!.insert(record({ name, id: `${name}-2` }), NOW),
    ]);
    t.same(outcomes.sort(), ['inserted', 'name_taken'], `round ${round}`);
  }
});

t.test('revoke: outcomes, one change row per revoke, and a notification', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const store = await open(t, url);
  await store.insert(record(), NOW);
  const db = await sql(t, url);
  await db.query(`LISTEN ${CHANGE_CHANNEL}`);
  const notified = new Promise<pg.Notification>((resolve) => db.once('notification', resolve));
  t.same(await store.revoke('nope', NOW), { outcome: 'not_found' });
  t.same(await store.revoke(record().id, NOW + 1), {
    outcome: 'revoked',
    tokenHash: record().token_hash,
  });
  t.match(await notified, { channel: CHANGE_CHANNEL, payload: '' });
  t.same(await store.revoke(record().id, NOW + 2), {
    outcome: 'already_revoked',
    tokenHash: record().token_hash,
  });
  t.equal((await store.findByHash(record().token_hash))?.revoked_at, NOW + 1, 'first revoke kept');
  const changes = await db.query(
    'SELECT seq, account_id, token_hash, change, changed_at FROM service_account_changes',
  );
  t.same(changes.rows, [
    {
      seq: '1',
      account_id: record().id,
      token_hash: record().token_hash,
      change: 'revoked',
      changed_at: String(NOW + 1),
    },
  ]);
});

t.test('readChanges: the head, what came after a cursor, and gaps left by pruning', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const store = await open(t, url);
  t.same(await store.readChanges(null), { cursor: 0, tokenHashes: [], gap: false }, 'empty log');
  const ids = ['r1', 'r2', 'r3', 'r4'];
  for (const [i, id] of ids.entries()) {
    await store.insert(record({ name: id, id }), NOW);
    await store.revoke(id, NOW + i * 100);
  }
  const hash = (id: string): string => record({ id }).token_hash;
  t.same(await store.readChanges(null), { cursor: 4, tokenHashes: [], gap: false }, 'head');
  t.same(await store.readChanges(0), { cursor: 4, tokenHashes: ids.map(hash), gap: false });
  t.same(await store.readChanges(2), {
    cursor: 4,
    tokenHashes: [hash('r3'), hash('r4')],
    gap: false,
  });
  t.same(await store.readChanges(4), { cursor: 4, tokenHashes: [], gap: false }, 'nothing new');
  t.same(await store.readChanges(9), { cursor: 9, tokenHashes: [], gap: false });

  t.equal(await store.pruneChanges(NOW + 150), 2, 'the two oldest go');
  t.same(await store.readChanges(0), {
    cursor: 4,
    tokenHashes: [hash('r3'), hash('r4')],
    gap: true,
  });
  t.same(await store.readChanges(1), {
    cursor: 4,
    tokenHashes: [hash('r3'), hash('r4')],
    gap: true,
  });
  t.same(await store.readChanges(2), {
    cursor: 4,
    tokenHashes: [hash('r3'), hash('r4')],
    gap: false,
  });
  t.equal(await store.pruneChanges(NOW + 10_000), 1, 'everything older, but the newest row stays');
  t.equal(await store.pruneChanges(NOW + 10_000), 0);
  t.same(await store.readChanges(2), { cursor: 4, tokenHashes: [hash('r4')], gap: true });
  t.same(await store.readChanges(3), { cursor: 4, tokenHashes: [hash('r4')], gap: false });
  t.same(await store.readChanges(null), { cursor: 4, tokenHashes: [], gap: false });
});

t.test('touch and flush: one statement, never moving last_used_at back', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const store = await open(t, url, { maxPendingTouches: 2 });
  for (const name of ['a', 'b', 'c']) await store.insert(record({ name }), NOW);
  const db = await sql(t, url);
  await db.query("UPDATE service_accounts SET last_used_at = $1 WHERE name = 'b'", [NOW + 50]);
  store.touch('id-a', NOW + 10);
  store.touch('id-a', NOW + 5);
  store.touch('id-b', NOW + 20);
  store.touch('id-c', NOW + 30);
  t.equal(store.pendingTouches, 2, 'bounded: a third account is not recorded');
  await store.flush();
  t.equal(store.pendingTouches, 0);
  const used = async (): Promise<Record<string, number | null>> => {
    const { rows } = await db.query<{ name: string; last_used_at: string | null }>(
      'SELECT name, last_used_at FROM service_accounts ORDER BY name',
    );
    return Object.fromEntries(
      rows.map((r) => [r.name, r.last_used_at === null ? null : Number(r.last_used_at)]),
    );
  };
  t.same(await used(), { a: NOW + 10, b: NOW + 50, c: null }, 'newest use kept, never moved back');
  await store.flush();
  t.same(await used(), { a: NOW + 10, b: NOW + 50, c: null }, 'an empty queue writes nothing');

  // A failed flush keeps what it took, and never rejects.
  await db.query('ALTER TABLE service_accounts RENAME TO service_accounts_away');
  store.touch('id-c', NOW + 60);
  await store.flush();
  t.equal(store.pendingTouches, 1, 'still queued');
  t.equal(store.available, false);
  await db.query('ALTER TABLE service_accounts_away RENAME TO service_accounts');
  // The timer flushes within a second.
  await until(async () => (await used())['c'] === NOW + 60);
  t.equal(store.pendingTouches, 0);
  t.equal(store.available, true);
});

t.test('close: flushes, is idempotent, and later operations reject', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const store = await open(t, url);
  await store.insert(record(), NOW);
  store.touch(record().id, NOW + 7);
  await Promise.all([store.close(), store.close()]);
  await store.close();
  t.equal(store.available, false);
  t.equal(store.check(), false);
  const db = await sql(t, url);
  const { rows } = await db.query('SELECT last_used_at FROM service_accounts');
  t.same(rows, [{ last_used_at: String(NOW + 7) }], 'flushed on close');
  const closed = {
    code: 'ERR_SERVICE_ACCOUNT_STORE',
    permanent: false,
    message: /the store is closed/,
  };
  await t.rejects(store.findByHash(record().token_hash), closed);
  await t.rejects(store.insert(record({ name: 'x' }), NOW), closed);
  await t.rejects(store.list(0, 1), closed);
  await t.rejects(store.revoke(record().id, NOW), closed);
  await t.rejects(store.readChanges(null), closed);
  await t.rejects(store.pruneChanges(NOW), closed);
  store.touch(record().id, NOW + 8);
  await store.flush();
  t.equal(store.pendingTouches, 1, 'a flush after close writes nothing and never rejects');
  const sub = store.listen(recorder().listener);
  await sub?.close();
  t.pass('listening after close does nothing');
});

t.test('listen: notifications, and a terminated connection comes back', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const replicaId = `feed-${process.pid}`;
  const store = await open(t, url, { replicaId });
  await store.insert(record(), NOW);
  await store.insert(record({ name: 'second' }), NOW);
  const rec = recorder();
  const up = rec.next('up');
  const sub = store.listen(rec.listener);
  t.ok(sub !== null);
  await up;
  const db = await sql(t, url);
  const app = await db.query<{ application_name: string }>(
    'SELECT application_name FROM pg_stat_activity WHERE application_name LIKE $1 ORDER BY 1',
    [`%${replicaId}`],
  );
  t.same(
    [...new Set(app.rows.map((r) => r.application_name))],
    [`scopegate-feed:${replicaId}`, `scopegate:${replicaId}`],
    'both connections name the replica',
  );

  let notified = rec.next('notify');
  await store.revoke(record().id, NOW);
  await notified;

  const down = rec.next('down');
  const back = rec.next('up');
  const killed = await db.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
    [`scopegate-feed:${replicaId}`],
  );
  t.equal(killed.rows.length, 1);
  await down;
  await back;
  notified = rec.next('notify');
  await store.revoke(record({ name: 'second' }).id, NOW);
  await notified;
  t.same(rec.seen, ['up', 'notify', 'down', 'up', 'notify'], 'each change of state once');

  await sub!.close();
  await sub!.close();
  const after = await db.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [
    `scopegate-feed:${replicaId}`,
  ]);
  t.same(after.rows, [], 'closing the subscription closes its connection');
});

t.test('listen: a listener that throws does not stop the feed', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const store = await open(t, url);
  await store.insert(record(), NOW);
  await store.insert(record({ name: 'second' }), NOW);
  let notifies = 0;
  let ups = 0;
  let ready!: () => void;
  const isUp = new Promise<void>((resolve) => (ready = resolve));
  let heard!: () => void;
  const twice = new Promise<void>((resolve) => (heard = resolve));
  store.listen({
    onNotify() {
      if (++notifies === 2) heard();
      throw new Error('listener bug');
    },
    onConnection() {
      ups++;
      ready();
      throw new Error('listener bug');
    },
  });
  await isUp;
  await store.revoke(record().id, NOW);
  await store.revoke(record({ name: 'second' }).id, NOW);
  await twice;
  t.equal(notifies, 2);
  t.equal(ups, 1);
  // Closing the store closes its subscriptions.
  await store.close();
  const db = await sql(t, url);
  const feeds = await db.query(
    "SELECT 1 FROM pg_stat_activity WHERE application_name LIKE 'scopegate-feed:%' AND datname = current_database()",
  );
  t.same(feeds.rows, []);
});

t.test(
  'a server that stops and starts again: unavailable, then back without a restart',
  async (t) => {
    const server = await startTestPostgres(t);
    if (server === null) return;
    const url = await server.createDatabase();
    const store = await open(t, url);
    await store.insert(record(), NOW);
    const rec = recorder();
    const up = rec.next('up');
    const sub = store.listen(rec.listener);
    await up;

    const down = rec.next('down');
    await server.stop();
    await down;
    for (const attempt of [1, 2]) {
      const err: unknown = await store.findByHash(record().token_hash).catch((e: unknown) => e);
      t.ok(isServiceAccountStoreError(err), `attempt ${attempt}: a store error`);
      t.match(err, {
        permanent: false,
        busy: false,
        message: /^service-account store '.*': find failed: /,
      });
      t.equal(store.available, false);
    }
    await t.rejects(open(t, url), {
      permanent: false,
      message: /open failed: connect ECONNREFUSED/,
    });
    const late = await open(t, url, { unreachable: 'retry' });
    t.equal(late.available, false, 'retry: opens unavailable');
    const lateRec = recorder();
    const lateUp = lateRec.next('up');
    late.listen(lateRec.listener);

    const back = rec.next('up');
    await server.start();
    t.same(await store.findByHash(record().token_hash), record(), 'the next operation succeeds');
    t.equal(store.available, true);
    await back;
    await lateUp;
    await until(() => late.available);
    t.same(await late.findByHash(record().token_hash), record());
    const notified = rec.next('notify');
    const lateNotified = lateRec.next('notify');
    await late.revoke(record().id, NOW);
    await notified;
    await lateNotified;
    await sub!.close();
  },
);
