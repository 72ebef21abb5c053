/**
 * The service-account store: one `service_accounts` table in a WAL SQLite file,
 * versioned in user_version; only digests stored; active-name uniqueness; newest-first pages;
 * revoke; last-used writes queued and flushed; failures after opening fail closed; a removed or
 * replaced file is noticed by its identity; another connection's lock fails writes at once as
 * busy and never blocks reads; an insert is confirmed by reading it back; `check`'s read-only look.
 */
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { accountRecord, RECORD_NOW } from '../../fixtures/service-accounts.js';
import {
  FLUSH_INTERVAL_MS as CHECK_INTERVAL_MS,
  MAX_PENDING_TOUCHES,
  isServiceAccountStoreError,
  ServiceAccountStoreError,
  type ServiceAccountStore,
} from '../../../src/auth/service-accounts/store.js';
import {
  BUSY_TIMEOUT_MS,
  inspectServiceAccountStore,
  openSqliteStore,
  STORE_MIGRATIONS,
} from '../../../src/auth/service-accounts/sqlite-store.js';

interface RawDb {
  prepare(sql: string): { all(...p: unknown[]): unknown[]; get(...p: unknown[]): unknown };
  exec(sql: string): unknown;
  pragma(sql: string, o?: { simple?: boolean }): unknown;
  close(): unknown;
}
const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => RawDb;

const NOW = RECORD_NOW;

const record = accountRecord;

async function open(t: Test, path?: string): Promise<ServiceAccountStore> {
  const store = await openSqliteStore(path ?? join(t.testdir(), 'gateway.db'));
  t.teardown(() => store.close());
  return store;
}

/** A second, plain connection to the same file (what an operator's sqlite3 shell would be). */
function raw(t: Test, path: string): RawDb {
  const db = new Sqlite(path);
  t.teardown(() => db.close());
  return db;
}

t.test(
  'opening creates the folders and the file, in WAL, at the last schema version',
  async (t) => {
    const path = join(t.testdir(), 'a', 'b', 'gateway.db');
    const store = await open(t, path);
    t.equal(store.location, path);
    t.equal(store.kind, 'sqlite');
    t.equal(store.available, true);
    const db = raw(t, path);
    t.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    t.equal(db.pragma('user_version', { simple: true }), STORE_MIGRATIONS.length);
    t.equal(BUSY_TIMEOUT_MS, 2_000);
  },
);

t.test('the table has exactly the documented service-account columns', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  await open(t, path);
  const columns = raw(t, path).prepare("PRAGMA table_info('service_accounts')").all() as {
    name: string;
    type: string;
    pk: number;
  }[];
  t.same(
    columns.map((c) => [c.name, c.type, c.pk]),
    [
      ['id', 'TEXT', 1],
      ['name', 'TEXT', 0],
      ['token_hash', 'TEXT', 0],
      ['token_prefix', 'TEXT', 0],
      ['scopes', 'TEXT', 0],
      ['created_at', 'INTEGER', 0],
      ['expires_at', 'INTEGER', 0],
      ['last_used_at', 'INTEGER', 0],
      ['revoked_at', 'INTEGER', 0],
      ['created_by', 'TEXT', 0],
    ],
  );
  const tables = raw(t, path)
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all() as { name: string }[];
  t.same(
    tables.map((r) => r.name).sort(),
    ['service_account_changes', 'service_accounts', 'sqlite_sequence'],
    "the accounts, their change log, and SQLite's own AUTOINCREMENT table",
  );
  const plan = raw(t, path)
    .prepare("EXPLAIN QUERY PLAN SELECT * FROM service_accounts WHERE token_hash = 'x'")
    .all() as { detail: string }[];
  t.match(plan[0]?.detail, /USING INDEX/, 'look-ups by digest use an index');
});

