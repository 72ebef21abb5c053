/**
 * The runtime's identity check: with a secret, only a context the gateway signed is believed;
 * a forged, unsigned, badly signed or absent context is 401 before any route runs, and only
 * `GET /health` answers without one. Without a secret (the development switch), any context is
 * believed and none means anonymous. Real Fastify app, real store, `app.inject`.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import t, { type Test } from 'tap';
import { buildCatalogue } from '../../../src/runtime/catalogue/resolve.js';
import {
  BAD_CONTEXT,
  BAD_SIGNATURE,
  createIdentityCheck,
  MISSING_CONTEXT,
} from '../../../src/runtime/http/identity-check.js';
import { ANONYMOUS_CALLER } from '../../../src/runtime/http/caller.js';
import { createIdentityTokenCheck } from '../../../src/runtime/http/identity-token.js';
import { buildRuntimeApp } from '../../../src/runtime/app.js';
import type { MemoryRecord } from '../../../src/runtime/api/memories/table.js';
import { openRuntimeStore, type RuntimeStore } from '../../../src/runtime/store/store.js';
import {
  identityContextHashOf,
  signIdentityContext,
} from '../../../src/shared/identity-context.js';
import { createTestClock } from '../../fixtures/tokens.js';
import { contextHeader, SETTINGS, TEST_IDENTITY_SECRET } from '../fixtures/runtime.js';

/** A memory of bob's, which only an unconfined caller may list. */
const BOBS: MemoryRecord = {
  memory_id: 'm-bob',
  memory: 'bob likes tea',
  topics: [],
  user_id: 'bob',
  agent_id: null,
  team_id: null,
  created_at: 1,
  updated_at: 1,
};

/** The app as `buildRuntimeApp` makes it (no test wrapper adds a context), over a fresh store. */
async function app(
  t: Test,
  secret: string | null,
): Promise<{ app: FastifyInstance; store: RuntimeStore }> {
  const built = buildCatalogue(SETTINGS);
  const store = openRuntimeStore(':memory:');
  await store.memories.put(BOBS);
  let ids = 0;
  const runtime = buildRuntimeApp({
    settings: built.settings!,
    store,
    deps: { clock: createTestClock(), newId: () => `id-${++ids}`, sleep: async () => {} },
    startedAt: new Date(0),
    identitySecret: secret,
  });
  t.teardown(async () => {
    await runtime.close();
    store.close();
  });
  return { app: runtime, store };
}

/** A forged admin context (sent without its signature): what an attacker on the machine sends. */
const FORGED_VALUE = contextHeader({
  user_id: 'mallory',
  is_admin: true,
  scopes: ['agent_os:admin'],
})['x-auth-context'];

