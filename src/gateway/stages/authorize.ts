/**
 * Stage: authorize `METHOD path` for an authenticated principal against the compiled policy.
 * Compiles each principal's scopes once (cached per principal object). Never writes responses.
 */
import type { Principal } from '../../auth/principal.js';
import type { CompiledPolicy } from '../../policy/compile.js';
import { decide, type Decision } from '../../policy/decide.js';
import { compileGrants, type Grants } from '../../policy/scopes.js';

/** Authorization settings fixed at load. */
export interface AuthorizeSettings {
  readonly policy: CompiledPolicy;
  /** RBAC for JWT and internal callers (`auth.authorization`, or implied by `scope_mappings`). */
  readonly rbacEnabled: boolean;
}

/**
 * Per-state cache of compiled grants, keyed by principal object: cached principals (verified
 * tokens, service accounts) are reused across requests, so their scopes are parsed once.
 */
export function createGrantsCache(adminScope: string): (principal: Principal) => Grants {
  const cache = new WeakMap<Principal, Grants>();
  return (principal) => {
    let grants = cache.get(principal);
    if (grants === undefined) {
      grants =
        principal.type === 'security_key'
          ? compileGrants([adminScope], adminScope)
          : compileGrants(principal.scopes, adminScope);
      cache.set(principal, grants);
    }
    return grants;
  };
}

const SERVICE_ACCOUNTS = 'service-accounts';

/**
 * Decides the request. Service-account tokens, anonymous callers and every `/service-accounts`
 * route are always scope-checked (CONTRACT.md §4, §9.16); the internal token gets no listing
 * fallback (§3.6); the security key is an unscoped root (§3.7).
 */
export function authorizeRequest(
  settings: AuthorizeSettings,
  grantsOf: (principal: Principal) => Grants,
  method: string,
  segments: readonly string[],
  principal: Principal,
): Decision {
  const enforce =
    settings.rbacEnabled ||
    principal.type === 'service_account' ||
    principal.type === 'anonymous' ||
    segments[0] === SERVICE_ACCOUNTS;
  return decide(settings.policy, method, segments, grantsOf(principal), {
    enforce,
    strictListing: principal.type === 'internal',
  });
}
