/**
 * The identity-token key ring, signer and load-time settings: key files (good and bad), file
 * rotation on reload (old keys published for the grace), returning to generated keys, and the
 * claims of principals without a user id or with a session.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { decodeJwt, importJWK, jwtVerify } from 'jose';
import t from 'tap';
import { loadConfig } from '../../../src/config/load.js';
import {
  createIdentityKeyRing,
  parseKeyFile,
  signingKeyOf,
} from '../../../src/gateway/identity-token/keys.js';
import { signIdentityToken } from '../../../src/gateway/identity-token/sign.js';
import {
  identityTokenOf,
  readIdentityTokenKeys,
} from '../../../src/gateway/identity-token/settings.js';
import { anonymousContext } from '../../../src/gateway/identity.js';
import { createTestClock } from '../../fixtures/tokens.js';

const noLog = (): void => {};

const ecJwk = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });

t.test('parseKeyFile refuses what is not a JWK Set of P-256 private keys', async (t) => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    format: 'jwk',
  });
  const { x, y } = ecJwk();
  const rows = [
    { name: 'not JSON', text: '{', message: /must be a JSON Web Key Set/ },
    { name: 'no keys', text: '{"keys": []}', message: /at least one key/ },
    { name: 'null', text: 'null', message: /at least one key/ },
    {
      name: 'a public key',
      text: JSON.stringify({ keys: [{ kty: 'EC', crv: 'P-256', x, y }] }),
      message: /key 1 is not a private JSON Web Key/,
    },
    {
      name: 'an RSA key',
      text: JSON.stringify({ keys: [ecJwk(), rsa] }),
      message: /key 2: every key must be an EC P-256 private key/,
    },
  ];
  for (const row of rows)
    t.throws(() => parseKeyFile(row.text), { message: row.message }, row.name);
  t.equal(parseKeyFile(JSON.stringify({ keys: [ecJwk()] })).length, 1, 'a good one');
});

t.test(
  'a replaced key file: the new last key signs, dropped keys stay for the grace',
  async (t) => {
    const clock = createTestClock();
    const [a, b] = parseKeyFile(JSON.stringify({ keys: [ecJwk(), ecJwk()] }));
    const ring = createIdentityKeyRing(clock, 60, 24, [a!, b!]);
    t.equal(ring.current().kid, b!.kid, 'the last signs');
    const [c] = parseKeyFile(JSON.stringify({ keys: [ecJwk()] }));
    ring.useKeys([b!, c!]);
    t.equal(ring.current().kid, c!.kid, 'the new last signs');
    const kids = () =>
      ring
        .jwks()
        .keys.map((k) => k.kid)
        .sort();
    t.same(kids(), [a!.kid, b!.kid, c!.kid].sort(), 'the dropped key still published');
    ring.configure(120, 24);
    clock.advance(60_000);
    t.same(kids(), [b!.kid, c!.kid].sort(), 'gone after the grace');
    ring.useKeys([a!]);
    t.equal(ring.current().kid, a!.kid, 'a key back from retirement signs');
    ring.useKeys(null);
    const generated = ring.current().kid;
    t.notOk([a!.kid, b!.kid, c!.kid].includes(generated), 'back to a generated key');
    t.ok(kids().includes(a!.kid), 'the file key published for the grace');
    ring.useKeys(null);
    t.equal(ring.current().kid, generated, 'a reload keeps the generated key');
  },
);

t.test('claims: no user id (sub is the principal type), a session id', async (t) => {
  const clock = createTestClock();
  const key = signingKeyOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  const settings = { header: 'x-a', issuer: 'i', audience: 'a', ttlSeconds: 60 };
  const base = anonymousContext({ rbacEnabled: true, userIsolation: false });
  const token = signIdentityToken(
    { ...base, authenticated: true, principal_type: 'security_key', session_id: 's-1' },
    'the-context-value',
    key,
    settings,
    clock.now() / 1000,
  );
  const verified = await jwtVerify(token, await importJWK(key.publicJwk, 'ES256'), {
    currentDate: new Date(clock.now()),
  });
  t.match(verified.payload, {
    sub: 'security_key',
    session_id: 's-1',
    scopes: [],
    // base64url(SHA-256("the-context-value")), as any SHA-256 tool computes it.
    ctx: createHash('sha256').update('the-context-value').digest('base64url'),
  });
  const noSession = signIdentityToken({ ...base, user_id: 'u' }, 'v', key, settings, 1);
  t.notOk('session_id' in decodeJwt(noSession), 'no session_id without a session');
});

t.test(
  'key_file at load: unreadable and bad files are problems; a reload reuses the ring',
  async (t) => {
    const dir = t.testdir({
      'bad.json': '{"keys": []}',
      'good.json': JSON.stringify({ keys: [ecJwk()] }),
    });
    const load = (tokenSettings: string) => {
      const file = join(dir, 'gateway.yaml');
      writeFileSync(file, `upstream: { identity_token: ${tokenSettings} }\n`);
      return loadConfig(file, { env: {} });
    };
    const rows = [
      { name: 'off', yaml: '{}', problem: null, keys: false },
      {
        name: 'missing',
        yaml: '{ enabled: true, key_file: none.json }',
        problem: /cannot read .*none\.json: ENOENT/,
        keys: false,
      },
      {
        name: 'bad',
        yaml: '{ enabled: true, key_file: bad.json }',
        problem: /bad\.json must be a JSON Web Key Set/,
        keys: false,
      },
      { name: 'good', yaml: '{ enabled: true, key_file: good.json }', problem: null, keys: true },
    ];
    for (const row of rows) {
      const read = readIdentityTokenKeys(load(row.yaml));
      if (row.problem === null) t.equal(read.problem, null, `${row.name}: no problem`);
      else t.match(read.problem, row.problem, `${row.name}: the problem`);
      t.equal(read.keys !== null, row.keys, `${row.name}: keys`);
    }
    const clock = createTestClock();
    const loaded = load('{ enabled: true }');
    const first = identityTokenOf(loaded, readIdentityTokenKeys(loaded).keys, null, clock, noLog);
    const kid = first.ring!.current().kid;
    const again = load('{ enabled: true, key_file: good.json }');
    const second = identityTokenOf(
      again,
      readIdentityTokenKeys(again).keys,
      first.ring,
      clock,
      noLog,
    );
    t.equal(second.ring, first.ring, 'the same ring');
    t.ok(
      second.ring!.jwks().keys.some((k) => k.kid === kid),
      'the generated key still published',
    );
    t.same(
      identityTokenOf(load('{}'), null, null, clock, noLog),
      { ring: null, signer: null, problem: null },
      'off',
    );
  },
);
