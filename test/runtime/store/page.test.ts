/**
 * The one paged reader on a real SQLite file and on PostgreSQL: only filters with a value apply
 * (equality, ranges, a folded search, a custom term), pages and totals agree, ties break on the
 * key, only whitelisted sort columns are accepted, and a closed database fails instead of
 * answering.
 */
import t from 'tap';
import {
  atLeast,
  atMost,
  equals,
  equalsOrNull,
  oneOf,
  pageOf,
  type PageReader,
} from '../../../src/runtime/store/page.js';
import { tableOf } from '../../../src/runtime/store/table.js';
import { eachItems, ITEMS, item, type Item, type Items } from './fixtures/items.js';

interface ItemFilters {
  name?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  search?: string | undefined;
  tag?: readonly string[] | undefined;
  ids?: readonly string[] | undefined;
}

type ItemSort = 'at' | 'name';

/** Five items: a..e, `at` 10..50 with b and c tied at 20. */
async function reader(db: Items) {
  const { database } = db;
  const items = tableOf(database, ITEMS);
  const seed: Item[] = [
    item({ id: 'a', name: 'Äpfel', at: 10, tags: ['fruit'] }),
    item({ id: 'b', name: 'Birne', at: 20, tags: ['fruit', 'green'] }),
    item({ id: 'c', name: 'Carrot', at: 20, tags: ['root'] }),
    item({ id: 'd', name: 'Dill', at: 40, tags: [] }),
    item({ id: 'e', name: 'ÄPFELSAFT', at: 50 }),
  ];
  for (const one of seed) await items.put(one);
  const pages: PageReader<Item, ItemFilters, ItemSort> = pageOf<Item, ItemFilters, ItemSort>(
    database,
    items,
    {
      filters: {
        name: equals('name'),
        from: atLeast('at'),
        to: atMost('at'),
        search: (text) => database.dialect.containsFolded('name', text),
        tag: (tags) => database.dialect.jsonArrayOverlaps('tags', tags),
        ids: oneOf('id'),
      },
      sorts: ['at', 'name'],
      tieBreak: 'id',
    },
  );
  return { pages, db };
}

const ids = (page: { rows: Item[]; total: number }) => [page.rows.map((r) => r.id), page.total];

eachItems(t, 'filters with a value apply, together', async (t, db) => {
  const { pages } = await reader(db);
  const base = { sortBy: 'at', sortOrder: 'asc', page: 1, limit: 10 } as const;
  const rows: [name: string, filters: ItemFilters, expected: unknown[]][] = [
    ['none', {}, [['a', 'b', 'c', 'd', 'e'], 5]],
    [
      'undefined values filter nothing',
      { name: undefined, from: undefined },
      [['a', 'b', 'c', 'd', 'e'], 5],
    ],
    ['equality', { name: 'Dill' }, [['d'], 1]],
    ['equality is exact', { name: 'dill' }, [[], 0]],
    ['at least', { from: 20 }, [['b', 'c', 'd', 'e'], 4]],
    ['at most', { to: 20 }, [['a', 'b', 'c'], 3]],
    ['a range', { from: 20, to: 40 }, [['b', 'c', 'd'], 3]],
    ['search folds beyond ASCII', { search: 'äpfel' }, [['a', 'e'], 2]],
    ['search of upper case', { search: 'RRO' }, [['c'], 1]],
    ['a JSON array shares a value', { tag: ['green', 'root'] }, [['b', 'c'], 2]],
    ['one of several values', { ids: ['e', 'b', 'x'] }, [['b', 'e'], 2]],
    ['one of no values: nothing', { ids: [] }, [[], 0]],
    ['everything at once', { search: 'r', from: 20, to: 20, tag: ['fruit'] }, [['b'], 1]],
  ];
  for (const [name, filters, expected] of rows) {
    t.same(ids(await pages.page({ ...base, filters })), expected, name);
  }
});

eachItems(t, 'pages, sort orders and ties', async (t, db) => {
  const { pages } = await reader(db);
  const rows: [name: string, request: object, expected: unknown[]][] = [
    ['first page', { page: 1, limit: 2 }, [['a', 'b'], 5]],
    ['ties broken by the key', { page: 2, limit: 2 }, [['c', 'd'], 5]],
    ['page 0 is page 1', { page: 0, limit: 2 }, [['a', 'b'], 5]],
    ['past the end: no rows, the total', { page: 9, limit: 2 }, [[], 5]],
    ['an absurd page', { page: Number.MAX_SAFE_INTEGER, limit: 1000 }, [[], 5]],
    ['descending, ties too', { sortOrder: 'desc', limit: 4 }, [['e', 'd', 'c', 'b'], 5]],
    [
      'by another column (binary order: P before p)',
      { sortBy: 'name', limit: 5 },
      [['b', 'c', 'd', 'e', 'a'], 5],
    ],
  ];
  for (const [name, request, expected] of rows) {
    const page = await pages.page({
      filters: {},
      sortBy: 'at',
      sortOrder: 'asc',
      page: 1,
      limit: 10,
      ...request,
    });
    t.same(ids(page), expected, name);
  }
});