t.test('reopening an existing store keeps its rows', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const first = await openSqliteStore(path);
  t.equal(await first.insert(record(), NOW), 'inserted');
  first.close();
  const second = await open(t, path);
  t.same(await second.findByHash(record().token_hash), record());
});

t.test('insert and find by digest; scopes round-trip as a JSON array', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const store = await open(t, path);
  t.equal(await store.findByHash(record().token_hash), null, 'nothing yet');
  t.equal(await store.insert(record(), NOW), 'inserted');
  const found = await store.findByHash(record().token_hash);
  t.same(found, record());
  t.ok(Object.isFrozen(found) && Object.isFrozen(found?.scopes), 'records are frozen');
  const row = raw(t, path).prepare('SELECT scopes FROM service_accounts').get() as {
    scopes: string;
  };
  t.equal(row.scopes, '["agents:run","config:read"]', 'plain JSON an operator can read');
});

t.test('hand-edited scopes: only a JSON array is stored, and only its strings grant', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const store = await open(t, path);
  await store.insert(record(), NOW);
  const db = raw(t, path);
  for (const bad of [`'{"x": 1}'`, `'not json'`, `'"config:read"'`]) {
    t.throws(() => db.exec(`UPDATE service_accounts SET scopes = ${bad}`), {
      code: 'SQLITE_CONSTRAINT_CHECK',
    });
  }
  t.throws(() => db.exec(`UPDATE service_accounts SET token_hash = 'short'`), {
    code: 'SQLITE_CONSTRAINT_CHECK',
  });
  db.exec(`UPDATE service_accounts SET scopes = '["config:read", 7, null]'`);
  t.same((await store.findByHash(record().token_hash))?.scopes, ['config:read']);
});

t.test('a name is taken only while an account with it is active', async (t) => {
  const store = await open(t);
  t.equal(await store.insert(record({ id: 'one' }), NOW), 'inserted');
  t.equal(await store.insert(record({ id: 'two' }), NOW), 'name_taken', 'active: taken');
  t.equal((await store.revoke('one', NOW + 1)).outcome, 'revoked');
  t.equal(await store.insert(record({ id: 'two' }), NOW + 2), 'inserted', 'revoked: free again');
  t.equal(
    await store.insert(record({ id: 'three', name: 'short', expires_at: NOW + 10 }), NOW),
    'inserted',
  );
  t.equal(
    await store.insert(record({ id: 'four', name: 'short' }), NOW + 9),
    'name_taken',
    'before expiry: taken',
  );
  t.equal(
    await store.insert(record({ id: 'four', name: 'short' }), NOW + 10),
    'inserted',
    'expired: free again',
  );
  t.equal(
    await store.insert(record({ id: 'five', name: 'forever', expires_at: null }), NOW),
    'inserted',
  );
  t.equal(
    await store.insert(record({ id: 'six', name: 'forever' }), NOW + 10 ** 8),
    'name_taken',
    'never expires: always taken',
  );
});

t.test('two stores on one file cannot both mint the same active name', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const a = await open(t, path);
  const b = await open(t, path);
  t.equal(await a.insert(record({ id: 'one' }), NOW), 'inserted');
  t.equal(await b.insert(record({ id: 'two' }), NOW), 'name_taken');
});

t.test('list pages newest first and counts every account', async (t) => {
  const store = await open(t);
  t.same(await store.list(0, 10), { rows: [], total: 0 });
  for (let i = 0; i < 5; i++) {
    await store.insert(record({ id: `id-${i}`, name: `n${i}`, created_at: NOW + i }), NOW + i);
  }
  await store.insert(record({ id: 'id-5b', name: 'n5b', created_at: NOW + 4 }), NOW + 4);
  const first = await store.list(0, 2);
  t.equal(first.total, 6);
  t.same(
    first.rows.map((r) => r.id),
    ['id-4', 'id-5b'],
    'newest first; the same second ordered by id',
  );
  t.same(
    (await store.list(2, 2)).rows.map((r) => r.id),
    ['id-3', 'id-2'],
  );
  t.same(
    (await store.list(4, 10)).rows.map((r) => r.id),
    ['id-1', 'id-0'],
  );
  t.same((await store.list(6, 10)).rows, [], 'past the end');
});

