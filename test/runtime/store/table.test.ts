/**
 * The table layer on a real SQLite file and on PostgreSQL: each column kind crosses between record
 * and row as declared, put upserts (keeping the declared columns), insert never overwrites, update
 * and delete say whether there was a row, a transaction rolls back, and a closed database fails.
 */
import { sql } from 'kysely';
import t from 'tap';
import type { Database } from '../../../src/runtime/store/database.js';
import { tableOf } from '../../../src/runtime/store/table.js';
import { eachItems, ITEMS, item, type Item } from './fixtures/items.js';

eachItems(t, 'record and row: JSON, booleans, seconds and nulls', async (t, db, kind) => {
  const { database } = db;
  const items = tableOf(database, ITEMS);
  // As SQLite stores them; PostgreSQL keeps booleans as such and hands jsonb back parsed.
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
  const bool = (done: unknown) => (kind === 'sqlite' || done === null ? done : done === 1);
  const json = (tags: unknown) =>
    kind === 'sqlite' || tags === null ? tags : JSON.parse(tags as string);
  for (const [name, record, row] of rows) {
    t.same(items.toRow(record), { ...row, done: bool(row['done']) }, `${name}: to the row`);
    await items.put(record);
    t.same(
      await db.rows(sql`SELECT * FROM items WHERE id = ${record.id}`),
      [{ ...row, done: bool(row['done']), tags: json(row['tags']) }],
      `${name}: as stored`,
    );
    t.same(await items.get(record.id), record, `${name}: read back`);
  }
  t.same(
    items.fromRow({
      id: 'd',
      name: 'd',
      tags: null,
      done: bool(1),
      at: '7',
      created: 8,
      extra: 'x',
    }),
    item({ id: 'd', done: true, at: 7, created: 8 }),
    'seconds read as numbers; undeclared columns are dropped',
  );
  t.equal(await items.get('nope'), null, 'an unknown key is null');
});

eachItems(
  t,
  'put upserts and keeps keepOnUpdate; insert, update and delete report',
  async (t, { database }) => {
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
  },
);

eachItems(
  t,
  'update and patch with expected values: a compare-and-set on what was read',
  async (t, { database }) => {
    const items = tableOf(database, ITEMS);
    await items.put(item({ id: 'a', name: 'first', done: false }));
    const rows: [name: string, expected: Partial<Item>, written: boolean][] = [
      ['a value the row no longer holds', { name: 'stale' }, false],
      ['NULL expected, a value held', { tags: null, done: null }, false],
      [
        'every value still held (null as IS NULL)',
        { name: 'first', tags: null, done: false },
        true,
      ],
    ];
    for (const [name, expected, written] of rows) {
      t.equal(await items.update(item({ id: 'a', name: 'second' }), expected), written, name);
    }
    t.same(await items.get('a'), item({ id: 'a', name: 'second' }), 'the winning write only');
    t.equal(await items.update(item({ id: 'nope' }), {}), false, 'no such row');

    t.same(
      await items.patch('a', { name: 'third', tags: ['x'], at: undefined }),
      item({ id: 'a', name: 'third', tags: ['x'] }),
      'patch sets the given fields, leaves the undefined ones, answers the stored record',
    );
    t.equal(await items.patch('a', { name: 'lost' }, { name: 'second' }), null, 'stale: no write');
    t.equal(await items.patch('nope', { name: 'x' }), null, 'no such row');
    t.same(
      await items.patch('a', { id: 'ignored', done: true, at: 7 }, { tags: ['x'] }),
      item({ id: 'a', name: 'third', tags: ['x'], done: true, at: 7 }),
      'a JSON value expected as stored; the key is never changed',
    );
  },
);

