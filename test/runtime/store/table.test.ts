/**
 * The table layer on a real SQLite file: each column kind crosses between record and row as
 * declared, put upserts (keeping the declared columns), insert never overwrites, update and
 * delete say whether there was a row, a transaction rolls back, and a closed database fails.
 */
import t from 'tap';
import { openConnection } from '../../../src/runtime/store/connection.js';
import { openDatabase, type Database } from '../../../src/runtime/store/database.js';
import { tableOf } from '../../../src/runtime/store/table.js';
import { ITEMS, item, itemsDatabase, type Item } from './fixtures/items.js';

t.test('record and row: JSON, booleans, seconds and nulls', async (t) => {
  const { database, connection } = itemsDatabase(t);
  const items = tableOf(database, ITEMS);
  const rows: [name: string, record: Item, row: Record<string, unknown>][] = [
    [
      'JSON array, true',
      item({ id: 'a', tags: ['x', 'y'], done: true }),
      { id: 'a', name: 'a', tags: '["x","y"]', done: 1, at: 100, created: 100 },
    ],
    [
      'empty JSON array, false',
      item({ id: 'b', tags: [], done: false }),
      { id: 'b', name: 'b', tags: '[]', done: 0, at: 100, created: 100 },
    ],
    [
      'nulls stay NULL',
      item({ id: 'c' }),
      { id: 'c', name: 'c', tags: null, done: null, at: 100, created: 100 },
    ],
  ];
  for (const [name, record, row] of rows) {
    t.same(items.toRow(record), row, `${name}: to the row`);
    await items.put(record);
    t.same(
      connection.prepare('SELECT * FROM items WHERE id = ?').get(record.id),
      row,
      `${name}: as stored`,
    );
    t.same(await items.get(record.id), record, `${name}: read back`);
  }
  t.same(
    items.fromRow({ id: 'd', name: 'd', tags: null, done: 1, at: '7', created: 8, extra: 'x' }),
    item({ id: 'd', done: true, at: 7, created: 8 }),
    'seconds read as numbers; undeclared columns are dropped',
  );
  t.equal(await items.get('nope'), null, 'an unknown key is null');
});

t.test('put upserts and keeps keepOnUpdate; insert, update and delete report', async (t) => {
  const { database } = itemsDatabase(t);
  const items = tableOf(database, ITEMS);
  await items.put(item({ id: 'a', at: 1, created: 1 }));
  await items.put(item({ id: 'a', name: 'renamed', at: 2, created: 2 }));
  t.same(await items.get('a'), item({ id: 'a', name: 'renamed', at: 2, created: 1 }));

  t.equal(await items.insert(item({ id: 'a', name: 'other' })), false, 'a taken key');
  t.equal((await items.get('a'))?.name, 'renamed', 'nothing written');
  t.equal(await items.insert(item({ id: 'b' })), true, 'a new key');

  t.equal(await items.update(item({ id: 'a', name: 'u', created: 5 })), true);
  t.same(await items.get('a'), item({ id: 'a', name: 'u', created: 5 }), 'every column');
  t.equal(await items.update(item({ id: 'nope' })), false, 'no such row');
  t.equal(await items.get('nope'), null, 'update never inserts');

  t.equal(await items.delete('a'), true);
  t.equal(await items.delete('a'), false, 'already gone');
  t.equal(await items.get('a'), null);
});

t.test('in(trx): writes in a transaction that throws are rolled back', async (t) => {
  const { database } = itemsDatabase(t);
  const items = tableOf(database, ITEMS);
  await t.rejects(
    database.db.transaction().execute(async (trx) => {
      await items.in(trx).put(item({ id: 'a' }));
      t.same(await items.in(trx).get('a'), item({ id: 'a' }), 'seen inside');
      throw new Error('abort');
    }),
    new Error('abort'),
  );
  t.equal(await items.get('a'), null, 'gone after the rollback');
});

t.test('a closed database fails every operation loudly', async (t) => {
  const { database, connection } = itemsDatabase(t);
  const items = tableOf(database, ITEMS);
  connection.close();
  const closed = { name: 'TypeError', message: /not open/ };
  const rows: [name: string, run: () => Promise<unknown>][] = [
    ['get', () => items.get('a')],
    ['put', () => items.put(item({ id: 'a' }))],
    ['insert', () => items.insert(item({ id: 'a' }))],
    ['update', () => items.update(item({ id: 'a' }))],
    ['delete', () => items.delete('a')],
  ];
  for (const [name, run] of rows) await t.rejects(run(), closed, name);
});

