/**
 * The authorization decision: (method, decoded path segments, caller grants) → Decision.
 * Pure and allocation-light: it only reads the frozen policy. Never authenticates, never does I/O.
 */
import type { CompiledPolicy, Requirement, RouteEntry } from './compile.js';
import {
  accessibleIds,
  isResourceFamily,
  satisfies,
  type Grants,
  type ResourceFamily,
  type ResourceRef,
} from './scopes.js';

/** Why a request was allowed or denied; snake_case ids for logs and metric labels. */
export type DecisionReason =
  | 'admin'
  | 'scopes_satisfied'
  | 'no_scopes_required'
  | 'listing_filtered'
  | 'unmapped_allowed'
  | 'rbac_disabled'
  | 'insufficient_scope'
  | 'route_unmapped';

export interface Decision {
  readonly allow: boolean;
  readonly reason: DecisionReason;
  /** The matched route, or `null` when no pattern matched (the family floor may still apply). */
  readonly route: RouteEntry | null;
  /** Every scope the request requires, in order (mapped, native, then floor). */
  readonly required: readonly Requirement[];
  /** The requirements nothing satisfied (empty when allowed). */
  readonly missing: readonly Requirement[];
  readonly resource: ResourceRef | null;
  /** For a filtered listing, the ids the caller may see; `null` when the listing is not filtered. */
  readonly accessibleResourceIds: readonly string[] | null;
}

/** How the caller's scopes are checked, set by the authenticated principal. */
export interface DecideOptions {
  /** Whether scopes are checked at all (RBAC on, or a principal that is always checked). */
  readonly enforce: boolean;
  /** No listing fallback: the family scope is required as is (the internal service token). */
  readonly strictListing: boolean;
}

const NONE: readonly Requirement[] = Object.freeze([]);

/** The resource context a path carries: `/<family>/<id>/…` or `<a2a prefix>/<family>/<id>/…`. */
export function resourceOf(
  segments: readonly string[],
  prefix: readonly string[],
): ResourceRef | null {
  const first = segments[0];
  if (segments.length >= 2 && first !== undefined && isResourceFamily(first)) {
    return { family: first, id: segments[1] as string };
  }
  const p = prefix.length;
  if (segments.length < p + 2) return null;
  for (let i = 0; i < p; i++) if (segments[i] !== prefix[i]) return null;
  const family = segments[p] as string;
  return isResourceFamily(family) ? { family, id: segments[p + 1] as string } : null;
}

/** Looks up the route a request matches; HEAD is authorized as GET. */
export function lookupRoute(
  policy: CompiledPolicy,
  method: string,
  segments: readonly string[],
): RouteEntry | null {
  const trie = policy.routes.get(method === 'HEAD' ? 'GET' : method);
  return trie?.lookup(segments) ?? null;
}

/** Whether the path is an excluded route, matched on the normalized path whatever the method. */
export function isExcluded(policy: CompiledPolicy, segments: readonly string[]): boolean {
  return policy.excluded.lookup(segments) !== undefined;
}

/**
 * Decides a request. Requirements are ANDed. On `GET /<family>` (a listing) a caller without
 * the family scope is still allowed, with the ids it holds per-resource scopes for, unless
 * `strictListing`.
 */
export function decide(
  policy: CompiledPolicy,
  method: string,
  segments: readonly string[],
  grants: Grants,
  options: DecideOptions,
): Decision {
  const isGet = method === 'GET' || method === 'HEAD';
  const route = lookupRoute(policy, method, segments);
  // In front of a generic upstream a path carries no resource: no floor, no per-resource scope.
  const families = policy.agentFamilies;
  const resource = families ? resourceOf(segments, policy.a2aPrefix) : null;
  let required = route === null ? NONE : route.required;
  // The family floor: a family path that no pattern of its own
  // namespace covers still needs the family's read or run scope for that id.
  if (resource !== null && (route === null || route.family !== resource.family)) {
    const floor = policy.floor[resource.family];
    required = [...required, isGet ? floor.read : floor.run];
  }
  const listing =
    families && isGet && segments.length === 1 ? listingFamily(segments[0] as string) : null;
  if (
    listing !== null &&
    !required.some(
      (r) => r.scope !== 'admin' && r.scope.resource === listing && r.scope.id === null,
    )
  ) {
    required = [...required, policy.floor[listing].read];
  }

  if (route === null && resource === null && listing === null) {
    return policy.unmappedRoutes === 'allow'
      ? verdict(true, 'unmapped_allowed', null, NONE, NONE, null, null)
      : verdict(false, 'route_unmapped', null, NONE, NONE, null, null);
  }
  if (!options.enforce)
    return verdict(true, 'rbac_disabled', route, required, NONE, resource, null);
  if (grants.admin) return verdict(true, 'admin', route, required, NONE, resource, null);

  let missing: Requirement[] | null = null;
  let listingKey: string | null = null;
  for (const req of required) {
    if (satisfies(req.scope, grants, resource)) continue;
    if (
      listing !== null &&
      !options.strictListing &&
      req.scope !== 'admin' &&
      req.scope.resource === listing &&
      req.scope.id === null
    ) {
      listingKey = req.scope.key;
      continue;
    }
    (missing ??= []).push(req);
  }
  if (missing !== null)
    return verdict(false, 'insufficient_scope', route, required, missing, resource, null);
  if (listingKey !== null) {
    return verdict(
      true,
      'listing_filtered',
      route,
      required,
      NONE,
      resource,
      accessibleIds(grants, listingKey),
    );
  }
  return verdict(
    true,
    required.length === 0 ? 'no_scopes_required' : 'scopes_satisfied',
    route,
    required,
    NONE,
    resource,
    null,
  );
}

function listingFamily(segment: string): ResourceFamily | null {
  return isResourceFamily(segment) ? segment : null;
}

function verdict(
  allow: boolean,
  reason: DecisionReason,
  route: RouteEntry | null,
  required: readonly Requirement[],
  missing: readonly Requirement[],
  resource: ResourceRef | null,
  accessibleResourceIds: readonly string[] | null,
): Decision {
  return { allow, reason, route, required, missing, resource, accessibleResourceIds };
}
