import t from 'tap';
import {
  createClaimsReader,
  isReservedSubject,
  principalFromClaims,
  type ClaimSettings,
} from '../../../src/auth/jwt/claims.js';

const SETTINGS: ClaimSettings = {
  user_id_claim: 'sub',
  session_id_claim: 'session_id',
  scopes_claim: 'scopes',
  audience_claim: 'aud',
  dependencies_claims: [],
  session_state_claims: [],
};

function build(
  payload: Record<string, unknown>,
  over: Partial<ClaimSettings> = {},
  exp: number | null = null,
) {
  return principalFromClaims(payload, { ...SETTINGS, ...over }, exp);
}

t.test('a full payload becomes a frozen jwt principal', async (t) => {
  const payload = {
    sub: 'user-1',
    session_id: 'sess-9',
    scopes: ['agents:read', 'teams:run'],
    aud: ['a', 'b'],
    tenant: { id: 't1' },
    flags: ['x'],
  };
  const result = build(
    payload,
    { dependencies_claims: ['tenant', 'missing'], session_state_claims: ['flags'] },
    1234,
  );
  if (!result.ok) throw new Error('expected a principal');
  const p = result.principal;
  t.same(p, {
    type: 'jwt',
    authenticated: true,
    userId: 'user-1',
    sessionId: 'sess-9',
    scopes: ['agents:read', 'teams:run'],
    claims: payload,
    audience: ['a', 'b'],
    dependencies: { tenant: { id: 't1' } },
    sessionState: { flags: ['x'] },
    serviceAccountName: null,
    expiresAt: 1234,
  });
  t.ok(Object.isFrozen(p), 'principal');
  t.ok(Object.isFrozen(p.scopes), 'scopes');
  t.ok(Object.isFrozen(p.claims) && Object.isFrozen(payload.tenant), 'claims, deeply');
  t.ok(Object.isFrozen(p.dependencies) && Object.isFrozen(p.sessionState), 'maps');
});

t.test('claim names come from the settings', async (t) => {
  const result = build(
    { uid: 'u', sid: 's', perms: ['p'], client: 'c', sub: 'ignored' },
    {
      user_id_claim: 'uid',
      session_id_claim: 'sid',
      scopes_claim: 'perms',
      audience_claim: 'client',
    },
  );
  t.match(result, {
    ok: true,
    principal: { userId: 'u', sessionId: 's', scopes: ['p'], audience: 'c' },
  });
});

t.test('missing claims take their empty values', async (t) => {
  t.match(build({}), {
    ok: true,
    principal: {
      userId: null,
      sessionId: null,
      scopes: [],
      audience: null,
      dependencies: {},
      sessionState: {},
    },
  });
  t.match(
    build({ session_id: 5 }),
    { ok: true, principal: { sessionId: null } },
    'a non-string session id',
  );
});

t.test('scopes: a list keeps its strings, a string is one scope, anything else none', async (t) => {
  const rows: { name: string; scopes: unknown; expected: string[] }[] = [
    { name: 'a list', scopes: ['a:read', 'b:run'], expected: ['a:read', 'b:run'] },
    {
      name: 'non-strings dropped',
      scopes: ['a:read', 1, null, { x: 1 }, ['b'], 'b:run'],
      expected: ['a:read', 'b:run'],
    },
    { name: 'a string', scopes: 'agents:read', expected: ['agents:read'] },
    { name: 'a number', scopes: 7, expected: [] },
    { name: 'an object', scopes: { 0: 'a:read' }, expected: [] },
    { name: 'null', scopes: null, expected: [] },
    { name: 'true', scopes: true, expected: [] },
  ];
  for (const row of rows) {
    t.match(
      build({ scopes: row.scopes }),
      { ok: true, principal: { scopes: row.expected } },
      row.name,
    );
    const result = build({ scopes: row.scopes });
    t.same(result.ok && result.principal.scopes, row.expected, row.name);
  }
});

