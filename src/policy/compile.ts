/**
 * Compiles policy layers into one frozen {@link CompiledPolicy}: merge order, native namespaces
 * (agents, teams, workflows keep their own scope), the family floor, excluded routes, and the
 * report of duplicates and shadowed patterns. Pure: takes parsed data, does no I/O.
 */
import type { Problem } from '../shared/problem.js';
import {
  parsePathPattern,
  parseRoutePattern,
  type PathPattern,
  type RoutePattern,
  type Segment,
} from './pattern.js';
import { isResourceFamily, parseScope, type ParsedScope, type ResourceFamily } from './scopes.js';
import { lookupPattern, Trie, TrieBuilder, type TrieNode } from './trie.js';
import { lintMappings } from './lint.js';

/** Where a mapping was written: file, key path and line, for messages and `explain`. */
export interface Origin {
  readonly file: string;
  readonly key: string;
  readonly line?: number | undefined;
}

/** One `"METHOD /pattern": [scopes]` entry as read from a file, not yet validated. */
export interface RawMapping {
  readonly pattern: string;
  readonly scopes: unknown;
  readonly origin: Origin;
}

/** The mappings of one file (a `policies:` entry, or `auth.scope_mappings`), in file order. */
export interface PolicyLayer {
  readonly file: string;
  readonly mappings: readonly RawMapping[];
}

/** A required scope, parsed once at load. */
export interface Requirement {
  readonly raw: string;
  readonly scope: ParsedScope | 'admin';
}

/** A compiled route: what a lookup returns. */
export interface RouteEntry {
  readonly pattern: RoutePattern;
  readonly origin: Origin;
  /** The scopes the winning mapping lists, in order. */
  readonly mapped: readonly Requirement[];
  /** Effective requirement: `mapped`, then the native family scope when it is not already there. */
  readonly required: readonly Requirement[];
  /** The resource family whose namespace the pattern lies in literally, if any. */
  readonly family: ResourceFamily | null;
}

/** A compiled `excluded_route_paths` entry. */
export interface ExcludedEntry {
  readonly pattern: PathPattern;
  readonly origin: Origin;
}

/** The frozen policy every request is decided against. */
export interface CompiledPolicy {
  readonly adminScope: string;
  /** `a2a.prefix` as path segments. */
  readonly a2aPrefix: readonly string[];
  readonly unmappedRoutes: 'allow' | 'deny';
  /**
   * Whether the agent-family rules apply (`upstream.api: agent_os`): native namespaces, the family
   * floor, filtered listings, per-resource scopes and the A2A body checks. False in front of any
   * other HTTP service, where `/agents/x` is a plain path like any other.
   */
  readonly agentFamilies: boolean;
  /** One trie per method (HEAD is looked up as GET). */
  readonly routes: ReadonlyMap<string, Trie<RouteEntry>>;
  readonly entries: readonly RouteEntry[];
  readonly excluded: Trie<ExcludedEntry>;
  readonly excludedEntries: readonly ExcludedEntry[];
  /** Family floor requirements, `<family>:read` and `<family>:run`, shared by every lookup. */
  readonly floor: Readonly<
    Record<ResourceFamily, { readonly read: Requirement; readonly run: Requirement }>
  >;
}

/** The outcome: a policy, or `null` with at least one problem. Warnings never block. */
export interface CompileResult {
  readonly policy: CompiledPolicy | null;
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  /** Informational lines for `scopegate check` (overrides). */
  readonly notes: readonly Problem[];
}

export interface CompileInput {
  readonly layers: readonly PolicyLayer[];
  readonly adminScope: string;
  readonly a2aPrefix: string;
  readonly unmappedRoutes: 'allow' | 'deny';
  /** See {@link CompiledPolicy.agentFamilies}; default true. */
  readonly agentFamilies?: boolean;
  /** Excluded paths with their origins; the built-in list when the config leaves it null. */
  readonly excluded: readonly { readonly path: string; readonly origin: Origin }[];
}

/** The built-in routes exempt from authentication when `excluded_route_paths` is null. */
export const DEFAULT_EXCLUDED_ROUTE_PATHS: readonly string[] = Object.freeze([
  '/',
  '/health',
  '/info',
  '/docs',
  '/redoc',
  '/openapi.json',
  '/docs/oauth2-redirect',
]);

function problemAt(origin: Origin, message: string, code?: string): Problem {
  return { file: origin.file, key: origin.key, line: origin.line, message, code };
}

/** Renders where a mapping was written: `file:line`, or `file` when the line is unknown. */
export function formatOrigin(origin: Origin): string {
  return origin.line === undefined ? origin.file : `${origin.file}:${origin.line}`;
}

/** The family namespace a pattern lies in literally, and whether it reaches the id segment. */
function familyOf(
  segments: readonly Segment[],
  prefix: readonly string[],
): { family: ResourceFamily; hasId: boolean } | null {
  for (const start of [0, prefix.length]) {
    if (start > 0 && !prefix.every((p, i) => literalAt(segments, i) === p)) continue;
    const name = literalAt(segments, start);
    if (name !== null && isResourceFamily(name)) {
      return { family: name, hasId: segments.length > start + 1 };
    }
  }
  return null;
}

