/**
 * JWT verification: the token's `alg` against the accepted list, the candidate keys by `kid`,
 * the signature, `exp`/`nbf`, issuer and audience. The checks run synchronously with node:crypto
 * (fast-verify.ts), with jose's verdicts; jose verifies only for a key of a kind fast-verify.ts
 * does not know. The ONLY file that catches jose errors, and it switches on `err.code`. Never
 * logs or returns token text.
 */
import { decodeJwt, jwtVerify, type JWTVerifyOptions } from 'jose';
import type { Clock } from '../../shared/clock.js';
import type { AuthFailure } from '../failure.js';
import { listOf, type AuthSettings } from '../settings.js';
import {
  ALGORITHM_SPECS,
  ASK_JOSE,
  checkClaims,
  checkSignature,
  decodeSegment,
  isAscii,
  NEXT_KEY,
  parseHeader,
  payloadEncoding,
  type AlgorithmSpec,
  type ClaimRules,
} from './fast-verify.js';
import type { KeySource } from './key-source.js';
import type { KeySet, VerificationKey } from './keys.js';

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
  | {
      readonly ok: false;
      readonly failure: AuthFailure;
      /**
       * Set when the refusal may not hold for long: no key carried the token's `kid` even after
       * a refresh of the remote keys, and the other keys did not verify it. The key may still
       * arrive, so such a refusal is never remembered.
       */
      readonly transient?: true;
    };

/**
 * Verifies one token. Synchronous (a plain result) unless the token's `kid` asks for a refresh
 * of the remote keys, or a key only jose can use is tried: then a Promise.
 */
export type JwtVerifier = (token: string) => JwtResult | Promise<JwtResult>;

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

const SIGNATURE_INVALID = fail('signature_invalid');
const UNKNOWN_KID_SIGNATURE_INVALID: JwtResult = Object.freeze({
  ok: false,
  failure: 'signature_invalid',
  transient: true,
});

/** A token split at its two dots (exactly three segments), with its parsed header. */
interface Parsed {
  readonly token: string;
  readonly alg: string;
  readonly algorithm: AlgorithmSpec;
  readonly header: Readonly<Record<string, unknown>>;
  readonly firstDot: number;
  readonly secondDot: number;
}

/**
 * Builds the verifier. With `validate: false` it decodes without any check, and a token that
 * cannot be decoded yields an empty payload: never more than a valid token
 * with no scopes.
 */
export function createJwtVerifier(settings: VerifySettings, deps: VerifyDeps): JwtVerifier {
  if (!settings.validate) {
    return (token) => {
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
  const rules: ClaimRules = {
    issuers: issuer.length === 0 ? null : [...issuer],
    toleranceSeconds: settings.leeway_seconds,
  };
  const baseOptions: JWTVerifyOptions = {
    clockTolerance: settings.leeway_seconds,
    ...(issuer.length === 0 ? {} : { issuer: [...issuer] }),
  };
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

  /** A payload that verified: the audience, then the result. */
  const accepted = (payload: Record<string, unknown>): JwtResult =>
    expectedAudience !== null && !audienceMatches(payload, expectedAudience)
      ? fail('audience_mismatch')
      : okResult(payload);

  /** jose for the candidates from `from` on (a key of a kind only jose verifies). */
  const withJose = async (
    parsed: Parsed,
    candidates: readonly VerificationKey[],
    from: number,
  ): Promise<JwtResult> => {
    const options: JWTVerifyOptions = {
      ...baseOptions,
      algorithms: [parsed.alg],
      currentDate: new Date(clock.now()),
    };
    for (let i = from; i < candidates.length; i += 1) {
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(
          parsed.token,
          (candidates[i] as VerificationKey).key,
          options,
        ));
      } catch (err) {
        const failure = failureOf(err);
        if (failure === NEXT_KEY) continue;
        return fail(failure);
      }
      return accepted(payload);
    }
    return fail('signature_invalid');
  };

  /** The candidates in order, with jose's checks; see fast-verify.ts. */
  const verifyWith = (
    parsed: Parsed,
    candidates: readonly VerificationKey[],
  ): JwtResult | Promise<JwtResult> => {
    if (candidates.length === 0) return fail('key_unknown');
    // jose's checks before the key's: the same for every key, so made once.
    const b64 = payloadEncoding(parsed.header);
    if (b64 === null) return fail('token_malformed');
    const { token, firstDot, secondDot } = parsed;
    if (!isAscii(token.slice(firstDot + 1, secondDot))) return fail('token_malformed');
    const signature = decodeSegment(token.slice(secondDot + 1));
    if (signature === null) return fail('token_malformed');
    // Every character is ASCII now (the header and signature decoded), so latin1 is exact.
    const input = Buffer.from(token.slice(0, secondDot), 'latin1');
    const { algorithm } = parsed;
    for (let i = 0; i < candidates.length; i += 1) {
      const outcome = checkSignature(
        algorithm,
        (candidates[i] as VerificationKey).key,
        input,
        signature,
      );
      if (outcome === ASK_JOSE) return withJose(parsed, candidates, i);
      if (outcome === NEXT_KEY) continue;
      // Verified: what follows no longer depends on the key.
      if (!b64) return fail('token_malformed');
      const payload = decodeSegment(token.slice(firstDot + 1, secondDot));
      if (payload === null) return fail('token_malformed');
      const claims = checkClaims(payload, clock.now(), rules);
      if (claims === NEXT_KEY) continue;
      return typeof claims === 'string' ? fail(claims) : accepted(claims);
    }
    return fail('signature_invalid');
  };

  return (token) => {
    const firstDot = token.indexOf('.');
    const secondDot = firstDot < 0 ? -1 : token.indexOf('.', firstDot + 1);
    if (secondDot < 0 || token.includes('.', secondDot + 1)) return fail('token_malformed');
    const header = parseHeader(token.slice(0, firstDot));
    if (header === null) return fail('token_malformed');
    const { alg, kid } = header;
    if (typeof alg !== 'string' || (kid !== undefined && typeof kid !== 'string')) {
      return fail('token_malformed');
    }
    // `none` is never in the set, so an unsigned token stops here.
    const algorithm = keySet.algorithms.has(alg) ? ALGORITHM_SPECS.get(alg) : undefined;
    if (algorithm === undefined) return fail('algorithm_not_allowed');
    const keys = source?.current() ?? keySet;
    const parsed: Parsed = { token, alg, algorithm, header, firstDot, secondDot };
    if (source !== undefined && kid !== undefined && !keys.knowsKid(kid, alg)) {
      // A kid no key carries may be a key the IdP just rotated in: one shared, rate-limited
      // refresh, then the lookup again (the static keys still follow for a kid still unknown).
      return source
        .refreshForUnknownKid()
        .then(() => verifyWith(parsed, source.current().candidates(kid, alg)))
        .then((result) => (result === SIGNATURE_INVALID ? UNKNOWN_KID_SIGNATURE_INVALID : result));
    }
    return verifyWith(parsed, keys.candidates(kid, alg));
  };
}
