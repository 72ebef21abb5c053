/**
 * The runtime's identity-token check (`runtime.identity_token`), with real keys and jose: a token
 * is believed only when it is ES256, signed by a key of the gateway's JWK Set (a file, or a URL
 * on loopback), carries the configured `iss` and `aud`, `iat` and an unexpired `exp`, and its
 * `ctx` claim binds the exact context value. A rotated file is read again on an unknown kid.
 */
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { renameSync, writeFileSync } from 'node:fs';
import { SignJWT, type JWTPayload } from 'jose';
import t, { type Test } from 'tap';
import {
  CLOCK_TOLERANCE_SECONDS,
  createIdentityTokenCheck,
} from '../../../src/runtime/http/identity-token.js';
import { buildCatalogue } from '../../../src/runtime/catalogue/resolve.js';
import { createTestClock, type TestClock } from '../../fixtures/tokens.js';
import { encodedContext } from '../fixtures/runtime.js';

const ISSUER = 'scopegate:test';
const AUDIENCE = 'http://127.0.0.1:8081';
const VALUE = encodedContext({ user_id: 'alice' });
const ctxOf = (value: string) => createHash('sha256').update(value).digest('base64url');

interface Key {
  readonly privateKey: KeyObject;
  readonly kid: string;
  readonly jwk: Record<string, unknown>;
}

function ecKey(kid: string): Key {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, kid, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256' } };
}

const GATEWAY = ecKey('gw-1');

/** A token as the gateway signs it, at the clock's time; `claims` replace or (undefined) drop. */
function tokenOf(
  clock: TestClock,
  claims: Record<string, unknown> = {},
  key: Key = GATEWAY,
  alg = 'ES256',
): Promise<string> {
  const now = Math.floor(clock.now() / 1000);
  const payload: JWTPayload = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'alice',
    iat: now,
    exp: now + 60,
    ctx: ctxOf(VALUE),
    ...claims,
  };
  for (const [name, value] of Object.entries(payload))
    if (value === undefined) delete payload[name];
  return new SignJWT(payload).setProtectedHeader({ alg, kid: key.kid }).sign(key.privateKey);
}

function fileCheck(t: Test, clock: TestClock, keys: readonly Key[] = [GATEWAY]) {
  const dir = t.testdir({ 'jwks.json': JSON.stringify({ keys: keys.map((k) => k.jwk) }) });
  const check = createIdentityTokenCheck(
    {
      jwks_url: null,
      jwks_file: 'jwks.json',
      issuer: ISSUER,
      audience: AUDIENCE,
      header: 'X-Identity',
    },
    { clock, dir },
  );
  return { check, dir };
}

