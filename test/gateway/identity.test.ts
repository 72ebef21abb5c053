/**
 * The identity the upstream receives: `scoped_user_id`, the context built
 * field by field from principal, grants and decision, and the excluded-route context.
 */
import t from 'tap';
import { ANONYMOUS, createPrincipal, type Principal } from '../../src/auth/principal.js';
import {
  anonymousContext,
  buildIdentityContext,
  scopedUserIdOf,
} from '../../src/gateway/identity.js';
import type { Requirement } from '../../src/policy/compile.js';
import type { Decision } from '../../src/policy/decide.js';
import { compileGrants, DEFAULT_ADMIN_SCOPE, parseScope } from '../../src/policy/scopes.js';

const ADMIN = DEFAULT_ADMIN_SCOPE;

function requirement(raw: string): Requirement {
  const scope = parseScope(raw, ADMIN);
  if (scope === null) throw new TypeError(`malformed test scope ${raw}`);
  return { raw, scope };
}

function decision(fields: Partial<Decision> = {}): Decision {
  return {
    allow: true,
    reason: 'scopes_satisfied',
    route: null,
    required: [],
    missing: [],
    resource: null,
    accessibleResourceIds: null,
    ...fields,
  };
}

const jwtUser = createPrincipal({ type: 'jwt', userId: 'user-1', scopes: ['agents:read'] });
const serviceAccount = createPrincipal({
  type: 'service_account',
  userId: 'sa:robot',
  scopes: ['agents:run'],
  serviceAccountName: 'robot',
});
const adminServiceAccount = createPrincipal({
  type: 'service_account',
  userId: 'sa:root-bot',
  scopes: [ADMIN],
  serviceAccountName: 'root-bot',
});
const securityKey = createPrincipal({ type: 'security_key' });
const internal = createPrincipal({ type: 'internal', userId: '__scheduler__' });

t.test('scopedUserIdOf: none for admins; accounts always; others under isolation', async (t) => {
  const rows: {
    name: string;
    principal: Principal;
    isAdmin: boolean;
    isolation: boolean;
    want: string | null;
  }[] = [
    {
      name: 'admin jwt, isolation on',
      principal: jwtUser,
      isAdmin: true,
      isolation: true,
      want: null,
    },
    {
      name: 'admin jwt, isolation off',
      principal: jwtUser,
      isAdmin: true,
      isolation: false,
      want: null,
    },
    {
      name: 'service account, isolation on',
      principal: serviceAccount,
      isAdmin: false,
      isolation: true,
      want: 'sa:robot',
    },
    {
      name: 'service account, isolation off',
      principal: serviceAccount,
      isAdmin: false,
      isolation: false,
      want: 'sa:robot',
    },
    {
      name: 'service account holding the admin scope',
      principal: adminServiceAccount,
      isAdmin: true,
      isolation: true,
      want: null,
    },
    {
      name: 'security key (admin via isAdmin)',
      principal: securityKey,
      isAdmin: true,
      isolation: true,
      want: null,
    },
    {
      name: 'jwt, isolation on',
      principal: jwtUser,
      isAdmin: false,
      isolation: true,
      want: 'user-1',
    },
    {
      name: 'jwt, isolation off',
      principal: jwtUser,
      isAdmin: false,
      isolation: false,
      want: null,
    },
    {
      name: 'internal token, isolation on',
      principal: internal,
      isAdmin: false,
      isolation: true,
      want: '__scheduler__',
    },
    {
      name: 'anonymous, isolation on',
      principal: ANONYMOUS,
      isAdmin: false,
      isolation: true,
      want: null,
    },
    {
      name: 'anonymous, isolation off',
      principal: ANONYMOUS,
      isAdmin: false,
      isolation: false,
      want: null,
    },
  ];
  for (const row of rows) {
    t.equal(scopedUserIdOf(row.principal, row.isAdmin, row.isolation), row.want, row.name);
  }
});

