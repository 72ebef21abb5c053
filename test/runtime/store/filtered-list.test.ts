/**
 * The filtered list reader behind the memory and learning stores: only whitelisted sort columns
 * ever reach the SQL text, only filters with a value apply, and statements are reused.
 */
import t, { type Test } from 'tap';
import { createFilteredList } from '../../../src/runtime/store/filtered-list.js';
import { Sqlite } from '../../../src/runtime/store/sqlite.js';

/** An in-memory table of five rows: id 1..5, kind a/b alternating. */
function list(t: Test) {
  const db = new Sqlite(':memory:');
  t.teardown(() => db.close());
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT NOT NULL) STRICT');
  for (let id = 1; id <= 5; id++)
    db.prepare('INSERT INTO items VALUES (?, ?)').run(id, id % 2 ? 'a' : 'b');
  return createFilteredList(db, {
    table: 'items',
    filters: { kind: 'kind = @kind' },
    sorts: ['id'] as const,
    tieBreak: 'id',
  });
}

t.test('filters with a value apply; pages and totals agree', async (t) => {
  const items = list(t);
  const request = { sortBy: 'id', sortOrder: 'asc', page: 1, limit: 2 } as const;
  t.same(items.page({ ...request, filters: {} }), {
    rows: [
      { id: 1, kind: 'a' },
      { id: 2, kind: 'b' },
    ],
    total: 5,
  });
  t.same(items.page({ ...request, filters: { kind: 'a' }, page: 2 }), {
    rows: [{ id: 5, kind: 'a' }],
    total: 3,
  });
  t.same(
    items.page({ ...request, filters: { kind: undefined }, sortOrder: 'desc', page: 0 }).rows[0],
    { id: 5, kind: 'a' },
  );
  t.same(
    items.page({ ...request, filters: { kind: 'a' }, page: 2 }).total,
    3,
    'statements are reused',
  );
});

t.test('a sort column outside the whitelist or a bad limit is refused', async (t) => {
  const items = list(t);
  t.throws(
    () =>
      items.page({
        filters: {},
        sortBy: 'id; DROP TABLE items' as 'id',
        sortOrder: 'asc',
        page: 1,
        limit: 1,
      }),
    new RangeError('unsupported sort column: id; DROP TABLE items'),
  );
  for (const limit of [0, 1.5]) {
    t.throws(
      () => items.page({ filters: {}, sortBy: 'id', sortOrder: 'asc', page: 1, limit }),
      new RangeError(`limit must be an integer of at least 1, got ${limit}`),
    );
  }
});
