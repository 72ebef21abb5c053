/**
 * The authentication chain (after routing): token extraction, then the
 * service-account, internal-token, JWT and security-key authenticators, each answering "not
 * mine", a principal, or a failure that stops the chain. Never writes a response,
 * chooses a status, or logs or returns a token, key or claim.
 */
import { hasJwtSource } from '../shared/jwt-source.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { KeyObject } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import type { Problem } from '../shared/problem.js';
import { createTokenExtractor, type ExpectedSource } from './extract.js';
import type { AuthFailure } from './failure.js';
import { createInternalTokenAuthenticator } from './internal-token.js';
import {
  createRejectionCache,
  createTokenCache,
  tokenCacheKey,
  type RejectionCache,
  type TokenCache,
  type TokenCacheObserver,
} from './jwt/cache.js';
import { createClaimsReader } from './jwt/claims.js';
import { DISCOVER, discoveryUrlOf } from './jwt/discovery.js';
import { createKeySource, type KeySource } from './jwt/key-source.js';
import { createKeySet } from './jwt/keys.js';
import {
  createRemoteJwks,
  DEFAULT_JWKS_COOLDOWN_SECONDS,
  DEFAULT_JWKS_MAX_STALE_SECONDS,
  DEFAULT_JWKS_REFRESH_SECONDS,
  type RemoteJwks,
  type RemoteJwksDeps,
} from './jwt/remote-jwks.js';
import { createJwtVerifier, type JwtResult } from './jwt/verify.js';
import { ANONYMOUS, type Principal } from './principal.js';
import { createSecurityKeyAuthenticator } from './security-key.js';
import { SERVICE_ACCOUNT_PREFIX } from './service-accounts/token.js';
import { listOf, type AuthSettings } from './settings.js';

export type { AuthFailure } from './failure.js';
export type { AuthSettings } from './settings.js';
export type { ExpectedSource } from './extract.js';
export type { RejectionCache, TokenCache, TokenCacheObserver } from './jwt/cache.js';
export type { RemoteJwks, JwksFetchResult } from './jwt/remote-jwks.js';

/** A principal, or why there is none. `presented` says whether a credential was sent. */
export type AuthResult =
  | { readonly ok: true; readonly principal: Principal }
  | {
      readonly ok: false;
      readonly failure: AuthFailure;
      readonly presented: boolean;
      /** For `credential_missing`: where a credential was expected. */
      readonly expected?: ExpectedSource;
    };

/** What authentication reads from a request. */
export interface CredentialRequest {
  readonly headers: IncomingHttpHeaders;
  /**
   * The client address: the socket's peer, or behind a trusted proxy the address derived from
   * `X-Forwarded-For` (the service-account throttle's key).
   */
  readonly clientAddress: string;
}

/** Verifies `svc_pat_` tokens (the service-account store's side). */
export interface ServiceAccountVerifier {
  verify(token: string, clientAddress: string): AuthResult | Promise<AuthResult>;
}

/** The built chain: one per configuration; replaced, never mutated, on reload. */
export interface AuthChain {
  /**
   * Authenticates a request. Synchronous (a plain result, no Promise) unless I/O is needed: no
   * credential, the internal token, the security key, any JWT (cached, remembered as refused,
   * or verified on the spot). Only a JWT whose unknown `kid` asks for the remote keys, or a
   * service-account verifier that answers with a Promise, returns a Promise.
   */
  authenticate(request: CredentialRequest): AuthResult | Promise<AuthResult>;
  /** The verified-JWT cache, or null when no signature is verified (no JWT source, or `validate: false`). */
  readonly tokenCache: TokenCache | null;
  /**
   * The refused-JWT cache: null when no signature is verified or `rejected_max_entries` is 0
   * (absent in chains built before it existed).
   */
  readonly rejectionCache?: RejectionCache | null;
  /**
   * The remote JWK set of `auth.jwks_url` (absent or null when none): the owner starts it
   * (`start()`), asks it for readiness (`ready()`), and closes it when the state is released.
   */
  readonly remoteJwks?: RemoteJwks | null;
}

