/**
 * `upstream.identity_token.jwks_file`: the public JWK Set written whole (a temporary file, then a
 * rename), at start and each time the ring's set changes — a rotation (before the new key signs),
 * new keys on reload, a retired key leaving — and what happens when it cannot be written.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { loadConfig } from '../../../src/config/load.js';
import { writeJwksFile } from '../../../src/gateway/identity-token/jwks-file.js';
import {
  createIdentityKeyRing,
  signingKeyOf,
  type PublishedJwks,
} from '../../../src/gateway/identity-token/keys.js';
import {
  identityTokenOf,
  readIdentityTokenKeys,
} from '../../../src/gateway/identity-token/settings.js';
import { createTestClock } from '../../fixtures/tokens.js';

const kidsIn = (path: string): string[] =>
  (JSON.parse(readFileSync(path, 'utf8')) as PublishedJwks).keys.map((k) => k.kid).sort();

t.test('writeJwksFile replaces the file whole and leaves no temporary file', async (t) => {
  const dir = t.testdir({ 'jwks.json': 'old' });
  const path = join(dir, 'jwks.json');
  const key = signingKeyOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  writeJwksFile(path, { keys: [key.publicJwk] });
  t.same(JSON.parse(readFileSync(path, 'utf8')), { keys: [key.publicJwk] });
  t.notMatch(readFileSync(path, 'utf8'), /"d"/, 'public keys only');
  t.same(readdirSync(dir), ['jwks.json'], 'only the file');
  const rows = [
    { name: 'no such folder', path: join(dir, 'none', 'jwks.json'), code: 'ENOENT' },
    { name: 'a folder in the way', path: dir, code: 'EISDIR' },
  ];
  for (const row of rows) {
    t.throws(
      () => writeJwksFile(row.path, { keys: [] }),
      { message: `cannot write ${row.path}: ${row.code}` },
      row.name,
    );
  }
  t.same(readdirSync(dir), ['jwks.json'], 'no temporary file left behind');
});

t.test('the ring tells its listener of every change, before the new key signs', async (t) => {
  const clock = createTestClock();
  const ring = createIdentityKeyRing(clock, 60, 1, null);
  const seen: string[][] = [];
  ring.current();
  ring.watch((jwks) => seen.push(jwks.keys.map((k) => k.kid)));
  const first = ring.current().kid;
  t.same(seen, [], 'nothing changed yet');
  clock.advance(3_600_000);
  const second = ring.current().kid;
  t.same(seen, [[first, second]], 'rotation: the new key and the retired one, before signing');
  clock.advance(59_000);
  ring.current();
  t.equal(seen.length, 1, 'the retired key still within its grace');
  clock.advance(1_000);
  ring.current();
  t.same(seen.at(-1), [second], 'the retired key left the set');
  ring.useKeys(null);
  t.equal(seen.length, 2, 'a reload on generated keys keeps them: no change');
  const file = signingKeyOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  ring.useKeys([file]);
  t.same(seen.at(-1), [second, file.kid], 'new keys from a file');
  ring.watch(null);
  clock.advance(60_000);
  t.equal(ring.current().kid, file.kid, 'file keys never rotate');
  t.equal(seen.length, 3, 'no listener: nobody told');
});

t.test(
  'identityTokenOf keeps jwks_file written; later failures are reported, not thrown',
  async (t) => {
    const clock = createTestClock();
    const dir = t.testdir({ out: {} });
    const config = join(dir, 'gateway.yaml');
    const load = (tokenSettings: string) => {
      writeFileSync(config, `upstream: { identity_token: ${tokenSettings} }\n`);
      return loadConfig(config, { env: {} });
    };
    const errors: string[] = [];
    const onError = (message: string) => errors.push(message);
    const path = join(dir, 'out', 'jwks.json');
    const withFile = load('{ enabled: true, rotate_hours: 1, jwks_file: out/jwks.json }');
    const first = identityTokenOf(
      withFile,
      readIdentityTokenKeys(withFile).keys,
      null,
      clock,
      onError,
    );
    t.equal(first.problem, null);
    const ring = first.ring!;
    const kid = ring.current().kid;
    t.same(kidsIn(path), [kid], 'written at start');

    clock.advance(3_600_000);
    const rotated = ring.current().kid;
    t.same(kidsIn(path), [kid, rotated].sort(), 'rotation: written before the new key signs');

    rmSync(join(dir, 'out'), { recursive: true });
    clock.advance(3_600_000);
    const third = ring.current().kid;
    t.not(third, rotated, 'rotated even though the file cannot be written');
    t.same(errors, [`cannot write ${path}: ENOENT`], 'the failure reported');

    mkdirSync(join(dir, 'out'));
    const again = identityTokenOf(
      withFile,
      readIdentityTokenKeys(withFile).keys,
      ring,
      clock,
      onError,
    );
    t.equal(again.problem, null);
    t.ok(kidsIn(path).includes(third), 'a reload writes it again');

    const moved = load('{ enabled: true, rotate_hours: 1, jwks_file: gone/jwks.json }');
    const failed = identityTokenOf(moved, readIdentityTokenKeys(moved).keys, ring, clock, onError);
    t.equal(failed.problem, null, 'a reload is never refused for it');
    t.equal(errors.at(-1), `cannot write ${join(dir, 'gone', 'jwks.json')}: ENOENT`);

    const noFile = load('{ enabled: true, rotate_hours: 1 }');
    identityTokenOf(noFile, readIdentityTokenKeys(noFile).keys, ring, clock, onError);
    const before = readFileSync(path, 'utf8');
    clock.advance(3_600_000);
    ring.current();
    t.equal(readFileSync(path, 'utf8'), before, 'jwks_file removed: no more writes');

    identityTokenOf(withFile, readIdentityTokenKeys(withFile).keys, ring, clock, onError);
    identityTokenOf(load('{ enabled: false }'), null, ring, clock, onError);
    const lastWritten = readFileSync(path, 'utf8');
    clock.advance(3_600_000);
    ring.current();
    t.equal(readFileSync(path, 'utf8'), lastWritten, 'identity tokens off: no more writes');
    t.equal(errors.length, 2, 'nothing else failed');
  },
);
