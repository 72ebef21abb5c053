import t from 'tap';
import type { SessionRecord } from '../../../src/runtime/store/records.js';
import type { RuntimeStore, SessionQuery } from '../../../src/runtime/store/store.js';
import { eachStore, type Stores } from '../fixtures/stores.js';
import { aliceSession } from './fixtures/records.js';

/**
 * The sessions every row below lists from:
 *
 * | id | type     | component | user  | name               | created | updated |
 * | s1 | agent    | a1        | alice | Weather in Paris   | 100     | 500     |
 * | s2 | agent    | a1        | bob   | paris trip         | 200     | 400     |
 * | s3 | team     | t1        | alice | (null)             | 300     | 300     |
 * | s4 | workflow | w1        | null  | ÉTÉ plans          | 400     | 200     |
 * | s5 | agent    | a2        | null  | Budget             | 500     | 100     |
 * | s6 | agent    | a1        | alice | budget 100%        | 300     | 600     |
 *
 * s3 and s6 share created_at, so ties are broken by session_id.
 */
const SESSIONS: SessionRecord[] = [
  ['s1', 'agent', 'a1', 'alice', 'Weather in Paris', 100, 500],
  ['s2', 'agent', 'a1', 'bob', 'paris trip', 200, 400],
  ['s3', 'team', 't1', 'alice', null, 300, 300],
  ['s4', 'workflow', 'w1', null, 'ÉTÉ plans', 400, 200],
  ['s5', 'agent', 'a2', null, 'Budget', 500, 100],
  ['s6', 'agent', 'a1', 'alice', 'budget 100%', 300, 600],
].map(([session_id, session_type, component_id, user_id, session_name, created_at, updated_at]) =>
  aliceSession({
    session_id,
    session_type,
    component_id,
    user_id,
    session_name,
    created_at,
    updated_at,
  } as Partial<SessionRecord>),
);

const BASE: SessionQuery = { page: 1, limit: 100, sortBy: 'created_at', sortOrder: 'asc' };

async function seeded(stores: Stores): Promise<RuntimeStore> {
  const store = await stores.open();
  // Stored in an order that matches none of the sorts.
  for (const id of ['s4', 's1', 's6', 's3', 's5', 's2']) {
    await store.putSession(SESSIONS.find((s) => s.session_id === id) as SessionRecord);
  }
  return store;
}

async function ids(store: RuntimeStore, query: Partial<SessionQuery>): Promise<[string[], number]> {
  const { rows, total } = await store.listSessions({ ...BASE, ...query });
  return [rows.map((r) => r.session_id), total];
}

eachStore(t, 'filters are ANDed; total is the filtered count', async (t, stores) => {
  const store = await seeded(stores);
  const rows: [name: string, query: Partial<SessionQuery>, expected: string[]][] = [
    ['no filter: every session', {}, ['s1', 's2', 's3', 's6', 's4', 's5']],
    ['type agent', { type: 'agent' }, ['s1', 's2', 's6', 's5']],
    ['type team', { type: 'team' }, ['s3']],
    ['type workflow', { type: 'workflow' }, ['s4']],
    ['componentId a1', { componentId: 'a1' }, ['s1', 's2', 's6']],
    ['componentId of another type', { type: 'team', componentId: 'a1' }, []],
    ['userId alice', { userId: 'alice' }, ['s1', 's3', 's6']],
    ['userId null: only ownerless sessions', { userId: null }, ['s4', 's5']],
    ['userId undefined: no filter', { userId: undefined }, ['s1', 's2', 's3', 's6', 's4', 's5']],
    ['userId nobody owns', { userId: 'mallory' }, []],
    ['nameContains, lower case', { nameContains: 'paris' }, ['s1', 's2']],
    ['nameContains, upper case', { nameContains: 'PARIS' }, ['s1', 's2']],
    ['nameContains folds non-ASCII case', { nameContains: 'été' }, ['s4']],
    ['nameContains % is a literal, not a wildcard', { nameContains: '%' }, ['s6']],
    ['nameContains _ is a literal, not a wildcard', { nameContains: '_' }, []],
    ['nameContains empty: no filter', { nameContains: '' }, ['s1', 's2', 's3', 's6', 's4', 's5']],
    ['nameContains never matches a NULL name', { nameContains: 'null' }, []],
    ['type + userId', { type: 'agent', userId: 'alice' }, ['s1', 's6']],
    ['componentId + userId null', { componentId: 'a1', userId: null }, []],
    ['userId null + nameContains', { userId: null, nameContains: 'B' }, ['s5']],
    [
      'all four',
      { type: 'agent', componentId: 'a1', userId: 'alice', nameContains: 'BUDGET' },
      ['s6'],
    ],
  ];
  for (const [name, query, expected] of rows) {
    t.same(await ids(store, query), [expected, expected.length], name);
  }
});

