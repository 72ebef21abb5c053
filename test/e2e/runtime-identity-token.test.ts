/**
 * End to end (issue #19): the bundled runtime believing contexts on the gateway's identity token
 * alone (`runtime.identity_token`, no shared secret). A real gateway signs with its `key_file`
 * and writes its JWK Set to `jwks_file`; the real runtime reads that file. Through the gateway a
 * request passes (an excluded route's anonymous one too); sent straight to the runtime, a forged
 * token, an expired one, one for another audience, no token, and a valid token beside another
 * context are refused 401 with the signature detail, before any route runs.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, SignJWT, type JWK } from 'jose';
import t, { type Test } from 'tap';
import { startRuntime } from '../../src/runtime/start.js';
import { identityContextHashOf } from '../../src/shared/identity-context.js';
import { bearer, closedPortUrl, send } from '../fixtures/e2e.js';
import { startGateway } from '../fixtures/gateway.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { runtimeDir } from '../fixtures/runtime-stack.js';
import { createTestClock, goodToken, TEST_SERVICE_ID, type TestClock } from '../fixtures/tokens.js';
import { encodedContext } from '../runtime/fixtures/runtime.js';

const ISSUER = `scopegate:${TEST_SERVICE_ID}`;
const AUDIENCE = 'scopegate-runtime';
const HEADER = 'x-auth-identity-token';
const BAD = { detail: 'Missing or invalid identity signature' };

/** The gateway's signing key (its key_file), which the test holds too to mint bad tokens. */
const PRIVATE = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const PRIVATE_JWK = PRIVATE.export({ format: 'jwk' }) as JWK;

async function start(t: Test, clock: TestClock) {
  const shared = runtimeDir(t);
  const jwksFile = join(shared, 'gateway-jwks.json');
  const upstreamUrl = await closedPortUrl();
  const gateway = await startGateway(t, {
    upstreamUrl,
    clock,
    files: { 'identity-key.json': JSON.stringify({ keys: [PRIVATE_JWK] }) },
    upstream: {
      identity_token: {
        enabled: true,
        key_file: 'identity-key.json',
        jwks_file: jwksFile,
        audience: AUDIENCE,
      },
    },
    yaml: [
      `service_id: ${TEST_SERVICE_ID}`,
      'auth:',
      '  algorithm: RS256',
      `  verification_keys: [${JSON.stringify(RSA_KEY.publicPem)}]`,
      '  authorization: true',
      '  service_accounts: { enabled: false }',
    ].join('\n'),
  });
  const runtime = await startRuntime({
    settings: {
      db: 'runtime.db',
      agents: [{ id: 'a1', name: 'Agent One' }],
      identity_token: { jwks_file: jwksFile, issuer: ISSUER, audience: AUDIENCE },
    },
    dir: shared,
    host: '127.0.0.1',
    port: Number(new URL(upstreamUrl).port),
    clock,
    identitySecret: null,
  });
  t.teardown(() => runtime.close());
  return { gateway, runtime, jwksFile };
}

t.test('the runtime believes the token the gateway signed, and nothing else', async (t) => {
  const clock = createTestClock();
  const { gateway, runtime, jwksFile } = await start(t, clock);
  const kid = await calculateJwkThumbprint(PRIVATE_JWK);
  t.same(
    (JSON.parse(readFileSync(jwksFile, 'utf8')) as { keys: { kid: string }[] }).keys.map(
      (k) => k.kid,
    ),
    [kid],
    'the gateway wrote its JWK Set where the runtime reads it',
  );

  const reader = bearer(await goodToken({ sub: 'user-1', scopes: ['agents:read'] }));
  const listed = await send(gateway.url, { path: '/agents', headers: reader });
  t.equal(listed.status, 200, 'through the gateway: admitted');
  t.match(JSON.parse(listed.body), [{ id: 'a1' }]);
  const info = await send(gateway.url, { path: '/info' });
  t.equal(info.status, 200, "an excluded route: the anonymous context's token is admitted too");

  const signer = gateway.state.forwardHeaders.identityToken!;
  const valueA = encodedContext({ user_id: 'user-1', scopes: ['agents:read'] });
  const contextA = JSON.parse(Buffer.from(valueA, 'base64url').toString('utf8'));
  const realToken = signer.tokenFor(contextA, valueA);
  const valueB = encodedContext({ user_id: 'mallory', is_admin: true, scopes: ['agent_os:admin'] });
  const now = Math.floor(clock.now() / 1000);
  // Every claim in the payload itself: jose's setters would overwrite a row's value.
  const mint = (claims: Record<string, unknown>, key = PRIVATE) =>
    new SignJWT({
      iss: ISSUER,
      aud: AUDIENCE,
      sub: 'user-1',
      scopes: [],
      ctx: identityContextHashOf(valueA),
      iat: now,
      exp: now + 60,
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256', kid })
      .sign(key);
  const direct = (context: string, token: string | null) =>
    send(runtime.url, {
      path: '/agents',
      headers: { 'x-auth-context': context, ...(token === null ? {} : { [HEADER]: token }) },
    });

  const control = await direct(valueA, realToken);
  t.equal(control.status, 200, "straight to the runtime with the gateway's token: admitted");
  const minted = await direct(valueA, await mint({}));
  t.equal(minted.status, 200, 'the rows below change one thing each from this admitted token');
  const rows: { name: string; context: string; token: () => Promise<string | null> }[] = [
    { name: 'no token', context: valueA, token: async () => null },
    {
      name: 'forged: another key under the gateway kid',
      context: valueA,
      token: () => mint({}, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey),
    },
    {
      name: 'expired',
      context: valueA,
      token: () => mint({ iat: now - 600, exp: now - 60 }),
    },
    { name: 'wrong audience', context: valueA, token: () => mint({ aud: 'another-service' }) },
    {
      name: "the gateway's valid token beside a tampered context",
      context: valueB,
      token: async () => realToken,
    },
  ];
  for (const row of rows) {
    const answer = await direct(row.context, await row.token());
    t.equal(answer.status, 401, `${row.name}: 401`);
    t.same(JSON.parse(answer.body), BAD, `${row.name}: the signature detail`);
  }
});
