/**
 * The ES256 keys that sign the identity assertion (`upstream.identity_token`), and the public
 * JWK Set that verifies it. Either generated in memory (rotated every `rotate_hours`) or read
 * from `key_file` (a JWK Set of EC P-256 private keys, shared by replicas, rotated by replacing
 * the file and reloading). A key that stopped signing stays published for `ttl_seconds`, so
 * every assertion it signed can still be verified until it expires. Rotation is lazy: whoever
 * asks notices the time on the injected clock; no timer runs.
 */
import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Clock } from '../../shared/clock.js';

/** A public key as published in the JWK Set. */
export interface PublicJwk {
  readonly kty: 'EC';
  readonly crv: 'P-256';
  readonly x: string;
  readonly y: string;
  readonly kid: string;
  readonly alg: 'ES256';
  readonly use: 'sig';
}

/** The key that signs now. */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicJwk: PublicJwk;
}

interface Retired {
  readonly key: SigningKey;
  /** When it leaves the JWK Set (milliseconds). */
  readonly untilMs: number;
}

/** The signing key and the published set, for one gateway instance (kept across reloads). */
export interface IdentityKeyRing {
  /** The key that signs now (rotating first when it is due). */
  current(): SigningKey;
  /** The public JWK Set: the signing key and each retired one still within its grace. */
  jwks(): { readonly keys: readonly PublicJwk[] };
  /**
   * Signs from these keys from now on (the last one signs, all are published); a previous
   * signing key that is not among them stays published for the grace. Null returns to keys
   * generated in memory (keeping the running one when already there).
   */
  useKeys(keys: readonly SigningKey[] | null): void;
  /** Sets how long a retired key stays published and how often a generated key rotates. */
  configure(graceSeconds: number, rotateHours: number): void;
  /**
   * Calls `listener` with the new JWK Set each time it changes (a rotation, new keys, a retired
   * key leaving it), synchronously, before a token is signed with a new key; null stops. One
   * listener at a time: the state serving now sets its own.
   */
  watch(listener: ((jwks: PublishedJwks) => void) | null): void;
}

/** The public JWK Set as published. */
export interface PublishedJwks {
  readonly keys: readonly PublicJwk[];
}

/** The RFC 7638 thumbprint of an EC public key (base64url SHA-256 of its canonical JSON). */
export function thumbprintOf(x: string, y: string): string {
  return createHash('sha256')
    .update(`{"crv":"P-256","kty":"EC","x":"${x}","y":"${y}"}`)
    .digest('base64url');
}

/** A signing key from an EC P-256 private key. */
export function signingKeyOf(privateKey: KeyObject): SigningKey {
  const jwk = privateKey.export({ format: 'jwk' });
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || jwk.d === undefined) {
    throw new Error('every key must be an EC P-256 private key');
  }
  const x = jwk.x as string;
  const y = jwk.y as string;
  const kid = thumbprintOf(x, y);
  return Object.freeze({
    kid,
    privateKey,
    publicJwk: Object.freeze({ kty: 'EC', crv: 'P-256', x, y, kid, alg: 'ES256', use: 'sig' }),
  });
}

/** A fresh EC P-256 signing key. */
export function generateSigningKey(): SigningKey {
  return signingKeyOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
}

/**
 * Reads a JWK Set of EC P-256 private keys (`{"keys": [...]}`); the last key signs. Throws a
 * message naming what is wrong (never a key's content).
 */
export function parseKeyFile(text: string): SigningKey[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('must be a JSON Web Key Set ({"keys": [...]})');
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new Error('must be a JSON Web Key Set with at least one key ({"keys": [...]})');
  }
  return keys.map((jwk, i) => {
    let key: KeyObject;
    try {
      key = createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
    } catch {
      throw new Error(`key ${i + 1} is not a private JSON Web Key`);
    }
    try {
      return signingKeyOf(key);
    } catch (err) {
      throw new Error(`key ${i + 1}: ${(err as Error).message}`);
    }
  });
}

/** A key ring on `clock`, starting with `keys` (the last signs), or a generated key for null. */
export function createIdentityKeyRing(
  clock: Clock,
  graceSeconds: number,
  rotateHours: number,
  keys: readonly SigningKey[] | null,
): IdentityKeyRing {
  let graceMs = graceSeconds * 1000;
  let rotateMs = rotateHours * 3_600_000;
  let fileKeys: readonly SigningKey[] | null = keys;
  let signing = keys === null ? generateSigningKey() : (keys.at(-1) as SigningKey);
  let rotateAtMs: number | null = keys === null ? clock.now() + rotateMs : null;
  let retired: Retired[] = [];
  // When the first retired key leaves the set (Infinity: none retired).
  let nextExpiryMs = Infinity;
  let listener: ((jwks: PublishedJwks) => void) | null = null;

  function keepRetired(list: Retired[]): void {
    retired = list;
    nextExpiryMs = Math.min(Infinity, ...list.map((r) => r.untilMs));
  }

  function retire(key: SigningKey, nowMs: number): void {
    keepRetired([
      ...retired.filter((r) => r.key.kid !== key.kid),
      { key, untilMs: nowMs + graceMs },
    ]);
  }

  function published(): PublishedJwks {
    const keys = new Map<string, PublicJwk>();
    for (const r of retired) keys.set(r.key.kid, r.key.publicJwk);
    for (const key of fileKeys ?? []) keys.set(key.kid, key.publicJwk);
    keys.set(signing.kid, signing.publicJwk);
    return { keys: [...keys.values()] };
  }

  function current(): SigningKey {
    // With keys from a file and nothing retired, nothing can change: no clock read.
    if (rotateAtMs === null && nextExpiryMs === Infinity) return signing;
    const now = clock.now();
    let changed = false;
    if (rotateAtMs !== null && now >= rotateAtMs) {
      retire(signing, now);
      signing = generateSigningKey();
      rotateAtMs = now + rotateMs;
      changed = true;
    }
    if (now >= nextExpiryMs) {
      keepRetired(retired.filter((r) => r.untilMs > now));
      changed = true;
    }
    // Told before the new key signs anything: a verifier reading the file finds it there.
    if (changed) listener?.(published());
    return signing;
  }

  return {
    current,
    jwks() {
      current();
      return published();
    },
    useKeys(keys) {
      // Already on generated keys: a reload keeps the running one.
      if (keys === null && fileKeys === null) return;
      const now = clock.now();
      const next = keys === null ? generateSigningKey() : (keys.at(-1) as SigningKey);
      const kept = new Set((keys ?? []).map((k) => k.kid));
      for (const old of [signing, ...(fileKeys ?? [])]) if (!kept.has(old.kid)) retire(old, now);
      keepRetired(retired.filter((r) => !kept.has(r.key.kid)));
      fileKeys = keys;
      signing = next;
      rotateAtMs = keys === null ? now + rotateMs : null;
      listener?.(published());
    },
    watch(next) {
      listener = next;
    },
    configure(nextGraceSeconds, nextRotateHours) {
      graceMs = nextGraceSeconds * 1000;
      rotateMs = nextRotateHours * 3_600_000;
    },
  };
}
