/**
 * Which scopes may be granted to a service account: malformed, unknown,
 * or known — and then privileged or not. "Known" is the runtime's resource namespaces with their
 * actions, plus every `resource:action` the merged policy requires. Pure: no I/O.
 */
import type { CompiledPolicy } from './compile.js';
import { isResourceFamily, parseScope, RESOURCE_FAMILIES, type ParsedScope } from './scopes.js';

/** The resource namespaces of the runtime's routes (`system` is read as its alias `config`). */
export const BUILT_IN_NAMESPACES: readonly string[] = Object.freeze([
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

/** The actions of every namespace; the families also have `run`. */
const BASE_ACTIONS = ['read', 'write', 'delete'] as const;

/** Actions that never change data: every other action is privileged. */
const UNPRIVILEGED_ACTIONS: ReadonlySet<string> = new Set(['read', 'run']);

/** The namespace whose scopes let a holder mint or revoke tokens. */
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
 * scope, or its `resource:action` is built in (the resource namespaces × read, write,
 * delete, plus run for agents, teams and workflows) or is required by some mapping of the merged
 * policy (an operator's own routes and scopes). The per-resource form is known only
 * for agents, teams and workflows: elsewhere it would grant nothing.
 */
export function createScopeCatalogue(policy: CompiledPolicy): ScopeCatalogue {
  const actions = new Map<string, Set<string>>();
  const add = (resource: string, action: string): void => {
    let set = actions.get(resource);
    if (set === undefined) actions.set(resource, (set = new Set()));
    set.add(action);
  };
  for (const namespace of BUILT_IN_NAMESPACES)
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
