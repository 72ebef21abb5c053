import t from 'tap';
import {
  createInternalTokenAuthenticator,
  INTERNAL_PRINCIPAL,
  INTERNAL_SCOPES,
} from '../../src/auth/internal-token.js';

t.test('the internal principal is the scheduler with exactly the scopes it needs', async (t) => {
  t.same(INTERNAL_PRINCIPAL.type, 'internal');
  t.equal(INTERNAL_PRINCIPAL.userId, '__scheduler__');
  t.equal(INTERNAL_PRINCIPAL.authenticated, true);
  t.same(
    INTERNAL_SCOPES.join(' '),
    'agents:read agents:run teams:read teams:run workflows:read workflows:run ' +
      'schedules:read schedules:write schedules:delete',
  );
  t.equal(INTERNAL_PRINCIPAL.scopes, INTERNAL_SCOPES);
  t.ok(Object.isFrozen(INTERNAL_PRINCIPAL) && Object.isFrozen(INTERNAL_SCOPES), 'frozen');
});

t.test('no token configured means no authenticator (null and "")', async (t) => {
  t.equal(createInternalTokenAuthenticator(null), null);
  t.equal(createInternalTokenAuthenticator(''), null);
});

t.test('a match is the internal principal; anything else is "not mine"', async (t) => {
  const authenticate = createInternalTokenAuthenticator('internal-token-1234');
  t.equal(authenticate?.('internal-token-1234'), INTERNAL_PRINCIPAL);
  t.equal(authenticate?.('internal-token-123'), undefined);
  t.equal(authenticate?.('other'), undefined);
});
