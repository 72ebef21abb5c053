import t from 'tap';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { mintToken } from '../../../src/auth/jwt/mint.js';
import { EC_KEY } from '../../fixtures/keys.js';
import { createTestClock, TEST_NOW, TEST_NOW_MS } from '../../fixtures/tokens.js';

const KEY = { privateKey: EC_KEY.privateKey, kid: 'dev-kid' };
const verifyAt = (token: string) =>
  jwtVerify(token, EC_KEY.publicKey, { currentDate: new Date(TEST_NOW_MS) });

t.test('mints an ES256 token with kid, iat, exp, sub and scopes at the clock time', async (t) => {
  const token = await mintToken(
    KEY,
    { sub: 'dev-admin', scopes: ['agent_os:admin'], ttlSeconds: 3600 },
    createTestClock(),
  );
  t.same(decodeProtectedHeader(token), { alg: 'ES256', kid: 'dev-kid', typ: 'JWT' });
  const { payload } = await verifyAt(token);
  t.same(payload, {
    sub: 'dev-admin',
    scopes: ['agent_os:admin'],
    iat: TEST_NOW,
    exp: TEST_NOW + 3600,
  });
});

t.test('audience (a string or a list) and extra claims; the named fields win', async (t) => {
  const clock = createTestClock(TEST_NOW_MS + 999);
  const one = await mintToken(
    KEY,
    {
      sub: 's',
      scopes: [],
      ttlSeconds: 60,
      audience: 'svc',
      claims: { team: 't1', sub: 'ignored', scopes: ['x'] },
    },
    clock,
  );
  t.same((await verifyAt(one)).payload, {
    team: 't1',
    sub: 's',
    scopes: [],
    aud: 'svc',
    iat: TEST_NOW,
    exp: TEST_NOW + 60,
  });
  const many = await mintToken(
    KEY,
    { sub: 's', scopes: ['a:read'], ttlSeconds: 60, audience: ['a', 'b'] },
    clock,
  );
  t.same((await verifyAt(many)).payload['aud'], ['a', 'b']);
});

t.test('a lifetime that is not a positive integer is refused', async (t) => {
  for (const ttlSeconds of [0, -1, 1.5]) {
    await t.rejects(mintToken(KEY, { sub: 's', scopes: [], ttlSeconds }, createTestClock()), {
      name: 'TypeError',
      message: 'ttlSeconds must be a positive integer',
    });
  }
});
