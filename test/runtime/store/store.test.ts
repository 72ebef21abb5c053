import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { RuntimeStoreError } from '../../../src/runtime/store/errors.js';
import { openConnection } from '../../../src/runtime/store/connection.js';
import { MIGRATIONS, migrate } from '../../../src/runtime/store/migrations.js';
import type { RunRecord, SessionRecord } from '../../../src/runtime/store/records.js';
import { Sqlite } from '../../../src/runtime/store/sqlite.js';
import { openRuntimeStore, type RuntimeStore } from '../../../src/runtime/store/store.js';
import { eachStore } from '../fixtures/stores.js';
import { aliceSession, completedRun } from './fixtures/records.js';

/** A raw connection to inspect what the store wrote, closed at teardown. */
function inspect(t: Test, path: string) {
  const db = new Sqlite(path, { readonly: true, fileMustExist: true });
  t.teardown(() => db.close());
  return db;
}

eachStore(t, 'sessions round-trip with their JSON fields intact', async (t, stores) => {
  const rows: [name: string, session: SessionRecord][] = [
    ['nested state, metadata object', aliceSession()],
    [
      'nulls: no owner, no name, no metadata, empty state',
      aliceSession({
        session_id: 'sess-anon',
        user_id: null,
        session_name: null,
        metadata: null,
        session_state: {},
      }),
    ],
    [
      'team session with unicode name and empty metadata',
      aliceSession({
        session_id: 'sess-team',
        session_type: 'team',
        component_id: 'research-team',
        session_name: 'Été — 夏',
        metadata: {},
      }),
    ],
    [
      'workflow session',
      aliceSession({ session_id: 'sess-wf', session_type: 'workflow', component_id: 'etl' }),
    ],
  ];
  const store = await stores.open();
  for (const [name, session] of rows) {
    await store.putSession(session);
    t.same(await store.getSession(session.session_id), session, name);
    t.strictSame(await store.getSession(session.session_id), session, `${name} (strict)`);
  }
  t.equal(await store.getSession('sess-unknown'), null, 'an unknown id is null');
});

eachStore(
  t,
  'putSession replaces every field by session_id and keeps the runs',
  async (t, stores) => {
    const store = await stores.open();
    await store.putSession(aliceSession());
    await store.putRun(completedRun());
    const renamed = aliceSession({
      session_name: 'Renamed',
      session_state: { replaced: true },
      metadata: null,
      user_id: 'bob',
      created_at: 1,
      updated_at: 2,
    });
    await store.putSession(renamed);
    t.strictSame(await store.getSession('sess-alice'), renamed);
    // INSERT OR REPLACE would delete the old row first and cascade to its runs.
    t.same(
      (await store.listRuns('sess-alice')).map((r) => r.run_id),
      ['run-1'],
    );
    t.same(
      (await store.listSessions({ page: 1, limit: 10, sortBy: 'created_at', sortOrder: 'asc' }))
        .total,
      1,
    );
  },
);

eachStore(t, 'runs round-trip with their output intact', async (t, stores) => {
  const rows: [name: string, run: RunRecord][] = [
    ['completed agent run', completedRun()],
    [
      'child run with a parent, no owner, paused',
      completedRun({
        run_id: 'run-child',
        parent_run_id: 'run-1',
        user_id: null,
        status: 'PAUSED',
        input: '',
        output: { requirements: [{ id: 'req-1', tool_execution: { tool_args: { a: [1] } } }] },
      }),
    ],
    ['empty output', completedRun({ run_id: 'run-empty', status: 'PENDING', output: {} })],
  ];
  const store = await stores.open();
  await store.putSession(aliceSession());
  for (const [name, run] of rows) {
    await store.putRun(run);
    t.strictSame(await store.getRun(run.run_id), run, name);
  }
  t.equal(await store.getRun('run-unknown'), null, 'an unknown id is null');
});