t.test('a token the gateway signed for this context passes; every other is refused', async (t) => {
  const clock = createTestClock();
  const broken: Key = {
    ...ecKey('broken'),
    jwk: { kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA', kid: 'broken', alg: 'ES256' },
  };
  const { check } = fileCheck(t, clock, [GATEWAY, broken]);
  t.equal(check.header, 'x-identity', 'the header as Node names it');
  t.equal(await check.verify(await tokenOf(clock), VALUE), true, 'the good token');
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const rows: { name: string; token: () => Promise<string>; value?: string; at?: number }[] = [
    { name: 'forged: another key, same kid', token: () => tokenOf(clock, {}, ecKey('gw-1')) },
    { name: 'a kid the set does not hold', token: () => tokenOf(clock, {}, ecKey('gw-9')) },
    { name: 'a key of the set that cannot be used', token: () => tokenOf(clock, {}, broken) },
    {
      name: 'not ES256',
      token: () => tokenOf(clock, {}, { ...GATEWAY, privateKey: rsa }, 'RS256'),
    },
    { name: 'expired', token: () => tokenOf(clock), at: (61 + CLOCK_TOLERANCE_SECONDS) * 1000 },
    { name: 'wrong audience', token: () => tokenOf(clock, { aud: 'http://elsewhere' }) },
    { name: 'wrong issuer', token: () => tokenOf(clock, { iss: 'someone-else' }) },
    { name: 'no exp', token: () => tokenOf(clock, { exp: undefined }) },
    { name: 'no iat', token: () => tokenOf(clock, { iat: undefined }) },
    { name: 'no ctx', token: () => tokenOf(clock, { ctx: undefined }) },
    {
      name: 'another context',
      token: () => tokenOf(clock),
      value: encodedContext({ user_id: 'alice', is_admin: true }),
    },
    { name: 'not a JWT', token: async () => 'not-a-jwt' },
  ];
  for (const row of rows) {
    const token = await row.token();
    if (row.at !== undefined) clock.advance(row.at);
    t.equal(await check.verify(token, row.value ?? VALUE), false, row.name);
    if (row.at !== undefined) clock.advance(-row.at);
  }
  const late = await tokenOf(clock);
  clock.advance((60 + CLOCK_TOLERANCE_SECONDS - 1) * 1000);
  t.equal(await check.verify(late, VALUE), true, `within ${CLOCK_TOLERANCE_SECONDS} s of exp`);
});

t.test('a JWK Set file replaced by the gateway is read again for a new kid', async (t) => {
  const clock = createTestClock();
  const { check, dir } = fileCheck(t, clock);
  const next = ecKey('gw-2');
  const token = await tokenOf(clock, {}, next);
  t.equal(await check.verify(token, VALUE), false, 'not in the file yet');
  // As the gateway writes it: a whole new file renamed over the old one.
  writeFileSync(join(dir, 'next.tmp'), JSON.stringify({ keys: [GATEWAY.jwk, next.jwk] }));
  renameSync(join(dir, 'next.tmp'), join(dir, 'jwks.json'));
  t.equal(await check.verify(token, VALUE), true, 'found after the rotation');
  t.equal(await check.verify(await tokenOf(clock), VALUE), true, 'the old key still verifies');
  writeFileSync(join(dir, 'jwks.json'), '{"keys": "none"}');
  t.equal(await check.verify(await tokenOf(clock, {}, ecKey('gw-3')), VALUE), false, 'broken');
});

t.test('a JWK Set file that cannot be used stops the start, naming it', async (t) => {
  const clock = createTestClock();
  const dir = t.testdir({ 'bad.json': '{"keys": 1}', 'text.json': 'nope' });
  const rows = [
    {
      name: 'missing',
      file: 'none.json',
      message: `cannot read ${join(dir, 'none.json')}: ENOENT`,
    },
    {
      name: 'not a set',
      file: 'bad.json',
      message: `${join(dir, 'bad.json')} is not a JSON Web Key Set`,
    },
    {
      name: 'not JSON',
      file: 'text.json',
      message: `${join(dir, 'text.json')} is not a JSON Web Key Set`,
    },
  ];
  for (const row of rows) {
    t.throws(
      () =>
        createIdentityTokenCheck(
          { jwks_url: null, jwks_file: row.file, issuer: ISSUER, audience: AUDIENCE, header: 'x' },
          { clock, dir },
        ),
      { message: row.message },
      row.name,
    );
  }
});

t.test('the JWK Set by URL: fetched when a token needs it', async (t) => {
  const clock = createTestClock();
  let fetched = 0;
  const server = createServer((_req, res) => {
    fetched += 1;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [GATEWAY.jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  const check = createIdentityTokenCheck(
    { jwks_url: url, jwks_file: null, issuer: ISSUER, audience: AUDIENCE, header: 'x' },
    { clock, dir: '/' },
  );
  t.equal(fetched, 0, 'nothing fetched before a token');
  t.equal(await check.verify(await tokenOf(clock), VALUE), true);
  t.equal(await check.verify(await tokenOf(clock), VALUE), true);
  t.equal(fetched, 1, 'cached');
});

t.test('runtime.identity_token settings: exactly one key source; a safe URL', async (t) => {
  const base = { issuer: ISSUER, audience: AUDIENCE };
  t.same(buildCatalogue({}).settings?.identity_token, null, 'off by default');
  t.same(
    buildCatalogue({ identity_token: { ...base, jwks_file: 'k.json' } }).settings?.identity_token,
    {
      ...base,
      jwks_url: null,
      jwks_file: 'k.json',
      header: 'x-auth-identity-token',
    },
  );
  const rows: { name: string; value: unknown; problem: RegExp }[] = [
    { name: 'neither', value: base, problem: /needs exactly one of jwks_url and jwks_file/ },
    {
      name: 'both',
      value: { ...base, jwks_file: 'k.json', jwks_url: 'https://gw/jwks' },
      problem: /needs exactly one of jwks_url and jwks_file/,
    },
    {
      name: 'plain http to another host',
      value: { ...base, jwks_url: 'http://gateway:9090/.well-known/jwks.json' },
      problem: /jwks_url: must be an https:\/\/ URL \(http:\/\/ only for a loopback host\)/,
    },
    { name: 'no issuer', value: { audience: AUDIENCE, jwks_file: 'k' }, problem: /issuer/ },
    {
      name: 'empty audience',
      value: { ...base, audience: '', jwks_file: 'k' },
      problem: /audience: must be a non-empty string/,
    },
    {
      name: 'a bad header',
      value: { ...base, jwks_file: 'k', header: 'a b' },
      problem: /header: must be an HTTP header name/,
    },
    { name: 'an unknown key', value: { ...base, jwks_file: 'k', secret: 'x' }, problem: /secret/ },
  ];
  for (const row of rows) {
    const { problems } = buildCatalogue({ identity_token: row.value });
    t.match(problems.join('\n'), row.problem, row.name);
  }
});
