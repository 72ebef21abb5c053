/**
 * Signs the identity assertion the upstream may verify instead of the HMAC'd `x-auth-context`:
 * a compact ES256 JWT with `iss`, `aud`, `sub`, `scopes`, `principal_type`, `session_id` (when
 * there is one), `cnf` (`x5t#S256`, the verified client certificate's thumbprint, RFC 8705) when
 * the connection presented one, `ctx` (binding the exact `x-auth-context` value), `iat` and
 * `exp`. Signing is synchronous (node:crypto) and cached per identity and key for at most half
 * the lifetime, so a cached caller's request costs one lookup.
 */
import { sign } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../shared/clock.js';
import { identityContextHashOf, type IdentityContext } from '../../shared/identity-context.js';
import type { IdentityKeyRing, SigningKey } from './keys.js';

/** Identity-token settings fixed at load. */
export interface IdentityTokenSettings {
  /** The header carrying the token, lower-cased. */
  readonly header: string;
  readonly issuer: string;
  readonly audience: string;
  readonly ttlSeconds: number;
}

/** Signs (or returns the cached) assertion of an identity. */
export interface IdentityTokenSigner {
  readonly header: string;
  /** The header name as inbound names are compared: lower-case, `_` read as `-`. */
  readonly headerKey: string;
  /**
   * The assertion of an identity; `value` is its `x-auth-context` header value (the encoding of
   * `context`), bound by the `ctx` claim.
   */
  tokenFor(context: IdentityContext, value: string): string;
}

interface Cached {
  readonly token: string;
  readonly kid: string;
  /** When it must no longer be handed out (milliseconds): half its lifetime. */
  readonly staleAtMs: number;
}

/** How many identities' assertions are kept. */
export const TOKEN_CACHE_MAX = 10_000;

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * RFC 8705's certificate thumbprint (`x5t#S256`): base64url of the SHA-256 of the certificate's
 * DER, here read back from its `AB:CD:…` fingerprint.
 */
function thumbprintOf(fingerprint256: string): string {
  return Buffer.from(fingerprint256.replaceAll(':', ''), 'hex').toString('base64url');
}

/** Signs one assertion of `context` (whose header value is `value`) with `key` at `nowSeconds`. */
export function signIdentityToken(
  context: IdentityContext,
  value: string,
  key: SigningKey,
  settings: IdentityTokenSettings,
  nowSeconds: number,
): string {
  const header = b64({ alg: 'ES256', typ: 'JWT', kid: key.kid });
  const payload = b64({
    iss: settings.issuer,
    aud: settings.audience,
    sub: context.user_id ?? context.principal_type,
    scopes: context.scopes,
    principal_type: context.principal_type,
    ...(context.session_id === null ? {} : { session_id: context.session_id }),
    ...(context.client_certificate === undefined
      ? {}
      : { cnf: { 'x5t#S256': thumbprintOf(context.client_certificate.fingerprint256) } }),
    // Binds this token to one context: a verifier that checks it may believe the context with
    // no shared secret, and a token copied beside another context proves nothing.
    ctx: identityContextHashOf(value),
    iat: nowSeconds,
    exp: nowSeconds + settings.ttlSeconds,
  });
  const input = `${header}.${payload}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: key.privateKey,
    dsaEncoding: 'ieee-p1363',
  });
  return `${input}.${signature.toString('base64url')}`;
}

/**
 * A signer over a key ring. The cache is keyed by the context object (the gateway's identity
 * cache hands out one per principal and route), bounded by {@link TOKEN_CACHE_MAX}.
 */
export function createIdentityTokenSigner(
  ring: IdentityKeyRing,
  settings: IdentityTokenSettings,
  clock: Clock,
): IdentityTokenSigner {
  const cache = new LRUCache<IdentityContext, Cached>({ max: TOKEN_CACHE_MAX });
  const halfMs = settings.ttlSeconds * 500;
  return {
    header: settings.header,
    headerKey: settings.header.toLowerCase().replace(/_/g, '-'),
    tokenFor(context, value) {
      const key = ring.current();
      const now = clock.now();
      const hit = cache.get(context);
      if (hit !== undefined && hit.kid === key.kid && now < hit.staleAtMs) return hit.token;
      // The context object stands for its value (one encoding each), so the hash is computed
      // here, once per signing, never per request.
      const token = signIdentityToken(context, value, key, settings, Math.floor(now / 1000));
      cache.set(context, { token, kid: key.kid, staleAtMs: now + halfMs });
      return token;
    },
  };
}