eachStore(t, 'putRun replaces by run_id and the run keeps its place', async (t, stores) => {
  const store = await stores.open();
  await store.putSession(aliceSession());
  await store.putRun(completedRun({ run_id: 'run-a', status: 'RUNNING', output: {} }));
  await store.putRun(completedRun({ run_id: 'run-b' }));
  const finished = completedRun({ run_id: 'run-a', status: 'CANCELLED', output: { done: 1 } });
  await store.putRun(finished);
  t.strictSame(await store.getRun('run-a'), finished);
  t.same(
    (await store.listRuns('sess-alice')).map((r) => r.run_id),
    ['run-a', 'run-b'],
  );
});

eachStore(
  t,
  'listRuns: oldest first, same second in the order first stored, own session only',
  async (t, stores) => {
    const store = await stores.open();
    await store.putSession(aliceSession());
    await store.putSession(aliceSession({ session_id: 'sess-other' }));
    const runs: [runId: string, sessionId: string, createdAt: number][] = [
      ['run-late', 'sess-alice', 300],
      ['run-same-second-1', 'sess-alice', 200],
      ['run-other-session', 'sess-other', 100],
      ['run-same-second-2', 'sess-alice', 200],
      ['run-early', 'sess-alice', 100],
    ];
    for (const [run_id, session_id, created_at] of runs) {
      await store.putRun(completedRun({ run_id, session_id, created_at }));
    }
    t.same(
      (await store.listRuns('sess-alice')).map((r) => r.run_id),
      ['run-early', 'run-same-second-1', 'run-same-second-2', 'run-late'],
    );
    t.same(
      (await store.listRuns('sess-other')).map((r) => r.run_id),
      ['run-other-session'],
    );
    t.same(await store.listRuns('sess-unknown'), [], 'an unknown session has no runs');
  },
);

eachStore(
  t,
  'deleteSession removes the session and its runs, and nothing else',
  async (t, stores) => {
    const store = await stores.open();
    await store.putSession(aliceSession());
    await store.putSession(aliceSession({ session_id: 'sess-keep' }));
    await store.putRun(completedRun({ run_id: 'run-gone-1' }));
    await store.putRun(completedRun({ run_id: 'run-gone-2', parent_run_id: 'run-gone-1' }));
    await store.putRun(completedRun({ run_id: 'run-kept', session_id: 'sess-keep' }));

    await store.deleteSession('sess-alice');

    t.equal(await store.getSession('sess-alice'), null);
    t.equal(await store.getRun('run-gone-1'), null);
    t.equal(await store.getRun('run-gone-2'), null);
    t.same(await store.listRuns('sess-alice'), []);
    t.ok(await store.getSession('sess-keep'));
    t.ok(await store.getRun('run-kept'));
    await t.resolves(store.deleteSession('sess-unknown'), 'an unknown id is not an error');
  },
);

eachStore(t, 'a session summary round-trips; topics may be null', async (t, stores) => {
  const store = await stores.open();
  const rows: SessionRecord[] = [
    aliceSession({
      session_summary: { summary: 'Paris, sunny.', topics: ['weather', 'é'], updated_at: 5 },
    }),
    aliceSession({
      session_id: 'sess-no-topics',
      session_summary: { summary: '', topics: null, updated_at: 1_700_000_000 },
    }),
  ];
  for (const session of rows) {
    await store.putSession(session);
    t.strictSame(await store.getSession(session.session_id), session, session.session_id);
  }
  t.strictSame(
    (await store.listSessions({ page: 1, limit: 10, sortBy: 'created_at', sortOrder: 'asc' })).rows,
    rows,
    'the list reads it too',
  );
});

eachStore(t, 'insertSession writes a new id only, and says whether it did', async (t, stores) => {
  const store = await stores.open();
  await store.putSession(aliceSession());
  await store.putRun(completedRun());
  t.equal(
    await store.insertSession(aliceSession({ session_name: 'Other', user_id: 'bob' })),
    false,
  );
  t.strictSame(await store.getSession('sess-alice'), aliceSession(), 'the stored session is kept');
  t.same(
    (await store.listRuns('sess-alice')).map((r) => r.run_id),
    ['run-1'],
    'and so are its runs',
  );
  const fresh = aliceSession({ session_id: 'sess-new', session_summary: null });
  t.equal(await store.insertSession(fresh), true);
  t.strictSame(await store.getSession('sess-new'), fresh);
});

