/**
 * One behaviour, two engines: the same checks run against the SQLite store (a file in the test
 * dir) and the Postgres store (a fresh database on a real server), through the store interface
 * only: find, insert and the one-active-name rule, list order and pages, revoke outcomes and the
 * change log (cursor and gap), pruning that keeps the newest change, and last_used_at writes
 * that never move back.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { accountRecord, RECORD_NOW } from '../../fixtures/service-accounts.js';
import { openPostgresStore } from '../../../src/auth/service-accounts/postgres-store.js';
import { openSqliteStore } from '../../../src/auth/service-accounts/sqlite-store.js';
import type {
  ServiceAccountRecord,
  ServiceAccountStore,
  StoreKind,
} from '../../../src/auth/service-accounts/store.js';
import { testDatabase } from '../../fixtures/postgres.js';

const NOW = RECORD_NOW;

const record = accountRecord;

const hash = (id: string): string => record({ id }).token_hash;

/** The engines under test: each opens an empty store closed at teardown (null: skipped). */
const ENGINES: readonly {
  readonly kind: StoreKind;
  open(t: Test): Promise<ServiceAccountStore | null>;
}[] = [
  {
    kind: 'sqlite',
    async open(t) {
      const store = await openSqliteStore(join(t.testdir(), 'gateway.db'), {});
      t.teardown(() => store.close());
      return store;
    },
  },
  {
    kind: 'postgres',
    async open(t) {
      const url = await testDatabase(t);
      if (url === null) return null;
      const store = await openPostgresStore(url, { replicaId: 'contract' });
      t.teardown(() => store.close());
      return store;
    },
  },
];

