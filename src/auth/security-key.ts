/**
 * The static security key: an unscoped trusted root. Compares
 * in constant time; the chain consults it only when no JWT source is configured.
 */
import { createPrincipal, type Principal } from './principal.js';
import { createSecretMatcher } from './secret-compare.js';

/** The principal a matching security key authenticates as: no user id, no scopes. */
export const SECURITY_KEY_PRINCIPAL: Principal = createPrincipal({ type: 'security_key' });

/**
 * Builds the security-key authenticator, or null when no key is configured (`null` or `""`).
 * It answers the root principal on a match and undefined otherwise.
 */
export function createSecurityKeyAuthenticator(
  key: string | null,
): ((candidate: string) => Principal | undefined) | null {
  if (key === null || key === '') return null;
  const matches = createSecretMatcher(key);
  return (candidate) => (matches(candidate) ? SECURITY_KEY_PRINCIPAL : undefined);
}
