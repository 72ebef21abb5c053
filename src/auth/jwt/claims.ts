/**
 * Builds a `jwt` principal from a verified (or decoded) payload:
 * user and session ids, scopes, audience, dependencies and session state. Never verifies
 * a signature and never lets a reserved subject through.
 */
import { createPrincipal, type Principal } from '../principal.js';
import type { AuthSettings } from '../settings.js';

/** The settings that name the claims. */
export type ClaimSettings = Pick<
  AuthSettings,
  | 'user_id_claim'
  | 'session_id_claim'
  | 'scopes_claim'
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

/** A list keeps its string members; a string is a one-element list; anything else is empty. */
function scopesOf(value: unknown): readonly string[] {
  if (typeof value === 'string') return Object.freeze([value]);
  if (!Array.isArray(value)) return Object.freeze([]);
  return Object.freeze(value.filter((scope): scope is string => typeof scope === 'string'));
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

/**
 * Builds the frozen `jwt` principal of a payload. The payload is frozen with it (principals are
 * cached and shared), so the caller must not keep using it mutably. `expiresAt` is the verified
 * `exp` in epoch seconds, or null.
 */
export function principalFromClaims(
  payload: Record<string, unknown>,
  settings: ClaimSettings,
  expiresAt: number | null,
): ClaimsResult {
  const rawUserId = own(payload, settings.user_id_claim);
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
  const sessionId = own(payload, settings.session_id_claim);
  const claims = deepFreeze(payload);
  const principal = createPrincipal({
    type: 'jwt',
    authenticated: true,
    userId,
    sessionId: typeof sessionId === 'string' ? sessionId : null,
    scopes: scopesOf(own(claims, settings.scopes_claim)),
    claims,
    audience: own(claims, settings.audience_claim) ?? null,
    dependencies: pick(claims, settings.dependencies_claims),
    sessionState: pick(claims, settings.session_state_claims),
    expiresAt,
  });
  return { ok: true, principal };
}
