/**
 * Builds a `jwt` principal from a verified (or decoded) payload: user and session ids, scopes
 * (a list, or a string split on `scopes_claim_delimiter` when one is set), audience, dependencies
 * and session state. Never verifies a signature and never lets a reserved subject through.
 */
import { createPrincipal, type Principal } from '../principal.js';
import type { AuthSettings } from '../settings.js';

/** The settings that name the claims. */
export type ClaimSettings = Pick<
  AuthSettings,
  | 'user_id_claim'
  | 'session_id_claim'
  | 'scopes_claim'
  | 'scopes_claim_delimiter'
  | 'audience_claim'
  | 'dependencies_claims'
  | 'session_state_claims'
>;

/** A principal, or `subject_invalid` for a reserved, non-string or malformed-Unicode user id. */
export type ClaimsResult =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly failure: 'subject_invalid' };

const SUBJECT_INVALID: ClaimsResult = Object.freeze({ ok: false, failure: 'subject_invalid' });

/**
 * Whether a user id lies in a namespace other credentials own: `sa:` (service accounts),
 * `__oauth__:` and exactly `__scheduler__` (the internal token). A JWT claiming one would
 * impersonate that principal.
 */
export function isReservedSubject(userId: string): boolean {
  return userId.startsWith('sa:') || userId.startsWith('__oauth__:') || userId === '__scheduler__';
}

/** The claim if the payload itself has it: never a value inherited from Object.prototype. */
function own(payload: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(payload, name) ? payload[name] : undefined;
}

/** Reads a scopes claim value into a frozen list of scopes. */
type ScopesReader = (value: unknown) => readonly string[];

const NO_SCOPES: readonly string[] = Object.freeze([]);

/** A list keeps its string members (never split); anything but a list or a string is empty. */
function listScopes(value: unknown): readonly string[] {
  if (!Array.isArray(value)) return NO_SCOPES;
  return Object.freeze(value.filter((scope): scope is string => typeof scope === 'string'));
}

/** Without a delimiter a string claim is one scope. */
function wholeStringScopes(value: unknown): readonly string[] {
  return typeof value === 'string' ? Object.freeze([value]) : listScopes(value);
}

/**
 * The scopes reader the settings call for, chosen once: with a delimiter, a string claim is split
 * on it and its empty parts dropped (`"a  b "` → `a`, `b`), as a space-delimited `scope` or `scp`
 * claim needs; without one (null or absent), a string is one scope.
 */
export function scopesReaderFor(delimiter: string | null | undefined): ScopesReader {
  if (delimiter === null || delimiter === undefined || delimiter === '') return wholeStringScopes;
  return (value) =>
    typeof value === 'string'
      ? Object.freeze(value.split(delimiter).filter((part) => part !== ''))
      : listScopes(value);
}

/** The listed claims that are present, as a frozen map (built with define, not assignment). */
function pick(
  payload: Readonly<Record<string, unknown>>,
  names: readonly string[],
): Readonly<Record<string, unknown>> {
  return Object.freeze(
    Object.fromEntries(names.filter((n) => Object.hasOwn(payload, n)).map((n) => [n, payload[n]])),
  );
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** Builds the principal of one verified payload; see {@link createClaimsReader}. */
export type ClaimsReader = (
  payload: Record<string, unknown>,
  expiresAt: number | null,
) => ClaimsResult;

/**
 * Fixes the claim settings once (at config load) and returns the function that builds the frozen
 * `jwt` principal of a payload. The payload is frozen with it (principals are cached and shared),
 * so the caller must not keep using it mutably. `expiresAt` is the verified `exp` in epoch
 * seconds, or null.
 */
export function createClaimsReader(settings: ClaimSettings): ClaimsReader {
  const scopesOf = scopesReaderFor(settings.scopes_claim_delimiter);
  const {
    user_id_claim: userIdClaim,
    session_id_claim: sessionIdClaim,
    scopes_claim: scopesClaim,
    audience_claim: audienceClaim,
    dependencies_claims: dependenciesClaims,
    session_state_claims: sessionStateClaims,
  } = settings;
  return (payload, expiresAt) => {
    const rawUserId = own(payload, userIdClaim);
    let userId: string | null = null;
    if (rawUserId !== undefined) {
      // A user id that is not well-formed Unicode (a lone surrogate) cannot be carried faithfully
      // in x-auth-user-id or compared reliably by an upstream: refuse it like a reserved one.
      if (
        typeof rawUserId !== 'string' ||
        isReservedSubject(rawUserId) ||
        !rawUserId.isWellFormed()
      ) {
        return SUBJECT_INVALID;
      }
      userId = rawUserId;
    }
    const sessionId = own(payload, sessionIdClaim);
    const claims = deepFreeze(payload);
    const principal = createPrincipal({
      type: 'jwt',
      authenticated: true,
      userId,
      sessionId: typeof sessionId === 'string' ? sessionId : null,
      scopes: scopesOf(own(claims, scopesClaim)),
      claims,
      audience: own(claims, audienceClaim) ?? null,
      dependencies: pick(claims, dependenciesClaims),
      sessionState: pick(claims, sessionStateClaims),
      expiresAt,
    });
    return { ok: true, principal };
  };
}

/**
 * Builds the frozen `jwt` principal of a payload under the given settings (a one-off
 * {@link createClaimsReader}; the gateway builds its reader once per config).
 */
export function principalFromClaims(
  payload: Record<string, unknown>,
  settings: ClaimSettings,
  expiresAt: number | null,
): ClaimsResult {
  return createClaimsReader(settings)(payload, expiresAt);
}
