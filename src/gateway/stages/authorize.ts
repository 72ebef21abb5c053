/**
 * Stage: authorize `METHOD path` for an authenticated principal against the compiled policy.
 * Compiles each principal's scopes once (cached per principal object). Never writes responses.
 */
import type { Principal } from '../../auth/principal.js';
import type { CompiledPolicy, Requirement } from '../../policy/compile.js';
import { decide, type Decision } from '../../policy/decide.js';
import {
  compileGrants,
  parseScope,
  satisfies,
  type Grants,
  type ParsedScope,
} from '../../policy/scopes.js';

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

/** A requirement on one (non-admin) scope. */
type ScopeRequirement = Requirement & { readonly scope: ParsedScope };

function requirement(raw: string): ScopeRequirement {
  return Object.freeze({ raw, scope: parseScope(raw, '') as ParsedScope });
}

/** The built-in requirement of each `/service-accounts` method. */
const SERVICE_ACCOUNTS_FLOOR = {
  read: requirement('service_accounts:read'),
  write: requirement('service_accounts:write'),
  delete: requirement('service_accounts:delete'),
} as const;

/** `service_accounts:read` for GET/HEAD, `:delete` for DELETE, `:write` for any other method. */
export function serviceAccountsFloorOf(method: string): ScopeRequirement {
  if (method === 'GET' || method === 'HEAD') return SERVICE_ACCOUNTS_FLOOR.read;
  return method === 'DELETE' ? SERVICE_ACCOUNTS_FLOOR.delete : SERVICE_ACCOUNTS_FLOOR.write;
}

/**
 * Whether a principal's scopes are checked outside `/service-accounts`: RBAC on, or a
 * service-account token or anonymous caller, which are always checked.
 */
export function scopesEnforced(rbacEnabled: boolean, principal: Principal): boolean {
  return rbacEnabled || principal.type === 'service_account' || principal.type === 'anonymous';
}

/**
 * Decides the request. Service-account tokens, anonymous callers and every `/service-accounts`
 * route are always scope-checked; the internal token gets no listing
 * fallback; the security key is an unscoped root.
 */
export function authorizeRequest(
  settings: AuthorizeSettings,
  grantsOf: (principal: Principal) => Grants,
  method: string,
  segments: readonly string[],
  principal: Principal,
): Decision {
  const serviceAccounts = segments[0] === SERVICE_ACCOUNTS;
  const enforce = scopesEnforced(settings.rbacEnabled, principal) || serviceAccounts;
  const grants = grantsOf(principal);
  const decision = decide(settings.policy, method, segments, grants, {
    enforce,
    strictListing: principal.type === 'internal',
  });
  return serviceAccounts ? withServiceAccountsFloor(decision, method, grants) : decision;
}

/**
 * Adds the built-in `service_accounts:<action>` requirement to a `/service-accounts` decision
 * when the matched mapping does not already require it. Like the native family scope
 * of agents, teams and workflows, a remapping can add requirements there but never remove this one, and a policy
 * without the default mappings (`policies: []`) still never opens the API to any caller: minting
 * tokens is always scope-checked.
 */
function withServiceAccountsFloor(decision: Decision, method: string, grants: Grants): Decision {
  const floor = serviceAccountsFloorOf(method);
  const key = floor.scope.key;
  if (decision.required.some((r) => r.scope !== 'admin' && r.scope.key === key)) return decision;
  const required = [...decision.required, floor];
  const held = satisfies(floor.scope, grants, null);
  if (!decision.allow) {
    if (decision.reason !== 'insufficient_scope') return decision;
    return {
      ...decision,
      required,
      missing: held ? decision.missing : [...decision.missing, floor],
    };
  }
  if (held) return { ...decision, reason: grants.admin ? 'admin' : 'scopes_satisfied', required };
  return { ...decision, allow: false, reason: 'insufficient_scope', required, missing: [floor] };
}