t.test(
  'a declaration with no column kinds: values pass as they are, put replaces all',
  async (t) => {
    const { database } = itemsDatabase(t);
    const plain = tableOf<{ id: string; name: string; at: number; created: number }>(database, {
      name: ITEMS.name,
      key: 'id',
      columns: ['id', 'name', 'at', 'created'],
    });
    await plain.put({ id: 'a', name: 'a', at: 1, created: 1 });
    await plain.put({ id: 'a', name: 'b', at: 2, created: 2 });
    t.same(await plain.get('a'), { id: 'a', name: 'b', at: 2, created: 2 });
  },
);

t.test('change: a compare-and-set on the values read, one winner of two', async (t) => {
  const { database, path } = itemsDatabase(t);
  const items = tableOf(database, ITEMS);
  await items.put(item({ id: 'a', at: 1, tags: ['x'] }));
  const rows: [name: string, run: () => Promise<boolean>, changed: boolean, after: Item][] = [
    [
      'the expected value holds: set',
      () => items.change('a', { at: 2, tags: ['y'] }, { at: 1 }),
      true,
      item({ id: 'a', at: 2, tags: ['y'] }),
    ],
    [
      'a stale expected value: nothing written',
      () => items.change('a', { at: 3 }, { at: 1 }),
      false,
      item({ id: 'a', at: 2, tags: ['y'] }),
    ],
    [
      'null expects NULL',
      () => items.change('a', { done: true }, { done: null, tags: ['y'] }),
      true,
      item({ id: 'a', at: 2, tags: ['y'], done: true }),
    ],
    [
      'no expectation: set unconditionally',
      () => items.change('a', { name: 'n' }),
      true,
      item({ id: 'a', name: 'n', at: 2, tags: ['y'], done: true }),
    ],
    [
      'an undeclared column never reaches the SQL',
      () => items.change('a', { at: 4, ...({ 'x = 1; --': 5 } as Partial<Item>) }, { at: 2 }),
      true,
      item({ id: 'a', name: 'n', at: 4, tags: ['y'], done: true }),
    ],
    [
      'an unknown key',
      () => items.change('nope', { at: 9 }),
      false,
      item({ id: 'a', name: 'n', at: 4, tags: ['y'], done: true }),
    ],
  ];
  for (const [name, run, changed, after] of rows) {
    t.equal(await run(), changed, name);
    t.same(await items.get('a'), after, `${name}: stored`);
  }
  // Two readers of one value on two connections to the same file: exactly one wins.
  const second = openConnection(path);
  t.teardown(() => second.close());
  const other = tableOf(openDatabase(second), ITEMS);
  const read = (await items.get('a')) as Item;
  const won = await Promise.all([
    items.change('a', { at: 10 }, { at: read.at }),
    other.change('a', { at: 20 }, { at: read.at }),
  ]);
  t.same(won.filter(Boolean).length, 1, 'one of the two');
  t.equal((await items.get('a'))?.at, won[0] ? 10 : 20, "the winner's value");
});

t.test('a composite key: get, put, update, change and delete by its values', async (t) => {
  const { connection, database } = itemsDatabase(t);
  connection.exec(
    `CREATE TABLE pairs (
       owner TEXT NOT NULL, n INTEGER NOT NULL, note TEXT NOT NULL, PRIMARY KEY (owner, n)
     ) STRICT`,
  );
  interface Pair {
    owner: string;
    n: number;
    note: string;
  }
  const pairs = tableOf<Pair>(database, {
    name: 'pairs' as keyof Database,
    key: ['owner', 'n'],
    columns: ['owner', 'n', 'note'],
  });
  await pairs.put({ owner: 'a', n: 1, note: 'one' });
  await pairs.put({ owner: 'a', n: 2, note: 'two' });
  await pairs.put({ owner: 'a', n: 1, note: 'uno' });
  t.same(await pairs.get(['a', 1]), { owner: 'a', n: 1, note: 'uno' }, 'upserted by both');
  t.same(await pairs.get(['a', 2]), { owner: 'a', n: 2, note: 'two' }, 'the other kept');
  t.equal(await pairs.insert({ owner: 'a', n: 2, note: 'x' }), false, 'a taken pair');
  t.equal(await pairs.update({ owner: 'a', n: 2, note: 'dos' }), true);
  t.equal(await pairs.change(['a', 2], { note: 'zwei' }, { note: 'dos' }), true);
  t.same(await pairs.get(['a', 2]), { owner: 'a', n: 2, note: 'zwei' });
  t.equal(await pairs.delete(['a', 1]), true);
  t.equal(await pairs.get(['a', 1]), null);
  t.equal(await pairs.get(['b', 2]), null, 'only the whole key matches');
  await t.rejects(pairs.get('a'), new RangeError('pairs has a key of 2 column(s), got 1'));
});
