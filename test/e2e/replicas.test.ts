/**
 * Gateways as replicas, as real `scopegate serve` processes sharing one service-account store: a
 * token minted through one is accepted by the other; a revoke through one (or by
 * `scopegate accounts revoke`, or with the other's LISTEN connection killed first) is refused by
 * the other within its staleness bound; with the Postgres server stopped, service-account tokens
 * get 503 on both while JWT requests pass, and they pass again once it is back, without a
 * restart; two gateways starting at once on an empty database make one schema. The same revoke
 * between two processes on one SQLite file. Each wait prints how long it took.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SignJWT } from 'jose';
import pg from 'pg';
import t, { type Test } from 'tap';
import { httpCall, spawnScopegate, type Child } from '../fixtures/child.js';
import { startTestPostgres } from '../fixtures/postgres.js';
import { startRecordingUpstream, type RecordingUpstream } from '../fixtures/upstream.js';

// Several real gateway processes on one database: about 40 s on a quiet 2-core machine, more
// than the suite's 120 s per file when the machine is busy.
t.setTimeout(300_000);

const SECRET = randomBytes(32).toString('hex');
const UNAVAILABLE = 'Service account store unavailable';

/** A JWT the gateways accept, holding the admin scope (so it may mint anything). */
function adminJwt(): Promise<string> {
  return new SignJWT({ scopes: ['agent_os:admin'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(Buffer.from(SECRET));
}

interface Gateway {
  readonly child: Child;
  readonly url: string;
  readonly admin: string;
  readonly config: string;
}

/** Starts `scopegate serve` as replica `id` on `store`, its config written in `dir`. */
async function startGateway(
  t: Test,
  dir: string,
  upstream: RecordingUpstream,
  id: string,
  store: string,
): Promise<Gateway> {
  const config = join(dir, `${id}.yaml`);
  writeFileSync(
    config,
    [
      `service_id: replicas-test`,
      'listen: { host: 127.0.0.1, port: 0, trusted_proxies: [127.0.0.1/32] }',
      'admin: { host: 127.0.0.1, port: 0 }',
      `upstream: { url: "${upstream.url}", timeout_ms: 5000 }`,
      'policies: []',
      'auth:',
      `  verification_keys: ["${SECRET}"]`,
      '  algorithm: HS256',
      `  service_accounts: { enabled: true, store: "${store}", cache_ttl_seconds: 30 }`,
      `cluster: { replica_id: ${id}, max_staleness_ms: 1000, feed_poll_ms: 500 }`,
      '',
    ].join('\n'),
  );
  const child = spawnScopegate(t, ['serve', '--config', config]);
  const listening = await child.errLine(/^scopegate listening on /);
  const admin = await child.errLine(/^admin listening on /);
  return {
    child,
    config,
    url: `http://127.0.0.1:${/:(\d+), forwarding/.exec(listening)?.[1]}`,
    admin: `http://127.0.0.1:${/:(\d+) \(/.exec(admin)?.[1]}`,
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Mints an account through `gateway`; its id and token. */
async function mint(gateway: Gateway, jwt: string, name: string) {
  const res = await httpCall(`${gateway.url}/service-accounts`, {
    method: 'POST',
    headers: { ...bearer(jwt), 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`mint: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as { id: string; token: string };
}

/**
 * The status of `GET /config` with `token` on `gateway`, and the detail of a refusal; `from` is
 * the client address a trusted proxy (this test) reports, each with its own failure throttle.
 */
async function use(
  gateway: Gateway,
  token: string,
  from = '192.0.2.1',
): Promise<{ status: number; detail?: string }> {
  const res = await httpCall(`${gateway.url}/config`, {
    headers: { ...bearer(token), 'x-forwarded-for': from },
  });
  if (res.status === 200) return { status: 200 };
  return { status: res.status, detail: (JSON.parse(res.body) as { detail: string }).detail };
}

/**
 * Calls `probe` until it answers true (every 5 ms, at most `boundMs`); answers how long it took.
 * The figure is printed, never compared with a time.
 */
async function until(
  t: Test,
  what: string,
  probe: () => Promise<boolean>,
  boundMs = 15_000,
): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await probe()) break;
    if (performance.now() - start > boundMs) throw new Error(`${what}: not within ${boundMs} ms`);
    await sleep(5);
  }
  const took = Math.round(performance.now() - start);
  t.comment(`${what}: ${took} ms`);
  return took;
}

/** The store's gauge on a gateway's /metrics (1 up, 0 down). */
async function storeUp(gateway: Gateway): Promise<string | undefined> {
  const body = (await httpCall(`${gateway.admin}/metrics`)).body;
  return /^scopegate_store_up\{store="service_accounts"\} (\d)$/m.exec(body)?.[1];
}

t.test('two gateways on one Postgres database behave as one system', async (t) => {
  const dir = t.testdir();
  const server = await startTestPostgres(t);
  if (server === null) return;
  const store = await server.createDatabase('replicas');
  const upstream = await startRecordingUpstream();
  t.teardown(() => upstream.close());

  // Two replicas starting at once on an empty database: one schema, no error.
  const [one, two] = await Promise.all([
    startGateway(t, dir, upstream, 'gw1', store),
    startGateway(t, dir, upstream, 'gw2', store),
  ]);
  const db = new pg.Client({ connectionString: store });
  await db.connect();
  const { rows: schema } = await db.query('SELECT component, version FROM scopegate_schema');
  t.equal(schema.length, 1, 'one schema row');
  t.same((await db.query("SELECT to_regclass('service_accounts') IS NOT NULL AS ok")).rows, [
    { ok: true },
  ]);

  await db.end();
  const jwt = await adminJwt();
  const first = await mint(one, jwt, 'shared');
  t.same(await use(two, first.token), { status: 200 }, 'minted on gw1, accepted by gw2');
  t.same(await use(two, first.token), { status: 200 }, 'again: now from gw2 cache');

  // A revoke through gw1: gw2 refuses it within its staleness bound (notified, so sooner).
  const revoked = await httpCall(`${one.url}/service-accounts/${first.id}`, {
    method: 'DELETE',
    headers: bearer(jwt),
  });
  t.equal(revoked.status, 204);
  await until(
    t,
    'API revoke on gw1 → 401 on gw2',
    async () => (await use(two, first.token)).status === 401,
  );
  t.same(await use(one, first.token), {
    status: 401,
    detail: 'Invalid or expired service account token',
  });

  // 20 more revokes, in the steady state: how soon gw2 refuses, with notifications (the figures are printed).
  const figures: number[] = [];
  for (let i = 0; i < 20; i++) {
    const account = await mint(one, jwt, `round-${i}`);
    const from = `198.51.100.${i + 1}`;
    t.equal((await use(two, account.token, from)).status, 200);
    t.equal((await use(two, account.token, from)).status, 200);
    const gone = await httpCall(`${one.url}/service-accounts/${account.id}`, {
      method: 'DELETE',
      headers: bearer(jwt),
    });
    t.equal(gone.status, 204);
    const start = performance.now();
    // Each round from its own client address, so the failure throttle never steps in.
    let status: number;
    while ((status = (await use(two, account.token, from)).status) === 200) {
      if (performance.now() - start > 15_000) throw new Error(`round ${i}: still accepted`);
      await sleep(1);
    }
    t.equal(status, 401, `round ${i}: refused`);
    figures.push(performance.now() - start);
  }
  figures.sort((a, b) => a - b);
  const at = (q: number) => Math.round(figures[Math.ceil(q * figures.length) - 1]!);
  t.comment(`revoke → 401 on the other replica, 20 rounds: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);

  // A revoke from a third process: the CLI.
  const second = await mint(one, jwt, 'cli-revoked');
  t.same(await use(two, second.token), { status: 200 });
  t.same(await use(two, second.token), { status: 200 });
  const cli = spawnScopegate(t, ['accounts', 'revoke', second.id, '--config', one.config]);
  t.equal((await cli.exited).code, 0, cli.stderr());
  await until(
    t,
    'CLI revoke → 401 on gw2',
    async () => (await use(two, second.token)).status === 401,
  );

  // gw2's listening connection killed first: polling still sees the revoke.
  const third = await mint(one, jwt, 'no-listen');
  t.same(await use(two, third.token), { status: 200 });
  t.same(await use(two, third.token), { status: 200 });
  t.equal(await server.terminate('scopegate-feed:gw2'), 1, "gw2's LISTEN connection killed");
  t.match(await two.child.line(/change feed lost its connection/), /"level":"warn"/, 'logged');
  t.equal(
    (
      await httpCall(`${one.url}/service-accounts/${third.id}`, {
        method: 'DELETE',
        headers: bearer(jwt),
      })
    ).status,
    204,
  );
  await until(
    t,
    'revoke with gw2 not listening → 401 on gw2',
    async () => (await use(two, third.token)).status === 401,
  );

  // The store stops: cached service-account tokens get 503 on both, JWTs pass.
  const kept = await mint(one, jwt, 'kept');
  for (const gateway of [one, two]) {
    t.same(await use(gateway, kept.token), { status: 200 });
    t.same(await use(gateway, kept.token), { status: 200 }, 'cached');
  }
  await server.stop();
  for (const [name, gateway] of [
    ['gw1', one],
    ['gw2', two],
  ] as const) {
    await until(
      t,
      `Postgres stopped → 503 on ${name}`,
      async () => (await use(gateway, kept.token)).status === 503,
    );
    const before = upstream.received.length;
    t.same(await use(gateway, kept.token), { status: 503, detail: UNAVAILABLE });
    t.same(await use(gateway, jwt), { status: 200 }, `${name}: a JWT request passes`);
    t.equal(upstream.received.length, before + 1, `${name}: only the JWT request went upstream`);
    const minted = await httpCall(`${gateway.url}/service-accounts`, {
      method: 'POST',
      headers: { ...bearer(jwt), 'content-type': 'application/json' },
      body: JSON.stringify({ name: `during-${name}` }),
    });
    t.same([minted.status, JSON.parse(minted.body)], [503, { detail: UNAVAILABLE }], 'mint: 503');
    const listed = await httpCall(`${gateway.url}/service-accounts`, { headers: bearer(jwt) });
    t.equal(listed.status, 503, 'list: 503');
    const ready = await httpCall(`${gateway.admin}/readyz`);
    t.equal(ready.status, 200, `${name}: still ready`);
    t.match(JSON.parse(ready.body), { degraded: ['service_account_store'] });
    await until(t, `${name}: scopegate_store_up 0`, async () => (await storeUp(gateway)) === '0');
  }

  // The store is back: accepted again, no restart.
  await server.start();
  for (const [name, gateway] of [
    ['gw1', one],
    ['gw2', two],
  ] as const) {
    await until(
      t,
      `Postgres back → 200 on ${name}`,
      async () => (await use(gateway, kept.token)).status === 200,
    );
    await until(t, `${name}: scopegate_store_up 1`, async () => (await storeUp(gateway)) === '1');
  }
  t.equal(one.child.child.exitCode, null, 'gw1 still running');
  t.equal(two.child.child.exitCode, null, 'gw2 still running');

  // A replica whose credentials are refused does not start; it names the file, line and key.
  const wrong = new URL(store);
  wrong.password = 'not-the-password';
  const refusedConfig = join(dir, 'refused.yaml');
  writeFileSync(
    refusedConfig,
    readFileSync(one.config, 'utf8').replace(store, wrong.href).replace('gw1', 'refused'),
  );
  const refused = spawnScopegate(t, ['serve', '--config', refusedConfig]);
  t.equal((await refused.exited).code, 1, 'serve exits 1');
  t.match(
    refused.stderr(),
    /refused\.yaml:9 auth\.service_accounts\.store: service-account store 'postgres:\/\/postgres:\*\*\*@/,
  );
  t.equal(refused.stderr().includes('not-the-password'), false, 'no password printed');

  const password = new URL(store).password;
  for (const gateway of [one, two]) {
    const printed = gateway.child.stdout() + gateway.child.stderr();
    t.equal(printed.includes(password), false, 'the password is never printed');
  }
});

t.test(
  'two gateways on one SQLite file: a revoke through one is refused by the other',
  async (t) => {
    const upstream = await startRecordingUpstream();
    t.teardown(() => upstream.close());
    const dir = t.testdir();
    const path = join(dir, 'shared.db');
    const one = await startGateway(t, dir, upstream, 'file1', `sqlite:${path}`);
    const two = await startGateway(t, dir, upstream, 'file2', `sqlite:${path}`);
    const jwt = await adminJwt();
    const account = await mint(one, jwt, 'on-file');
    t.same(await use(two, account.token), { status: 200 });
    t.same(await use(two, account.token), { status: 200 }, 'cached on file2');
    const revoked = await httpCall(`${one.url}/service-accounts/${account.id}`, {
      method: 'DELETE',
      headers: bearer(jwt),
    });
    t.equal(revoked.status, 204);
    await until(
      t,
      'revoke on file1 → 401 on file2 (polling)',
      async () => (await use(two, account.token)).status === 401,
    );
  },
);
