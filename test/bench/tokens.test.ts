/**
 * The bench's credentials: signed tokens verify as RS256 with the bench's claims, forged ones
 * have the same shape and a signature that never verifies, the many-tokens mix is 85 % hot, and
 * the stored service account.
 */
import { jwtVerify, decodeProtectedHeader, decodeJwt } from 'jose';
import { join } from 'node:path';
import t from 'tap';
import { openSqliteStore } from '../../src/auth/service-accounts/sqlite-store.js';
import { hashServiceAccountToken } from '../../src/auth/service-accounts/token.js';
import {
  BENCH_SCOPES,
  coldRequestsOf,
  forgedTokens,
  mintServiceAccount,
  mintTokens,
  tokenMix,
} from '../../bench/tokens.js';
import { RSA_KEY } from '../fixtures/keys.js';

t.test('mintTokens: distinct RS256 tokens with the bench scopes, valid for an hour', async (t) => {
  const tokens = await mintTokens(RSA_KEY.privateKey, 3, 'user');
  t.equal(new Set(tokens).size, 3);
  for (const [i, token] of tokens.entries()) {
    const { payload, protectedHeader } = await jwtVerify(token, RSA_KEY.publicKey, {
      algorithms: ['RS256'],
    });
    t.same(protectedHeader, { alg: 'RS256', typ: 'JWT' });
    t.equal(payload.sub, `user-${i}`);
    t.same(payload.scopes, BENCH_SCOPES);
    t.ok((payload.exp as number) > Date.now() / 1000 + 3500);
  }
});

t.test('mintTokens: a key that cannot sign fails', async (t) => {
  await t.rejects(mintTokens(RSA_KEY.publicKey, 1, 'user'));
});

t.test(
  'forgedTokens: the shape of a real token, a new subject each, never a valid signature',
  async (t) => {
    const tokens = forgedTokens(3);
    const more = forgedTokens(2);
    t.equal(new Set([...tokens, ...more]).size, 5, 'never the same token twice');
    for (const token of tokens) {
      t.same(decodeProtectedHeader(token), { alg: 'RS256', typ: 'JWT' });
      t.same(decodeJwt(token).scopes, BENCH_SCOPES);
      t.equal(Buffer.from(token.split('.')[2] as string, 'base64url').length, 256);
      await t.rejects(jwtVerify(token, RSA_KEY.publicKey), {
        code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      });
    }
  },
);

t.test('tokenMix: 17 requests in 20 hot, the others walk the cold stream forward', async (t) => {
  const hot = ['h0', 'h1'];
  const cold = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
  const mix = tokenMix(hot, cold);
  const picked = Array.from({ length: 40 }, (_, i) => mix.pick(i));
  t.same(
    picked.slice(0, 17),
    Array.from({ length: 17 }, (_, i) => `h${i % 2}`),
  );
  t.same(picked.slice(17, 20), ['c0', 'c1', 'c2']);
  t.same(picked.slice(37, 40), ['c3', 'c4', 'c5']);
  t.equal(mix.coldUsed(), 6);
  t.equal(mix.pick(57), 'c6');
  t.equal(mix.pick(58), 'c0', 'wraps around once the stream is used up');
  const rows: ReadonlyArray<readonly [number, number]> = [
    [0, 0],
    [17, 0],
    [18, 1],
    [20, 3],
    [39, 5],
    [10_000, 1_500],
  ];
  for (const [count, expected] of rows)
    t.equal(coldRequestsOf(count), expected, `${count} requests`);
});

t.test('mintServiceAccount: a stored account whose token is the one returned', async (t) => {
  const path = join(t.testdir(), 'sa.db');
  const token = await mintServiceAccount(path);
  const store = await openSqliteStore(path);
  t.teardown(() => store.close());
  const found = await store.findByHash(hashServiceAccountToken(token));
  t.same(found?.scopes, BENCH_SCOPES);
  t.equal(found?.revoked_at, null);
});
