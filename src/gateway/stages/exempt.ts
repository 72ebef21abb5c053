/**
 * Stage: excluded routes (`excluded_route_paths`). An excluded path skips
 * authentication and authorization whatever the method; it never rejects.
 */
import { isExcluded } from '../../policy/decide.js';
import type { CompiledPolicy } from '../../policy/compile.js';

/** Whether the normalized path is exempt from authentication. */
export function isExemptRoute(policy: CompiledPolicy, segments: readonly string[]): boolean {
  return isExcluded(policy, segments);
}
