/**
 * The key set a verifier uses right now: the start-up keys, plus the remote keys while they are
 * fresh, rebuilt only when the remote document changes or goes stale.
 */
import t from 'tap';
import { createKeySource } from '../../../src/auth/jwt/key-source.js';
import { buildKeySet, type VerificationKey } from '../../../src/auth/jwt/keys.js';
import type { JwksSnapshot, RemoteJwks } from '../../../src/auth/jwt/remote-jwks.js';
import { RSA_KEY, RSA_KEY_2 } from '../../fixtures/keys.js';

const fileKey: VerificationKey = {
  kid: 'rsa-1',
  key: RSA_KEY.publicKey,
  algorithms: new Set(['RS256']),
};
const staticKey: VerificationKey = {
  kid: null,
  key: RSA_KEY_2.publicKey,
  algorithms: new Set(['RS256']),
};

/** A remote set whose snapshot the test sets. */
function remoteOf(): RemoteJwks & { set(snapshot: JwksSnapshot | null): void; asked: number } {
  let snapshot: JwksSnapshot | null = null;
  const remote = {
    asked: 0,
    url: 'https://idp.example/jwks',
    options: { url: 'https://idp.example/jwks', refreshMs: 1, cooldownMs: 1, maxStaleMs: 1 },
    snapshot: () => snapshot,
    refreshForUnknownKid: async () => {
      remote.asked += 1;
    },
    start: async () => {},
    ready: () => snapshot !== null,
    lastError: () => null,
    keysUrl: () => 'https://idp.example/jwks',
    lastSuccessMs: () => null,
    close: () => {},
    set(next: JwksSnapshot | null) {
      snapshot = next;
    },
  };
  return remote;
}

t.test('the start-up keys alone until the remote set holds keys', async (t) => {
  const base = buildKeySet(['RS256'], [fileKey], [staticKey]);
  const remote = remoteOf();
  const source = createKeySource(base, remote);
  t.equal(source.current(), base, 'no snapshot: the start-up set itself');
  await source.refreshForUnknownKid();
  t.equal(remote.asked, 1, 'refreshes go to the remote set');

  remote.set({ keys: [RSA_KEY_2.publicJwk, { ...RSA_KEY_2.publicJwk, kid: 'rsa-1' }] });
  const withRemote = source.current();
  t.not(withRemote, base);
  t.equal(source.current(), withRemote, 'the same set while the snapshot does not change');
  t.equal(withRemote.knowsKid('rsa-2', 'RS256'), true, 'the remote kid is known');
  const forRsa1 = withRemote.candidates('rsa-1', 'RS256');
  t.equal(forRsa1.length, 3, 'the file key, the remote key with the same kid, the static key');
  t.equal(forRsa1[0], fileKey, 'the jwks_file key first');
  t.equal(forRsa1[2], staticKey, 'the static keys last');

  remote.set(null);
  t.equal(source.current(), base, 'stale: back to the start-up keys');
});
