/**
 * `upstream.identity_token` at load: reads `key_file`, resolves the default issuer and audience,
 * and (once the rest of the config is known good) points the instance's key ring at the keys.
 */
import { readFileSync } from 'node:fs';
import type { LoadedConfig } from '../../config/load.js';
import type { Clock } from '../../shared/clock.js';
import {
  createIdentityKeyRing,
  parseKeyFile,
  type IdentityKeyRing,
  type SigningKey,
} from './keys.js';
import { createIdentityTokenSigner, type IdentityTokenSigner } from './sign.js';

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
 */
export function identityTokenOf(
  loaded: LoadedConfig,
  keys: IdentityTokenKeys | null,
  previous: IdentityKeyRing | null | undefined,
  clock: Clock,
): { ring: IdentityKeyRing | null; signer: IdentityTokenSigner | null } {
  if (keys === null) return { ring: null, signer: null };
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
  return { ring, signer };
}
