/**
 * Scope strings: parsing, a caller's grants compiled once
 * per principal, and the one rule deciding whether a grant satisfies a requirement. Pure: no I/O.
 */

/** The resource families whose per-resource scopes (`agents:<id>:run`) are honoured. */
export const RESOURCE_FAMILIES = ['agents', 'teams', 'workflows'] as const;
export type ResourceFamily = (typeof RESOURCE_FAMILIES)[number];

/** The default admin scope (`auth.admin_scope`). */
export const DEFAULT_ADMIN_SCOPE = 'agent_os:admin';

/** Whether `name` is one of the families with per-resource scopes. */
export function isResourceFamily(name: string): name is ResourceFamily {
  return name === 'agents' || name === 'teams' || name === 'workflows';
}

/** A well-formed, non-admin scope, with the `system:` alias already read as `config:`. */
export interface ParsedScope {
  /** The scope as written. */
  readonly raw: string;
  /** Resource namespace after aliasing (`system` → `config`). */
  readonly resource: string;
  /** `null` for the global form (two parts, or `*` in the middle). */
  readonly id: string | null;
  readonly action: string;
  /** `resource:action`: the lookup key shared by the global and per-resource forms. */
  readonly key: string;
}

/** A caller's resource context taken from the path: `/agents/<id>/…` or `<a2a>/agents/<id>/…`. */
export interface ResourceRef {
  readonly family: ResourceFamily;
  readonly id: string;
}

const NO_SPACE_PART = /^[^\s:]+$/;

/**
 * Parses one scope. Returns `'admin'` for the admin scope, a {@link ParsedScope} for two or three
 * non-empty `:`-separated parts without whitespace where `*` may only be the whole middle part,
 * and `null` for anything else (malformed in a config; grants nothing in a caller's token).
 */
export function parseScope(raw: string, adminScope: string): ParsedScope | 'admin' | null {
  if (raw === adminScope) return 'admin';
  const parts = raw.split(':');
  if (parts.length !== 2 && parts.length !== 3) return null;
  for (const part of parts) if (!NO_SPACE_PART.test(part)) return null;
  const first = parts[0] as string;
  const action = parts[parts.length - 1] as string;
  if (first.includes('*') || action.includes('*')) return null;
  const middle = parts.length === 3 ? (parts[1] as string) : null;
  if (middle !== null && middle !== '*' && middle.includes('*')) return null;
  const resource = first === 'system' ? 'config' : first;
  return {
    raw,
    resource,
    id: middle === null || middle === '*' ? null : middle,
    action,
    key: `${resource}:${action}`,
  };
}

/**
 * A caller's scopes compiled for O(1) checks. Built once per principal (and cached with it), so
 * the request path never parses a scope string.
 */
export interface Grants {
  readonly admin: boolean;
  /** Global grants by key (`agents:run`, `config:read`, …). */
  readonly global: ReadonlySet<string>;
  /** Per-resource grants for the resource families only: key → ids. */
  readonly perResource: ReadonlyMap<string, ReadonlySet<string>>;
  /** The caller's scopes as given (for explanations and the identity context). */
  readonly raw: readonly string[];
}

/** Compiles a caller's scopes. Malformed scopes and per-resource scopes of other families grant nothing. */
export function compileGrants(scopes: readonly string[], adminScope: string): Grants {
  let admin = false;
  const global = new Set<string>();
  const perResource = new Map<string, Set<string>>();
  for (const raw of scopes) {
    const parsed = parseScope(raw, adminScope);
    if (parsed === 'admin') admin = true;
    else if (parsed === null) continue;
    else if (parsed.id === null) global.add(parsed.key);
    else if (isResourceFamily(parsed.resource)) {
      let ids = perResource.get(parsed.key);
      if (!ids) perResource.set(parsed.key, (ids = new Set()));
      ids.add(parsed.id);
    }
  }
  return { admin, global, perResource, raw: Object.freeze([...scopes]) };
}

/**
 * Whether `grants` satisfy one required scope on a path whose resource context is `resource`.
 *
 * A global requirement `family:action` is met by the global grant, or — only for the resource
 * families and only on a path carrying an id of that family — by `family:<id>:action`. A
 * per-resource requirement `family:<id>:action` is met by the global grant or that exact id.
 */
export function satisfies(
  required: ParsedScope | 'admin',
  grants: Grants,
  resource: ResourceRef | null,
): boolean {
  if (grants.admin) return true;
  if (required === 'admin') return false;
  if (grants.global.has(required.key)) return true;
  const id =
    required.id ??
    (resource !== null && resource.family === required.resource ? resource.id : null);
  if (id === null) return false;
  return grants.perResource.get(required.key)?.has(id) ?? false;
}

/**
 * The caller scope that satisfies a requirement, for explanations (`scopegate explain`); `null`
 * when none does. Slow path only: scans the raw scopes.
 */
export function findSatisfyingScope(
  required: ParsedScope | 'admin',
  grants: Grants,
  resource: ResourceRef | null,
  adminScope: string,
): string | null {
  for (const raw of grants.raw) {
    const one = compileGrants([raw], adminScope);
    if (satisfies(required, one, resource)) return raw;
  }
  return null;
}

/** The ids of `family` the caller holds `family:<id>:<action>` for, sorted (listing filter). */
export function accessibleIds(grants: Grants, key: string): readonly string[] {
  const ids = grants.perResource.get(key);
  return ids === undefined ? [] : [...ids].sort();
}
