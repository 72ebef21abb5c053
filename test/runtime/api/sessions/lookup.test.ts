/**
 * What the session routes share: scalar query parameters, the owner a caller may act for, and
 * finding a session by kind and owner (one of another kind or owner is not found), on SQLite and
 * PostgreSQL.
 */
import t from 'tap';
import { ANONYMOUS_CALLER, type Caller } from '../../../../src/runtime/http/caller.js';
import { findSession, ownerOf } from '../../../../src/runtime/api/sessions/lookup.js';
import { listSessionsQuery } from '../../../../src/runtime/api/sessions/schemas.js';
import { scalarQuery } from '../../../../src/runtime/http/query.js';
import { sessionRecord } from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';

t.test('scalarQuery: a repeated parameter counts with its last value', async (t) => {
  t.same(scalarQuery({ a: 'x', b: ['1', '2'], c: undefined, d: [] }), {
    a: 'x',
    b: '2',
    c: undefined,
    d: undefined,
  });
});

t.test('the type parameter: the three kinds, exactly', async (t) => {
  const isSessionType = (type: unknown) => listSessionsQuery.safeParse({ type }).success;
  t.same(['agent', 'team', 'workflow', 'Agent', '', null, 1].map(isSessionType), [
    true,
    true,
    true,
    false,
    false,
    false,
    false,
  ]);
});

t.test('ownerOf: confined callers act for themselves only', async (t) => {
  const confined: Caller = { ...ANONYMOUS_CALLER, authenticated: true, scopedUserId: 'alice' };
  t.equal(ownerOf(confined, 'bob'), 'alice');
  t.equal(ownerOf(confined, undefined), 'alice');
  t.equal(ownerOf(ANONYMOUS_CALLER, 'bob'), 'bob');
  t.equal(ownerOf(ANONYMOUS_CALLER, undefined), undefined);
});

eachStore(t, 'findSession: null for unknown, another kind or another owner', async (t, stores) => {
  const store = await stores.open();
  await store.putSession(sessionRecord({ session_id: 's', user_id: 'alice' }));
  await store.putSession(
    sessionRecord({ session_id: 'anon', session_type: 'team', component_id: 't1' }),
  );
  const rows: [string, string, Parameters<typeof findSession>[2], boolean][] = [
    ['no conditions', 's', {}, true],
    ['the kind', 's', { type: 'agent' }, true],
    ['another kind', 's', { type: 'team' }, false],
    ['the owner', 's', { owner: 'alice' }, true],
    ['another owner', 's', { owner: 'bob' }, false],
    ['an owner, ownerless session', 'anon', { owner: 'alice' }, false],
    ['kind and owner', 's', { type: 'agent', owner: 'alice' }, true],
    ['unknown', 'nope', {}, false],
  ];
  for (const [name, id, lookup, found] of rows) {
    t.equal((await findSession(store, id, lookup))?.session_id ?? null, found ? id : null, name);
  }
});
