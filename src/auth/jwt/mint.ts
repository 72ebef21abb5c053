/**
 * Mints development JWTs (ES256) with the development key, for `scopegate token` and the start-up
 * banner. Never used to verify, and never logs the token it returns.
 */
import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Clock } from '../../shared/clock.js';

/** The signing key and the `kid` its public half is known by. */
export interface MintKey {
  readonly privateKey: KeyObject;
  readonly kid: string;
}

/** What the token says. */
export interface MintRequest {
  readonly sub: string;
  readonly scopes: readonly string[];
  /** Lifetime; `exp` = `iat` + this. */
  readonly ttlSeconds: number;
  /** `aud`, when given. */
  readonly audience?: string | readonly string[] | undefined;
  /** More claims; `sub`, `scopes`, `aud`, `iat` and `exp` above win over the same names here. */
  readonly claims?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Signs `{...claims, sub, scopes, aud?, iat, exp}` with ES256 and a `kid` header, at the
 * clock's current time.
 */
export async function mintToken(key: MintKey, request: MintRequest, clock: Clock): Promise<string> {
  if (!Number.isInteger(request.ttlSeconds) || request.ttlSeconds < 1) {
    throw new TypeError('ttlSeconds must be a positive integer');
  }
  const now = Math.floor(clock.now() / 1000);
  const jwt = new SignJWT({ ...request.claims, scopes: [...request.scopes] })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
    .setSubject(request.sub)
    .setIssuedAt(now)
    .setExpirationTime(now + request.ttlSeconds);
  if (request.audience !== undefined) {
    jwt.setAudience(
      typeof request.audience === 'string' ? request.audience : [...request.audience],
    );
  }
  return jwt.sign(key.privateKey);
}