function literalAt(segments: readonly Segment[], i: number): string | null {
  const s = segments[i];
  return s !== undefined && s.kind === 'literal' ? s.value : null;
}

function sameRequirement(a: Requirement, b: Requirement): boolean {
  if (a.scope === 'admin' || b.scope === 'admin') return a.scope === b.scope;
  return a.scope.key === b.scope.key && a.scope.id === b.scope.id;
}

interface Candidate {
  readonly pattern: RoutePattern;
  readonly origin: Origin;
  readonly mapped: readonly Requirement[];
  readonly layer: number;
}

/**
 * Compiles the layers. Later layers replace earlier entries of the same `METHOD pattern`
 * (`{id}` and `*` are one pattern); every problem is collected before giving up.
 */
export function compilePolicy(input: CompileInput): CompileResult {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const notes: Problem[] = [];
  const prefixParsed = parsePathPattern(input.a2aPrefix);
  const prefix = prefixParsed.ok
    ? prefixParsed.value.segments.map((s) => (s.kind === 'literal' ? s.value : '*'))
    : [];
  const agentFamilies = input.agentFamilies ?? true;
  // Without the agent-family rules no pattern lies in a family namespace.
  const familyAt = (segments: readonly Segment[]) =>
    agentFamilies ? familyOf(segments, prefix) : null;

  const requirement = (raw: string): Requirement | null => {
    const scope = parseScope(raw, input.adminScope);
    return scope === null ? null : { raw, scope };
  };

  // Merge: later layers replace earlier ones; the first definition of a key is its default.
  const merged = new Map<string, Candidate>();
  const firstSeen = new Map<string, Candidate>();
  input.layers.forEach((layer, layerIndex) => {
    for (const mapping of layer.mappings) {
      const parsed = parseRoutePattern(mapping.pattern, input.a2aPrefix);
      if (!parsed.ok) {
        problems.push(problemAt(mapping.origin, `malformed pattern: ${parsed.message}`));
        continue;
      }
      if (!Array.isArray(mapping.scopes)) {
        problems.push(
          problemAt(mapping.origin, 'expected a list of scopes ([] means no scopes required)'),
        );
        continue;
      }
      const mapped: Requirement[] = [];
      let bad = false;
      mapping.scopes.forEach((raw: unknown, i: number) => {
        const req = typeof raw === 'string' ? requirement(raw) : null;
        if (req === null) {
          bad = true;
          problems.push(
            problemAt(
              { ...mapping.origin, key: `${mapping.origin.key}[${i}]` },
              `malformed scope ${JSON.stringify(raw)}: expected "${input.adminScope}" or ` +
                '"resource:action" / "resource:<id>:action" (no spaces; "*" only as the whole middle part)',
            ),
          );
        } else if (!mapped.some((m) => sameRequirement(m, req))) mapped.push(req);
      });
      if (bad) continue;
      const candidate: Candidate = {
        pattern: parsed.value,
        origin: mapping.origin,
        mapped,
        layer: layerIndex,
      };
      const previous = merged.get(parsed.value.key);
      if (previous) {
        if (previous.layer === layerIndex) {
          warnings.push(
            problemAt(
              mapping.origin,
              `"${parsed.value.text}" is the same pattern as "${previous.pattern.text}" ` +
                `(${formatOrigin(previous.origin)}) in the same file; the later one wins`,
              'SGWRN002',
            ),
          );
        } else if (previous.pattern.text !== parsed.value.text) {
          warnings.push(
            problemAt(
              mapping.origin,
              `"${parsed.value.text}" and "${previous.pattern.text}" (${formatOrigin(previous.origin)}) ` +
                'are two spellings of one pattern; the later one wins',
              'SGWRN002',
            ),
          );
        } else notes.push(problemAt(mapping.origin, `overrides ${formatOrigin(previous.origin)}`));
      } else firstSeen.set(parsed.value.key, candidate);
      merged.set(parsed.value.key, candidate);
    }
  });

  const floor = {} as Record<ResourceFamily, { read: Requirement; run: Requirement }>;
  for (const family of ['agents', 'teams', 'workflows'] as const) {
    floor[family] = Object.freeze({
      read: requirement(`${family}:read`) as Requirement,
      run: requirement(`${family}:run`) as Requirement,
    });
  }

  const nativeOf = computeNativeScopes(firstSeen, input.layers.length, familyAt);
  const builders = new Map<string, TrieBuilder<RouteEntry>>();
  const entries: RouteEntry[] = [];
  for (const candidate of merged.values()) {
    const ns = familyAt(candidate.pattern.segments);
    let required = candidate.mapped;
    if (ns !== null) {
      // Every family-namespace key was given its native scopes (possibly none) above.
      let native = nativeOf.get(candidate.pattern.key) as readonly Requirement[];
      if (native.length === 0) {
        const method = candidate.pattern.method;
        if (ns.hasId) native = [method === 'GET' ? floor[ns.family].read : floor[ns.family].run];
        else if (method === 'GET') native = [floor[ns.family].read];
      }
      const added = native.filter((n) => !candidate.mapped.some((m) => sameRequirement(m, n)));
      if (added.length > 0) {
        required = [...candidate.mapped, ...added];
        warnings.push(
          problemAt(
            candidate.origin,
            `${candidate.pattern.text} lies in the native "${ns.family}" namespace: ` +
              `${added.map((a) => a.raw).join(', ')} is required too (a mapping adds scopes to a family route, never removes its own)`,
            'SGWRN004',
          ),
        );
      }
    }
    const entry: RouteEntry = Object.freeze({
      pattern: candidate.pattern,
      origin: candidate.origin,
      mapped: Object.freeze(candidate.mapped),
      required: Object.freeze(required),
      family: ns?.family ?? null,
    });
    entries.push(entry);
    let builder = builders.get(entry.pattern.method);
    if (!builder) builders.set(entry.pattern.method, (builder = new TrieBuilder()));
    builder.insert(entry.pattern.segments, entry);
  }

  const excludedBuilder = new TrieBuilder<ExcludedEntry>();
  const excludedEntries: ExcludedEntry[] = [];
  for (const { path, origin } of input.excluded) {
    const parsed = parsePathPattern(path, input.a2aPrefix);
    if (!parsed.ok) {
      problems.push(problemAt(origin, `malformed path pattern: ${parsed.message}`));
      continue;
    }
    const entry = Object.freeze({ pattern: parsed.value, origin });
    excludedEntries.push(entry);
    excludedBuilder.insert(parsed.value.segments, entry);
  }

  const routes = new Map<string, Trie<RouteEntry>>();
  for (const [method, builder] of builders) {
    const trie = builder.build();
    routes.set(method, trie);
    for (const shadowed of findShadowedGlobs(trie.root)) {
      warnings.push(
        problemAt(
          shadowed.origin,
          `${shadowed.pattern.text} never matches: every path it covers is taken by a more specific pattern`,
          'SGWRN003',
        ),
      );
    }
  }

  if (problems.length > 0) return { policy: null, problems, warnings, notes };
  warnings.push(...lintMappings(entries, input.adminScope));
  const policy: CompiledPolicy = Object.freeze({
    adminScope: input.adminScope,
    a2aPrefix: Object.freeze(prefix),
    unmappedRoutes: input.unmappedRoutes,
    agentFamilies,
    routes,
    entries: Object.freeze(entries),
    excluded: excludedBuilder.build(),
    excludedEntries: Object.freeze(excludedEntries),
    floor: Object.freeze(floor),
  });
  return { policy, problems, warnings, notes };
}