eachStore(t, 'every sort column in both orders', async (t, stores) => {
  const store = await seeded(stores);
  const rows: [name: string, query: Partial<SessionQuery>, expected: string[]][] = [
    [
      'created_at asc (tie: session_id asc)',
      { sortBy: 'created_at', sortOrder: 'asc' },
      ['s1', 's2', 's3', 's6', 's4', 's5'],
    ],
    [
      'created_at desc (tie: session_id desc)',
      { sortBy: 'created_at', sortOrder: 'desc' },
      ['s5', 's4', 's6', 's3', 's2', 's1'],
    ],
    [
      'updated_at asc',
      { sortBy: 'updated_at', sortOrder: 'asc' },
      ['s5', 's4', 's3', 's2', 's1', 's6'],
    ],
    [
      'updated_at desc',
      { sortBy: 'updated_at', sortOrder: 'desc' },
      ['s6', 's1', 's2', 's3', 's4', 's5'],
    ],
    [
      'session_name asc: NULL first, then by code point',
      { sortBy: 'session_name', sortOrder: 'asc' },
      ['s3', 's5', 's1', 's6', 's2', 's4'],
    ],
    [
      'session_name desc: NULL last',
      { sortBy: 'session_name', sortOrder: 'desc' },
      ['s4', 's2', 's6', 's1', 's5', 's3'],
    ],
    [
      'sorting applies after filtering',
      { userId: 'alice', sortBy: 'updated_at', sortOrder: 'desc' },
      ['s6', 's1', 's3'],
    ],
  ];
  for (const [name, query, expected] of rows) {
    t.same(await ids(store, query), [expected, expected.length], name);
  }
});

eachStore(t, 'pagination: 1-based pages of `limit` rows', async (t, stores) => {
  const store = await seeded(stores);
  const rows: [name: string, query: Partial<SessionQuery>, expected: [string[], number]][] = [
    ['page 1 of 3', { limit: 2, page: 1 }, [['s1', 's2'], 6]],
    ['page 2 of 3', { limit: 2, page: 2 }, [['s3', 's6'], 6]],
    ['page 3 of 3', { limit: 2, page: 3 }, [['s4', 's5'], 6]],
    ['page beyond the end: no rows, same total', { limit: 2, page: 4 }, [[], 6]],
    ['far beyond the end', { limit: 2, page: 1_000_000 }, [[], 6]],
    [
      'a page whose offset passes int64',
      { limit: 1_000_000, page: Number.MAX_SAFE_INTEGER },
      [[], 6],
    ],
    ['a short last page', { limit: 4, page: 2 }, [['s4', 's5'], 6]],
    [
      'a limit above the total',
      { limit: 1000, page: 1 },
      [['s1', 's2', 's3', 's6', 's4', 's5'], 6],
    ],
    ['limit 1', { limit: 1, page: 6 }, [['s5'], 6]],
    ['page 0 means page 1', { limit: 2, page: 0 }, [['s1', 's2'], 6]],
    ['a negative page means page 1', { limit: 2, page: -3 }, [['s1', 's2'], 6]],
    ['a filtered page', { userId: 'alice', limit: 2, page: 2 }, [['s6'], 3]],
    ['a filtered page beyond the end', { userId: 'alice', limit: 2, page: 3 }, [[], 3]],
    ['descending pages', { sortOrder: 'desc', limit: 4, page: 2 }, [['s2', 's1'], 6]],
  ];
  for (const [name, query, expected] of rows) {
    t.same(await ids(store, query), expected, name);
  }
});

eachStore(t, 'an empty store lists nothing', async (t, stores) => {
  const store = await stores.open();
  t.same(await store.listSessions(BASE), { rows: [], total: 0 });
});

eachStore(t, 'rows come back as full records', async (t, stores) => {
  const store = await seeded(stores);
  const { rows } = await store.listSessions({ ...BASE, userId: 'bob' });
  t.strictSame(rows, [SESSIONS[1]]);
});

eachStore(
  t,
  'bad queries are refused with a RangeError, and never reach SQL',
  async (t, stores) => {
    const store = await seeded(stores);
    const rows: [name: string, query: Partial<SessionQuery>, message: string][] = [
      ['limit 0', { limit: 0 }, 'limit must be an integer of at least 1, got 0'],
      ['a negative limit', { limit: -1 }, 'limit must be an integer of at least 1, got -1'],
      ['a fractional limit', { limit: 1.5 }, 'limit must be an integer of at least 1, got 1.5'],
      ['a NaN limit', { limit: NaN }, 'limit must be an integer of at least 1, got NaN'],
      ['a fractional page', { page: 1.5 }, 'page must be an integer, got 1.5'],
      ['an infinite page', { page: Infinity }, 'page must be an integer, got Infinity'],
      [
        'a sort column outside the whitelist',
        { sortBy: 'session_id; DROP TABLE sessions; --' as never },
        'unsupported sort: session_id; DROP TABLE sessions; -- asc',
      ],
      [
        'a sort order outside the whitelist',
        { sortOrder: 'DESC' as never },
        'unsupported sort: created_at DESC',
      ],
    ];
    for (const [name, query, message] of rows) {
      await t.rejects(store.listSessions({ ...BASE, ...query }), new RangeError(message), name);
    }
    t.equal((await store.listSessions(BASE)).total, 6, 'the table is still there');
  },
);
