/**
 * The key set a verifier uses right now: the keys imported at start-up, plus the keys of the
 * remote JWK set while they are fresh, chosen by `kid` like the `jwks_file`'s. Rebuilt only
 * when the remote document changes or goes stale. No I/O of its own.
 */
import { buildKeySet, importRemoteJwks, type KeySet } from './keys.js';
import type { JwksSnapshot, RemoteJwks } from './remote-jwks.js';

/** Where a verifier gets its keys when they can change while the gateway runs. */
export interface KeySource {
  /** The keys to verify with now. The same object until the keys change. */
  current(): KeySet;
  /** For a token whose `kid` no current key carries: the shared, rate-limited refresh. */
  refreshForUnknownKid(): Promise<void>;
}

/**
 * Combines `base` (verification keys, `jwks_file`, development key) with `remote`. The remote
 * keys come after the `jwks_file`'s for the same `kid`, and before the static keys.
 */
export function createKeySource(base: KeySet, remote: RemoteJwks): KeySource {
  const algorithms = [...base.algorithms];
  let seen: JwksSnapshot | null = null;
  let built = base;
  return {
    current() {
      const snapshot = remote.snapshot();
      if (snapshot !== seen) {
        seen = snapshot;
        built =
          snapshot === null
            ? base
            : buildKeySet(
                algorithms,
                [...base.jwks, ...importRemoteJwks(snapshot.keys, base.algorithms)],
                base.static,
              );
      }
      return built;
    },
    refreshForUnknownKid: () => remote.refreshForUnknownKid(),
  };
}