eachStore(
  t,
  'deleteSessions: by kind and owner, runs with them, returns the count',
  async (t, stores) => {
    /**
     * | id     | type | owner |
     * | s-a1   | agent| alice |
     * | s-a2   | agent| bob   |
     * | s-t1   | team | alice |
     * | s-anon | agent| null  |
     */
    async function seeded(): Promise<RuntimeStore> {
      const store = await stores.open();
      await store.putSession(aliceSession({ session_id: 's-a1' }));
      await store.putSession(aliceSession({ session_id: 's-a2', user_id: 'bob' }));
      await store.putSession(aliceSession({ session_id: 's-t1', session_type: 'team' }));
      await store.putSession(aliceSession({ session_id: 's-anon', user_id: null }));
      await store.putRun(completedRun({ run_id: 'run-a1', session_id: 's-a1' }));
      await store.putRun(completedRun({ run_id: 'run-a2', session_id: 's-a2' }));
      return store;
    }
    const ALL = ['s-a1', 's-a2', 's-t1', 's-anon'];
    const rows: {
      name: string;
      refs: { sessionId: string; type?: 'agent' | 'team' | 'workflow' }[];
      owner?: string | null;
      deleted: string[];
    }[] = [
      { name: 'no refs', refs: [], deleted: [] },
      {
        name: 'any kind, any owner',
        refs: [{ sessionId: 's-a1' }, { sessionId: 's-t1' }],
        deleted: ['s-a1', 's-t1'],
      },
      {
        name: 'the kind must match',
        refs: [
          { sessionId: 's-a1', type: 'team' },
          { sessionId: 's-t1', type: 'team' },
          { sessionId: 's-a2', type: 'agent' },
        ],
        deleted: ['s-a2', 's-t1'],
      },
      {
        name: 'an owner: only theirs',
        refs: ALL.map((sessionId) => ({ sessionId })),
        owner: 'alice',
        deleted: ['s-a1', 's-t1'],
      },
      {
        name: 'owner null: only the ownerless',
        refs: ALL.map((sessionId) => ({ sessionId })),
        owner: null,
        deleted: ['s-anon'],
      },
      {
        name: 'kind and owner together',
        refs: ALL.map((sessionId) => ({ sessionId, type: 'agent' as const })),
        owner: 'alice',
        deleted: ['s-a1'],
      },
      {
        name: 'unknown ids and repeats are skipped',
        refs: [{ sessionId: 'nope' }, { sessionId: 's-a2' }, { sessionId: 's-a2' }],
        deleted: ['s-a2'],
      },
    ];
    for (const row of rows) {
      const store = await seeded();
      const count =
        'owner' in row
          ? await store.deleteSessions(row.refs, row.owner)
          : await store.deleteSessions(row.refs);
      t.equal(count, row.deleted.length, `${row.name}: count`);
      const gone = await Promise.all(ALL.map(async (id) => (await store.getSession(id)) === null));
      t.same(
        ALL.filter((_, i) => gone[i]),
        row.deleted,
        `${row.name}: deleted`,
      );
      for (const [run, session] of [
        ['run-a1', 's-a1'],
        ['run-a2', 's-a2'],
      ]) {
        t.equal(
          (await store.getRun(run as string)) === null,
          row.deleted.includes(session as string),
          `${row.name}: ${run}`,
        );
      }
    }
  },
);

eachStore(
  t,
  'deleteSessions is one transaction: a failing ref deletes nothing',
  async (t, stores, kind) => {
    const store = await stores.open();
    await store.putSession(aliceSession({ session_id: 's-1' }));
    await store.putSession(aliceSession({ session_id: 's-2' }));
    await store.putRun(completedRun({ session_id: 's-1' }));
    await t.rejects(
      store.deleteSessions([
        { sessionId: 's-1' },
        // Not a value the database takes: the statement throws after s-1 was deleted (SQLite
        // cannot bind an object; PostgreSQL's text refuses a NUL byte).
        kind === 'sqlite' ? { sessionId: { not: 'an id' } as never } : { sessionId: 'nul\u0000' },
      ]),
      kind === 'sqlite' ? TypeError : { code: '22021' },
    );
    t.ok(await store.getSession('s-1'), 'the first delete was rolled back');
    t.ok(await store.getRun('run-1'), 'with its run');
    t.ok(await store.getSession('s-2'));
  },
);

