/**
 * End to end: service accounts through a real gateway, store and upstream: a minted token on allowed and forbidden routes, the identity the upstream sees,
 * revocation and expiry, a restart on the same file, no plaintext on disk, the throttle, and
 * 503 when the store fails while serving.
 */
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import t from 'tap';
import { hashServiceAccountToken } from '../../src/auth/service-accounts/token.js';
import { parseConfig } from '../../src/config/load.js';
import { assembleGateway, closeGatewayState } from '../../src/gateway/assemble.js';
import type { ListedAccount } from '../../src/gateway/service-accounts/render.js';
import { startGatewayServer } from '../../src/gateway/server.js';
import {
  assertForwarded,
  assertRefused,
  bearer,
  send,
  yamlOf,
  INVALID_TOKEN_CHALLENGE,
} from '../fixtures/e2e.js';
import { RSA_KEY } from '../fixtures/keys.js';
import {
  caller,
  MANAGE,
  mintAccount,
  postAccount,
  startAccountsPair,
  STORE,
} from '../fixtures/service-accounts.js';
import { createTestClock, goodToken, TEST_NOW, TEST_NOW_MS } from '../fixtures/tokens.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';

const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => {
  exec(sql: string): unknown;
  close(): unknown;
};

const INVALID_SA = {
  status: 401,
  detail: 'Invalid or expired service account token',
  challenge: INVALID_TOKEN_CHALLENGE,
};
const UNAVAILABLE = { status: 503, detail: 'Service account store unavailable', challenge: null };
const DAY_MS = 86_400_000;

t.test('a minted token opens what its scopes allow, as sa:<name>, and nothing else', async (t) => {
  const pair = await startAccountsPair(t, { auth: { authorization: false } });
  const jwt = await caller([...MANAGE, 'agents:run', 'config:read'], 'alice');
  const account = await mintAccount(t, pair, jwt, {
    name: 'ci',
    scopes: [{ scope: 'agents:run' }, { scope: 'config:read' }],
  });
  const token = account.token;

  const { received, context } = await assertForwarded(t, pair, {
    path: '/config',
    headers: bearer(token),
  });
  t.same(context, {
    authenticated: true,
    user_id: 'sa:ci',
    session_id: null,
    scopes: ['agents:run', 'config:read'],
    claims: {},
    audience: null,
    authorization_enabled: false,
    dependencies: {},
    session_state: {},
    accessible_resource_ids: null,
    principal_type: 'service_account',
    is_admin: false,
    scoped_user_id: 'sa:ci',
    required_scopes: ['config:read'],
    service_account_name: 'ci',
  });
  t.equal(received.headers['x-auth-user-id'], 'sa%3Aci');
  t.equal(received.headers['x-auth-scopes'], 'agents:run config:read');
  await assertForwarded(t, pair, {
    method: 'POST',
    path: '/agents/a1/runs',
    headers: bearer(token),
  });

  // Service-account tokens are scope-checked even with authorization off.
  for (const [method, path, scope] of [
    ['GET', '/sessions', 'sessions:read'],
    ['DELETE', '/agents/a1', 'agents:delete'],
    ['POST', '/teams/t1/runs', 'teams:run'],
    ['GET', '/service-accounts', 'service_accounts:read'],
  ] as const) {
    await assertRefused(
      t,
      pair,
      { method, path, headers: bearer(token) },
      {
        status: 403,
        detail: `Insufficient permissions. Required scope(s): ${scope}`,
        challenge: `Bearer realm="scopegate", error="insufficient_scope", scope="${scope}"`,
      },
    );
  }
});

t.test('an account with the admin scope is admin: no scoped_user_id', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller(['agent_os:admin']);
  const account = await mintAccount(t, pair, jwt, {
    name: 'root-bot',
    scopes: [{ scope: 'agent_os:admin' }],
    allow_privileged_scopes: true,
  });
  const { context } = await assertForwarded(t, pair, {
    method: 'DELETE',
    path: '/sessions',
    headers: bearer(account.token),
  });
  t.equal(context.is_admin, true);
  t.equal(context.scoped_user_id, null);
  t.equal(context.user_id, 'sa:root-bot');
});