t.test('revoke: revoked, already revoked, not found', async (t) => {
  const store = await open(t);
  await store.insert(record(), NOW);
  t.same(await store.revoke('id-ci', NOW + 5), {
    outcome: 'revoked',
    tokenHash: record().token_hash,
  });
  t.equal((await store.findByHash(record().token_hash))?.revoked_at, NOW + 5);
  t.same(await store.revoke('id-ci', NOW + 9), {
    outcome: 'already_revoked',
    tokenHash: record().token_hash,
  });
  t.equal(
    (await store.findByHash(record().token_hash))?.revoked_at,
    NOW + 5,
    'the first time stays',
  );
  t.same(await store.revoke('nope', NOW), { outcome: 'not_found' });
});

t.test('touch queues last_used_at; a flush writes it and never moves it back', async (t) => {
  const store = await open(t);
  await store.insert(record(), NOW);
  store.touch('id-ci', NOW + 60);
  t.equal(store.pendingTouches, 1);
  t.equal(
    (await store.findByHash(record().token_hash))?.last_used_at,
    null,
    'not written by touch',
  );
  await store.flush();
  t.equal(store.pendingTouches, 0);
  t.equal((await store.findByHash(record().token_hash))?.last_used_at, NOW + 60);
  store.touch('id-ci', NOW + 30);
  await store.flush();
  t.equal((await store.findByHash(record().token_hash))?.last_used_at, NOW + 60, 'not back');
  store.touch('id-ci', NOW + 90);
  store.touch('id-ci', NOW + 70);
  t.equal(store.pendingTouches, 1, 'one entry per account, the latest time kept');
  store.touch('unknown', NOW);
  await store.flush();
  t.equal((await store.findByHash(record().token_hash))?.last_used_at, NOW + 90);
  await store.flush();
  t.equal(store.pendingTouches, 0, 'an empty flush writes nothing');
});

t.test('the touch queue is bounded; a closed store flushes what it holds', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const store = await openSqliteStore(path, { maxPendingTouches: 2 });
  t.equal(MAX_PENDING_TOUCHES, 10_000);
  await store.insert(record(), NOW);
  store.touch('id-ci', NOW + 5);
  store.touch('b', NOW);
  store.touch('c', NOW);
  t.equal(store.pendingTouches, 2, 'a third account is not queued');
  store.close();
  const db = raw(t, path);
  t.same(
    db.prepare('SELECT last_used_at FROM service_accounts').get(),
    { last_used_at: NOW + 5 },
    'flushed on close',
  );
});

t.test('a database newer than this build is refused untouched, naming the file', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const db = new Sqlite(path);
  db.pragma('user_version = 7');
  db.close();
  await t.rejects(openSqliteStore(path), {
    name: 'ServiceAccountStoreError',
    code: 'ERR_SERVICE_ACCOUNT_STORE',
    location: path,
    permanent: true,
    message: `service-account store '${path}': schema version 7 is newer than version 2, the newest this build knows; refusing to open it (run a newer scopegate, or point auth.service_accounts.store at another file)`,
  });
  const after = new Sqlite(path);
  t.equal(after.pragma('journal_mode', { simple: true }), 'delete', 'not switched to WAL');
  after.close();
});

t.test('files that cannot be a store fail to open, naming the file', async (t) => {
  const dir = t.testdir({ 'garbage.db': 'this is not a database '.repeat(20), plain: 'x' });
  const rows: [string, string, RegExp][] = [
    ['not a database', join(dir, 'garbage.db'), /cannot open: SqliteError: file is not a database/],
    ['a folder under a file', join(dir, 'plain', 'x.db'), /cannot open: Error: EEXIST/],
    ['a folder', dir, /cannot open: /],
  ];
  for (const [name, path, message] of rows) {
    await t.rejects(openSqliteStore(path), { location: path, message }, name);
    try {
      await openSqliteStore(path);
    } catch (err) {
      t.ok((err as Error).message.startsWith(`service-account store '${path}': `), name);
    }
  }
});

