/**
 * JWT verification: the token's `alg` against the accepted list, the
 * candidate keys by `kid`, the signature, `exp`/`nbf`, issuer and audience, with jose. The ONLY
 * file that catches jose errors, and it switches on `err.code`. Never logs or returns token text.
 */
import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWTVerifyOptions } from 'jose';
import type { Clock } from '../../shared/clock.js';
import type { AuthFailure } from '../failure.js';
import { listOf, type AuthSettings } from '../settings.js';
import type { KeySource } from './key-source.js';
import type { KeySet } from './keys.js';

/** A verified (or, with `validate: false`, decoded) token's claims, or why it was refused. */
export type JwtResult =
  | {
      readonly ok: true;
      readonly payload: Record<string, unknown>;
      /** `exp` in epoch seconds, or null when the token has none. */
      readonly expiresAt: number | null;
      /** `nbf` in epoch seconds, or null when the token has none. */
      readonly notBefore: number | null;
    }
  | { readonly ok: false; readonly failure: AuthFailure };

/** The settings verification reads. */
export type VerifySettings = Pick<
  AuthSettings,
  | 'algorithm'
  | 'validate'
  | 'leeway_seconds'
  | 'verify_audience'
  | 'audience'
  | 'audience_claim'
  | 'issuer'
>;

/** What the verifier needs besides the settings. */
export interface VerifyDeps {
  /** The keys imported at start-up (their algorithms are the accepted ones). */
  readonly keySet: KeySet;
  /** When the keys can change at run time (`jwks_url`): used instead of `keySet` per token. */
  readonly keySource?: KeySource | undefined;
  readonly clock: Clock;
  /** The service's own id: the expected audience when `audience` is not set. */
  readonly serviceId: string;
}

/** Outcome of one key: verified, refused for good, or "not this key" (try the next one). */
const NEXT_KEY = 'next_key';

/**
 * Maps a jose error from one verification attempt to a failure, or to {@link NEXT_KEY}. jose
 * checks the signature before any claim, so a claim error means this key verified the token and
 * the answer is final.
 */
function failureOf(err: unknown): AuthFailure | typeof NEXT_KEY {
  const { code, claim, reason } = err as { code?: unknown; claim?: unknown; reason?: unknown };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'token_expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'iss') return 'issuer_mismatch';
      // A non-numeric `nbf` is reason "invalid": the token is malformed, not early.
      if (claim === 'nbf' && reason === 'check_failed') return 'token_not_yet_valid';
      return 'token_malformed';
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    // The token asks for something jose does not do (an unknown `crit` extension): keys and
    // algorithms were matched before, so this is the token's fault, not the key's.
    case 'ERR_JOSE_NOT_SUPPORTED':
      return 'token_malformed';
    default:
      // ERR_JWS_SIGNATURE_VERIFICATION_FAILED, and anything else a key cannot do (jose throws
      // a plain TypeError for a key unfit for the algorithm): this key is not the one.
      return NEXT_KEY;
  }
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

function okResult(payload: Record<string, unknown>): JwtResult {
  return {
    ok: true,
    payload,
    expiresAt: numberOrNull(payload['exp']),
    notBefore: numberOrNull(payload['nbf']),
  };
}

const FAILURES = new Map<AuthFailure, JwtResult>();
function fail(failure: AuthFailure): JwtResult {
  let result = FAILURES.get(failure);
  if (result === undefined) {
    result = Object.freeze({ ok: false, failure });
    FAILURES.set(failure, result);
  }
  return result;
}

/**
 * Builds the verifier. With `validate: false` it decodes without any check, and a token that
 * cannot be decoded yields an empty payload: never more than a valid token
 * with no scopes.
 */
export function createJwtVerifier(
  settings: VerifySettings,
  deps: VerifyDeps,
): (token: string) => Promise<JwtResult> {
  if (!settings.validate) {
    return async (token) => {
      try {
        return okResult(decodeJwt(token));
      } catch {
        return okResult({});
      }
    };
  }

  const { keySet, clock } = deps;
  const source = deps.keySource;
  const issuer = listOf(settings.issuer);
  const baseOptions: JWTVerifyOptions = {
    clockTolerance: settings.leeway_seconds,
    ...(issuer.length === 0 ? {} : { issuer: [...issuer] }),
  };
  // Per algorithm, built once: jose is told to accept exactly the token's (already allowed) alg.
  const algorithmOptions = new Map<string, readonly string[]>();
  for (const alg of keySet.algorithms) algorithmOptions.set(alg, [alg]);
  const expectedAudience = settings.verify_audience
    ? new Set(settings.audience === null ? [deps.serviceId] : listOf(settings.audience))
    : null;
  const audienceClaim = settings.audience_claim;

  /** Whether the audience claim (a string or a list) names an expected audience. */
  const audienceMatches = (payload: Record<string, unknown>, expected: ReadonlySet<string>) => {
    const value = Object.hasOwn(payload, audienceClaim) ? payload[audienceClaim] : undefined;
    if (typeof value === 'string') return expected.has(value);
    return Array.isArray(value) && value.some((v) => typeof v === 'string' && expected.has(v));
  };

  return async (token) => {
    if (token.split('.').length !== 3) return fail('token_malformed');
    let header: { alg?: unknown; kid?: unknown };
    try {
      header = decodeProtectedHeader(token);
    } catch {
      // decodeProtectedHeader throws a plain TypeError (no code) for any undecodable header.
      return fail('token_malformed');
    }
    const { alg, kid } = header;
    if (typeof alg !== 'string' || (kid !== undefined && typeof kid !== 'string')) {
      return fail('token_malformed');
    }
    // `none` is never in the set, so an unsigned token stops here.
    const algorithms = algorithmOptions.get(alg);
    if (algorithms === undefined) return fail('algorithm_not_allowed');
    const keys = source?.current() ?? keySet;
    let candidates = keys.candidates(kid, alg);
    if (source !== undefined && kid !== undefined && !keys.knowsKid(kid, alg)) {
      // A kid no key carries may be a key the IdP just rotated in: one shared, rate-limited
      // refresh, then the lookup again (the static keys still follow for a kid still unknown).
      await source.refreshForUnknownKid();
      candidates = source.current().candidates(kid, alg);
    }
    if (candidates.length === 0) return fail('key_unknown');

    const options: JWTVerifyOptions = {
      ...baseOptions,
      algorithms: [...algorithms],
      currentDate: new Date(clock.now()),
    };
    for (const candidate of candidates) {
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, candidate.key, options));
      } catch (err) {
        const failure = failureOf(err);
        if (failure === NEXT_KEY) continue;
        return fail(failure);
      }
      if (expectedAudience !== null && !audienceMatches(payload, expectedAudience)) {
        return fail('audience_mismatch');
      }
      return okResult(payload);
    }
    return fail('signature_invalid');
  };
}