t.test('with a secret: every request without a valid signature is 401, nothing runs', async (t) => {
  const { app: runtime, store } = await app(t, TEST_IDENTITY_SECRET);
  const otherValue = contextHeader({ user_id: 'alice' })['x-auth-context'];
  const good = signIdentityContext(FORGED_VALUE, TEST_IDENTITY_SECRET);
  const rows: { name: string; headers: Record<string, string | string[]>; detail: string }[] = [
    {
      name: 'a forged admin context without a signature',
      headers: { 'x-auth-context': FORGED_VALUE },
      detail: BAD_SIGNATURE,
    },
    {
      name: 'signed with another secret',
      headers: contextHeader({ is_admin: true }, 'another-secret-of-16+'),
      detail: BAD_SIGNATURE,
    },
    {
      name: "another context's valid signature",
      headers: {
        'x-auth-context': FORGED_VALUE,
        'x-auth-signature': signIdentityContext(otherValue, TEST_IDENTITY_SECRET),
      },
      detail: BAD_SIGNATURE,
    },
    {
      name: 'the valid signature with a non-hex tail',
      headers: { 'x-auth-context': FORGED_VALUE, 'x-auth-signature': `${good}zz` },
      detail: BAD_SIGNATURE,
    },
    {
      name: 'an empty signature',
      headers: { 'x-auth-context': FORGED_VALUE, 'x-auth-signature': '' },
      detail: BAD_SIGNATURE,
    },
    { name: 'no context at all', headers: {}, detail: MISSING_CONTEXT },
    {
      name: 'an empty context, validly signed',
      headers: {
        'x-auth-context': '',
        'x-auth-signature': signIdentityContext('', TEST_IDENTITY_SECRET),
      },
      detail: MISSING_CONTEXT,
    },
    {
      name: 'a signature without a context',
      headers: { 'x-auth-signature': good },
      detail: MISSING_CONTEXT,
    },
    {
      name: 'a validly signed value that is not a context',
      headers: {
        'x-auth-context': 'not a context',
        'x-auth-signature': signIdentityContext('not a context', TEST_IDENTITY_SECRET),
      },
      detail: BAD_CONTEXT,
    },
  ];
  for (const row of rows) {
    const read = await runtime.inject({ url: '/memories', headers: row.headers });
    t.equal(read.statusCode, 401, `${row.name}: GET /memories`);
    t.same(read.json(), { detail: row.detail }, `${row.name}: GET /memories`);
    const write = await runtime.inject({
      method: 'POST',
      url: '/memories',
      headers: row.headers,
      payload: { memory: 'planted', user_id: 'bob' },
    });
    t.equal(write.statusCode, 401, `${row.name}: POST /memories`);
    t.same(write.json(), { detail: row.detail }, `${row.name}: POST /memories`);
    const run = await runtime.inject({
      method: 'POST',
      url: '/agents/a1/runs',
      headers: { ...row.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'message=hi&stream=false',
    });
    t.equal(run.statusCode, 401, `${row.name}: a run`);
    t.same(run.json(), { detail: row.detail }, `${row.name}: a run`);
  }
  const all = await store.memories.list({
    sortBy: 'updated_at',
    sortOrder: 'desc',
    page: 1,
    limit: 100,
  });
  t.same(
    all.rows.map((m) => m.memory_id),
    ['m-bob'],
    'no refused write reached the store',
  );
  const sessions = await store.listSessions({
    page: 1,
    limit: 10,
    sortBy: 'created_at',
    sortOrder: 'desc',
  });
  t.equal(sessions.total, 0, 'no refused run reached the engine');
});

t.test('with a secret: the signed context is believed, once per request', async (t) => {
  const { app: runtime } = await app(t, TEST_IDENTITY_SECRET);
  const admin = await runtime.inject({
    url: '/memories',
    headers: contextHeader({ is_admin: true, scopes: ['agent_os:admin'] }),
  });
  t.equal(admin.statusCode, 200, 'a signed admin');
  t.match(admin.json(), { data: [{ memory_id: 'm-bob' }] });
  const alice = await runtime.inject({
    url: '/memories',
    headers: contextHeader({ user_id: 'alice', scoped_user_id: 'alice' }),
  });
  t.equal(alice.statusCode, 200, 'a signed confined caller');
  t.same(alice.json().data, [], "who sees none of bob's");
  const upper = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
  const upperCase = await runtime.inject({
    url: '/memories',
    headers: { ...upper, 'x-auth-signature': upper['x-auth-signature'].toUpperCase() },
  });
  t.equal(upperCase.statusCode, 200, 'hex digits in either case');
});

t.test('with a secret: only GET and HEAD /health answer without a context', async (t) => {
  const { app: runtime } = await app(t, TEST_IDENTITY_SECRET);
  const get = await runtime.inject({ url: '/health' });
  t.equal(get.statusCode, 200);
  t.same(get.json(), { status: 'ok', instantiated_at: '1970-01-01T00:00:00.000Z' });
  t.equal((await runtime.inject({ method: 'HEAD', url: '/health' })).statusCode, 200, 'HEAD');
  const rows = [
    { name: 'POST /health', method: 'POST' as const, url: '/health' },
    { name: 'GET /health/ (another path)', method: 'GET' as const, url: '/health/' },
    { name: 'GET / (the OS name)', method: 'GET' as const, url: '/' },
    { name: 'an unknown path', method: 'GET' as const, url: '/nope' },
    { name: 'the OpenAPI document', method: 'GET' as const, url: '/openapi.json' },
  ];
  for (const row of rows) {
    const answer = await runtime.inject({ method: row.method, url: row.url });
    t.equal(answer.statusCode, 401, row.name);
    t.same(answer.json(), { detail: MISSING_CONTEXT }, row.name);
  }
});

t.test('without a secret (development switch): contexts are believed unsigned', async (t) => {
  const { app: runtime } = await app(t, null);
  const rows: { name: string; headers: Record<string, string>; ids: string[] }[] = [
    { name: 'a forged admin context', headers: { 'x-auth-context': FORGED_VALUE }, ids: ['m-bob'] },
    { name: 'no context: anonymous, unconfined', headers: {}, ids: ['m-bob'] },
    {
      name: 'an unreadable context: anonymous',
      headers: { 'x-auth-context': 'nope' },
      ids: ['m-bob'],
    },
    {
      name: 'a confined context, unsigned',
      headers: { 'x-auth-context': contextHeader({ scoped_user_id: 'alice' })['x-auth-context'] },
      ids: [],
    },
  ];
  for (const row of rows) {
    const answer = await runtime.inject({ url: '/memories', headers: row.headers });
    t.equal(answer.statusCode, 200, row.name);
    t.same(
      (answer.json().data as { memory_id: string }[]).map((m) => m.memory_id),
      row.ids,
      row.name,
    );
  }
});

t.test('createIdentityCheck: header shapes a client cannot send through Node', async (t) => {
  const signed = createIdentityCheck(TEST_IDENTITY_SECRET);
  t.same(signed({ 'x-auth-context': ['a', 'b'] as unknown as string }), {
    ok: false,
    detail: MISSING_CONTEXT,
  });
  const valid = signIdentityContext(FORGED_VALUE, TEST_IDENTITY_SECRET);
  t.same(
    signed({ 'x-auth-context': FORGED_VALUE, 'x-auth-signature': [valid] as unknown as string }),
    { ok: false, detail: BAD_SIGNATURE },
    'a repeated signature header',
  );
  const unsigned = createIdentityCheck(null);
  t.same(unsigned({ 'x-auth-context': ['a', 'b'] as unknown as string }), {
    ok: true,
    caller: ANONYMOUS_CALLER,
  });
});

t.test('with a secret and an identity token, both must pass', async (t) => {
  const clock = createTestClock();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const dir = t.testdir({
    'jwks.json': JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k' }] }),
  });
  const token = createIdentityTokenCheck(
    { jwks_url: null, jwks_file: 'jwks.json', issuer: 'gw', audience: 'rt', header: 'x-id' },
    { clock, dir },
  );
  const now = Math.floor(clock.now() / 1000);
  const tokenFor = (value: string) =>
    new SignJWT({
      iss: 'gw',
      aud: 'rt',
      iat: now,
      exp: now + 60,
      ctx: identityContextHashOf(value),
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'k' })
      .sign(privateKey);
  const both = createIdentityCheck(TEST_IDENTITY_SECRET, token);
  const tokenOnly = createIdentityCheck(null, token);
  const good = contextHeader({ user_id: 'alice' });
  const garbage = 'bm90IGpzb24';
  const rows: {
    name: string;
    check: typeof both;
    headers: Record<string, string>;
    detail: string | null;
  }[] = [
    {
      name: 'both valid',
      check: both,
      headers: { ...good, 'x-id': await tokenFor(good['x-auth-context']) },
      detail: null,
    },
    {
      name: 'a valid token, a wrong signature',
      check: both,
      headers: {
        ...good,
        'x-auth-signature': '0'.repeat(64),
        'x-id': await tokenFor(good['x-auth-context']),
      },
      detail: BAD_SIGNATURE,
    },
    { name: 'a valid signature, no token', check: both, headers: good, detail: BAD_SIGNATURE },
    {
      name: 'an empty token',
      check: both,
      headers: { ...good, 'x-id': '' },
      detail: BAD_SIGNATURE,
    },
    {
      name: "another context's token",
      check: both,
      headers: { ...good, 'x-id': await tokenFor(FORGED_VALUE) },
      detail: BAD_SIGNATURE,
    },
    {
      name: 'token only: valid',
      check: tokenOnly,
      headers: {
        'x-auth-context': good['x-auth-context'],
        'x-id': await tokenFor(good['x-auth-context']),
      },
      detail: null,
    },
    { name: 'token only: no context', check: tokenOnly, headers: {}, detail: MISSING_CONTEXT },
    {
      name: 'token only: a bound value that is not a context',
      check: tokenOnly,
      headers: { 'x-auth-context': garbage, 'x-id': await tokenFor(garbage) },
      detail: BAD_CONTEXT,
    },
  ];
  for (const row of rows) {
    const verdict = await row.check(row.headers);
    if (row.detail === null) t.match(verdict, { ok: true, caller: { userId: 'alice' } }, row.name);
    else t.same(verdict, { ok: false, detail: row.detail }, row.name);
  }
});