t.test('a migration that fails applies nothing', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  await t.rejects(
    openSqliteStore(path, {
      migrations: [
        { version: 1, name: 'ok', sql: 'CREATE TABLE a (x INTEGER)' },
        { version: 2, name: 'bad', sql: 'CREATE TABLE nonsense (' },
      ],
    }),
    { message: /cannot open: SqliteError: incomplete input/ },
  );
  const db = raw(t, path);
  t.equal(db.pragma('user_version', { simple: true }), 0);
  t.same(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all(), []);
});

t.test('a file at the last version without the table is refused at start', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const db = new Sqlite(path);
  db.pragma('user_version = 1');
  db.close();
  await t.rejects(openSqliteStore(path), { message: /no such table: service_accounts/ });
});

t.test('failures after opening are store errors and mark the store unavailable', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const store = await open(t, path);
  await store.insert(record(), NOW);
  const db = raw(t, path);
  db.exec('ALTER TABLE service_accounts RENAME TO parked');
  const ops: [string, () => Promise<unknown>, string][] = [
    ['look-up', () => store.findByHash('x'), 'look-up'],
    ['insert', () => store.insert(record({ name: 'other' }), NOW), 'insert'],
    ['list', () => store.list(0, 10), 'list'],
    ['revoke', () => store.revoke('id-ci', NOW), 'revoke'],
  ];
  for (const [name, op, what] of ops) {
    await t.rejects(
      op(),
      {
        code: 'ERR_SERVICE_ACCOUNT_STORE',
        message: new RegExp(`^service-account store '.*': ${what} failed: .*no such table`),
      },
      name,
    );
    t.equal(store.available, false, `${name}: unavailable`);
  }
  store.touch('id-ci', NOW);
  await store.flush();
  t.equal(store.pendingTouches, 1, 'a failed flush keeps the use queued');
  db.exec('ALTER TABLE parked RENAME TO service_accounts');
  await store.flush();
  t.equal(store.pendingTouches, 0, 'written once the table is back');
  t.same(
    await store.findByHash(record().token_hash),
    { ...record(), last_used_at: NOW },
    'the table is back',
  );
  t.equal(store.available, true, 'a success makes it available again');
});

t.test('a closed store is unavailable and every call is a store error', async (t) => {
  const store = await openSqliteStore(join(t.testdir(), 'gateway.db'));
  await store.close();
  await store.close();
  t.equal(store.available, false);
  await t.rejects(store.findByHash('x'), { code: 'ERR_SERVICE_ACCOUNT_STORE' });
});

t.test('isServiceAccountStoreError matches on the code only', async (t) => {
  t.ok(isServiceAccountStoreError(new ServiceAccountStoreError('p', 'x')));
  t.notOk(isServiceAccountStoreError(new Error('service-account store')));
  t.notOk(isServiceAccountStoreError(null));
  t.notOk(isServiceAccountStoreError('ERR_SERVICE_ACCOUNT_STORE'));
});

