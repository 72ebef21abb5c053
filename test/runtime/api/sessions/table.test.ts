/**
 * Sessions on the query layer, on a real SQLite file and on PostgreSQL, opened by two stores as
 * two runtime processes (replicas) would: a change sets only its own fields (two writers of different fields both keep
 * theirs), only on the session of the kind and owner it names; after a run the name is set only
 * while there is none; and a closed store answers the session routes with a 500, never a 200.
 */
import t from 'tap';
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
    t.strictSame(
      await two.getSession('sess-alice'),
      aliceSession({ session_name: 'Renamed', session_state: { step: 2 }, updated_at: 9 }),
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
  const after = (name: string, at: number) => ({ name, state: { at }, at });
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
