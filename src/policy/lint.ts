/**
 * Warnings on mappings that compile but are probably not what was meant: a scope whose
 * namespace nothing else knows (a typo such as `agnets:raed`), and a path segment written as a
 * regular expression (segments are literal text, `*`, `{param}` or a final `**`). Run once at
 * compile time; never on the request path.
 */
import type { Problem } from '../shared/problem.js';
import { editDistance } from '../shared/text.js';
import type { RoutePattern } from './pattern.js';
import { RESOURCE_FAMILIES } from './scopes.js';
import type { Origin, Requirement } from './compile.js';

/** A compiled mapping as the lint reads it. */
export interface LintedMapping {
  readonly pattern: RoutePattern;
  readonly origin: Origin;
  readonly mapped: readonly Requirement[];
}

/** Characters that mean something in a regular expression and never in a path segment here. */
const REGEX_LOOKING = /[[\]()|\\^$+?]/;

/** The closest of `known` to `word`, within edit distance 2; null when none is. */
function closest(word: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * `SGWRN012`: a required scope whose namespace is no resource family, not the admin scope's and
 * used by no other mapping, while a known namespace is within edit distance 2 (a typo); the
 * warning names the closest known `namespace:action`.
 * `SGWRN013`: a literal segment with regular-expression characters.
 */
export function lintMappings(mappings: readonly LintedMapping[], adminScope: string): Problem[] {
  const warnings: Problem[] = [];
  // namespace → the mappings (by pattern key) and the actions that use it.
  const users = new Map<string, Set<string>>();
  const actions = new Map<string, Set<string>>();
  for (const family of RESOURCE_FAMILIES) {
    users.set(family, new Set(['(family)']));
    actions.set(family, new Set(['read', 'run']));
  }
  const adminNamespace = adminScope.split(':')[0] as string;
  users.set(adminNamespace, new Set(['(admin)']));
  actions.set(adminNamespace, new Set());
  for (const mapping of mappings) {
    for (const { scope } of mapping.mapped) {
      if (scope === 'admin') continue;
      if (!users.has(scope.resource)) {
        users.set(scope.resource, new Set());
        actions.set(scope.resource, new Set());
      }
      users.get(scope.resource)!.add(mapping.pattern.key);
      actions.get(scope.resource)!.add(scope.action);
    }
  }
  for (const mapping of mappings) {
    const where = { file: mapping.origin.file, key: mapping.origin.key, line: mapping.origin.line };
    for (const { raw, scope } of mapping.mapped) {
      if (scope === 'admin') continue;
      const used = users.get(scope.resource)!;
      if (used.size > 1 || !used.has(mapping.pattern.key)) continue;
      const others = [...users.keys()].filter((ns) => ns !== scope.resource);
      // Only a near miss is reported: a new namespace of one route is common and meant.
      const near = closest(scope.resource, others);
      if (near === null) continue;
      const action = closest(scope.action, actions.get(near)!) ?? scope.action;
      warnings.push({
        ...where,
        message:
          `scope "${raw}": no other mapping, resource family or the admin scope uses the ` +
          `namespace "${scope.resource}" (did you mean "${near}:${action}"?)`,
        code: 'SGWRN012',
      });
    }
    for (const segment of mapping.pattern.segments) {
      if (segment.kind !== 'literal' || !REGEX_LOOKING.test(segment.value)) continue;
      warnings.push({
        ...where,
        message:
          `segment "${segment.value}" looks like a regular expression, but segments match ` +
          'literally: use "*" or "{name}" for any one segment, "**" (last) for the rest',
        code: 'SGWRN013',
      });
    }
  }
  return warnings;
}
