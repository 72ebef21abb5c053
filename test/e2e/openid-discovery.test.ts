/**
 * End to end: `auth.jwks_url: discover` (issue #18) against a real loopback OpenID provider (its
 * configuration and its JWK set of real keys), through a real gateway in front of a recording
 * upstream, on an injected clock and a scheduler the test runs by hand. A token of the
 * provider's key passes; a configuration for another issuer, without a jwks_uri, or naming a
 * clear-text jwks_uri off this machine is never used; a provider down at start behaves as a
 * jwks_url down does; keys rotated at the provider are picked up as jwks_url picks them up.
 */
import t, { type Test } from 'tap';
import type { JwksFetchResult, RemoteJwks } from '../../src/auth/chain.js';
import {
  assertForwarded,
  assertRefused,
  bearer,
  INVALID_TOKEN_CHALLENGE,
  send,
  type Pair,
} from '../fixtures/e2e.js';
import { startGateway } from '../fixtures/gateway.js';
import { createManualScheduler, type ManualScheduler } from '../fixtures/jwks-server.js';
import { RSA_KEY, RSA_KEY_2 } from '../fixtures/keys.js';
import { startOpenIdServer, type OpenIdServer } from '../fixtures/openid-server.js';
import { createTestClock, mintTestToken, type TestClock } from '../fixtures/tokens.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';

const REFRESH_S = 300;
const COOLDOWN_S = 30;

interface Setup {
  readonly idp: OpenIdServer;
  readonly pair: Pair;
  readonly remote: RemoteJwks;
  readonly clock: TestClock;
  readonly scheduler: ManualScheduler;
  readonly fetches: [JwksFetchResult, string][];
  /** A token signed by `key` (kid `kid`), issued by the provider, valid for a day. */
  token(key?: typeof RSA_KEY, kid?: string, sub?: string): Promise<string>;
  /** The status the gateway answers on `/config` for such a token. */
  status(key?: typeof RSA_KEY, kid?: string, sub?: string): Promise<number>;
  /** Runs the scheduled background fetch and waits for it to settle. */
  runBackground(): Promise<void>;
}

/** A gateway whose only JWT source is discovery from `idp` (started by the test). */
async function startOn(t: Test, idp: OpenIdServer, issuer = idp.issuer): Promise<Setup> {
  const upstream = await startRecordingUpstream();
  t.teardown(() => upstream.close());
  const clock = createTestClock();
  const scheduler = createManualScheduler();
  const fetches: [JwksFetchResult, string][] = [];
  const gateway = await startGateway(t, {
    yaml: [
      'policies: []',
      'auth:',
      '  jwks_url: discover',
      `  issuer: "${issuer}"`,
      '  algorithm: RS256',
      `  jwks_refresh_seconds: ${REFRESH_S}`,
      `  jwks_cooldown_seconds: ${COOLDOWN_S}`,
      '  service_accounts: { enabled: false }',
    ].join('\n'),
    upstreamUrl: upstream.url,
    clock,
    jwks: { schedule: scheduler, onFetch: (result, detail) => fetches.push([result, detail]) },
  });
  const remote = gateway.state.chain.remoteJwks as RemoteJwks;
  const pair: Pair = { gateway, upstream, send: (o) => send(gateway.url, o) };
  const token = (key = RSA_KEY, kid = key.kid, sub = 'user-1'): Promise<string> =>
    mintTestToken({
      key: key.privateKey,
      kid,
      sub,
      iss: issuer,
      now: Math.floor(clock.now() / 1000),
      ttlSeconds: 86_400,
    });
  return {
    idp,
    pair,
    remote,
    clock,
    scheduler,
    fetches,
    token,
    async status(key, kid, sub) {
      const answer = await pair.send({
        path: '/config',
        headers: bearer(await token(key, kid, sub)),
      });
      return answer.status;
    },
    async runBackground() {
      scheduler.fire();
      await remote.refreshForUnknownKid();
    },
  };
}

const INVALID_TOKEN = { status: 401, detail: 'Invalid token', challenge: INVALID_TOKEN_CHALLENGE };