eachItems(t, 'columnNames: a field stored under another column name', async (t, db) => {
  const { database } = db;
  const renamed = tableOf<{ key: string; label: string; at: number; created: number }>(database, {
    name: ITEMS.name,
    key: 'key',
    columns: ['key', 'label', 'at', 'created'],
    columnNames: { key: 'id', label: 'name' },
  });
  const record = { key: 'a', label: 'Apple', at: 1, created: 1 };
  t.same(renamed.toRow(record), { id: 'a', name: 'Apple', at: 1, created: 1 });
  await renamed.put(record);
  t.same(await db.rows(sql`SELECT id, name FROM items`), [{ id: 'a', name: 'Apple' }]);
  t.same(await renamed.get('a'), record);
  t.same(await renamed.patch('a', { label: 'Apricot' }, { label: 'Apple' }), {
    ...record,
    label: 'Apricot',
  });
});

eachItems(
  t,
  'in(trx): writes in a transaction that throws are rolled back',
  async (t, { database }) => {
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
  },
);

eachItems(t, 'a closed database fails every operation loudly', async (t, db, kind) => {
  const items = tableOf(db.database, ITEMS);
  await db.close();
  const closed =
    kind === 'sqlite'
      ? { name: 'TypeError', message: /not open/ }
      : { name: 'Error', message: /Cannot use a pool after calling end on the pool/ };
  const rows: [name: string, run: () => Promise<unknown>][] = [
    ['get', () => items.get('a')],
    ['put', () => items.put(item({ id: 'a' }))],
    ['insert', () => items.insert(item({ id: 'a' }))],
    ['insertAll', () => items.insertAll([item({ id: 'a' })])],
    ['update', () => items.update(item({ id: 'a' }))],
    ['patch', () => items.patch('a', { name: 'b' })],
    ['delete', () => items.delete('a')],
  ];
  for (const [name, run] of rows) await t.rejects(run(), closed, name);
});