t.test('a service account with service_accounts scopes mints within its own scopes', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read', 'agents:run']);
  const manager = await mintAccount(t, pair, jwt, {
    name: 'manager',
    scopes: [
      { scope: 'service_accounts:write' },
      { scope: 'service_accounts:read' },
      { scope: 'config:read' },
    ],
    allow_privileged_scopes: true,
  });
  const child = await mintAccount(t, pair, manager.token, {
    name: 'child',
    scopes: [{ scope: 'config:read' }],
  });
  const refused = await postAccount(pair, manager.token, {
    name: 'greedy',
    scopes: [{ scope: 'agents:run' }],
  });
  t.same(
    [refused.status, refused.json],
    [403, { detail: 'scopes: a caller may grant only scopes it holds; not held: agents:run' }],
  );
  const list = await pair.send({ path: '/service-accounts', headers: bearer(manager.token) });
  const byName = new Map(
    (list.json as { data: ListedAccount[] }).data.map((a) => [a.name, a.created_by]),
  );
  t.equal(byName.get('child'), 'sa:manager', 'created_by is the minting principal');
  t.equal(byName.get('manager'), 'alice');
  t.ok(child.token);
});

t.test('revocation is effective on the next request', async (t) => {
  const pair = await startAccountsPair(t, { serviceAccounts: { cache_ttl_seconds: 3600 } });
  const jwt = await caller([...MANAGE, 'config:read']);
  const account = await mintAccount(t, pair, jwt, {
    name: 'short-lived',
    scopes: [{ scope: 'config:read' }],
  });
  await assertForwarded(t, pair, { path: '/config', headers: bearer(account.token) });
  await assertForwarded(t, pair, { path: '/config', headers: bearer(account.token) });
  const revoked = await pair.send({
    method: 'DELETE',
    path: `/service-accounts/${account.id}`,
    headers: bearer(jwt),
  });
  t.equal(revoked.status, 204);
  await assertRefused(t, pair, { path: '/config', headers: bearer(account.token) }, INVALID_SA);
});

t.test('an expired account is refused at its expiry (test clock)', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read'], 'alice');
  const account = await mintAccount(t, pair, jwt, {
    name: 'one-day',
    scopes: [{ scope: 'config:read' }],
    expires_in_days: 1,
  });
  await assertForwarded(t, pair, { path: '/config', headers: bearer(account.token) });
  pair.clock.set(TEST_NOW_MS + DAY_MS - 1_000);
  await assertForwarded(t, pair, { path: '/config', headers: bearer(account.token) });
  pair.clock.set(TEST_NOW_MS + DAY_MS);
  await assertRefused(t, pair, { path: '/config', headers: bearer(account.token) }, INVALID_SA);
  const later = await goodToken({
    sub: 'alice',
    scopes: [...MANAGE, 'config:read'],
    now: TEST_NOW + 86_400,
  });
  const renewed = await mintAccount(t, pair, later, {
    name: 'one-day',
    scopes: [{ scope: 'config:read' }],
  });
  t.equal(renewed.name, 'one-day', 'an expired account frees its name');
});

/** A gateway on `dir`'s gateway.yaml, closed by the returned function. */
async function startOn(dir: string, upstreamUrl: string) {
  const text = yamlOf({
    listen: { host: '127.0.0.1', port: 0 },
    upstream: { url: upstreamUrl },
    auth: {
      verification_keys: [RSA_KEY.publicPem],
      service_accounts: { enabled: true, store: `sqlite:${STORE}` },
    },
  });
  writeFileSync(join(dir, 'gateway.yaml'), text);
  const loaded = parseConfig(text, join(dir, 'gateway.yaml'), { env: {} });
  const assembly = await assembleGateway(loaded, { clock: createTestClock() });
  if (assembly.state === null) throw new Error(JSON.stringify(assembly.problems));
  const state = assembly.state;
  const server = await startGatewayServer(() => state, { host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: async () => {
      await server.close();
      await closeGatewayState(state);
    },
  };
}

t.test('accounts survive a restart on the same file', async (t) => {
  const upstream = await startRecordingUpstream();
  t.teardown(() => upstream.close());
  const dir = t.testdir({});
  const jwt = await caller([...MANAGE, 'config:read']);
  const first = await startOn(dir, upstream.url);
  const minted = await send(first.url, {
    method: 'POST',
    path: '/service-accounts',
    headers: bearer(jwt),
    body: JSON.stringify({ name: 'durable', scopes: [{ scope: 'config:read' }] }),
  });
  t.equal(minted.status, 201);
  const { token, id } = minted.json as { token: string; id: string };
  t.equal((await send(first.url, { path: '/config', headers: bearer(token) })).status, 200);
  await first.close();

  const second = await startOn(dir, upstream.url);
  t.teardown(() => second.close());
  t.equal((await send(second.url, { path: '/config', headers: bearer(token) })).status, 200);
  const list = await send(second.url, { path: '/service-accounts', headers: bearer(jwt) });
  t.same(
    (list.json as { data: ListedAccount[] }).data.map((a) => a.id),
    [id],
  );
});

t.test('the plaintext token is nowhere in the database files', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read']);
  const tokens: string[] = [];
  for (const name of ['a', 'b', 'c']) {
    const account = await mintAccount(t, pair, jwt, { name, scopes: [{ scope: 'config:read' }] });
    tokens.push(account.token);
    await assertForwarded(t, pair, { path: '/config', headers: bearer(account.token) });
  }
  const files = ['', '-wal', '-shm']
    .map((suffix) => pair.storePath + suffix)
    .filter((f) => existsSync(f));
  t.ok(files.length >= 2, 'the database and its WAL exist');
  const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
  for (const token of tokens) {
    t.equal(bytes.indexOf(token), -1, 'no token');
    t.equal(bytes.indexOf(token.slice(16)), -1, 'not even the part after the prefix');
    t.not(bytes.indexOf(hashServiceAccountToken(token)), -1, 'its digest is there (right files)');
  }
});

