/**
 * `upstream.identity_token` at load: reads `key_file`, resolves the default issuer and audience,
 * (once the rest of the config is known good) points the instance's key ring at the keys, and
 * keeps `jwks_file` written. Never writes a private key anywhere.
 */
import { readFileSync } from 'node:fs';
import type { LoadedConfig } from '../../config/load.js';
import type { Clock } from '../../shared/clock.js';
import {
  createIdentityKeyRing,
  parseKeyFile,
  type IdentityKeyRing,
  type PublishedJwks,
  type SigningKey,
} from './keys.js';
import { writeJwksFile } from './jwks-file.js';
import { createIdentityTokenSigner, type IdentityTokenSigner } from './sign.js';

/** Told of a `jwks_file` write that failed after start (the message names the path). */
export type JwksFileErrorListener = (message: string) => void;

/** The keys read at load: from `key_file`, or null (generated in memory). */
export interface IdentityTokenKeys {
  readonly fileKeys: readonly SigningKey[] | null;
}

/** Reads `key_file` when set; a problem's message when it cannot be used (never key material). */
export function readIdentityTokenKeys(loaded: LoadedConfig): {
  readonly keys: IdentityTokenKeys | null;
  readonly problem: string | null;
} {
  const settings = loaded.config.upstream.identity_token;
  if (!settings.enabled) return { keys: null, problem: null };
  if (settings.key_file === null) return { keys: { fileKeys: null }, problem: null };
  const path = loaded.resolvePath(settings.key_file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { keys: null, problem: `cannot read ${path}: ${(err as NodeJS.ErrnoException).code}` };
  }
  try {
    return { keys: { fileKeys: parseKeyFile(text) }, problem: null };
  } catch (err) {
    return { keys: null, problem: `${path} ${(err as Error).message}` };
  }
}

/**
 * The ring and signer of a new state: the previous state's ring when there is one (so in-memory
 * keys and retired keys carry over a reload), pointed at the keys just read.
 *
 * With `jwks_file`, the ring's JWK Set is written there now and each time it changes. A write
 * that fails at start (no `previous`) is `problem`, naming the path: the gateway does not start.
 * Any later failure (a reload, a rotation) goes to `onError` and the gateway keeps serving:
 * verifiers keep the file they read, and the admin listener still serves the set.
 */
export function identityTokenOf(
  loaded: LoadedConfig,
  keys: IdentityTokenKeys | null,
  previous: IdentityKeyRing | null | undefined,
  clock: Clock,
  onError: JwksFileErrorListener,
): {
  ring: IdentityKeyRing | null;
  signer: IdentityTokenSigner | null;
  problem: string | null;
} {
  if (keys === null) {
    // Turned off by a reload: the running ring (kept by nothing now) writes no more.
    previous?.watch(null);
    return { ring: null, signer: null, problem: null };
  }
  const { config } = loaded;
  const settings = config.upstream.identity_token;
  let ring: IdentityKeyRing;
  if (previous === null || previous === undefined) {
    ring = createIdentityKeyRing(clock, settings.ttl_seconds, settings.rotate_hours, keys.fileKeys);
  } else {
    ring = previous;
    ring.configure(settings.ttl_seconds, settings.rotate_hours);
    ring.useKeys(keys.fileKeys);
  }
  const signer = createIdentityTokenSigner(
    ring,
    {
      header: settings.header,
      issuer: settings.issuer ?? `scopegate:${config.service_id}`,
      audience: settings.audience ?? new URL(config.upstream.url).origin,
      ttlSeconds: settings.ttl_seconds,
    },
    clock,
  );
  let problem: string | null = null;
  if (settings.jwks_file === null) ring.watch(null);
  else {
    const path = loaded.resolvePath(settings.jwks_file);
    const write = (jwks: PublishedJwks): string | null => {
      try {
        writeJwksFile(path, jwks);
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    };
    ring.watch((jwks) => {
      const failed = write(jwks);
      if (failed !== null) onError(failed);
    });
    const failed = write(ring.jwks());
    if (failed !== null && (previous === null || previous === undefined)) problem = failed;
    else if (failed !== null) onError(failed);
  }
  return { ring, signer, problem };
}