eachStore(t, 'writes the schema refuses', async (t, stores, kind) => {
  const store = await stores.open();
  await store.putSession(aliceSession());
  const rows: [
    name: string,
    write: () => Promise<void>,
    sqlite: { code: string; message: RegExp },
    postgres: { code: string; message: RegExp },
  ][] = [
    [
      'a run in a session that does not exist',
      () => store.putRun(completedRun({ session_id: 'sess-missing' })),
      { code: 'SQLITE_CONSTRAINT_FOREIGNKEY', message: /FOREIGN KEY constraint failed/ },
      { code: '23503', message: /violates foreign key constraint/ },
    ],
    [
      'a session type outside agent|team|workflow',
      () => store.putSession(aliceSession({ session_type: 'robot' as never })),
      { code: 'SQLITE_CONSTRAINT_CHECK', message: /CHECK constraint failed/ },
      { code: '23514', message: /violates check constraint/ },
    ],
    [
      'a fractional timestamp (epoch seconds are integers)',
      () => store.putSession(aliceSession({ session_id: 'sess-frac', created_at: 1.5 })),
      {
        code: 'SQLITE_CONSTRAINT_DATATYPE',
        message: /cannot store REAL value in INTEGER column sessions.created_at/,
      },
      { code: '22P02', message: /invalid input syntax for type bigint: "1.5"/ },
    ],
  ];
  for (const [name, write, sqlite, postgres] of rows) {
    await t.rejects(write(), kind === 'sqlite' ? sqlite : postgres, name);
  }
  t.equal(await store.getSession('sess-frac'), null);
});

// SQLite-only: it reopens the file, in folders the open creates.
t.test('nothing is lost on restart', async (t) => {
  const path = join(t.testdir(), 'nested', 'folders', 'runtime.db');
  const first = openRuntimeStore(path);
  await first.putSession(aliceSession());
  await first.putSession(aliceSession({ session_id: 'sess-2', user_id: null, metadata: null }));
  await first.putRun(completedRun());
  await first.putRun(completedRun({ run_id: 'run-2', session_id: 'sess-2', created_at: 5 }));
  await first.deleteSession('sess-2');
  first.close();

  const second = openRuntimeStore(path);
  t.teardown(() => second.close());
  t.equal(second.path, path);
  t.strictSame(await second.getSession('sess-alice'), aliceSession());
  t.strictSame(await second.listRuns('sess-alice'), [completedRun()]);
  t.equal(await second.getSession('sess-2'), null, 'a delete survives the restart too');
  t.equal(await second.getRun('run-2'), null);
});

// SQLite-only: it writes a version 2 file by hand and reads its PRAGMA user_version.
t.test('a version 2 database opens with its sessions, which have no summary', async (t) => {
  const path = join(t.testdir(), 'runtime.db');
  const old = openConnection(path);
  migrate(old, path, MIGRATIONS.slice(0, 2));
  old
    .prepare(
      'INSERT INTO sessions (session_id, session_type, component_id, user_id, session_name, ' +
        "session_state, metadata, created_at, updated_at) VALUES ('sess-old', 'agent', 'a1', " +
        "'alice', 'Before summaries', '{\"k\":1}', NULL, 10, 20)",
    )
    .run();
  old.close();

  const store = openRuntimeStore(path);
  t.teardown(() => store.close());
  t.strictSame(await store.getSession('sess-old'), {
    session_id: 'sess-old',
    session_type: 'agent',
    component_id: 'a1',
    user_id: 'alice',
    session_name: 'Before summaries',
    session_state: { k: 1 },
    metadata: null,
    created_at: 10,
    updated_at: 20,
    session_summary: null,
  });
  const summary = { summary: 'Now it has one.', topics: null, updated_at: 30 };
  await store.putSession({
    ...((await store.getSession('sess-old')) as SessionRecord),
    session_summary: summary,
  });
  t.same((await store.getSession('sess-old'))?.session_summary, summary);
  t.equal(inspect(t, path).pragma('user_version', { simple: true }), MIGRATIONS.length);
});

