import t from 'tap';
import {
  ANONYMOUS_CALLER,
  callerOf,
  decodeCaller,
  isReservedUserId,
  mayApprove,
  runUserOf,
} from '../../../src/runtime/http/caller.js';
import type { IdentityContext } from '../../../src/shared/identity-context.js';
import { encodedContext } from '../fixtures/runtime.js';

const context = (fields: Partial<IdentityContext>): string =>
  encodedContext({ user_id: 'alice', ...fields });

t.test('a value that is not a context decodes to no caller', async (t) => {
  t.equal(decodeCaller('not base64 json!'), null);
  t.equal(decodeCaller(Buffer.from('[1]').toString('base64url')), null, 'not an object');
});

t.test('callerOf is the caller the identity check admitted the request with', async (t) => {
  t.equal(callerOf({ caller: ANONYMOUS_CALLER }), ANONYMOUS_CALLER);
});

t.test('the context fields the runtime acts on', async (t) => {
  t.same(
    decodeCaller(
      context({
        scoped_user_id: 'alice',
        session_id: 's1',
        accessible_resource_ids: ['a1', 3 as unknown as string],
        session_state: { plan: 'pro' },
        dependencies: { tenant: 't1' },
        scopes: ['agents:run', 7 as unknown as string],
      }),
    ),
    {
      authenticated: true,
      userId: 'alice',
      scopedUserId: 'alice',
      accessibleResourceIds: ['a1'],
      sessionId: 's1',
      sessionState: { plan: 'pro' },
      dependencies: { tenant: 't1' },
      authorizationEnabled: true,
      scopes: ['agents:run'],
      isAdmin: false,
    },
  );
  t.same(
    decodeCaller(
      context({
        authenticated: false,
        user_id: null,
        principal_type: 'anonymous',
        session_state: {},
        dependencies: ['not', 'an', 'object'] as unknown as Record<string, unknown>,
        scopes: 'agents:run' as unknown as string[],
        authorization_enabled: false,
        is_admin: true,
      }),
    ),
    {
      authenticated: false,
      userId: null,
      scopedUserId: null,
      accessibleResourceIds: null,
      sessionId: null,
      sessionState: null,
      dependencies: null,
      authorizationEnabled: false,
      scopes: [],
      isAdmin: true,
    },
  );
});

t.test('reserved principals', async (t) => {
  for (const id of ['sa:bot', '__oauth__:x', '__scheduler__']) t.ok(isReservedUserId(id), id);
  for (const id of ['alice', 'sa', '__scheduler__x', 'x__oauth__:'])
    t.notOk(isReservedUserId(id), id);
});

t.test('run attribution: scoped > context user > client value for anonymous only', async (t) => {
  const base = {
    authenticated: true,
    userId: 'alice',
    scopedUserId: null,
    accessibleResourceIds: null,
    sessionId: null,
    sessionState: null,
    dependencies: null,
    authorizationEnabled: true,
    scopes: [],
    isAdmin: false,
  };
  t.equal(runUserOf({ ...base, scopedUserId: 'sa:bot' }, 'mallory'), 'sa:bot');
  t.equal(runUserOf(base, 'mallory'), 'alice');
  t.equal(
    runUserOf({ ...base, userId: '' }, 'mallory'),
    null,
    'an authenticated caller never speaks for another user',
  );
  t.equal(runUserOf({ ...base, userId: null }, 'mallory'), null);
  t.equal(runUserOf(ANONYMOUS_CALLER, 'mallory'), 'mallory');
  t.equal(runUserOf(ANONYMOUS_CALLER, null), null);
});

t.test(
  'who may settle an approval: anyone without RBAC, else approvals:write or admin',
  async (t) => {
    const rbac = { ...ANONYMOUS_CALLER, authenticated: true, authorizationEnabled: true };
    t.ok(mayApprove(ANONYMOUS_CALLER), 'RBAC off');
    t.notOk(mayApprove({ ...rbac, scopes: ['agents:run', 'approvals:read'] }), 'runner only');
    t.ok(mayApprove({ ...rbac, scopes: ['approvals:write'] }), 'approvals:write');
    t.ok(mayApprove({ ...rbac, isAdmin: true }), 'admin');
  },
);
