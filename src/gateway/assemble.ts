/**
 * Builds the frozen state a gateway serves from: loads the policy files a config names, compiles
 * them with its overrides, and fixes the authorization settings. Used by `serve`, `check`,
 * `explain` and `test-policies` alike. Never serves a request.
 */
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
import { packageRoot } from '../shared/package-root.js';
import type { Problem } from '../shared/problem.js';
import type { DecisionState } from './pipeline.js';
import { createGrantsCache } from './stages/authorize.js';

/** The result of assembling: the state, or the problems that prevent it. */
export interface AssembleResult {
  readonly state: DecisionState | null;
  readonly compiled: CompileResult | null;
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  readonly notes: readonly Problem[];
  /** The policy files used, in merge order. */
  readonly policyFiles: readonly PolicyFileRef[];
}

/** The policy files a config names (config-relative), or the shipped ones when it names none. */
export function policyFilesOf(loaded: LoadedConfig): PolicyFileRef[] {
  const named = loaded.config.policies;
  if (named === null || named === undefined) return shippedPolicyFiles(packageRoot());
  return named.map((file) => ({ file, path: loaded.resolvePath(file) }));
}

/** Reads and compiles the policy of a loaded config, collecting every problem. */
export function assemblePolicy(loaded: LoadedConfig): AssembleResult {
  const { config } = loaded;
  const policyFiles = policyFilesOf(loaded);
  const problems: Problem[] = [];
  const layers: PolicyLayer[] = [];
  for (const ref of policyFiles) {
    const read = readPolicyFile(ref);
    problems.push(...read.problems);
    if (read.layer) layers.push(read.layer);
  }
  if (config.auth.scope_mappings !== undefined) {
    layers.push(
      overridesLayer(loaded.file, config.auth.scope_mappings, (path) => loaded.lineOf(path)),
    );
  }
  const excluded: { path: string; origin: Origin }[] =
    config.auth.excluded_route_paths === null
      ? DEFAULT_EXCLUDED_ROUTE_PATHS.map((path) => ({
          path,
          origin: { file: 'SPEC.md §4.4 (built-in)', key: '' },
        }))
      : config.auth.excluded_route_paths.map((path, i) => ({
          path,
          origin: {
            file: loaded.file,
            key: `auth.excluded_route_paths[${i}]`,
            line: loaded.lineOf(['auth', 'excluded_route_paths', i]),
          },
        }));
  const compiled = compilePolicy({
    layers,
    adminScope: config.auth.admin_scope,
    a2aPrefix: config.a2a.prefix,
    unmappedRoutes: config.auth.unmapped_routes,
    excluded,
  });
  problems.push(...compiled.problems);
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