/** The SGWRN008 start-up warning for a discovery that failed with `reason`. */
function unavailable(reason: string) {
  return {
    key: 'auth.jwks_url',
    code: 'SGWRN008',
    message:
      `the JWK set cannot be fetched (${reason}): tokens that need its keys are refused (401) ` +
      'and readiness says not ready until a fetch succeeds; retried every 30 s',
  };
}

t.test(
  'a token signed by the discovered key passes, whichever way the issuer is written',
  async (t) => {
    const rows = [
      { name: 'a bare origin (Okta-like path-less issuer)', issuerPath: '' },
      { name: 'a trailing slash (Auth0)', issuerPath: '/' },
      { name: 'a path (Keycloak realm)', issuerPath: '/realms/demo' },
      { name: 'a path with a version (Entra ID v2)', issuerPath: '/tenant-1/v2.0' },
    ];
    for (const row of rows) {
      await t.test(row.name, async (t) => {
        const idp = await startOpenIdServer(t, [RSA_KEY.publicJwk], row.issuerPath);
        const s = await startOn(t, idp);
        t.same(s.pair.gateway.assembly.warnings, [], 'no start-up warning');
        t.same(s.fetches, [['success', '']], 'one attempt at start, successful');
        t.same(idp.requests, { configuration: 1, jwks: 1 }, 'the configuration, then its jwks_uri');
        t.equal(s.remote.url, idp.configurationUrl, 'the well-known URL below the issuer');
        t.equal(s.remote.keysUrl(), idp.jwksUrl, 'the keys come from the discovered jwks_uri');
        t.equal(s.remote.ready(), true);
        const { context } = await assertForwarded(t, s.pair, {
          path: '/config',
          headers: bearer(await s.token()),
        });
        t.equal(context.user_id, 'user-1');
        t.same(idp.requests, { configuration: 1, jwks: 1 }, 'the request fetched nothing');
      });
    }
  },
);

t.test('a configuration it cannot use is never followed; tokens are 401', async (t) => {
  const rows: {
    name: string;
    document: (idp: OpenIdServer) => unknown;
    reason: (idp: OpenIdServer) => string;
  }[] = [
    {
      name: 'issued for another issuer',
      document: (idp) => ({ issuer: 'https://evil.example/', jwks_uri: idp.jwksUrl }),
      reason: (idp) =>
        `OpenID configuration at ${idp.configurationUrl}: its issuer "https://evil.example/" ` +
        `is not auth.issuer "${idp.issuer}"`,
    },
    {
      name: 'the issuer differing by a trailing slash only',
      document: (idp) => ({ issuer: `${idp.issuer}/`, jwks_uri: idp.jwksUrl }),
      reason: (idp) =>
        `OpenID configuration at ${idp.configurationUrl}: its issuer "${idp.issuer}/" ` +
        `is not auth.issuer "${idp.issuer}"`,
    },
    {
      name: 'no jwks_uri',
      document: (idp) => ({ issuer: idp.issuer }),
      reason: (idp) => `OpenID configuration at ${idp.configurationUrl}: no jwks_uri`,
    },
    {
      name: 'a clear-text jwks_uri off this machine',
      document: (idp) => ({ issuer: idp.issuer, jwks_uri: 'http://idp.example/jwks' }),
      reason: (idp) =>
        `OpenID configuration at ${idp.configurationUrl}: jwks_uri "http://idp.example/jwks" ` +
        'is not an https:// URL (http:// only for a loopback host)',
    },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const idp = await startOpenIdServer(t, [RSA_KEY.publicJwk]);
      idp.serveConfiguration(row.document(idp));
      const s = await startOn(t, idp);
      t.match(s.pair.gateway.assembly.warnings, [unavailable(row.reason(idp))]);
      t.same(s.fetches, [['error', row.reason(idp)]], 'counted and logged as a failed fetch');
      t.equal(idp.requests.jwks, 0, 'the JWK set was never fetched');
      t.equal(s.remote.keysUrl(), null, 'no key location was taken from it');
      t.equal(s.remote.ready(), false, 'not ready');
      await assertRefused(
        t,
        s.pair,
        { path: '/config', headers: bearer(await s.token()) },
        INVALID_TOKEN,
      );
    });
  }
});

