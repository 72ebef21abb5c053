/**
 * Which scopes may be granted to a service account (CONTRACT.md §7, §9.15): malformed, unknown,
 * or known — and then privileged or not. "Known" is the SPEC.md §4.2 resource list with the
 * §5.5 actions, plus every `resource:action` the merged policy requires. Pure: no I/O.
 */
import type { CompiledPolicy } from './compile.js';
import { isResourceFamily, parseScope, RESOURCE_FAMILIES, type ParsedScope } from './scopes.js';

/** The resource namespaces of SPEC.md §4.2 (`system` is read as its alias `config`). */
export const SPEC_NAMESPACES: readonly string[] = Object.freeze([
  'config',
  'registry',
  'components',
  'agents',
  'teams',
  'workflows',
  'sessions',
  'memories',
  'learnings',
  'knowledge',
  'metrics',
  'evals',
  'traces',
  'service_accounts',
  'schedules',
  'approvals',
]);

/** The actions of every namespace (SPEC.md §5.5 rule 2); the families also have `run`. */
const BASE_ACTIONS = ['read', 'write', 'delete'] as const;

/** Actions that never change data: every other action is privileged. */
const UNPRIVILEGED_ACTIONS: ReadonlySet<string> = new Set(['read', 'run']);

/** The namespace whose scopes let a holder mint or revoke tokens (SPEC.md §5.5 rule 4). */
export const SERVICE_ACCOUNTS_NAMESPACE = 'service_accounts';

/** What a requested scope is. */
export type GrantableScope =
  | { readonly kind: 'malformed' }
  | { readonly kind: 'unknown'; readonly why: string }
  | {
      readonly kind: 'known';
      readonly scope: ParsedScope | 'admin';
      /** A write/delete (or other data-changing) action, the admin scope, or service_accounts. */
      readonly privileged: boolean;
    };

/** Classifies requested scopes; built once per policy. */
export interface ScopeCatalogue {
  readonly adminScope: string;
  classify(raw: string): GrantableScope;
}

/**
 * Builds the catalogue of known scopes for `policy`. A scope is known when it is the admin
 * scope, or its `resource:action` is one of SPEC.md's (namespaces of §4.2 × read, write,
 * delete, plus run for agents, teams and workflows) or is required by some mapping of the merged
 * policy (an operator's own routes and scopes, SPEC.md §5.7). The per-resource form is known only
 * for agents, teams and workflows (§5.5 rule 1): elsewhere it would grant nothing.
 */
export function createScopeCatalogue(policy: CompiledPolicy): ScopeCatalogue {
  const actions = new Map<string, Set<string>>();
  const add = (resource: string, action: string): void => {
    let set = actions.get(resource);
    if (set === undefined) actions.set(resource, (set = new Set()));
    set.add(action);
  };
  for (const namespace of SPEC_NAMESPACES)
    for (const action of BASE_ACTIONS) add(namespace, action);
  for (const family of RESOURCE_FAMILIES) add(family, 'run');
  for (const entry of policy.entries) {
    for (const requirement of entry.required) {
      if (requirement.scope !== 'admin') add(requirement.scope.resource, requirement.scope.action);
    }
  }
  const { adminScope } = policy;
  return {
    adminScope,
    classify(raw) {
      const scope = parseScope(raw, adminScope);
      if (scope === null) return { kind: 'malformed' };
      if (scope === 'admin') return { kind: 'known', scope, privileged: true };
      const known = actions.get(scope.resource);
      if (known === undefined) {
        return {
          kind: 'unknown',
          why: `"${scope.resource}" is not a resource namespace this gateway knows`,
        };
      }
      if (!known.has(scope.action)) {
        return {
          kind: 'unknown',
          why: `"${scope.action}" is not an action of "${scope.resource}" (known: ${[...known].join(', ')})`,
        };
      }
      if (scope.id !== null && !isResourceFamily(scope.resource)) {
        return {
          kind: 'unknown',
          why: 'per-resource scopes (resource:<id>:action) exist only for agents, teams and workflows',
        };
      }
      return {
        kind: 'known',
        scope,
        privileged:
          scope.resource === SERVICE_ACCOUNTS_NAMESPACE || !UNPRIVILEGED_ACTIONS.has(scope.action),
      };
    },
  };
}