/** `auth.jwks_url` I/O and hooks: real ones unless injected (tests), and one to reuse. */
export interface RemoteJwksHooks extends Omit<RemoteJwksDeps, 'clock'> {
  /** A set to keep (with its keys and timer) when the URL and timings did not change (reload). */
  readonly previous?: RemoteJwks | null | undefined;
}

export { SERVICE_ACCOUNT_PREFIX };

/** Default bound of the verified-JWT cache (`auth.token_cache.max_entries`). */
export const DEFAULT_TOKEN_CACHE_MAX = 10_000;
/** Default memory bound of the verified-JWT cache (`auth.token_cache.max_bytes`). */
export const DEFAULT_TOKEN_CACHE_MAX_BYTES = 16_777_216;
/** Default bound of the refused-JWT cache (`auth.token_cache.rejected_max_entries`). */
export const DEFAULT_REJECTED_MAX = 10_000;
/** Default time a refused JWT is remembered (`auth.token_cache.rejected_ttl_seconds`). */
export const DEFAULT_REJECTED_TTL_SECONDS = 60;

export { hasJwtSource } from '../shared/jwt-source.js';

/** What the chain needs besides the settings. */
export interface AuthChainDeps {
  readonly clock: Clock;
  /** The service's own id: the default expected audience. */
  readonly serviceId: string;
  /** The config file, named in problems. */
  readonly configFile: string;
  /** Resolves a path from the config against the config's folder. */
  resolvePath(path: string): string;
  /** Verifies `svc_pat_` tokens; none configured → every such token is invalid. */
  readonly serviceAccounts?: ServiceAccountVerifier | null | undefined;
  /** Public keys added to the `kid`-chosen keys: the development key. */
  readonly extraKeys?: readonly { readonly key: KeyObject; readonly kid: string }[] | undefined;
  /**
   * Bound of the verified-JWT cache, over `auth.token_cache.max_entries` (default
   * {@link DEFAULT_TOKEN_CACHE_MAX}).
   */
  readonly tokenCacheMax?: number | undefined;
  /** For `auth.jwks_url`: the fetcher, timers and fetch listener, and a set to reuse. */
  readonly jwks?: RemoteJwksHooks | undefined;
  /** Told of every verified-JWT cache hit and miss (the gateway's metrics). */
  readonly tokenCacheObserver?: TokenCacheObserver | undefined;
}

/** The built chain with the problems (errors) and warnings found while importing keys. */
export interface AuthChainBuild {
  readonly chain: AuthChain;
  /** Unreadable or unusable keys: start-up must fail, a reload must be rejected. */
  readonly problems: Problem[];
  /** Keys that verify none of the accepted algorithms (`SGWRN005`). */
  readonly warnings: Problem[];
}

const FAILURES = new Map<AuthFailure, AuthResult>();

/** The frozen failure result for a presented credential. */
function failed(failure: AuthFailure): AuthResult {
  let result = FAILURES.get(failure);
  if (result === undefined) {
    result = Object.freeze({ ok: false, failure, presented: true });
    FAILURES.set(failure, result);
  }
  return result;
}

function authenticated(principal: Principal): AuthResult {
  return { ok: true, principal };
}

/**
 * Builds the chain: imports the keys, builds the verifier and its cache, and fixes the
 * authenticator order. Everything is decided here; `authenticate` only runs the pieces.
 */