t.test('inspect (check) reads the header only and writes nothing', async (t) => {
  const dir = t.testdir({
    'empty.db': '',
    'short.db': 'SQLite format 3\0',
    'garbage.db': 'x'.repeat(200),
    sub: {},
  });
  const good = join(dir, 'good.db');
  await (await openSqliteStore(good)).close();
  const newer = join(dir, 'newer.db');
  const db = new Sqlite(newer);
  db.pragma('user_version = 3');
  db.close();
  const before = readdirSync(dir).sort();
  t.equal(inspectServiceAccountStore(join(dir, 'missing.db')), null, 'not created yet: fine');
  t.equal(inspectServiceAccountStore(join(dir, 'empty.db')), null, 'empty: serve initialises it');
  t.equal(inspectServiceAccountStore(good), null, 'a store of this build');
  t.equal(
    inspectServiceAccountStore(join(dir, 'short.db')),
    `service-account store '${join(dir, 'short.db')}': not a SQLite database`,
  );
  t.equal(
    inspectServiceAccountStore(join(dir, 'garbage.db')),
    `service-account store '${join(dir, 'garbage.db')}': not a SQLite database`,
  );
  t.equal(
    inspectServiceAccountStore(newer),
    `service-account store '${newer}': schema version 3 is newer than version 2, the newest this build knows`,
  );
  t.match(
    inspectServiceAccountStore(join(dir, 'sub')),
    /^service-account store '.*sub': cannot read: Error: EISDIR/,
  );
  t.same(readdirSync(dir).sort(), before, 'no file created (no -shm, no -wal, no missing.db)');
});

/** The store file and its WAL companions, as `rm gateway.db*` would remove them. */
function removeFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
}

t.test('a removed file is noticed, and the store stays unavailable until reopened', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const store = await open(t, path);
  await store.insert(record(), NOW);
  t.equal(store.check(), true, 'the path names the opened file');
  removeFiles(path);
  t.equal(store.check(), false, 'removed');
  t.equal(store.available, false);
  const lost =
    /^service-account store '.*': (look-up|insert|list|revoke) failed: Error: the file at this path is no longer the one opened \(removed, replaced or unreadable\); reload or restart the gateway to open it again$/;
  const ops: [string, () => Promise<unknown>][] = [
    ['look-up', () => store.findByHash(record().token_hash)],
    ['insert', () => store.insert(record({ name: 'other' }), NOW)],
    ['list', () => store.list(0, 10)],
    ['revoke', () => store.revoke('id-ci', NOW)],
  ];
  for (const [name, op] of ops) {
    await t.rejects(op(), { code: 'ERR_SERVICE_ACCOUNT_STORE', busy: false, message: lost }, name);
  }
  store.touch('id-ci', NOW);
  await store.flush();
  t.equal(store.pendingTouches, 1, 'nothing is written to a lost file');
  // Another process creates a fresh store at the path: a different file, never trusted silently.
  await (await openSqliteStore(path)).close();
  t.equal(store.check(), false, 'a new file at the path is not the one opened');
  const reopened = await open(t, path);
  t.equal(reopened.available, true, 'opening again (a reload, a restart) serves the new file');
  t.equal(await reopened.findByHash(record().token_hash), null, 'whose rows are its own');
});

t.test('a replaced file is noticed by its identity, not its contents', async (t) => {
  const dir = t.testdir();
  const path = join(dir, 'gateway.db');
  const store = await open(t, path);
  await store.insert(record(), NOW);
  // A byte-for-byte copy moved into place is still another file.
  const db = raw(t, path);
  db.exec(`VACUUM INTO '${join(dir, 'copy.db')}'`);
  renameSync(join(dir, 'copy.db'), path);
  t.equal(store.check(), false);
  await t.rejects(store.findByHash(record().token_hash), { message: /no longer the one opened/ });
});

t.test('the periodic check notices a removed file with no operation at all', async (t) => {
  t.equal(CHECK_INTERVAL_MS, 1_000);
  const path = join(t.testdir(), 'gateway.db');
  const store = await open(t, path);
  removeFiles(path);
  t.equal(store.available, true, 'not checked yet');
  // Waits for the store's own timer (an event, not a time bound).
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (!store.available) {
        clearInterval(poll);
        resolve();
      }
    }, 50);
  });
  t.equal(store.available, false, 'noticed by the timer');
});

