/**
 * End to end: `auth.jwks_url` (issue #6 item 2) against a real plain-HTTP JWKS endpoint that
 * counts its requests, through a real gateway, on an injected clock and a scheduler the test
 * runs by hand. The set is fetched at start and cached; an unknown `kid` refreshes it once; a
 * burst of random `kid`s costs at most one fetch per cool-down; rotation in and out is picked up;
 * a failing endpoint keeps the last good keys until `jwks_max_stale_seconds`, then 401.
 */
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { JwksFetchResult, RemoteJwks } from '../../src/auth/chain.js';
import { bearer, send } from '../fixtures/e2e.js';
import { startGateway, type RunningGateway } from '../fixtures/gateway.js';
import {
  createManualScheduler,
  startJwksServer,
  type JwksServer,
  type ManualScheduler,
} from '../fixtures/jwks-server.js';
import { RSA_KEY, RSA_KEY_2 } from '../fixtures/keys.js';
import { createTestClock, mintTestToken, type TestClock } from '../fixtures/tokens.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';

const REFRESH_S = 300;
const COOLDOWN_S = 30;
const MAX_STALE_S = 3600;

interface Setup {
  readonly jwks: JwksServer;
  readonly gateway: RunningGateway;
  readonly remote: RemoteJwks;
  readonly clock: TestClock;
  readonly scheduler: ManualScheduler;
  readonly fetches: JwksFetchResult[];
  /** The status the gateway answers for a token signed by `key` with `kid`. */
  status(key?: typeof RSA_KEY, kid?: string, sub?: string): Promise<number>;
  /** Runs the scheduled background fetch and waits for it to settle. */
  runBackground(): Promise<void>;
}

/** A gateway whose only JWT source is the JWKS endpoint, serving `keys` at start. */
async function setUp(
  t: Test,
  keys: readonly object[] = [RSA_KEY.publicJwk],
  algorithm = 'RS256',
): Promise<Setup> {
  const jwks = await startJwksServer(t, keys);
  return startOn(t, jwks, algorithm);
}

async function startOn(t: Test, jwks: JwksServer, algorithm = 'RS256'): Promise<Setup> {
  const up = await startRecordingUpstream();
  t.teardown(() => up.close());
  const clock = createTestClock();
  const scheduler = createManualScheduler();
  const fetches: JwksFetchResult[] = [];
  const gateway = await startGateway(t, {
    yaml: [
      'policies: []',
      'auth:',
      `  jwks_url: "${jwks.url}"`,
      `  algorithm: ${algorithm}`,
      `  jwks_refresh_seconds: ${REFRESH_S}`,
      `  jwks_cooldown_seconds: ${COOLDOWN_S}`,
      `  jwks_max_stale_seconds: ${MAX_STALE_S}`,
      '  service_accounts: { enabled: false }',
    ].join('\n'),
    upstreamUrl: up.url,
    clock,
    jwks: { schedule: scheduler, onFetch: (result) => fetches.push(result) },
  });
  const remote = gateway.state.chain.remoteJwks as RemoteJwks;
  return {
    jwks,
    gateway,
    remote,
    clock,
    scheduler,
    fetches,
    async status(key = RSA_KEY, kid = key.kid, sub = 'user-1') {
      // Minted at the gateway's (moving) clock, valid for a day: only the keys decide.
      const token = await mintTestToken({
        key: key.privateKey,
        kid,
        sub,
        now: Math.floor(clock.now() / 1000),
        ttlSeconds: 86_400,
      });
      return (await send(gateway.url, { path: '/config', headers: bearer(token) })).status;
    },
    async runBackground() {
      scheduler.fire();
      // Joins the fetch the scheduled run started (it is in flight, so no cool-down applies).
      await remote.refreshForUnknownKid();
    },
  };
}

t.test('the set is fetched at start and cached: one fetch for many tokens', async (t) => {
  const s = await setUp(t);
  t.equal(s.jwks.requests, 1, 'fetched once, at start');
  t.equal(s.remote.ready(), true, 'ready: keys are held');
  t.same(s.gateway.assembly.warnings, [], 'no start-up warning');
  for (let i = 0; i < 5; i += 1) t.equal(await s.status(RSA_KEY, 'rsa-1', `user-${i}`), 200);
  t.equal(s.jwks.requests, 1, 'five tokens, still one fetch');
  t.same(s.fetches, ['success']);
});

t.test('an unknown kid refreshes once; a key rotated in and out is picked up', async (t) => {
  const s = await setUp(t);
  s.jwks.serve([RSA_KEY.publicJwk, RSA_KEY_2.publicJwk]);
  s.clock.advance(COOLDOWN_S * 1000);
  t.equal(await s.status(RSA_KEY_2), 200, 'a token for the new key: one refresh, then accepted');
  t.equal(s.jwks.requests, 2);
  t.equal(await s.status(RSA_KEY_2, 'rsa-2', 'another'), 200);
  t.equal(s.jwks.requests, 2, 'the new kid is known now: no fetch');

  const cachedOld = await mintTestToken({
    kid: 'rsa-1',
    now: Math.floor(s.clock.now() / 1000),
    ttlSeconds: 86_400,
  });
  const oldAnswer = () => send(s.gateway.url, { path: '/config', headers: bearer(cachedOld) });
  t.equal((await oldAnswer()).status, 200, 'a token of the old key, verified and cached');
  // The IdP retires rsa-1; the background refresh picks that up.
  s.jwks.serve([RSA_KEY_2.publicJwk]);
  s.clock.advance(REFRESH_S * 1000);
  await s.runBackground();
  t.equal(s.jwks.requests, 3);
  t.equal((await oldAnswer()).status, 401, 'the cached token of the retired key is refused');
  t.equal(await s.status(RSA_KEY_2), 200, 'the current key still verifies');
  t.equal(s.jwks.requests, 3, 'rsa-1 is unknown now, but the cool-down holds the fetch back');
});

