import t from 'tap';
import {
  createSecurityKeyAuthenticator,
  SECURITY_KEY_PRINCIPAL,
} from '../../src/auth/security-key.js';

t.test('the security-key principal is an unscoped root', async (t) => {
  t.equal(SECURITY_KEY_PRINCIPAL.type, 'security_key');
  t.equal(SECURITY_KEY_PRINCIPAL.authenticated, true);
  t.equal(SECURITY_KEY_PRINCIPAL.userId, null);
  t.same(SECURITY_KEY_PRINCIPAL.scopes, []);
  t.ok(Object.isFrozen(SECURITY_KEY_PRINCIPAL));
});

t.test('no key configured means no authenticator (null and "")', async (t) => {
  t.equal(createSecurityKeyAuthenticator(null), null);
  t.equal(createSecurityKeyAuthenticator(''), null);
});

t.test('a match is the root principal; anything else is "not mine"', async (t) => {
  const authenticate = createSecurityKeyAuthenticator('root-key');
  t.equal(authenticate?.('root-key'), SECURITY_KEY_PRINCIPAL);
  t.equal(authenticate?.('root-key '), undefined);
});