t.test(
  'another connection holding the write lock: writes fail at once as busy, reads go on',
  async (t) => {
    const path = join(t.testdir(), 'gateway.db');
    const store = await open(t, path);
    await store.insert(record(), NOW);
    const other = raw(t, path);
    other.exec('BEGIN IMMEDIATE');
    const busy = {
      code: 'ERR_SERVICE_ACCOUNT_STORE',
      busy: true,
      message: /SQLITE_BUSY|database is locked/,
    };
    await t.rejects(store.insert(record({ name: 'second' }), NOW), busy, 'insert');
    await t.rejects(store.revoke('id-ci', NOW), busy, 'revoke');
    t.equal(store.available, true, 'a lock says nothing about the store: still available');
    t.same(await store.findByHash(record().token_hash), record(), 'reads never wait for a writer');
    t.equal((await store.list(0, 10)).total, 1);
    store.touch('id-ci', NOW + 1);
    await store.flush();
    t.equal(store.pendingTouches, 1, 'the use stays queued for the next flush');
    t.equal(store.available, true);
    other.exec('COMMIT');
    await store.flush();
    t.equal(store.pendingTouches, 0);
    t.equal(await store.insert(record({ name: 'second' }), NOW), 'inserted', 'the lock released');
  },
);

t.test('an insert is confirmed only when the row reads back', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const store = await open(t, path);
  raw(t, path).exec(
    'CREATE TRIGGER vanish AFTER INSERT ON service_accounts BEGIN ' +
      'DELETE FROM service_accounts WHERE id = NEW.id; END',
  );
  await t.rejects(store.insert(record(), NOW), {
    code: 'ERR_SERVICE_ACCOUNT_STORE',
    message: /insert failed: Error: the new row does not read back$/,
  });
  t.equal((await store.list(0, 10)).total, 0);
});

t.test('a revoke writes a change-log row that readers see after their cursor', async (t) => {
  const path = join(t.testdir(), 'gateway.db');
  const store = await open(t, path);
  const other = await open(t, path);
  t.equal(store.listen({ onNotify() {}, onConnection() {} }), null, 'SQLite has no notifications');
  t.same(await other.readChanges(null), { cursor: 0, tokenHashes: [], gap: false }, 'empty log');
  await store.insert(record({ id: 'one', name: 'one' }), NOW);
  await store.insert(record({ id: 'two', name: 'two' }), NOW);
  await store.revoke('one', NOW + 1);
  await store.revoke('one', NOW + 2);
  t.same(
    await other.readChanges(0),
    { cursor: 1, tokenHashes: [record({ id: 'one' }).token_hash], gap: false },
    'one row: an already revoked account writes none',
  );
  t.same(await other.readChanges(1), { cursor: 1, tokenHashes: [], gap: false }, 'nothing new');
  await store.revoke('two', NOW + 3);
  t.same((await other.readChanges(null)).cursor, 2, 'the head');
  const rows = raw(t, path)
    .prepare('SELECT seq, account_id, change, changed_at FROM service_account_changes')
    .all();
  t.same(rows, [
    { seq: 1, account_id: 'one', change: 'revoked', changed_at: NOW + 1 },
    { seq: 2, account_id: 'two', change: 'revoked', changed_at: NOW + 3 },
  ]);
});

t.test('pruning keeps the newest row; a reader behind the pruned rows sees a gap', async (t) => {
  const store = await open(t);
  for (const [i, name] of ['a', 'b', 'c'].entries()) {
    await store.insert(record({ id: name, name }), NOW);
    await store.revoke(name, NOW + i);
  }
  t.equal(await store.pruneChanges(NOW + 100), 2, 'all but the newest');
  t.equal(await store.pruneChanges(NOW + 100), 0, 'the newest stays');
  t.same(await store.readChanges(0), {
    cursor: 3,
    tokenHashes: [record({ id: 'c' }).token_hash],
    gap: true,
  });
  t.same(await store.readChanges(2), {
    cursor: 3,
    tokenHashes: [record({ id: 'c' }).token_hash],
    gap: false,
  });
});
