/**
 * The admit stage's caller key: who a request is counted as. User ids by kind, one key each for
 * the internal token and the security-key root, the client address for callers without an
 * identity. Admission itself is seen on real sockets in test/e2e/limits.test.ts.
 */
import t from 'tap';
import { createPrincipal, type Principal } from '../../../src/auth/principal.js';
import { callerKeyOf } from '../../../src/gateway/stages/admit.js';

t.test('callerKeyOf: who a request is counted as', async (t) => {
  const rows: { name: string; principal: Principal | null; key: string }[] = [
    { name: 'an excluded route (no principal)', principal: null, key: 'addr:10.0.0.7' },
    {
      name: 'an anonymous caller',
      principal: createPrincipal({ type: 'anonymous' }),
      key: 'addr:10.0.0.7',
    },
    {
      name: 'a JWT user',
      principal: createPrincipal({ type: 'jwt', userId: 'alice' }),
      key: 'jwt:alice',
    },
    {
      name: 'a JWT without a subject',
      principal: createPrincipal({ type: 'jwt' }),
      key: 'addr:10.0.0.7',
    },
    {
      name: 'a JWT whose subject looks like an address key stays in the jwt namespace',
      principal: createPrincipal({ type: 'jwt', userId: 'addr:10.0.0.7' }),
      key: 'jwt:addr:10.0.0.7',
    },
    {
      name: 'a service account',
      principal: createPrincipal({
        type: 'service_account',
        userId: 'sa:ci',
        serviceAccountName: 'ci',
      }),
      key: 'service_account:sa:ci',
    },
    {
      name: 'the internal token: one caller',
      principal: createPrincipal({ type: 'internal', userId: '__scheduler__' }),
      key: 'internal',
    },
    {
      name: 'the security-key root: one caller',
      principal: createPrincipal({ type: 'security_key' }),
      key: 'security_key',
    },
  ];
  for (const row of rows) t.equal(callerKeyOf(row.principal, '10.0.0.7'), row.key, row.name);
});
