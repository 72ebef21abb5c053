/**
 * Builds the frozen state a gateway serves from: loads the policy files a config names, compiles
 * them with its overrides, and fixes the authorization settings. Used by `serve`, `check`,
 * `explain` and `test-policies` alike. Never serves a request.
 */
import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { authorizationEnabled } from '../config/schema.js';
import {
  compilePolicy,
  DEFAULT_EXCLUDED_ROUTE_PATHS,
  type CompileResult,
  type Origin,
  type PolicyLayer,
} from '../policy/compile.js';
import {
  overridesLayer,
  readPolicyFile,
  shippedPolicyFiles,
  type PolicyFileRef,
} from '../policy/loader.js';
import { DEFAULT_ADMIN_SCOPE } from '../policy/scopes.js';
import { packageRoot } from '../shared/package-root.js';
import type { ConfigDraft, Problem } from '../shared/problem.js';
import type { DecisionState } from './pipeline.js';
import { createGrantsCache } from './stages/authorize.js';

/** The result of assembling: the state, or the problems that prevent it. */
export interface AssembleResult {
  readonly state: DecisionState | null;
  readonly compiled: CompileResult;
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  readonly notes: readonly Problem[];
  /** The policy files used, in merge order. */
  readonly policyFiles: readonly PolicyFileRef[];
}

/** The policy-relevant part of a config, as plain values. */
interface PolicySettings {
  readonly file: string;
  readonly dir: string;
  readonly lineOf: (keyPath: readonly (string | number)[]) => number | undefined;
  /** `policies:` as written, or null for the shipped files. */
  readonly policies: readonly string[] | null;
  readonly scopeMappings: Readonly<Record<string, unknown>> | undefined;
  readonly excludedRoutePaths: readonly string[] | null;
  readonly adminScope: string;
  readonly a2aPrefix: string;
  readonly unmappedRoutes: 'allow' | 'deny';
}

/** The policy files a config names (config-relative), or the shipped ones when it names none. */
function policyFilesOf(settings: PolicySettings): PolicyFileRef[] {
  if (settings.policies === null) return shippedPolicyFiles(packageRoot());
  return settings.policies.map((file) => ({ file, path: resolve(settings.dir, file) }));
}

function compileSettings(settings: PolicySettings): {
  compiled: CompileResult;
  problems: Problem[];
  policyFiles: PolicyFileRef[];
} {
  const policyFiles = policyFilesOf(settings);
  const problems: Problem[] = [];
  const layers: PolicyLayer[] = [];
  for (const ref of policyFiles) {
    const read = readPolicyFile(ref);
    problems.push(...read.problems);
    if (read.layer) layers.push(read.layer);
  }
  if (settings.scopeMappings !== undefined) {
    layers.push(overridesLayer(settings.file, settings.scopeMappings, settings.lineOf));
  }
  const excluded: { path: string; origin: Origin }[] =
    settings.excludedRoutePaths === null
      ? DEFAULT_EXCLUDED_ROUTE_PATHS.map((path) => ({
          path,
          origin: { file: 'SPEC.md §4.4 (built-in)', key: '' },
        }))
      : settings.excludedRoutePaths.map((path, i) => ({
          path,
          origin: {
            file: settings.file,
            key: `auth.excluded_route_paths[${i}]`,
            line: settings.lineOf(['auth', 'excluded_route_paths', i]),
          },
        }));
  const compiled = compilePolicy({
    layers,
    adminScope: settings.adminScope,
    a2aPrefix: settings.a2aPrefix,
    unmappedRoutes: settings.unmappedRoutes,
    excluded,
  });
  problems.push(...compiled.problems);
  return { compiled, problems, policyFiles };
}

/** Reads and compiles the policy of a loaded config, collecting every problem. */
export function assemblePolicy(loaded: LoadedConfig): AssembleResult {
  const { config } = loaded;
  const { compiled, problems, policyFiles } = compileSettings({
    file: loaded.file,
    dir: loaded.dir,
    lineOf: (path) => loaded.lineOf(path),
    policies: config.policies ?? null,
    scopeMappings: config.auth.scope_mappings,
    excludedRoutePaths: config.auth.excluded_route_paths,
    adminScope: config.auth.admin_scope,
    a2aPrefix: config.a2a.prefix,
    unmappedRoutes: config.auth.unmapped_routes,
  });
  const state: DecisionState | null =
    problems.length === 0 && compiled.policy !== null
      ? Object.freeze({
          policy: compiled.policy,
          rbacEnabled: authorizationEnabled(config),
          grantsOf: createGrantsCache(config.auth.admin_scope),
        })
      : null;
  return {
    state,
    compiled,
    problems,
    warnings: compiled.warnings,
    notes: compiled.notes,
    policyFiles,
  };
}

/**
 * Best-effort policy problems of a config that failed validation: every policy-related value
 * that has the right shape is used, anything else falls back to its default. Lets `check` list
 * a malformed pattern in the same run as an unknown key.
 */
export function draftPolicyProblems(draft: ConfigDraft): readonly Problem[] {
  const tree = asRecord(draft.tree);
  const auth = asRecord(tree.auth);
  const a2a = asRecord(tree.a2a);
  const strings = (v: unknown): string[] | null =>
    Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null;
  const prefix = typeof a2a.prefix === 'string' ? a2a.prefix : '/a2a';
  const mappings = auth.scope_mappings;
  return compileSettings({
    file: draft.file,
    dir: draft.dir,
    lineOf: (path) => draft.lineOf(path),
    policies: strings(tree.policies),
    scopeMappings:
      typeof mappings === 'object' && mappings !== null && !Array.isArray(mappings)
        ? (mappings as Record<string, unknown>)
        : undefined,
    excludedRoutePaths: strings(auth.excluded_route_paths),
    adminScope: typeof auth.admin_scope === 'string' ? auth.admin_scope : DEFAULT_ADMIN_SCOPE,
    // A malformed prefix is the config's own problem; patterns are then checked under the default.
    a2aPrefix: /^(\/[^/\s]+)+$/.test(prefix) ? prefix : '/a2a',
    unmappedRoutes: 'allow',
  }).problems;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
