import t from 'tap';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadOrCreateDevKeys } from '../../../src/auth/jwt/dev-keys.js';
import { generateKeyPairSync } from 'node:crypto';
import { EC_KEY, RSA_KEY } from '../../fixtures/keys.js';

/** The private scalar of another P-256 key. */
const EC_KEY_2_D = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
  format: 'jwk',
}).d;

t.test('a missing file is created: an ES256 private JWK, mode 0600, parents made', async (t) => {
  const dir = t.testdir({});
  const path = join(dir, 'data', 'nested', 'dev-keys.json');
  const keys = await loadOrCreateDevKeys(path);
  t.equal(keys.created, true);
  t.equal(statSync(path).mode & 0o777, 0o600, 'owner read/write only');
  t.equal(statSync(join(dir, 'data')).mode & 0o077, 0, 'created folders are private');
  const jwk = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  t.match(jwk, { kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: keys.kid, d: String });
  t.match(keys.kid, /^[A-Za-z0-9_-]{43}$/, 'the RFC 7638 thumbprint');
  t.equal(keys.publicKey.type, 'public');
  t.equal(keys.privateKey.type, 'private');
  t.equal(keys.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
});

t.test('an existing file is reused', async (t) => {
  const path = join(t.testdir({}), 'dev-keys.json');
  const first = await loadOrCreateDevKeys(path);
  const second = await loadOrCreateDevKeys(path);
  t.equal(second.created, false);
  t.equal(second.kid, first.kid);
  t.ok(second.publicKey.equals(first.publicKey), 'the same key pair');
});

t.test(
  'a file that is not an ES256 private JWK is an error naming the path, not the contents',
  async (t) => {
    const ecPrivate = { ...EC_KEY.privateKey.export({ format: 'jwk' }), kid: 'k' };
    const rows: { name: string; text: string }[] = [
      { name: 'not JSON', text: '{"kty": "EC", "d": "SECRETSECRET"' },
      { name: 'JSON null', text: 'null' },
      { name: 'a public JWK', text: JSON.stringify(EC_KEY.publicJwk) },
      {
        name: 'an RSA JWK',
        text: JSON.stringify({ ...RSA_KEY.privateKey.export({ format: 'jwk' }), kid: 'k' }),
      },
      { name: 'no kid', text: JSON.stringify({ ...ecPrivate, kid: undefined }) },
      { name: 'an empty kid', text: JSON.stringify({ ...ecPrivate, kid: '' }) },
      { name: 'a P-384 key', text: JSON.stringify({ ...ecPrivate, crv: 'P-384' }) },
      {
        name: 'a private part that does not match the public point',
        text: JSON.stringify({ ...ecPrivate, d: EC_KEY_2_D }),
      },
      {
        name: 'key material that does not import',
        text: JSON.stringify({ ...ecPrivate, x: 'AAAA' }),
      },
    ];
    for (const row of rows) {
      const path = join(t.testdir({ 'dev-keys.json': row.text }), 'dev-keys.json');
      const err = await loadOrCreateDevKeys(path).then(
        () => null,
        (e: unknown) => e as Error,
      );
      t.equal(
        err?.message,
        `development key file ${path} is not an ES256 (P-256) private JWK with a kid`,
        row.name,
      );
      t.notOk(err?.message.includes('SECRET'), `${row.name}: no contents`);
      t.equal(readFileSync(path, 'utf8'), row.text, `${row.name}: never overwritten`);
    }
    t.ok(ecPrivate.d, 'the fixture key has private material');
  },
);

t.test('a path that cannot be read is an error naming it', async (t) => {
  const dir = t.testdir({ folder: {} });
  const path = join(dir, 'folder');
  await t.rejects(loadOrCreateDevKeys(path), {
    message: `cannot read development key file ${path} (EISDIR)`,
  });
});
