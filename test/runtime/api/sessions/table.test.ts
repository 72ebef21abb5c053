/**
 * Sessions on the query layer, on a real SQLite file and on PostgreSQL, opened by two stores as
 * two runtime processes (replicas) would: a change sets only its own fields (two writers of different fields both keep
 * theirs), only on the session of the kind and owner it names; after a run the name is set only
 * while there is none; and a closed store answers the session routes with a 500, never a 200.
 */
import { join } from 'node:path';
import t from 'tap';
import { mergeState } from '../../../../src/runtime/api/sessions/table.js';
import { Sqlite } from '../../../../src/runtime/store/sqlite.js';
import { openRuntimeStore } from '../../../../src/runtime/store/store.js';
import { call, runtimeApp } from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';
import { aliceSession } from '../../store/fixtures/records.js';

eachStore(
  t,
  'updateSession sets the given fields of the session that matches',
  async (t, stores) => {
    const [one, two] = await stores.pair();
    await one.putSession(aliceSession());
    await one.putSession(aliceSession({ session_id: 'anon', user_id: null }));
    const rows: [name: string, id: string, match: object, found: boolean][] = [
      ['no conditions', 'sess-alice', {}, true],
      ['the kind and owner', 'sess-alice', { type: 'agent', owner: 'alice' }, true],
      ['another kind', 'sess-alice', { type: 'team' }, false],
      ['another owner', 'sess-alice', { owner: 'bob' }, false],
      ['owner null: the ownerless one', 'anon', { owner: null }, true],
      ['owner null, an owned session', 'sess-alice', { owner: null }, false],
      ['an unknown id', 'nope', {}, false],
    ];
    for (const [name, id, match, found] of rows) {
      const updated = await one.updateSession(id, { updated_at: 7 }, match);
      t.equal(updated?.session_id ?? null, found ? id : null, name);
    }

    // Two processes change different fields of one session at once: both changes are kept.
    const [renamed, stated] = await Promise.all([
      one.updateSession('sess-alice', { session_name: 'Renamed', updated_at: 8 }),
      two.updateSession('sess-alice', { session_state: { step: 2 }, updated_at: 9 }),
    ]);
    t.equal(renamed?.session_name, 'Renamed');
    t.same(stated?.session_state, { step: 2 });
    // Which write landed last is not fixed on PostgreSQL: the later one returns the other's field.
    const last = stated?.session_name === 'Renamed' ? 9 : 8;
    t.strictSame(
      await two.getSession('sess-alice'),
      aliceSession({ session_name: 'Renamed', session_state: { step: 2 }, updated_at: last }),
      'each field as its writer set it; the others as stored',
    );
    const summary = { summary: 'S', topics: null, updated_at: 3 };
    t.same(
      (await one.updateSession('sess-alice', { session_summary: summary, updated_at: 10 }))
        ?.session_summary,
      summary,
      'the summary column too',
    );
  },
);

eachStore(t, 'updateAfterRun names a session only while it has no name', async (t, stores) => {
  const [one, two] = await stores.pair();
  await one.putSession(aliceSession({ session_name: null }));
  const after = (name: string, at: number) => ({ name, before: {}, state: { at }, at });
  t.equal(await one.updateAfterRun('sess-alice', after('first input', 1)), true);
  t.match(await two.getSession('sess-alice'), {
    session_name: 'first input',
    session_state: { at: 1 },
    updated_at: 1,
  });
  await two.updateSession('sess-alice', { session_name: 'Renamed', updated_at: 2 });
  t.equal(await one.updateAfterRun('sess-alice', after('second input', 3)), true);
  t.match(await two.getSession('sess-alice'), {
    session_name: 'Renamed',
    session_state: { at: 3 },
    updated_at: 3,
  });
  t.equal(await one.updateAfterRun('nope', after('x', 4)), false, 'no such session');
});

t.test('mergeState: what the run changed, applied to the state stored now', async (t) => {
  const stored = { kept: 'theirs', both: 'theirs', gone: 1, nested: { a: [1, 2] } };
  const read = { both: 'read', gone: 1, same: 's', nested: { a: [1, 2] } };
  const left = { both: 'mine', same: 's', added: true, nested: { a: [1, 2] } };
  t.strictSame(
    mergeState(stored, read, left),
    {
      kept: 'theirs',
      both: 'mine',
      nested: { a: [1, 2] },
      added: true,
    },
    'a key the run read and left alike is not brought back',
  );
  t.strictSame(
    mergeState({ nested: { a: [3] } }, { nested: { a: [1, 2] } }, { nested: { a: [1, 2] } }),
    { nested: { a: [3] } },
    'a key the run left as it read it keeps what is stored now (compared deeply)',
  );
  t.strictSame(stored, { kept: 'theirs', both: 'theirs', gone: 1, nested: { a: [1, 2] } });
});

eachStore(
  t,
  'the state of two runs of one session, finishing at once, keeps both changes',
  async (t, stores) => {
    const [one, two] = await stores.pair();
    await one.putSession(aliceSession({ session_state: { shared: 0 } }));
    const before = { shared: 0 };
    const results = await Promise.all(
      [one, two].flatMap((store, i) =>
        [0, 1, 2].map((n) =>
          store.updateAfterRun('sess-alice', {
            name: `run ${i}.${n}`,
            before,
            state: { ...before, [`run${i}_${n}`]: n },
            at: 10 + n,
          }),
        ),
      ),
    );
    t.same(results, [true, true, true, true, true, true]);
    t.strictSame((await two.getSession('sess-alice'))?.session_state, {
      shared: 0,
      run0_0: 0,
      run0_1: 1,
      run0_2: 2,
      run1_0: 0,
      run1_1: 1,
      run1_2: 2,
    });

    // A PATCH of the state while a run went on is kept where the run did not change it.
    await two.updateSession('sess-alice', {
      session_state: { shared: 5, patched: 1 },
      updated_at: 20,
    });
    await one.updateAfterRun('sess-alice', {
      name: 'late',
      before: { shared: 0, run0_0: 0 },
      state: { shared: 0, run0_0: 9 },
      at: 21,
    });
    t.strictSame((await one.getSession('sess-alice'))?.session_state, {
      shared: 5,
      patched: 1,
      run0_0: 9,
    });
  },
);

t.test('a session no write can move: the end of a run fails, never writes blind', async (t) => {
  const path = join(t.testdir(), 'runtime.db');
  const store = openRuntimeStore(path);
  t.teardown(() => store.close());
  await store.putSession(aliceSession());
  // A trigger that skips every update of the row: each keyed write finds nothing to change.
  const side = new Sqlite(path);
  side.exec('CREATE TRIGGER stuck BEFORE UPDATE ON sessions BEGIN SELECT RAISE(IGNORE); END;');
  side.close();
  await t.rejects(
    store.updateAfterRun('sess-alice', { name: 'x', before: {}, state: { a: 1 }, at: 1 }),
    /session sess-alice was changed by other writers at each of 10 tries/,
  );
});

t.test('a closed store: the session routes answer 500, never a 200', async (t) => {
  const rt = runtimeApp(t);
  rt.store.close();
  const rows: [name: string, url: string][] = [
    ['GET /sessions', '/sessions'],
    ['GET /sessions/{id}', '/sessions/s1'],
    ['GET /sessions/{id}/runs', '/sessions/s1/runs'],
    ['GET /sessions/{id}/runs/{run_id}', '/sessions/s1/runs/r1'],
  ];
  for (const [name, url] of rows) {
    t.same(
      await call(rt, 'GET', url),
      { status: 500, body: { detail: 'Internal runtime error' } },
      name,
    );
  }
});