eachItems(
  t,
  'a declaration with no column kinds: values pass as they are, put replaces all',
  async (t, { database }) => {
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

eachItems(
  t,
  'columnNames: the key and other fields kept in columns of other names',
  async (t, db) => {
    const { database } = db;
    /** An item whose fields are named apart from their columns. */
    interface Renamed {
      key: string;
      label: string;
      when: number;
      created: number;
    }
    const renamed = tableOf<Renamed>(database, {
      name: ITEMS.name,
      key: 'key',
      columns: ['key', 'label', 'when', 'created'],
      seconds: ['when'],
      keepOnUpdate: ['created'],
      columnNames: { key: 'id', label: 'name', when: 'at' },
    });
    const record = { key: 'a', label: 'A', when: 7, created: 1 };
    t.same(renamed.toRow(record), { id: 'a', name: 'A', at: 7, created: 1 }, 'to the row');
    await renamed.put(record);
    t.same(await db.rows(sql`SELECT id, name, at, created FROM items`), [
      { id: 'a', name: 'A', at: 7, created: 1 },
    ]);
    await renamed.put({ ...record, label: 'B', created: 2 });
    t.same(await renamed.get('a'), { ...record, label: 'B' }, 'upserted under the column names');
    t.equal(await renamed.update({ ...record, label: 'C' }), true);
    t.same(await renamed.get('a'), { ...record, label: 'C' });
    t.equal(await renamed.delete('a'), true);
  },
);

eachItems(t, 'jsonNull: null is stored as JSON null, not SQL NULL', async (t, db, kind) => {
  const { database } = db;
  const items = tableOf<Item>(database, { ...ITEMS, json: [], jsonNull: ['tags'] });
  await items.put(item({ id: 'a' }));
  await items.put(item({ id: 'b', tags: ['x'] }));
  // Read as text: SQLite's is text already, PostgreSQL's jsonb as its text.
  t.same(
    await db.rows(
      kind === 'sqlite'
        ? sql`SELECT id, tags FROM items ORDER BY id`
        : sql`SELECT id, tags::text AS tags FROM items ORDER BY id`,
    ),
    [
      { id: 'a', tags: 'null' },
      { id: 'b', tags: '["x"]' },
    ],
    'as stored',
  );
  t.same((await items.get('a'))?.tags, null, 'read back as null');
  t.same((await items.get('b'))?.tags, ['x']);
});

eachItems(
  t,
  'insertAll: many rows in few statements, in a transaction all or none',
  async (t, db, kind) => {
    const { database } = db;
    const items = tableOf(database, ITEMS);
    // More rows than one statement binds (16,000 parameters / 6 columns = 2,666 rows).
    const many = Array.from({ length: 6000 }, (_, i) => item({ id: `i${i}`, tags: [String(i)] }));
    await items.insertAll(many);
    await items.insertAll([]);
    t.same(await db.rows(sql`SELECT count(*) AS n FROM items`), [{ n: 6000 }]);
    t.same(await items.get('i5999'), many[5999], 'the last of the last statement');
    await t.rejects(
      database.db.transaction().execute(async (trx) => {
        await items.in(trx).insertAll([item({ id: 'new' }), item({ id: 'i0' })]);
      }),
      { code: kind === 'sqlite' ? 'SQLITE_CONSTRAINT_PRIMARYKEY' : '23505' },
      'a taken key fails the insert',
    );
    t.equal(await items.get('new'), null, 'nothing of it written');
  },
);

eachItems(t, 'change: a compare-and-set on the values read, one winner of two', async (t, db) => {
  const { database } = db;
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
  // Two readers of one value on two connections to the same database: exactly one wins.
  const other = tableOf(await db.second(), ITEMS);
  const read = (await items.get('a')) as Item;
  const won = await Promise.all([
    items.change('a', { at: 10 }, { at: read.at }),
    other.change('a', { at: 20 }, { at: read.at }),
  ]);
  t.same(won.filter(Boolean).length, 1, 'one of the two');
  t.equal((await items.get('a'))?.at, won[0] ? 10 : 20, "the winner's value");
});

eachItems(
  t,
  'a composite key: get, put, update, change and delete by its values',
  async (t, db, kind) => {
    const { database } = db;
    await db.exec(
      kind === 'sqlite'
        ? `CREATE TABLE pairs (
           owner TEXT NOT NULL, n INTEGER NOT NULL, note TEXT NOT NULL, PRIMARY KEY (owner, n)
         ) STRICT`
        : `CREATE TABLE pairs (
           owner text NOT NULL, n integer NOT NULL, note text NOT NULL, PRIMARY KEY (owner, n)
         )`,
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
    await t.rejects(pairs.deleteAll(['a']), new RangeError('pairs has a composite key'));
  },
);

eachItems(
  t,
  'deleteAll: many keys in chunks, only the rows holding the expected values',
  async (t, { database }) => {
    const items = tableOf(database, ITEMS);
    const ids = Array.from({ length: 1201 }, (_, at) => `i${at}`);
    await items.insertAll(ids.map((id, at) => item({ id, name: at % 2 === 0 ? 'even' : 'odd' })));
    t.equal(await items.deleteAll([]), 0, 'no keys, nothing deleted');
    t.equal(await items.deleteAll([...ids, 'unknown'], { name: 'even' }), 601, 'only the evens');
    t.equal(await items.deleteAll(ids), 600, 'the rest, over three statements');
    t.equal(await items.get('i1'), null);
  },
);

eachItems(
  t,
  'find: the rows holding the expected values, in the given order',
  async (t, { database }) => {
    const items = tableOf(database, ITEMS);
    await items.insertAll([
      item({ id: 'a', name: 'x', at: 30 }),
      item({ id: 'b', name: 'y', at: 10, done: true }),
      item({ id: 'c', name: 'x', at: 20 }),
    ]);
    const ids = (found: Item[]) => found.map((one) => one.id);
    t.same(ids(await items.find({}, ['at'])), ['b', 'c', 'a'], 'every row, by at');
    t.same(ids(await items.find({ name: 'x' }, ['name', 'id'])), ['a', 'c'], 'by two columns');
    t.same(ids(await items.find({ done: null }, ['at'])), ['c', 'a'], 'null matches NULL');
    t.same(ids(await items.find({ name: 'z' })), [], 'none');
  },
);