t.test('a burst of random kids costs at most one fetch per cool-down', async (t) => {
  const s = await setUp(t);
  const burst = async (): Promise<number[]> =>
    Promise.all(Array.from({ length: 40 }, () => s.status(RSA_KEY_2, randomUUID())));
  const before = s.jwks.requests;
  t.ok(
    (await burst()).every((status) => status === 401),
    'every random kid is refused',
  );
  t.equal(s.jwks.requests, before, 'within the cool-down after the start-up fetch: no fetch');

  s.clock.advance(COOLDOWN_S * 1000);
  t.ok((await burst()).every((status) => status === 401));
  t.equal(s.jwks.requests, before + 1, 'past the cool-down: the whole burst shares one fetch');
  t.ok((await burst()).every((status) => status === 401));
  t.equal(s.jwks.requests, before + 1, 'and the next burst waits for the next cool-down');
});

t.test('a failing endpoint keeps the last good keys until max stale, then 401', async (t) => {
  const s = await setUp(t);
  t.equal(s.scheduler.pending?.ms, REFRESH_S * 1000, 'after a success: the refresh interval');
  s.jwks.fail(503);
  s.clock.advance(REFRESH_S * 1000);
  await s.runBackground();
  t.same(s.fetches, ['success', 'error'], 'the failure is counted');
  t.equal(s.remote.lastError(), 'HTTP 503');
  t.equal(s.scheduler.pending?.ms, COOLDOWN_S * 1000, 'after a failure: retried at the cool-down');
  t.equal(await s.status(RSA_KEY, 'rsa-1', 'fresh'), 200, 'the last good keys still verify');
  t.equal(s.remote.ready(), true);

  // Exactly max stale after the last success: still used; one millisecond later: dropped.
  s.clock.set(s.clock.now() - REFRESH_S * 1000 + MAX_STALE_S * 1000);
  t.equal(await s.status(RSA_KEY, 'rsa-1', 'at-the-bound'), 200);
  s.clock.advance(1);
  t.equal(await s.status(RSA_KEY, 'rsa-1', 'past-the-bound'), 401, 'fail closed: 401');
  t.equal(await s.status(RSA_KEY, 'rsa-1', 'at-the-bound'), 401, 'a cached token too');
  t.equal(s.remote.ready(), false, 'readiness says not ready');

  s.jwks.serve([RSA_KEY.publicJwk]);
  await s.runBackground();
  t.equal(s.remote.ready(), true, 'the next retry that succeeds brings the keys back');
  t.equal(await s.status(RSA_KEY, 'rsa-1', 'after'), 200);
  t.same(s.fetches.slice(-1), ['success']);
});

t.test(
  'unreachable at start: the gateway starts, warns, answers 401 until keys arrive',
  async (t) => {
    const jwks = await startJwksServer(t, [RSA_KEY.publicJwk]);
    jwks.fail(503);
    const s = await startOn(t, jwks);
    t.match(s.gateway.assembly.warnings, [
      {
        key: 'auth.jwks_url',
        code: 'SGWRN008',
        message:
          'the JWK set cannot be fetched (HTTP 503): tokens that need its keys are refused (401) ' +
          'and readiness says not ready until a fetch succeeds; retried every 30 s',
      },
    ]);
    t.equal(s.remote.ready(), false, 'not ready');
    t.equal(await s.status(), 401);
    t.equal(s.scheduler.pending?.ms, COOLDOWN_S * 1000, 'retried at the cool-down');

    jwks.serve([RSA_KEY.publicJwk]);
    s.clock.advance(COOLDOWN_S * 1000);
    await s.runBackground();
    t.equal(s.remote.ready(), true, 'ready once the keys arrived');
    t.equal(await s.status(), 200);
  },
);

t.test('symmetric keys and keys for other algorithms in the set are ignored', async (t) => {
  const secret = Buffer.from('a-secret-published-at-a-url-is-no-secret').toString('base64url');
  const s = await setUp(
    t,
    [
      { kty: 'oct', kid: 'hs', k: secret },
      { ...RSA_KEY.publicJwk, kid: 'ps-only', alg: 'PS256' },
      { kty: 'RSA', kid: 'broken', n: 'AQAB' },
      { ...RSA_KEY_2.publicJwk, use: 'enc' },
      RSA_KEY.publicJwk,
    ],
    '[RS256, HS256]',
  );
  const hsToken = await mintTestToken({
    key: new TextEncoder().encode('a-secret-published-at-a-url-is-no-secret'),
    alg: 'HS256',
    kid: 'hs',
    now: Math.floor(s.clock.now() / 1000),
  });
  t.equal(
    (await send(s.gateway.url, { path: '/config', headers: bearer(hsToken) })).status,
    401,
    'HS256 is accepted, but an oct key served at a URL is never used',
  );
  t.equal(await s.status(RSA_KEY, 'ps-only'), 401, 'a key whose alg is not accepted');
  t.equal(await s.status(RSA_KEY_2), 401, 'an encryption key');
  t.equal(await s.status(), 200, 'the usable key verifies');
});
