/**
 * The internal service token: the bundled scheduler's credential. Compares in
 * constant time and yields the fixed `__scheduler__` principal; never grants more scopes.
 */
import { createPrincipal, type Principal } from './principal.js';
import { createSecretMatcher } from './secret-compare.js';

/** The user id of the internal principal; a reserved subject no JWT may carry. */
export const INTERNAL_USER_ID = '__scheduler__';

/** Exactly the scheduler's scopes, in that order. */
export const INTERNAL_SCOPES: readonly string[] = Object.freeze([
  'agents:read',
  'agents:run',
  'teams:read',
  'teams:run',
  'workflows:read',
  'workflows:run',
  'schedules:read',
  'schedules:write',
  'schedules:delete',
]);

/** The principal a matching internal token authenticates as. */
export const INTERNAL_PRINCIPAL: Principal = createPrincipal({
  type: 'internal',
  userId: INTERNAL_USER_ID,
  scopes: INTERNAL_SCOPES,
});

/**
 * Builds the internal-token authenticator, or null when no token is configured (`null` or
 * `""`, as `${SCOPEGATE_INTERNAL_TOKEN:-}` gives). The authenticator answers the principal on a
 * match and undefined otherwise: "not mine", so the chain tries the next authenticator.
 */
export function createInternalTokenAuthenticator(
  token: string | null,
): ((candidate: string) => Principal | undefined) | null {
  if (token === null || token === '') return null;
  const matches = createSecretMatcher(token);
  return (candidate) => (matches(candidate) ? INTERNAL_PRINCIPAL : undefined);
}
