/**
 * The query layer's dialect on a real SQLite file and on PostgreSQL: how JSON, booleans and seconds
 * are stored, and the dialect's query terms (folded search, JSON array overlap and elements) with
 * NULLs.
 */
import t from 'tap';
import { sql } from 'kysely';
import { eachItems, item, itemsDatabase } from './fixtures/items.js';
import { tableOf } from '../../../src/runtime/store/table.js';
import { ITEMS } from './fixtures/items.js';

// SQLite-only: the SQLite dialect's own values (PostgreSQL's are in postgres.test.ts).
t.test('the SQLite dialect stores JSON as text and booleans as 0/1', async (t) => {
  const { database } = itemsDatabase(t);
  const { dialect } = database;
  t.equal(dialect.name, 'sqlite');
  const rows: [name: string, value: unknown, stored: unknown][] = [
    ['an object', { a: [1, 'ü'] }, '{"a":[1,"ü"]}'],
    ['an array', ['x'], '["x"]'],
    ['a string', 'x', '"x"'],
  ];
  for (const [name, value, stored] of rows) {
    t.equal(dialect.jsonToColumn(value), stored, `${name}: stored`);
    t.same(dialect.jsonFromColumn(stored), value, `${name}: read`);
  }
  t.same([dialect.booleanToColumn(true), dialect.booleanToColumn(false)], [1, 0]);
  t.same([dialect.booleanFromColumn(1), dialect.booleanFromColumn(0)], [true, false]);
  t.same([dialect.secondsFromColumn(12), dialect.secondsFromColumn(12n)], [12, 12]);
});

eachItems(
  t,
  'query terms: folded search, JSON overlap and elements, NULL matching nothing',
  async (t, { database, exec }, kind) => {
    const items = tableOf(database, ITEMS);
    await items.put(item({ id: 'a', name: 'ÉCOLE', tags: ['x', 'y'] }));
    await items.put(item({ id: 'b', name: 'b', tags: ['y', 'z'] }));
    await items.put(item({ id: 'c', name: 'c' }));
    // SQLite keeps the JSON in a text column; PostgreSQL in jsonb, so the same text (NULL for c)
    // goes into a text column of its own there.
    let text = 'tags';
    if (kind === 'postgres') {
      text = 'tags_text';
      await exec('ALTER TABLE items ADD COLUMN tags_text text COLLATE "C"');
      await exec('UPDATE items SET tags_text = tags::text');
    }
    const { db, dialect } = database;
    const idsWhere = async (term: ReturnType<typeof dialect.containsFolded>) =>
      (
        await sql<{ id: string }>`SELECT id FROM items WHERE ${term} ORDER BY id`.execute(db)
      ).rows.map((row) => row.id);
    t.same(await idsWhere(dialect.containsFolded('name', 'Écol')), ['a'], 'folded both sides');
    t.same(await idsWhere(dialect.containsFolded(text, 'y')), ['a', 'b'], 'any text column');
    t.same(
      await idsWhere(sql`NOT (${dialect.containsFolded(text, 'q')})`),
      ['a', 'b'],
      'a NULL column neither matches nor fails to match',
    );
    t.same(await idsWhere(dialect.jsonArrayOverlaps('tags', ['z', 'w'])), ['b']);
    t.same(await idsWhere(dialect.jsonArrayOverlaps('tags', [])), [], 'no values, no match');
    const elements = await db
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .selectFrom(['items' as any, dialect.jsonArrayElements('items.tags', 't')])
      .select('t.value as tag')
      .distinct()
      .orderBy('tag')
      .execute();
    t.same(
      elements.map((row) => row.tag),
      ['x', 'y', 'z'],
      'one row per element; a NULL array has none',
    );
  },
);

eachItems(t, 'query terms: JSON paths and keys, UTC days, prefixes', async (t, { database }) => {
  const { db, dialect } = database;
  const insert = (id: string, name: string, tags: string | null, at: number) =>
    sql`INSERT INTO items (id, name, tags, at, created) VALUES (${id}, ${name}, ${tags}, ${at}, 0)`.execute(
      db,
    );
  await insert('a', 'Alpha', '{"m":{"n":3,"s":"x"},"k.j":1}', 0);
  await insert('b', 'alpine', '{"m":{"n":4.5}}', 86_399);
  await insert('c', 'Alp', null, 86_400);
  const rows = await db
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    .selectFrom('items' as any)
    .select([
      'id',
      dialect.jsonNumberAt('tags', ['m', 'n']).as('n'),
      dialect.jsonTextAt('tags', ['m', 's']).as('s'),
      dialect.jsonNumberAt('tags', ['k.j']).as('dotted'),
      dialect.dayOfSeconds('at').as('day'),
    ])
    .orderBy('id')
    .execute();
  t.same(rows, [
    { id: 'a', n: 3, s: 'x', dotted: 1, day: '1970-01-01' },
    { id: 'b', n: 4.5, s: null, dotted: null, day: '1970-01-01' },
    { id: 'c', n: null, s: null, dotted: null, day: '1970-01-02' },
  ]);
  const keys = await db
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    .selectFrom(['items' as any, dialect.jsonObjectKeys('items.tags', 'j')])
    .select('j.key as key')
    .distinct()
    .orderBy('key')
    .execute();
  t.same(
    keys.map((row) => row.key),
    ['k.j', 'm'],
    'one row per key; a NULL object has none',
  );
  const prefixed = async (prefix: string) =>
    (
      await sql<{
        id: string;
      }>`SELECT id FROM items WHERE ${dialect.startsWith('name', prefix)} ORDER BY id`.execute(db)
    ).rows.map((row) => row.id);
  t.same(await prefixed('Alp'), ['a', 'c'], 'case-sensitive');
  t.same(await prefixed('alpine'), ['b'], 'the whole text');
  t.same(await prefixed('Alpha!'), [], 'longer than the text');
});