eachItems(t, 'an unknown sort column or a bad limit is refused before any SQL', async (t, db) => {
  const { pages } = await reader(db);
  const base = { filters: {}, sortBy: 'at', sortOrder: 'asc', page: 1, limit: 1 } as const;
  const rows: [name: string, request: object, error: RangeError][] = [
    [
      'a column off the whitelist',
      { sortBy: 'id; DROP TABLE items' },
      new RangeError('unsupported sort column: id; DROP TABLE items'),
    ],
    ['an unlisted real column', { sortBy: 'id' }, new RangeError('unsupported sort column: id')],
    ['limit 0', { limit: 0 }, new RangeError('limit must be an integer of at least 1, got 0')],
    [
      'limit 1.5',
      { limit: 1.5 },
      new RangeError('limit must be an integer of at least 1, got 1.5'),
    ],
    ['page 1.5', { page: 1.5 }, new RangeError('page must be an integer, got 1.5')],
    [
      'an infinite page',
      { page: Infinity },
      new RangeError('page must be an integer, got Infinity'),
    ],
  ];
  for (const [name, request, error] of rows) {
    await t.rejects(pages.page({ ...base, ...request } as typeof base), error, name);
  }
  t.same(ids(await pages.page(base)), [['a'], 5], 'the table is intact');
});

eachItems(t, 'a closed database fails loudly, never an empty page', async (t, items, kind) => {
  const { pages, db } = await reader(items);
  await db.close();
  await t.rejects(
    pages.page({ filters: {}, sortBy: 'at', sortOrder: 'asc', page: 1, limit: 1 }),
    kind === 'sqlite'
      ? { name: 'TypeError', message: /not open/ }
      : { name: 'Error', message: /driver has already been destroyed/ },
  );
});

eachItems(
  t,
  'equalsOrNull matches NULL for null; a nullable sort puts NULL lowest',
  async (t, { database }) => {
    const items = tableOf(database, ITEMS);
    for (const one of [
      item({ id: 'a', done: true }),
      item({ id: 'b' }),
      item({ id: 'c', done: false }),
      item({ id: 'd' }),
    ]) {
      await items.put(one);
    }
    const pages = pageOf<Item, { done?: number | null | undefined }, 'done'>(database, items, {
      filters: { done: equalsOrNull('done') },
      sorts: ['done'],
      nullable: ['done'],
      tieBreak: 'id',
    });
    const base = { filters: {}, sortBy: 'done', sortOrder: 'asc', page: 1, limit: 10 } as const;
    const rows: [name: string, request: object, expected: unknown[]][] = [
      ['null: the rows holding NULL', { filters: { done: null } }, [['b', 'd'], 2]],
      ['a value: equality', { filters: { done: 0 } }, [['c'], 1]],
      ['ascending: NULL first', {}, [['b', 'd', 'c', 'a'], 4]],
      ['descending: NULL last', { sortOrder: 'desc' }, [['a', 'c', 'd', 'b'], 4]],
    ];
    for (const [name, request, expected] of rows) {
      t.same(ids(await pages.page({ ...base, ...request })), expected, name);
    }
  },
);

eachItems(
  t,
  'a tie-break with its own order keeps it whatever the sort order',
  async (t, { database }) => {
    const items = tableOf(database, ITEMS);
    for (const [id, at] of [
      ['a', 10],
      ['b', 20],
      ['c', 20],
      ['d', 40],
    ] as const) {
      await items.put(item({ id, at }));
    }
    const pages = pageOf<Item, object, 'at'>(database, items, {
      filters: {},
      sorts: ['at'],
      tieBreak: 'id',
      tieBreakOrder: 'asc',
    });
    const rows: [name: string, sortOrder: 'asc' | 'desc', expected: string[]][] = [
      ['newest first, ties by ascending key', 'desc', ['d', 'b', 'c', 'a']],
      ['oldest first, ties by ascending key', 'asc', ['a', 'b', 'c', 'd']],
    ];
    for (const [name, sortOrder, expected] of rows) {
      const page = await pages.page({ filters: {}, sortBy: 'at', sortOrder, page: 1, limit: 10 });
      t.same(ids(page), [expected, 4], name);
    }
  },
);