t.test('the JWK set the configuration names failing is named as such', async (t) => {
  const rows = [
    { name: 'an HTTP error', serve: (idp: OpenIdServer) => idp.failKeys(503), reason: 'HTTP 503' },
    {
      name: 'not a JWK set',
      serve: (idp: OpenIdServer) =>
        idp.serveConfiguration({ issuer: idp.issuer, jwks_uri: idp.configurationUrl }),
      reason: 'not a JWK set (no "keys" list)',
    },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const idp = await startOpenIdServer(t, [RSA_KEY.publicJwk]);
      row.serve(idp);
      const s = await startOn(t, idp);
      const at = s.remote.keysUrl();
      t.match(s.pair.gateway.assembly.warnings, [unavailable(`JWK set at ${at}: ${row.reason}`)]);
      await assertRefused(
        t,
        s.pair,
        { path: '/config', headers: bearer(await s.token()) },
        INVALID_TOKEN,
      );
    });
  }
});

t.test(
  'the provider down at start: starts, warns, 401 until it answers (as jwks_url)',
  async (t) => {
    const idp = await startOpenIdServer(t, [RSA_KEY.publicJwk]);
    idp.failConfiguration(503);
    const s = await startOn(t, idp);
    t.match(s.pair.gateway.assembly.warnings, [
      unavailable(`OpenID configuration at ${idp.configurationUrl}: HTTP 503`),
    ]);
    t.equal(s.remote.ready(), false, 'not ready');
    await assertRefused(
      t,
      s.pair,
      { path: '/config', headers: bearer(await s.token()) },
      INVALID_TOKEN,
    );
    t.equal(s.scheduler.pending?.ms, COOLDOWN_S * 1000, 'retried at the cool-down');

    idp.serveConfiguration({ issuer: idp.issuer, jwks_uri: idp.jwksUrl });
    s.clock.advance(COOLDOWN_S * 1000);
    await s.runBackground();
    t.equal(s.remote.ready(), true, 'ready once the provider answered');
    t.equal(await s.status(), 200);
    t.equal(s.scheduler.pending?.ms, REFRESH_S * 1000, 'then refreshed at the interval');
  },
);

t.test(
  'keys rotated at the provider are picked up; a failed refresh keeps the last good keys',
  async (t) => {
    const idp = await startOpenIdServer(t, [RSA_KEY.publicJwk]);
    const s = await startOn(t, idp);
    const oldToken = await s.token(RSA_KEY, 'rsa-1', 'old');
    const oldAnswer = () => s.pair.send({ path: '/config', headers: bearer(oldToken) });
    t.equal((await oldAnswer()).status, 200, 'a token of the first key, verified and cached');

    // A key rotated in: the unknown kid re-reads the configuration and the set, once.
    idp.serveKeys([RSA_KEY.publicJwk, RSA_KEY_2.publicJwk]);
    s.clock.advance(COOLDOWN_S * 1000);
    t.equal(await s.status(RSA_KEY_2), 200, 'a token of the new key: one refresh, then accepted');
    t.same(idp.requests, { configuration: 2, jwks: 2 });

    // The provider moves its set: the next background refresh follows the new jwks_uri.
    const moved = `${idp.jwksUrl}?v=2`;
    idp.serveConfiguration({ issuer: idp.issuer, jwks_uri: moved });
    idp.serveKeys([RSA_KEY_2.publicJwk]);
    s.clock.advance(REFRESH_S * 1000);
    await s.runBackground();
    t.equal(s.remote.keysUrl(), moved, 'the new location is followed');
    t.equal((await oldAnswer()).status, 401, 'the cached token of the retired key is refused');
    t.equal(await s.status(RSA_KEY_2, 'rsa-2', 'after'), 200, 'the current key verifies');

    // The provider fails: the last good keys stay in use.
    idp.failConfiguration(500);
    s.clock.advance(REFRESH_S * 1000);
    await s.runBackground();
    t.same(s.fetches.at(-1), [
      'error',
      `OpenID configuration at ${idp.configurationUrl}: HTTP 500`,
    ]);
    t.equal(s.remote.ready(), true, 'still ready');
    t.equal(await s.status(RSA_KEY_2, 'rsa-2', 'during'), 200, 'the last good keys still verify');
  },
);
