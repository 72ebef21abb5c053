/**
 * End to end (issue #19): `upstream.identity_token` through a real gateway and its admin
 * listener. The upstream verifies the header the way a JWT middleware configured with the JWKS
 * URL, an audience and a `scopes` claim does (jose's jwtVerify over createRemoteJWKSet).
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  SignJWT,
} from 'jose';
import t, { type Test } from 'tap';
import { createReadiness } from '../../src/admin/health.js';
import { startAdminServer } from '../../src/admin/server.js';
import { httpCall } from '../fixtures/child.js';
import { bearer, startPair, yamlOf, type Pair } from '../fixtures/e2e.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { createTestClock, goodToken, TEST_SERVICE_ID, type TestClock } from '../fixtures/tokens.js';

const HEADER = 'x-auth-identity-token';
const ISSUER = `scopegate:${TEST_SERVICE_ID}`;

async function startSigned(
  t: Test,
  clock: TestClock,
  identityToken: Record<string, unknown> = {},
  files: Record<string, string> = {},
): Promise<{ pair: Pair; jwksUrl: URL; audience: string }> {
  const pair = await startPair(t, {
    clock,
    files,
    upstream: { identity_token: { enabled: true, ...identityToken } },
    yaml: yamlOf({
      service_id: TEST_SERVICE_ID,
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        algorithm: 'RS256',
        authorization: true,
        service_accounts: { enabled: false },
      },
    }),
  });
  const admin = await startAdminServer(
    {
      registry: pair.gateway.state.telemetry.metrics.registry,
      readiness: createReadiness({ current: () => pair.gateway.state, clock }),
      identityKeys: () => pair.gateway.state.identityKeys,
    },
    { host: '127.0.0.1', port: 0 },
  );
  t.teardown(() => admin.close());
  return {
    pair,
    jwksUrl: new URL(`http://127.0.0.1:${admin.address().port}/.well-known/jwks.json`),
    audience: new URL(pair.upstream.url).origin,
  };
}

/** Sends one authorized request and returns the identity token the upstream received. */
async function tokenThrough(t: Test, pair: Pair, headers: Record<string, string> = {}) {
  const jwt = await goodToken({ sub: 'user-7', scopes: ['agents:read'] });
  const answer = await pair.send({ path: '/agents', headers: { ...bearer(jwt), ...headers } });
  t.equal(answer.status, 200, 'forwarded');
  const received = pair.upstream.received.at(-1);
  return received?.headers[HEADER] as string | undefined;
}

t.test('the upstream verifies the assertion with the admin JWKS', async (t) => {
  const clock = createTestClock();
  const { pair, jwksUrl, audience } = await startSigned(t, clock);
  const token = await tokenThrough(t, pair);
  t.type(token, 'string', 'the header reached the upstream');
  const jwks = createRemoteJWKSet(jwksUrl);
  const verify = (value: string, options: { audience?: string; at?: number } = {}) =>
    jwtVerify(value, jwks, {
      issuer: ISSUER,
      audience: options.audience ?? audience,
      algorithms: ['ES256'],
      currentDate: new Date(options.at ?? clock.now()),
    });
  const { payload, protectedHeader } = await verify(token as string);
  t.match(payload, {
    iss: ISSUER,
    aud: audience,
    sub: 'user-7',
    scopes: ['agents:read'],
    principal_type: 'jwt',
  });
  t.equal((payload.exp as number) - (payload.iat as number), 60, 'exp = iat + ttl');
  t.equal(protectedHeader.alg, 'ES256');

  const served = await httpCall(jwksUrl.href);
  t.match(served.headers['cache-control'], /max-age=60/, 'short cache');
  const keys = (JSON.parse(served.body) as { keys: Record<string, unknown>[] }).keys;
  t.equal(keys.length, 1, 'one key');
  t.notOk('d' in (keys[0] as object), 'public only');

  const rows: {
    name: string;
    value: () => Promise<string>;
    audience?: string;
    at?: number;
    code: string;
  }[] = [
    {
      name: 'forged (another key, same kid)',
      value: async () => {
        const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
        return new SignJWT({ scopes: ['admin'] })
          .setProtectedHeader({ alg: 'ES256', kid: protectedHeader.kid as string })
          .setIssuer(ISSUER)
          .setAudience(audience)
          .setSubject('user-7')
          .setIssuedAt(clock.now() / 1000)
          .setExpirationTime(clock.now() / 1000 + 60)
          .sign(other);
      },
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    },
    {
      name: 'expired (clock past ttl)',
      value: async () => token as string,
      at: clock.now() + 61_000,
      code: 'ERR_JWT_EXPIRED',
    },
    {
      name: 'wrong audience',
      value: async () => token as string,
      audience: 'http://elsewhere.example',
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
    },
  ];
  for (const row of rows) {
    await t.rejects(
      verify(await row.value(), {
        ...(row.audience === undefined ? {} : { audience: row.audience }),
        ...(row.at === undefined ? {} : { at: row.at }),
      }),
      { code: row.code },
      row.name,
    );
  }
});

