/**
 * The runtime's check of the gateway's identity token (`runtime.identity_token`): an ES256 JWT
 * verified with jose against the gateway's JWK Set (a URL, or a file read again when a token
 * names a key it does not hold), its `iss`, `aud`, `iat` and `exp`, and its `ctx` claim, which
 * must bind the exact `x-auth-context` value. No shared secret; never logs or echoes a token.
 */
import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';
import type { Clock } from '../../shared/clock.js';
import { identityContextHashOf } from '../../shared/identity-context.js';
import type { IdentityTokenCheckSettings } from '../catalogue/definitions.js';

/** Seconds of clock difference tolerated on `exp` between the gateway's host and this one. */
export const CLOCK_TOLERANCE_SECONDS = 5;

/** Checks one request's token against its context. */
export interface IdentityTokenCheck {
  /** The header carrying the token, lower-case (as Node names inbound headers). */
  readonly header: string;
  /**
   * Whether `token` verifies and its `ctx` claim binds `contextValue` (the `x-auth-context`
   * header as received). Never rejects: any failure is false.
   */
  verify(token: string, contextValue: string): Promise<boolean>;
}

/** A file's identity for "has it changed since it was read". */
function stampOf(stats: { mtimeMs: number; size: number; ino: number }): string {
  return `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
}

/**
 * The key set of a JWK Set file: read now (a file that cannot be read or parsed throws, naming the
 * path), and read again when a token names a key it does not hold and the file changed since, so
 * a key the gateway rotated in is found without a restart. A token naming a key the file never
 * had costs a `stat`, never a read.
 */
function fileKeySet(path: string): JWTVerifyGetKey {
  const parse = (text: string): JWTVerifyGetKey => {
    try {
      return createLocalJWKSet(JSON.parse(text) as JSONWebKeySet);
    } catch {
      throw new Error(`${path} is not a JSON Web Key Set`);
    }
  };
  let stamp: string;
  let keys: JWTVerifyGetKey;
  try {
    stamp = stampOf(statSync(path));
    keys = parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw code === undefined ? err : new Error(`cannot read ${path}: ${code}`);
  }
  return async (header, token) => {
    try {
      return await keys(header, token);
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw err;
      const now = await stat(path).catch(() => null);
      if (now === null || stampOf(now) === stamp) throw err;
      // A replaced file (the gateway writes it whole, then renames it): read it once more.
      stamp = stampOf(now);
      keys = parse(await readFile(path, 'utf8'));
      return keys(header, token);
    }
  };
}

/**
 * Builds the check of `settings`; `dir` is the config's folder (the base of `jwks_file`). Throws
 * when the JWK Set file cannot be read or parsed (the runtime does not start).
 */
export function createIdentityTokenCheck(
  settings: IdentityTokenCheckSettings,
  deps: { readonly clock: Clock; readonly dir: string },
): IdentityTokenCheck {
  const keys =
    settings.jwks_url !== null
      ? createRemoteJWKSet(new URL(settings.jwks_url))
      : fileKeySet(resolve(deps.dir, settings.jwks_file as string));
  const { issuer, audience } = settings;
  return {
    header: settings.header.toLowerCase(),
    async verify(token, contextValue) {
      try {
        const { payload } = await jwtVerify(token, keys, {
          algorithms: ['ES256'],
          issuer,
          audience,
          requiredClaims: ['iat', 'exp', 'ctx'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: new Date(deps.clock.now()),
        });
        // The hash is of a public value: no secret to compare in constant time.
        return payload['ctx'] === identityContextHashOf(contextValue);
      } catch {
        return false;
      }
    },
  };
}
