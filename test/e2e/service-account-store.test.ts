/**
 * End to end: the service-account store fails closed without stalling. Another process holding
 * the write lock stalls nothing (JWT requests and service-account tokens are answered while it is
 * held; a mint that meets it answers 503 after its retries, never blocking the event loop); a
 * removed or replaced store file turns into 503 for service-account work while JWT traffic goes on,
 * `/readyz` names the store and `scopegate_store_up` is 0; a reload reopens the file; with
 * `cache_ttl_seconds: 0` a revoke by another process is refused on the very next request.
 */
import { renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createReadiness } from '../../src/admin/health.js';
import { startAdminServer } from '../../src/admin/server.js';
import { loadConfig } from '../../src/config/load.js';
import { assembleGateway, closeGatewayState } from '../../src/gateway/assemble.js';
import { DEFAULT_SERVICE_ACCOUNT_SCOPES } from '../../src/gateway/service-accounts/accounts.js';
import { httpCall, spawnScopegate } from '../fixtures/child.js';
import { assertRefused, bearer, INVALID_TOKEN_CHALLENGE } from '../fixtures/e2e.js';
import { parseMetrics, valueOf } from '../fixtures/observability.js';
import {
  caller,
  MANAGE,
  mintAccount,
  postAccount,
  startAccountsPair,
  type AccountsPair,
} from '../fixtures/service-accounts.js';
import { holdWriteLock } from '../fixtures/store-lock.js';

const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => {
  prepare(sql: string): { get(...p: unknown[]): unknown };
  exec(sql: string): unknown;
  close(): unknown;
};

const UNAVAILABLE = { status: 503, detail: 'Service account store unavailable', challenge: null };
const INVALID_SA = {
  status: 401,
  detail: 'Invalid or expired service account token',
  challenge: INVALID_TOKEN_CHALLENGE,
};

/** A manager holding the default scopes of a new account, so it may mint with them. */
const CALLER_SCOPES = [...MANAGE, ...DEFAULT_SERVICE_ACCOUNT_SCOPES];

/** The admin listener over the pair's state, with the store gauge watched as `serve` does. */
async function startAdmin(t: Test, pair: AccountsPair): Promise<string> {
  const { metrics } = pair.gateway.state.telemetry;
  metrics.watchStores(() => pair.gateway.state);
  const admin = await startAdminServer(
    {
      registry: metrics.registry,
      readiness: createReadiness({ current: () => pair.gateway.state, clock: pair.clock }),
    },
    { host: '127.0.0.1', port: 0 },
  );
  t.teardown(() => admin.close());
  return `http://127.0.0.1:${admin.address().port}`;
}

async function readyz(adminUrl: string): Promise<{ status: number; body: unknown }> {
  const answer = await httpCall(`${adminUrl}/readyz`);
  return { status: answer.status, body: JSON.parse(answer.body) as unknown };
}

async function storeUp(t: Test, adminUrl: string): Promise<number> {
  const samples = parseMetrics((await httpCall(`${adminUrl}/metrics`)).body);
  return valueOf(t, samples, 'scopegate_store_up', { store: 'service_accounts' });
}

function lastUsedOf(path: string, name: string): unknown {
  const db = new Sqlite(path);
  try {
    return (
      db.prepare('SELECT last_used_at FROM service_accounts WHERE name = ?').get(name) as {
        last_used_at: number | null;
      }
    ).last_used_at;
  } finally {
    db.close();
  }
}

t.test('JWT requests complete while the lock is held', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller(CALLER_SCOPES);
  const account = await mintAccount(t, pair, jwt, { name: 'ci' });
  const other = await mintAccount(t, pair, jwt, { name: 'other' });

  const lock = holdWriteLock(t, pair.storePath);
  await lock.locked;

  // Finishing order: a stall on the event loop would put every request after the write.
  const order: string[] = [];
  const mint = postAccount(pair, jwt, { name: 'during-lock' }).then((answer) => {
    order.push('mint');
    return answer;
  });
  const revoke = pair
    .send({ method: 'DELETE', path: `/service-accounts/${other.id}`, headers: bearer(jwt) })
    .then((answer) => {
      order.push('revoke');
      return answer;
    });
  const quick: Promise<number>[] = [];
  for (let i = 0; i < 5; i++) {
    quick.push(
      pair.send({ path: '/config', headers: bearer(jwt) }).then((answer) => {
        order.push(`jwt ${i}`);
        return answer.status;
      }),
    );
  }
  // A first use (last_used_at to write), then a list: reads never wait for a writer.
  quick.push(
    pair.send({ path: '/config', headers: bearer(account.token) }).then((answer) => {
      order.push('service account token');
      return answer.status;
    }),
  );
  quick.push(
    pair.send({ path: '/service-accounts', headers: bearer(jwt) }).then((answer) => {
      order.push('list');
      return answer.status;
    }),
  );
  t.same(await Promise.all(quick), [200, 200, 200, 200, 200, 200, 200], 'all 200 under the lock');

  const minted = await mint;
  t.equal(minted.status, 503, 'a mint that meets the lock past its retries: 503');
  t.same(minted.json, { detail: UNAVAILABLE.detail });
  t.equal((await revoke).status, 503, 'so does a revoke');
  t.same(order.slice(-2).sort(), ['mint', 'revoke'], 'the writes answered last: nothing waited');

  // The lock is still held here: every answer above came while it was.
  await lock.release();
  t.equal(lastUsedOf(pair.storePath, 'ci'), null, 'the use is queued, not yet written');
  pair.gateway.state.serviceAccounts?.store.flush();
  t.equal(lastUsedOf(pair.storePath, 'ci'), Math.floor(pair.clock.now() / 1000), 'then flushed');
  await mintAccount(t, pair, jwt, { name: 'after-lock' });
  const gone = await pair.send({
    method: 'DELETE',
    path: `/service-accounts/${other.id}`,
    headers: bearer(jwt),
  });
  t.equal(gone.status, 204, 'the revoke succeeds once the lock is gone');
});

