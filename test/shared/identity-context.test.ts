/**
 * The `x-auth-context` codec and its HMAC: what the gateway writes, the runtime
 * must read back exactly; anything that is not a base64url JSON object is no context.
 */
import { createHmac } from 'node:crypto';
import t from 'tap';
import {
  decodeIdentityContext,
  encodeIdentityContext,
  signIdentityContext,
  verifyIdentitySignature,
  type IdentityContext,
} from '../../src/shared/identity-context.js';

const CONTEXT: IdentityContext = {
  authenticated: true,
  user_id: 'usér/1 +?',
  session_id: null,
  scopes: ['agents:read', 'odd scope'],
  claims: { sub: 'usér/1 +?', nested: { a: [1, 2] } },
  audience: ['a', 'b'],
  authorization_enabled: true,
  dependencies: {},
  session_state: { s: 'ß' },
  accessible_resource_ids: ['x'],
  principal_type: 'jwt',
  is_admin: false,
  scoped_user_id: null,
  required_scopes: ['agents:read'],
  service_account_name: null,
};

t.test('encode → decode is the identity, and the value is base64url', async (t) => {
  const encoded = encodeIdentityContext(CONTEXT);
  t.match(encoded, /^[A-Za-z0-9_-]+$/, 'no +, / or = padding');
  t.same(decodeIdentityContext(encoded), CONTEXT);
  t.equal(
    Buffer.from(encoded, 'base64url').toString('utf8'),
    JSON.stringify(CONTEXT),
    'the exact JSON of the context',
  );
});

t.test('decode of anything but a base64url JSON object is null', async (t) => {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  const rows: { name: string; value: string }[] = [
    { name: 'not base64 at all', value: '!!!***' },
    { name: 'empty', value: '' },
    { name: 'base64 of non-JSON', value: b64('hello, world') },
    { name: 'base64 of truncated JSON', value: b64('{"authenticated":') },
    { name: 'JSON array', value: b64('[1,2,3]') },
    { name: 'JSON null', value: b64('null') },
    { name: 'JSON string', value: b64('"x"') },
    { name: 'JSON number', value: b64('42') },
    { name: 'JSON true', value: b64('true') },
  ];
  for (const row of rows) t.equal(decodeIdentityContext(row.value), null, row.name);
});

t.test('signIdentityContext is HMAC-SHA256 hex', async (t) => {
  // RFC 2104 test vector as published for HMAC-SHA256 (Wikipedia "HMAC" examples).
  t.equal(
    signIdentityContext('The quick brown fox jumps over the lazy dog', 'key'),
    'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
  );
  const value = encodeIdentityContext(CONTEXT);
  const secret = 'sixteen-chars-or-more';
  t.equal(
    signIdentityContext(value, secret),
    createHmac('sha256', secret).update(value).digest('hex'),
  );
});

t.test('verifyIdentitySignature', async (t) => {
  const value = encodeIdentityContext(CONTEXT);
  const secret = 'sixteen-chars-or-more';
  const good = signIdentityContext(value, secret);
  const flipped = (good[0] === '0' ? '1' : '0') + good.slice(1);
  const rows: { name: string; value: string; signature: string; secret: string; want: boolean }[] =
    [
      { name: 'the right signature', value, signature: good, secret, want: true },
      { name: 'upper-case hex of it', value, signature: good.toUpperCase(), secret, want: true },
      { name: 'one digit changed', value, signature: flipped, secret, want: false },
      {
        name: 'another secret',
        value,
        signature: good,
        secret: 'another-secret-value',
        want: false,
      },
      { name: 'another value', value: value + 'x', signature: good, secret, want: false },
      { name: 'too short', value, signature: good.slice(0, 62), secret, want: false },
      { name: 'too long', value, signature: good + '00', secret, want: false },
      { name: 'empty', value, signature: '', secret, want: false },
      { name: 'not hex', value, signature: 'z'.repeat(64), secret, want: false },
      // Node's hex decoder stops at the first non-hex digit: these must not pass as `good`.
      { name: 'trailing non-hex', value, signature: good + 'zz', secret, want: false },
      { name: 'a non-hex tail', value, signature: good.slice(0, 62) + 'zz', secret, want: false },
    ];
  for (const row of rows) {
    t.equal(verifyIdentitySignature(row.value, row.signature, row.secret), row.want, row.name);
  }
});