/** The behaviour checks, each run on every engine. */
const CHECKS: readonly {
  readonly name: string;
  run(t: Test, store: ServiceAccountStore): Promise<void>;
}[] = [
  {
    name: 'find by digest answers the whole record, whatever its state, or null',
    async run(t, store) {
      t.equal(await store.findByHash(hash('nobody')), null, 'unknown digest');
      const accounts = [
        record(),
        record({ name: 'gone', revoked_at: NOW - 1, last_used_at: NOW - 5 }),
        record({ name: 'forever', expires_at: null, scopes: [] }),
      ];
      for (const a of accounts) t.equal(await store.insert(a, NOW), 'inserted');
      for (const a of accounts) t.same(await store.findByHash(a.token_hash), a, a.name);
    },
  },
  {
    name: 'insert refuses a name an active account holds; an expired or revoked holder frees it',
    async run(t, store) {
      const rows: { name: string; holder: Partial<ServiceAccountRecord>; want: string }[] = [
        { name: 'active holder', holder: {}, want: 'name_taken' },
        { name: 'holder that never expires', holder: { expires_at: null }, want: 'name_taken' },
        { name: 'holder expired before now', holder: { expires_at: NOW - 1 }, want: 'inserted' },
        { name: 'holder expiring exactly now', holder: { expires_at: NOW }, want: 'inserted' },
        { name: 'revoked holder', holder: { revoked_at: NOW - 10 }, want: 'inserted' },
      ];
      for (const [i, row] of rows.entries()) {
        const name = `name-${i}`;
        t.equal(
          await store.insert(record({ name, id: `${name}-a`, ...row.holder }), NOW),
          'inserted',
        );
        t.equal(await store.insert(record({ name, id: `${name}-b` }), NOW), row.want, row.name);
      }
    },
  },
  {
    name: 'list: newest first, then id byte-wise; pages and the total',
    async run(t, store) {
      t.same(await store.list(0, 10), { rows: [], total: 0 }, 'empty');
      const accounts = [
        record({ name: 'a', id: 'b', created_at: NOW }),
        record({ name: 'b', id: 'B', created_at: NOW }),
        record({ name: 'c', id: 'a', created_at: NOW - 5 }),
        record({ name: 'd', id: 'c', created_at: NOW + 5 }),
      ];
      for (const a of accounts) await store.insert(a, NOW);
      const rows: { name: string; offset: number; limit: number; ids: string[] }[] = [
        { name: 'everything', offset: 0, limit: 10, ids: ['c', 'B', 'b', 'a'] },
        { name: 'first page', offset: 0, limit: 2, ids: ['c', 'B'] },
        { name: 'second page', offset: 2, limit: 2, ids: ['b', 'a'] },
        { name: 'past the end', offset: 4, limit: 2, ids: [] },
      ];
      for (const row of rows) {
        const page = await store.list(row.offset, row.limit);
        t.same(
          page.rows.map((r) => r.id),
          row.ids,
          row.name,
        );
        t.equal(page.total, 4, `${row.name}: total`);
      }
      t.same((await store.list(0, 1)).rows, [accounts[3]], 'whole records');
    },
  },
  {
    name: 'revoke: not found, revoked (one change), already revoked (no change)',
    async run(t, store) {
      await store.insert(record(), NOW);
      t.same(
        await store.readChanges(null),
        { cursor: 0, tokenHashes: [], gap: false },
        'no change',
      );
      t.same(await store.revoke('nope', NOW), { outcome: 'not_found' });
      t.same(await store.revoke(record().id, NOW + 1), {
        outcome: 'revoked',
        tokenHash: record().token_hash,
      });
      t.same(await store.revoke(record().id, NOW + 2), {
        outcome: 'already_revoked',
        tokenHash: record().token_hash,
      });
      t.equal((await store.findByHash(record().token_hash))?.revoked_at, NOW + 1, 'first kept');
      t.same(await store.readChanges(0), {
        cursor: 1,
        tokenHashes: [record().token_hash],
        gap: false,
      });
      t.same(await store.readChanges(null), { cursor: 1, tokenHashes: [], gap: false }, 'head');
    },
  },
  {
    name: 'readChanges: after a cursor, in order; a gap once unseen changes were pruned',
    async run(t, store) {
      const ids = ['r1', 'r2', 'r3', 'r4'];
      for (const [i, id] of ids.entries()) {
        await store.insert(record({ name: id, id }), NOW);
        await store.revoke(id, NOW + i * 100);
      }
      const rows: { name: string; cursor: number | null; want: object }[] = [
        { name: 'the head', cursor: null, want: { cursor: 4, tokenHashes: [], gap: false } },
        {
          name: 'from the start',
          cursor: 0,
          want: { cursor: 4, tokenHashes: ids.map(hash), gap: false },
        },
        {
          name: 'after 2',
          cursor: 2,
          want: { cursor: 4, tokenHashes: [hash('r3'), hash('r4')], gap: false },
        },
        { name: 'up to date', cursor: 4, want: { cursor: 4, tokenHashes: [], gap: false } },
      ];
      for (const row of rows) t.same(await store.readChanges(row.cursor), row.want, row.name);
      t.equal(await store.pruneChanges(NOW + 150), 2, 'the two oldest go');
      const pruned: typeof rows = [
        {
          name: 'from the start',
          cursor: 0,
          want: { cursor: 4, tokenHashes: [hash('r3'), hash('r4')], gap: true },
        },
        {
          name: 'after 1',
          cursor: 1,
          want: { cursor: 4, tokenHashes: [hash('r3'), hash('r4')], gap: true },
        },
        {
          name: 'after 2',
          cursor: 2,
          want: { cursor: 4, tokenHashes: [hash('r3'), hash('r4')], gap: false },
        },
      ];
      for (const row of pruned)
        t.same(await store.readChanges(row.cursor), row.want, `pruned: ${row.name}`);
    },
  },
  {
    name: 'pruning never deletes the newest change',
    async run(t, store) {
      t.equal(await store.pruneChanges(NOW + 10_000), 0, 'empty log');
      for (const id of ['p1', 'p2', 'p3']) {
        await store.insert(record({ name: id, id }), NOW);
        await store.revoke(id, NOW);
      }
      t.equal(await store.pruneChanges(NOW), 0, 'nothing older');
      t.equal(await store.pruneChanges(NOW + 10_000), 2, 'all but the newest');
      t.equal(await store.pruneChanges(NOW + 10_000), 0);
      t.same(await store.readChanges(2), { cursor: 3, tokenHashes: [hash('p3')], gap: false });
      t.same(await store.readChanges(null), { cursor: 3, tokenHashes: [], gap: false });
    },
  },
  {
    name: 'touch and flush: the newest use per account, never moving last_used_at back',
    async run(t, store) {
      for (const name of ['a', 'b']) await store.insert(record({ name }), NOW);
      store.touch('id-a', NOW + 10);
      store.touch('id-a', NOW + 5);
      store.touch('id-b', NOW + 50);
      t.equal(store.pendingTouches, 2);
      await store.flush();
      t.equal(store.pendingTouches, 0);
      store.touch('id-b', NOW + 20);
      store.touch('id-nobody', NOW + 20);
      await store.flush();
      const used = async (id: string) => (await store.findByHash(hash(id)))?.last_used_at;
      t.equal(await used('id-a'), NOW + 10, 'newest queued use');
      t.equal(await used('id-b'), NOW + 50, 'an older use never moves it back');
    },
  },
];

for (const engine of ENGINES) {
  t.test(engine.kind, async (t) => {
    for (const check of CHECKS) {
      t.test(`${check.name} [${engine.kind}]`, async (t) => {
        const store = await engine.open(t);
        if (store === null) return;
        t.equal(store.kind, engine.kind);
        await check.run(t, store);
      });
    }
  });
}