// SQLite-only: it reads the file's PRAGMAs.
t.test('a file database is in WAL mode, migrated to the latest version', async (t) => {
  const path = join(t.testdir(), 'runtime.db');
  const store = openRuntimeStore(path);
  t.teardown(() => store.close());
  const db = inspect(t, path);
  t.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
});

// SQLite-only: `:memory:` is a SQLite path.
t.test(':memory: gives a private database per store', async (t) => {
  const one = openRuntimeStore(':memory:');
  const two = openRuntimeStore(':memory:');
  t.teardown(() => {
    one.close();
    two.close();
  });
  t.equal(one.path, ':memory:');
  await one.putSession(aliceSession());
  await one.putRun(completedRun());
  t.strictSame(await one.getRun('run-1'), completedRun());
  t.equal(await two.getSession('sess-alice'), null);
});

eachStore(t, 'close: later calls throw, closing twice is harmless', async (t, stores, kind) => {
  const store = await stores.open();
  await store.close();
  await t.resolves(store.close(), 'closing twice is harmless');
  await t.rejects(store.getSession('sess-alice'), {
    message:
      kind === 'sqlite'
        ? /database connection is not open/
        : /Cannot use a pool after calling end on the pool/,
  });
});

eachStore(t, 'the store object is frozen', async (t, stores) => {
  const store = await stores.open();
  t.ok(Object.isFrozen(store));
});

// SQLite-only: paths that are not SQLite files (bad PostgreSQL URLs: postgres.test.ts).
t.test('a database that cannot be opened: RuntimeStoreError naming the path', async (t) => {
  const dir = t.testdir({
    'not-a-db.sqlite': 'this is a text file, not SQLite\n'.repeat(8),
    'plain-file': 'x',
    'a-folder': {},
  });
  const rows: [name: string, path: string, message: RegExp][] = [
    [
      'a parent that is a file',
      join(dir, 'plain-file', 'runtime.db'),
      /cannot open: Error: EEXIST: file already exists, mkdir/,
    ],
    ['a folder', join(dir, 'a-folder'), /cannot open: .*unable to open database file/],
    [
      'a file that is not SQLite',
      join(dir, 'not-a-db.sqlite'),
      /cannot open: .*file is not a database/,
    ],
  ];
  for (const [name, path, message] of rows) {
    t.throws(
      () => openRuntimeStore(path),
      {
        name: 'RuntimeStoreError',
        path,
        message: new RegExp(`^runtime store '${escape(path)}': ${message.source}`),
      },
      name,
    );
  }
  t.equal(
    readFileSync(join(dir, 'not-a-db.sqlite'), 'utf8'),
    'this is a text file, not SQLite\n'.repeat(8),
    'the foreign file is left as it was',
  );
});

// SQLite-only: it writes the file by hand (PostgreSQL's newer schema is in postgres.test.ts).
t.test('a database newer than this build is refused and left untouched', async (t) => {
  const path = join(t.testdir(), 'future.db');
  const future = new Sqlite(path);
  future.exec('CREATE TABLE from_the_future (x); PRAGMA user_version = 99;');
  future.close();
  const before = readFileSync(path);

  const error = t.throws(() => openRuntimeStore(path)) as RuntimeStoreError;
  t.type(error, RuntimeStoreError);
  t.equal(error.path, path);
  t.match(error.message, path, 'names the file');
  t.match(error.message, 'schema version 99', 'names the version found');
  t.match(error.message, `version ${MIGRATIONS.length}, the newest this build knows`, 'and ours');
  t.same(readFileSync(path), before, 'not a byte changed (no WAL switch, no tables)');
});

// SQLite-only: it drops the tables with a raw connection to the file.
t.test('a database whose tables were removed by hand fails to open, naming the path', async (t) => {
  const path = join(t.testdir(), 'runtime.db');
  openRuntimeStore(path).close();
  const db = new Sqlite(path);
  db.exec('DROP TABLE runs; DROP TABLE sessions;');
  db.close();
  t.throws(() => openRuntimeStore(path), {
    name: 'RuntimeStoreError',
    path,
    message: `runtime store '${path}': cannot open: SqliteError: no such table: sessions`,
  });
});

/** Escape a path for use inside a RegExp. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