/**
 * The native family scopes of every family-namespace pattern, decided layer by
 * layer: a pattern first defined in layer L takes the native scopes of the most specific pattern
 * of the layers before L that covers it, else the family scopes of its own first definition. So
 * a later pattern, however specific, never lowers what the route it carves out of required.
 */
function computeNativeScopes(
  firstSeen: ReadonlyMap<string, Candidate>,
  layerCount: number,
  familyAt: (segments: readonly Segment[]) => { family: ResourceFamily } | null,
): Map<string, readonly Requirement[]> {
  const nativeOf = new Map<string, readonly Requirement[]>();
  const earlier = new Map<string, TrieBuilder<readonly Requirement[]>>();
  for (let layer = 0; layer < layerCount; layer++) {
    const snapshot = new Map<string, Trie<readonly Requirement[]>>();
    for (const [method, builder] of earlier) snapshot.set(method, builder.build());
    for (const first of firstSeen.values()) {
      if (first.layer !== layer) continue;
      const ns = familyAt(first.pattern.segments);
      if (ns === null) continue;
      const trie = snapshot.get(first.pattern.method);
      const covering = trie === undefined ? undefined : lookupPattern(trie, first.pattern.segments);
      const own = first.mapped.filter((r) => r.scope !== 'admin' && r.scope.resource === ns.family);
      const native = covering !== undefined && covering.length > 0 ? covering : own;
      nativeOf.set(first.pattern.key, native);
      let builder = earlier.get(first.pattern.method);
      if (!builder) earlier.set(first.pattern.method, (builder = new TrieBuilder()));
      builder.insert(first.pattern.segments, native);
    }
  }
  return nativeOf;
}

/**
 * `**` values that can never be reached: the `*` sibling's subtree answers every remaining path
 * of one or more segments (the fallback order literal → `*` → `**` never gets to them).
 */
function findShadowedGlobs(node: TrieNode<RouteEntry>): RouteEntry[] {
  const out: RouteEntry[] = [];
  const visit = (n: TrieNode<RouteEntry>): void => {
    if (n.glob !== undefined && n.param !== undefined && coversEverything(n.param))
      out.push(n.glob);
    if (n.literals) for (const child of n.literals.values()) visit(child);
    if (n.param) visit(n.param);
  };
  visit(node);
  return out;
}

/** Whether every remaining path (zero or more segments) from `n` finds a pattern. */
function coversEverything(n: TrieNode<RouteEntry>): boolean {
  if (n.value === undefined) return false;
  if (n.glob !== undefined) return true;
  return n.param !== undefined && coversEverything(n.param);
}
