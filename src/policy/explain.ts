/**
 * Explains a decision requirement by requirement: which caller scope satisfied it and why, or
 * which scope forms would have. Slow path for `scopegate explain`; pure, never on live traffic.
 */
import type { Requirement } from './compile.js';
import type { Decision } from './decide.js';
import { findSatisfyingScope, type Grants, type ResourceRef } from './scopes.js';

/** One requirement's explanation. */
export interface RequirementExplanation {
  readonly required: string;
  /** The caller scope that satisfied it, or null. */
  readonly satisfiedBy: string | null;
  /** Why it satisfied (`admin scope`, `global scope`, `per-resource scope for agents a1`, …). */
  readonly how: string | null;
  /** The scope forms that would satisfy it (shown when nothing did). */
  readonly accepted: readonly string[];
  /** True when a listing let the caller through without it (filtered listing). */
  readonly relaxedByListing: boolean;
}

/** The scope forms that satisfy `req` on a path with resource context `resource`. */
export function acceptedForms(
  req: Requirement,
  resource: ResourceRef | null,
  adminScope: string,
): string[] {
  if (req.scope === 'admin') return [adminScope];
  const { resource: ns, action, id } = req.scope;
  const forms = [`${ns}:${action}`, `${ns}:*:${action}`];
  if (ns === 'config') forms.push(`system:${action}`, `system:*:${action}`);
  const rid = id ?? (resource !== null && resource.family === ns ? resource.id : null);
  if (rid !== null) forms.push(`${ns}:${rid}:${action}`);
  forms.push(adminScope);
  return forms;
}

/** Explains each requirement of a decision for the caller's grants. */
export function explainRequirements(
  decision: Decision,
  grants: Grants,
  adminScope: string,
): RequirementExplanation[] {
  return decision.required.map((req) => {
    const by = findSatisfyingScope(req.scope, grants, decision.resource, adminScope);
    const accepted = acceptedForms(req, decision.resource, adminScope);
    if (by === null) {
      const relaxedByListing = decision.accessibleResourceIds !== null && decision.allow;
      return { required: req.raw, satisfiedBy: null, how: null, accepted, relaxedByListing };
    }
    let how: string;
    if (by === adminScope) how = 'admin scope';
    else if (by.split(':').length === 3 && !by.includes(':*:')) {
      how = `per-resource scope for ${by.split(':')[0]} ${by.split(':')[1]}`;
    } else if (by.startsWith('system:')) how = 'legacy alias of config:';
    else how = by.includes(':*:') ? 'wildcard scope (same as the global form)' : 'global scope';
    return { required: req.raw, satisfiedBy: by, how, accepted, relaxedByListing: false };
  });
}
