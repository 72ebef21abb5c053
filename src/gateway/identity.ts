/**
 * Builds the identity the upstream receives (CONTRACT.md §6) from the verified principal and the
 * decision. Pure; never trusts anything the client sent about who it is.
 */
import { ANONYMOUS, type Principal } from '../auth/principal.js';
import type { Decision } from '../policy/decide.js';
import type { Grants } from '../policy/scopes.js';
import type { IdentityContext } from '../shared/identity-context.js';

/** Identity settings fixed at load. */
export interface IdentitySettings {
  readonly rbacEnabled: boolean;
  readonly userIsolation: boolean;
}

/**
 * `scoped_user_id`: null for an admin (a service account holding the admin scope included) and
 * the security-key root; the principal itself for any other service account, isolation on or
 * off; the user id when `user_isolation` is on; otherwise null.
 */
export function scopedUserIdOf(
  principal: Principal,
  isAdmin: boolean,
  userIsolation: boolean,
): string | null {
  if (isAdmin) return null;
  if (principal.type === 'service_account') return principal.userId;
  return userIsolation ? principal.userId : null;
}

/** The context for an authorized request. */
export function buildIdentityContext(
  principal: Principal,
  grants: Grants,
  decision: Decision,
  settings: IdentitySettings,
): IdentityContext {
  const isAdmin = grants.admin || principal.type === 'security_key';
  return {
    authenticated: principal.authenticated,
    user_id: principal.userId,
    session_id: principal.sessionId,
    scopes: principal.scopes,
    claims: principal.claims,
    audience: principal.audience,
    authorization_enabled: settings.rbacEnabled,
    dependencies: principal.dependencies,
    session_state: principal.sessionState,
    accessible_resource_ids: decision.accessibleResourceIds,
    principal_type: principal.type,
    is_admin: isAdmin,
    scoped_user_id: scopedUserIdOf(principal, isAdmin, settings.userIsolation),
    required_scopes: decision.required.map((r) => r.raw),
    service_account_name: principal.serviceAccountName,
  };
}

/** The context for an excluded route: nobody was authenticated (CONTRACT.md §5). */
export function anonymousContext(settings: IdentitySettings): IdentityContext {
  return {
    authenticated: false,
    user_id: null,
    session_id: null,
    scopes: [],
    claims: ANONYMOUS.claims,
    audience: null,
    authorization_enabled: settings.rbacEnabled,
    dependencies: ANONYMOUS.dependencies,
    session_state: ANONYMOUS.sessionState,
    accessible_resource_ids: null,
    principal_type: 'anonymous',
    is_admin: false,
    scoped_user_id: null,
    required_scopes: [],
    service_account_name: null,
  };
}