export async function createAuthChain(
  settings: AuthSettings,
  deps: AuthChainDeps,
): Promise<AuthChainBuild> {
  const extract = createTokenExtractor(settings);
  const internal = createInternalTokenAuthenticator(settings.internal_service_token);
  const extraKeys = deps.extraKeys ?? [];
  const jwtSource = hasJwtSource(settings) || extraKeys.length > 0;
  // Ignored beside a JWT source (`check` warns SGWRN001): such a key is then just
  // one more token that fails JWT verification.
  const securityKey = jwtSource ? null : createSecurityKeyAuthenticator(settings.security_key);
  const serviceAccounts = deps.serviceAccounts ?? null;

  // The no-credential answers, one per expected source, built once.
  const missing = (expected: ExpectedSource): AuthResult =>
    settings.allow_anonymous
      ? Object.freeze({ ok: true, principal: ANONYMOUS })
      : Object.freeze({ ok: false, failure: 'credential_missing', presented: false, expected });
  const noCredential: Readonly<Record<ExpectedSource, AuthResult>> = {
    header: missing('header'),
    cookie: missing('cookie'),
    header_or_cookie: missing('header_or_cookie'),
  };

  let problems: Problem[] = [];
  let warnings: Problem[] = [];
  let tokenCache: TokenCache | null = null;
  let rejectionCache: RejectionCache | null = null;
  let jwt: ((token: string) => AuthResult | Promise<AuthResult>) | null = null;
  let remoteJwks: RemoteJwks | null = null;
  if (jwtSource) {
    const keys = await createKeySet(settings, {
      configFile: deps.configFile,
      resolvePath: (path) => deps.resolvePath(path),
      extraKeys,
    });
    problems = keys.problems;
    warnings = keys.warnings;
    // `validate: false` checks no signature, so it never needs (or fetches) remote keys.
    remoteJwks =
      settings.validate && settings.jwks_url !== null && settings.jwks_url !== ''
        ? remoteJwksFor(settings.jwks_url, settings, deps)
        : null;
    const keySource: KeySource | undefined =
      remoteJwks === null ? undefined : createKeySource(keys.keySet, remoteJwks);
    const verify = createJwtVerifier(settings, {
      keySet: keys.keySet,
      keySource,
      clock: deps.clock,
      serviceId: deps.serviceId,
    });
    const bounds = settings.token_cache;
    const cache = settings.validate
      ? createTokenCache({
          max: deps.tokenCacheMax ?? bounds?.max_entries ?? DEFAULT_TOKEN_CACHE_MAX,
          maxBytes: bounds?.max_bytes ?? DEFAULT_TOKEN_CACHE_MAX_BYTES,
          clock: deps.clock,
          leewaySeconds: settings.leeway_seconds,
          observer: deps.tokenCacheObserver,
        })
      : null;
    const rejectedMax = bounds?.rejected_max_entries ?? DEFAULT_REJECTED_MAX;
    const rejected =
      settings.validate && rejectedMax > 0
        ? createRejectionCache({
            max: rejectedMax,
            ttlMs: (bounds?.rejected_ttl_seconds ?? DEFAULT_REJECTED_TTL_SECONDS) * 1000,
            clock: deps.clock,
          })
        : null;
    tokenCache = cache;
    rejectionCache = rejected;
    // The keys the cached principals (and remembered refusals) were judged with. When the remote
    // keys change (a key rotated out or in) or go stale, both caches are emptied: a cached token
    // is never accepted, nor a remembered one refused, on keys the gateway no longer holds.
    let cachedUnder = keySource?.current();
    const readClaims = createClaimsReader(settings);
    /** A verification's outcome as a chain result: the principal built from the claims. */
    const build = (verified: JwtResult): AuthResult => {
      if (!verified.ok) return failed(verified.failure);
      const built = readClaims(verified.payload, verified.expiresAt);
      return built.ok ? authenticated(built.principal) : failed(built.failure);
    };
    /** The result of a token verified just now, cached (success or refusal) under `key`. */
    const settle = (
      key: string,
      tokenLength: number,
      verified: JwtResult,
      result: AuthResult,
    ): AuthResult => {
      if (result.ok) cache?.setByKey(key, result.principal, tokenLength);
      else if (verified.ok || verified.transient !== true) rejected?.set(key, result.failure);
      return result;
    };
    jwt =
      cache === null
        ? // `validate: false` (no cache): decoding never waits for anything.
          (token) => build(verify(token) as JwtResult)
        : (token) => {
            if (keySource !== undefined) {
              const keysNow = keySource.current();
              if (keysNow !== cachedUnder) {
                cachedUnder = keysNow;
                cache.clear();
                rejected?.clear();
              }
            }
            const key = tokenCacheKey(token);
            // A hit skips only the signature: the principal's subject and claims were checked
            // when it was built, it is immutable, and the cache re-checks expiry on every hit.
            const principal = cache.getByKey(key);
            if (principal !== undefined) return authenticated(principal);
            const known = rejected?.get(key);
            if (known !== undefined) return failed(known);
            const verified = verify(token);
            if (!(verified instanceof Promise)) {
              return settle(key, token.length, verified, build(verified));
            }
            const keysBefore = cachedUnder;
            return verified.then((outcome) => {
              const result = build(outcome);
              // Judged on keys that changed meanwhile: answered, but not cached past the change.
              return keySource?.current() === keysBefore
                ? settle(key, token.length, outcome, result)
                : result;
            });
          };
  }

  const notMine = failed('token_malformed');
  const serviceAccountInvalid = failed('service_account_invalid');

  const chain: AuthChain = Object.freeze({
    tokenCache,
    rejectionCache,
    remoteJwks,
    authenticate(request: CredentialRequest): AuthResult | Promise<AuthResult> {
      const extracted = extract(request.headers);
      if (!extracted.ok) return noCredential[extracted.expected];
      const { token } = extracted;
      if (token.startsWith(SERVICE_ACCOUNT_PREFIX)) {
        return serviceAccounts === null
          ? serviceAccountInvalid
          : serviceAccounts.verify(token, request.clientAddress);
      }
      const internalPrincipal = internal?.(token);
      if (internalPrincipal !== undefined) return authenticated(internalPrincipal);
      // "Not mine" versus "invalid": once a JWT source is configured, a token nobody above
      // claimed is a JWT, and its failure is final; it never falls through to the security key.
      if (jwt !== null) return jwt(token);
      const root = securityKey?.(token);
      if (root !== undefined) return authenticated(root);
      return notMine;
    },
  });
  return { chain, problems, warnings };
}