t.test('buildIdentityContext copies every field from its source', async (t) => {
  const principal = createPrincipal({
    type: 'jwt',
    userId: 'user-7',
    sessionId: 'session-9',
    scopes: ['agents:read', 'agents:a1:read'],
    claims: { sub: 'user-7', custom: 1 },
    audience: ['svc-a', 'svc-b'],
    dependencies: { tenant: 't1' },
    sessionState: { step: 2 },
    expiresAt: 1_900_000_000,
  });
  const grants = compileGrants(principal.scopes, ADMIN);
  const ctx = buildIdentityContext(
    principal,
    grants,
    decision({
      reason: 'listing_filtered',
      required: [requirement('agents:read'), requirement('config:read')],
      accessibleResourceIds: ['a1'],
    }),
    { rbacEnabled: true, userIsolation: true },
  );
  t.same(ctx, {
    authenticated: true,
    user_id: 'user-7',
    session_id: 'session-9',
    scopes: ['agents:read', 'agents:a1:read'],
    claims: { sub: 'user-7', custom: 1 },
    audience: ['svc-a', 'svc-b'],
    authorization_enabled: true,
    dependencies: { tenant: 't1' },
    session_state: { step: 2 },
    accessible_resource_ids: ['a1'],
    principal_type: 'jwt',
    is_admin: false,
    scoped_user_id: 'user-7',
    required_scopes: ['agents:read', 'config:read'],
    service_account_name: null,
  });
  t.strictSame(Object.keys(ctx).sort(), [
    'accessible_resource_ids',
    'audience',
    'authenticated',
    'authorization_enabled',
    'claims',
    'dependencies',
    'is_admin',
    'principal_type',
    'required_scopes',
    'scoped_user_id',
    'scopes',
    'service_account_name',
    'session_id',
    'session_state',
    'user_id',
  ]);
});

t.test('buildIdentityContext: is_admin and scoped_user_id per principal kind', async (t) => {
  const rows: {
    name: string;
    principal: Principal;
    isolation: boolean;
    isAdmin: boolean;
    scoped: string | null;
    saName: string | null;
  }[] = [
    {
      name: 'jwt holding the admin scope',
      principal: createPrincipal({ type: 'jwt', userId: 'boss', scopes: [ADMIN] }),
      isolation: true,
      isAdmin: true,
      scoped: null,
      saName: null,
    },
    {
      name: 'security key root: no scopes, still admin',
      principal: securityKey,
      isolation: true,
      isAdmin: true,
      scoped: null,
      saName: null,
    },
    {
      name: 'service account without the admin scope',
      principal: serviceAccount,
      isolation: false,
      isAdmin: false,
      scoped: 'sa:robot',
      saName: 'robot',
    },
    {
      name: 'service account with the admin scope',
      principal: adminServiceAccount,
      isolation: false,
      isAdmin: true,
      scoped: null,
      saName: 'root-bot',
    },
    {
      name: 'plain jwt, isolation off',
      principal: jwtUser,
      isolation: false,
      isAdmin: false,
      scoped: null,
      saName: null,
    },
  ];
  for (const row of rows) {
    const ctx = buildIdentityContext(
      row.principal,
      compileGrants(row.principal.scopes, ADMIN),
      decision(),
      { rbacEnabled: false, userIsolation: row.isolation },
    );
    t.equal(ctx.is_admin, row.isAdmin, `${row.name}: is_admin`);
    t.equal(ctx.scoped_user_id, row.scoped, `${row.name}: scoped_user_id`);
    t.equal(ctx.service_account_name, row.saName, `${row.name}: service_account_name`);
    t.equal(ctx.principal_type, row.principal.type, `${row.name}: principal_type`);
    t.equal(ctx.authorization_enabled, false, `${row.name}: authorization_enabled`);
    t.same(ctx.required_scopes, [], `${row.name}: required_scopes`);
    t.equal(ctx.accessible_resource_ids, null, `${row.name}: accessible_resource_ids`);
  }
});

t.test('buildIdentityContext for an allowed anonymous caller', async (t) => {
  const ctx = buildIdentityContext(ANONYMOUS, compileGrants([], ADMIN), decision(), {
    rbacEnabled: true,
    userIsolation: true,
  });
  t.equal(ctx.authenticated, false);
  t.equal(ctx.principal_type, 'anonymous');
  t.equal(ctx.user_id, null);
  t.equal(ctx.scoped_user_id, null);
  t.equal(ctx.is_admin, false);
});