t.test('one principal, two requests: one token; a new one after half the ttl', async (t) => {
  const clock = createTestClock();
  const { pair } = await startSigned(t, clock);
  const first = await tokenThrough(t, pair);
  const second = await tokenThrough(t, pair);
  t.equal(second, first, 'the cached token');
  clock.advance(30_000);
  const third = await tokenThrough(t, pair);
  t.not(third, first, 'signed again at half the ttl');
});

t.test('a caller-sent assertion never reaches the upstream', async (t) => {
  const clock = createTestClock();
  const { pair } = await startSigned(t, clock, { header: 'x-identity' });
  const rows = [
    { name: 'authenticated, same spelling', auth: true, header: 'x-identity' },
    { name: 'authenticated, underscore spelling', auth: true, header: 'x_identity' },
    { name: 'anonymous on an excluded route', auth: false, header: 'x-identity' },
  ];
  for (const row of rows) {
    const headers: Record<string, string> = { [row.header]: 'forged' };
    if (row.auth) Object.assign(headers, bearer(await goodToken({ scopes: ['agents:read'] })));
    const answer = await pair.send({ path: row.auth ? '/agents' : '/health', headers });
    t.equal(answer.status, 200, `${row.name}: forwarded`);
    const received = pair.upstream.received.at(-1)?.headers ?? {};
    t.not(received['x-identity'], 'forged', `${row.name}: not the caller's`);
    t.notOk('x_identity' in received, `${row.name}: no underscore spelling`);
    t.type(received['x-identity'], 'string', `${row.name}: the gateway's own`);
    const claims = decodeJwt(received['x-identity'] as string);
    t.equal(claims['principal_type'], row.auth ? 'jwt' : 'anonymous', `${row.name}: its principal`);
    t.equal(
      claims['ctx'],
      createHash('sha256')
        .update(received['x-auth-context'] as string)
        .digest('base64url'),
      `${row.name}: ctx binds the x-auth-context sent with it`,
    );
  }
});

t.test('rotation: the new kid signs, the old one stays published for the ttl', async (t) => {
  const clock = createTestClock();
  const { pair, jwksUrl } = await startSigned(t, clock, { rotate_hours: 1, ttl_seconds: 60 });
  const kids = async () =>
    (JSON.parse((await httpCall(jwksUrl.href)).body) as { keys: { kid: string }[] }).keys.map(
      (k) => k.kid,
    );
  const before = decodeProtectedHeader((await tokenThrough(t, pair)) as string).kid as string;
  t.same(await kids(), [before]);
  clock.advance(3_600_000);
  const after = decodeProtectedHeader((await tokenThrough(t, pair)) as string).kid as string;
  t.not(after, before, 'a new kid signs');
  t.same((await kids()).sort(), [before, after].sort(), 'both published');
  clock.advance(60_000);
  t.same(await kids(), [after], 'the old kid gone after the ttl');
});

t.test('key_file: the last key signs, every key is published', async (t) => {
  const clock = createTestClock();
  const jwk = () =>
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const file = JSON.stringify({ keys: [jwk(), jwk()] });
  const { pair, jwksUrl, audience } = await startSigned(
    t,
    clock,
    { key_file: 'idkeys.json', audience: 'agno', issuer: 'gw' },
    { 'idkeys.json': file },
  );
  const token = (await tokenThrough(t, pair)) as string;
  const { payload } = await jwtVerify(token, createRemoteJWKSet(jwksUrl), {
    issuer: 'gw',
    audience: 'agno',
    currentDate: new Date(clock.now()),
  });
  t.equal(payload.sub, 'user-7');
  t.not(audience, 'agno');
  const published = (JSON.parse((await httpCall(jwksUrl.href)).body) as { keys: unknown[] }).keys;
  t.equal(published.length, 2, 'both keys published');
  const last = JSON.parse(file).keys[1];
  const key = await importJWK({ kty: 'EC', crv: 'P-256', x: last.x, y: last.y }, 'ES256');
  await t.resolves(
    jwtVerify(token, key, { currentDate: new Date(clock.now()) }),
    'the last key signed',
  );
});