/**
 * The remote set for `jwksUrl` (a URL, or `discover`: the configuration of `auth.issuer`): the
 * previous one when nothing about it changed, else a new one.
 */
function remoteJwksFor(jwksUrl: string, settings: AuthSettings, deps: AuthChainDeps): RemoteJwks {
  const discovery = jwksUrl === DISCOVER ? issuerToDiscover(settings) : undefined;
  const options = {
    url: discovery === undefined ? jwksUrl : discoveryUrlOf(discovery),
    issuer: discovery,
    refreshMs: (settings.jwks_refresh_seconds ?? DEFAULT_JWKS_REFRESH_SECONDS) * 1000,
    cooldownMs: (settings.jwks_cooldown_seconds ?? DEFAULT_JWKS_COOLDOWN_SECONDS) * 1000,
    maxStaleMs: (settings.jwks_max_stale_seconds ?? DEFAULT_JWKS_MAX_STALE_SECONDS) * 1000,
  };
  const { previous, ...hooks } = deps.jwks ?? {};
  const timing = (o: RemoteJwks['options']): string =>
    `${o.url} ${o.issuer ?? ''} ${o.refreshMs} ${o.cooldownMs} ${o.maxStaleMs}`;
  const same = previous != null && timing(previous.options) === timing(options);
  return same ? previous : createRemoteJwks(options, { ...hooks, clock: deps.clock });
}

/** The one issuer `discover` reads from; config validation guarantees exactly one. */
function issuerToDiscover(settings: AuthSettings): string {
  const issuers = listOf(settings.issuer);
  if (issuers.length !== 1) {
    throw new TypeError('auth.jwks_url: discover needs exactly one auth.issuer');
  }
  return issuers[0] as string;
}