t.test('20 failed look-ups from one address are 401, then 429; a valid token passes', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read']);
  const account = await mintAccount(t, pair, jwt, {
    name: 'valid',
    scopes: [{ scope: 'config:read' }],
  });
  const bad = (i: number) => `svc_pat_${String(i).padStart(43, 'x')}`;
  for (let i = 1; i <= 20; i++) {
    await assertRefused(t, pair, { path: '/config', headers: bearer(bad(i)) }, INVALID_SA);
  }
  const throttled = {
    status: 429,
    detail: 'Too many failed service account look-ups from this address; try again later',
    challenge: null,
  };
  await assertRefused(t, pair, { path: '/config', headers: bearer(bad(21)) }, throttled);
  await assertRefused(t, pair, { path: '/config', headers: bearer('svc_pat_junk') }, throttled);
  await assertForwarded(t, pair, { path: '/config', headers: bearer(account.token) });
  t.equal(
    (await pair.send({ path: '/config', headers: bearer(jwt) })).status,
    200,
    'JWTs are not throttled',
  );
  pair.clock.advance(60_000);
  await assertRefused(t, pair, { path: '/config', headers: bearer(bad(22)) }, INVALID_SA);
});

t.test('a store that fails while serving answers 503, never 200 or 401', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read']);
  const cached = await mintAccount(t, pair, jwt, {
    name: 'cached',
    scopes: [{ scope: 'config:read' }],
  });
  const fresh = await mintAccount(t, pair, jwt, {
    name: 'fresh',
    scopes: [{ scope: 'config:read' }],
  });
  await assertForwarded(t, pair, { path: '/config', headers: bearer(cached.token) });

  const db = new Sqlite(pair.storePath);
  db.exec('DROP TABLE service_accounts');
  db.close();

  await assertRefused(t, pair, { path: '/config', headers: bearer(fresh.token) }, UNAVAILABLE);
  await assertRefused(t, pair, { path: '/config', headers: bearer(cached.token) }, UNAVAILABLE);
  await assertRefused(t, pair, { path: '/service-accounts', headers: bearer(jwt) }, UNAVAILABLE);
  await assertRefused(
    t,
    pair,
    {
      method: 'POST',
      path: '/service-accounts',
      headers: bearer(jwt),
      body: JSON.stringify({ name: 'new', scopes: [{ scope: 'config:read' }] }),
    },
    UNAVAILABLE,
  );
  await assertRefused(
    t,
    pair,
    { method: 'DELETE', path: `/service-accounts/${cached.id}`, headers: bearer(jwt) },
    UNAVAILABLE,
  );
  const unknown = `svc_pat_${'q'.repeat(43)}`;
  for (let i = 0; i < 25; i++) await pair.send({ path: '/config', headers: bearer(unknown) });
  await assertRefused(t, pair, { path: '/config', headers: bearer(unknown) }, UNAVAILABLE);
  await assertForwarded(t, pair, { path: '/config', headers: bearer(jwt) });
});

t.test('a closed store answers 503 too', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read']);
  const account = await mintAccount(t, pair, jwt, {
    name: 'x',
    scopes: [{ scope: 'config:read' }],
  });
  await assertForwarded(t, pair, { path: '/config', headers: bearer(account.token) });
  pair.gateway.state.serviceAccounts?.close();
  await assertRefused(t, pair, { path: '/config', headers: bearer(account.token) }, UNAVAILABLE);
  await assertRefused(t, pair, { path: '/service-accounts', headers: bearer(jwt) }, UNAVAILABLE);
});