/** Takes the store file away as named. */
const LOSSES: readonly (readonly [string, (path: string) => void])[] = [
  [
    'removed (rm of the store files)',
    (path) => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    },
  ],
  [
    'replaced (a copy moved over it)',
    (path) => {
      const db = new Sqlite(path);
      db.exec(`VACUUM INTO '${path}.copy'`);
      db.close();
      renameSync(`${path}.copy`, path);
      // As a restore does: the old file's write-ahead log would not fit the copy.
      rmSync(`${path}-wal`, { force: true });
      rmSync(`${path}-shm`, { force: true });
    },
  ],
];

for (const [name, lose] of LOSSES) {
  t.test(
    `a store file ${name}: 503 for service accounts, JWT untouched, /readyz names it`,
    async (t) => {
      const pair = await startAccountsPair(t);
      const adminUrl = await startAdmin(t, pair);
      const jwt = await caller(CALLER_SCOPES);
      const account = await mintAccount(t, pair, jwt, { name: 'ci' });
      t.equal((await pair.send({ path: '/config', headers: bearer(account.token) })).status, 200);
      t.equal(await storeUp(t, adminUrl), 1, 'scopegate_store_up 1');

      lose(pair.storePath);

      const before = pair.upstream.received.length;
      const mint = await postAccount(pair, jwt, { name: 'never-on-disk' });
      t.equal(mint.status, 503, 'mint: 503');
      t.same(mint.json, { detail: UNAVAILABLE.detail }, 'mint: no token shown');
      await assertRefused(
        t,
        pair,
        { path: '/service-accounts', headers: bearer(jwt) },
        UNAVAILABLE,
      );
      await assertRefused(
        t,
        pair,
        { path: '/config', headers: bearer(account.token) },
        UNAVAILABLE,
      );
      await assertRefused(
        t,
        pair,
        { method: 'DELETE', path: `/service-accounts/${account.id}`, headers: bearer(jwt) },
        UNAVAILABLE,
      );
      t.equal(pair.upstream.received.length, before, 'the upstream saw none of them');
      t.equal((await pair.send({ path: '/config', headers: bearer(jwt) })).status, 200, 'JWT: 200');

      t.same(await readyz(adminUrl), {
        status: 200,
        body: {
          status: 'ready',
          degraded: ['service_account_store'],
          checks: { config: 'ok', upstream: 'ok', service_account_store: 'failing' },
        },
      });
      t.equal(await storeUp(t, adminUrl), 0, 'scopegate_store_up 0');

      // A reload reopens the file the path names now (here: empty, or the copy).
      const loaded = loadConfig(join(pair.gateway.dir, 'gateway.yaml'), { env: {} });
      const reloaded = await assembleGateway(loaded, {
        clock: pair.clock,
        previousAccounts: pair.gateway.assembly.accounts,
      });
      const state = reloaded.state;
      if (state === null) throw new Error(JSON.stringify(reloaded.problems));
      t.teardown(() => closeGatewayState(state));
      t.not(state.serviceAccounts?.store, pair.gateway.state.serviceAccounts?.store, 'reopened');
      t.equal(state.serviceAccounts?.store.available, true, 'available again');
    },
  );
}

t.test(
  'cache_ttl_seconds 0: a revoke by another process is refused on the very next request',
  async (t) => {
    const pair = await startAccountsPair(t, { serviceAccounts: { cache_ttl_seconds: 0 } });
    const jwt = await caller(CALLER_SCOPES);
    const account = await mintAccount(t, pair, jwt, { name: 'ci' });
    for (let i = 0; i < 3; i++) {
      t.equal((await pair.send({ path: '/config', headers: bearer(account.token) })).status, 200);
    }
    const revoke = spawnScopegate(t, [
      'accounts',
      'revoke',
      account.id,
      '--config',
      join(pair.gateway.dir, 'gateway.yaml'),
    ]);
    t.equal((await revoke.exited).code, 0, revoke.stderr());
    t.equal(
      revoke.stdout().trim(),
      `revoked ${account.id}; running gateways stop accepting its token within 1000 ms`,
    );
    await assertRefused(t, pair, { path: '/config', headers: bearer(account.token) }, INVALID_SA);
  },
);
