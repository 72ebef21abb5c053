/**
 * What the engines share: reading stored scopes (JSON text from SQLite, a parsed array from
 * Postgres; anything but a list of strings grants nothing) and the store error's fields.
 */
import t from 'tap';
import {
  isServiceAccountStoreError,
  scopesOf,
  ServiceAccountStoreError,
} from '../../../src/auth/service-accounts/store.js';

t.test('stored scopes: only the strings of an array grant', async (t) => {
  const rows: [string, unknown, string[]][] = [
    ['JSON text (SQLite)', '["agents:run","config:read"]', ['agents:run', 'config:read']],
    ['a parsed array (Postgres jsonb)', ['agents:run', 7, null], ['agents:run']],
    ['a JSON object', '{"a":1}', []],
    ['a parsed object', { scopes: ['agents:run'] }, []],
  ];
  for (const [name, stored, expected] of rows) {
    const scopes = scopesOf(stored);
    t.same(scopes, expected, name);
    t.ok(Object.isFrozen(scopes), `${name}: frozen`);
  }
});

t.test('a store error names the location and says busy and permanent', async (t) => {
  const plain = new ServiceAccountStoreError('db', 'look-up failed');
  t.match(plain, {
    message: "service-account store 'db': look-up failed",
    busy: false,
    permanent: false,
  });
  const cause = new Error('x');
  const flagged = new ServiceAccountStoreError('db', 'p', { cause, busy: true, permanent: true });
  t.match(flagged, { busy: true, permanent: true, location: 'db', cause });
  t.equal(isServiceAccountStoreError(flagged), true);
  t.equal(isServiceAccountStoreError(new Error('x')), false);
  t.equal(isServiceAccountStoreError(null), false);
});