t.test('scopes_claim_delimiter: a string claim split on it, a list never split', async (t) => {
  const rows: { name: string; delimiter: string | null; scopes: unknown; expected: string[] }[] = [
    {
      name: 'null delimiter: a string is one scope',
      delimiter: null,
      scopes: 'config:read agents:read',
      expected: ['config:read agents:read'],
    },
    {
      name: '"" delimiter: as null',
      delimiter: '',
      scopes: 'config:read agents:read',
      expected: ['config:read agents:read'],
    },
    {
      name: '" ": a space-delimited string split',
      delimiter: ' ',
      scopes: 'config:read agents:read',
      expected: ['config:read', 'agents:read'],
    },
    {
      name: '" ": empty parts dropped',
      delimiter: ' ',
      scopes: '  config:read   agents:read ',
      expected: ['config:read', 'agents:read'],
    },
    { name: '" ": an empty string holds no scope', delimiter: ' ', scopes: '', expected: [] },
    { name: '" ": only spaces hold no scope', delimiter: ' ', scopes: '   ', expected: [] },
    {
      name: '",": another delimiter',
      delimiter: ',',
      scopes: 'a:read,,b:run',
      expected: ['a:read', 'b:run'],
    },
    {
      name: '" ": a list is never split',
      delimiter: ' ',
      scopes: ['a:read b:run', 'c:read'],
      expected: ['a:read b:run', 'c:read'],
    },
    {
      name: '" ": non-string members of a list dropped',
      delimiter: ' ',
      scopes: ['a:read', 1, null, ['b'], 'b:run'],
      expected: ['a:read', 'b:run'],
    },
    { name: '" ": a number holds no scope', delimiter: ' ', scopes: 7, expected: [] },
  ];
  for (const row of rows) {
    const result = build({ scopes: row.scopes }, { scopes_claim_delimiter: row.delimiter });
    t.same(result.ok && result.principal.scopes, row.expected, row.name);
    t.ok(result.ok && Object.isFrozen(result.principal.scopes), `${row.name}: frozen`);
  }
});

t.test('a claims reader fixes its settings once and is reused', async (t) => {
  const read = createClaimsReader({
    ...SETTINGS,
    scopes_claim: 'scp',
    scopes_claim_delimiter: ' ',
  });
  t.match(read({ sub: 'u1', scp: 'a:read b:run' }, 10), {
    ok: true,
    principal: { userId: 'u1', scopes: ['a:read', 'b:run'], expiresAt: 10 },
  });
  t.match(read({ sub: 'u2', scp: 'c:read' }, null), {
    ok: true,
    principal: { userId: 'u2', scopes: ['c:read'], expiresAt: null },
  });
  t.same(read({ sub: 'sa:robot' }, null), { ok: false, failure: 'subject_invalid' });
});

t.test('reserved or non-string subjects are subject_invalid', async (t) => {
  for (const sub of [
    'sa:robot',
    'sa:',
    '__oauth__:google',
    '__scheduler__',
    42,
    null,
    ['u'],
    { id: 'u' },
    true,
  ]) {
    t.same(build({ sub }), { ok: false, failure: 'subject_invalid' }, JSON.stringify(sub));
  }
  for (const sub of ['user', 'sa', 'SA:robot', 'x-sa:robot', '__scheduler__x', '__oauth__', '']) {
    t.match(
      build({ sub }),
      { ok: true, principal: { userId: sub } },
      `${JSON.stringify(sub)} is ordinary`,
    );
  }
  t.same(
    build({ uid: 'sa:x' }, { user_id_claim: 'uid' }),
    { ok: false, failure: 'subject_invalid' },
    'the configured claim',
  );
});

t.test('isReservedSubject names the reserved namespaces', async (t) => {
  t.equal(isReservedSubject('sa:x'), true);
  t.equal(isReservedSubject('__oauth__:x'), true);
  t.equal(isReservedSubject('__scheduler__'), true);
  t.equal(isReservedSubject('user'), false);
});

t.test('claims are read only from the payload itself, never Object.prototype', async (t) => {
  const payload = JSON.parse('{"__proto__": {"polluted": true}, "constructor": "c"}') as Record<
    string,
    unknown
  >;
  const result = build(payload, {
    user_id_claim: 'toString',
    session_id_claim: 'hasOwnProperty',
    scopes_claim: 'valueOf',
    audience_claim: 'isPrototypeOf',
    dependencies_claims: ['__proto__', 'constructor', 'toString'],
  });
  if (!result.ok) throw new Error('expected a principal');
  const p = result.principal;
  t.equal(p.userId, null);
  t.equal(p.sessionId, null);
  t.same(p.scopes, []);
  t.equal(p.audience, null);
  t.same(Object.keys(p.dependencies).sort(), ['__proto__', 'constructor']);
  t.equal(Object.getPrototypeOf(p.dependencies), Object.prototype, 'no prototype was set');
  t.same(p.dependencies['__proto__'], { polluted: true }, 'an own data property');
});