t.test('anonymousContext: the excluded-route identity', async (t) => {
  for (const rbacEnabled of [true, false]) {
    t.same(
      anonymousContext({ rbacEnabled, userIsolation: true }),
      {
        authenticated: false,
        user_id: null,
        session_id: null,
        scopes: [],
        claims: {},
        audience: null,
        authorization_enabled: rbacEnabled,
        dependencies: {},
        session_state: {},
        accessible_resource_ids: null,
        principal_type: 'anonymous',
        is_admin: false,
        scoped_user_id: null,
        required_scopes: [],
        service_account_name: null,
      },
      `rbacEnabled ${rbacEnabled}`,
    );
  }
});

t.test('createIdentityCache encodes a stable (principal, route) identity once', async (t) => {
  const { createIdentityCache } = await import('../../src/gateway/identity.js');
  const { decodeIdentityContext, signIdentityContext } =
    await import('../../src/shared/identity-context.js');
  const { compileFrom } = await import('../fixtures/policy.js');
  const { decide } = await import('../../src/policy/decide.js');
  const { createPrincipal: make } = await import('../../src/auth/principal.js');
  const policy = compileFrom({ 'GET /agents': ['agents:read'], 'GET /agents/*': ['agents:read'] });
  const cache = createIdentityCache(
    { rbacEnabled: true, userIsolation: false },
    'sixteen-chars-secret',
  );
  const alice = make({
    type: 'jwt',
    userId: 'alice',
    scopes: ['agents:read', 'agents:a1:read', 'd:日本:x'],
  });
  const grants = compileGrants(alice.scopes, ADMIN);
  const enforce = { enforce: true, strictListing: false };
  const routed = decide(policy, 'GET', ['agents', 'a1'], grants, enforce);
  const first = cache.forDecision(alice, grants, routed);
  t.equal(
    cache.forDecision(alice, grants, decide(policy, 'GET', ['agents', 'a1'], grants, enforce)),
    first,
    'same object: encoded once',
  );
  t.equal(first.signature, signIdentityContext(first.value, 'sixteen-chars-secret'));
  t.equal(first.userIdHeader, 'alice');
  t.equal(
    first.scopesHeader,
    'agents:read agents:a1:read',
    'non-ASCII scopes stay out of the header',
  );
  t.same(decodeIdentityContext(first.value)?.required_scopes, ['agents:read']);
  // A filtered listing varies with the caller's grants: encoded per request, never cached.
  const lister = make({ type: 'jwt', userId: 'bob', scopes: ['agents:a1:read'] });
  const listerGrants = compileGrants(lister.scopes, ADMIN);
  const listing = decide(policy, 'GET', ['agents'], listerGrants, enforce);
  const a = cache.forDecision(lister, listerGrants, listing);
  t.not(cache.forDecision(lister, listerGrants, listing), a);
  t.same(decodeIdentityContext(a.value)?.accessible_resource_ids, ['a1']);
  // The family floor (no route) is not cached either.
  const floor = decide(policy, 'PUT', ['agents', 'a1'], grants, enforce);
  t.not(cache.forDecision(alice, grants, floor), cache.forDecision(alice, grants, floor));
  // An A2A JSON-RPC decision's requirement is a shared list: cached per caller like a route.
  const { A2A_REQUIREMENTS } = await import('../../src/policy/a2a-methods.js');
  const rpc = { ...floor, route: null, required: A2A_REQUIREMENTS.agents.read, missing: [] };
  const encodedRpc = cache.forDecision(alice, grants, rpc);
  t.equal(
    cache.forDecision(alice, grants, { ...rpc }),
    encodedRpc,
    'A2A requirement: encoded once',
  );
  t.same(decodeIdentityContext(encodedRpc.value)?.required_scopes, ['agents:read']);
  t.equal(decodeIdentityContext(cache.anonymous.value)?.principal_type, 'anonymous');
  t.equal(cache.anonymous.userIdHeader, null);
  t.equal(cache.anonymous.scopesHeader, null);
  const unsigned = createIdentityCache({ rbacEnabled: false, userIsolation: false }, null);
  t.equal(unsigned.anonymous.signature, null);
});
