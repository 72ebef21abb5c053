/**
 * The only place that orders the request stages. `evaluateRequest` runs normalize → exempt →
 * authenticate → authorize with no socket, so the server, `scopegate explain` and
 * `scopegate test-policies` share one decision path. Never writes responses itself.
 */
import type { Principal } from '../auth/principal.js';
import type { CompiledPolicy } from '../policy/compile.js';
import type { Decision } from '../policy/decide.js';
import type { Grants } from '../policy/scopes.js';
import { describeRefusal, reject, type Refusal, type Verdict } from './rejections.js';
import { authorizeRequest } from './stages/authorize.js';
import { isExemptRoute } from './stages/exempt.js';
import { normalizePath, type NormalizedPath } from './stages/normalize.js';

/** What the decision stages need from the frozen gateway state. */
export interface DecisionState {
  readonly policy: CompiledPolicy;
  readonly rbacEnabled: boolean;
  readonly grantsOf: (principal: Principal) => Grants;
}

/** The outcome of the decision stages for one request. */
export interface Evaluation {
  /** 200 when the request would be forwarded, else the refusal's status. */
  readonly status: number;
  readonly refusal: Refusal | null;
  readonly normalized: NormalizedPath | null;
  readonly exempt: boolean;
  readonly principal: Principal | null;
  readonly decision: Decision | null;
}

/**
 * Runs the decision stages. `authenticate` is the credential stage: it is only called for a
 * request that is not exempt, after the path was found well-formed.
 */
export function evaluateRequest(
  state: DecisionState,
  method: string,
  target: string,
  authenticate: () => Verdict<Principal>,
): Evaluation {
  const normalized = normalizePath(target);
  if (!normalized.ok) return refused(normalized, null, null, null);
  const { segments } = normalized.value;
  if (isExemptRoute(state.policy, segments)) {
    return {
      status: 200,
      refusal: null,
      normalized: normalized.value,
      exempt: true,
      principal: null,
      decision: null,
    };
  }
  const auth = authenticate();
  if (!auth.ok) return refused(auth, normalized.value, null, null);
  const decision = authorizeRequest(state, state.grantsOf, method, segments, auth.value);
  if (!decision.allow) {
    const refusal =
      decision.reason === 'route_unmapped'
        ? reject('SG_ERR_ROUTE_UNMAPPED', { route: `${method} ${normalized.value.path}` })
        : reject('SG_ERR_SCOPE_INSUFFICIENT', { scopes: decision.required.map((r) => r.raw) });
    return refused(refusal, normalized.value, auth.value, decision);
  }
  return {
    status: 200,
    refusal: null,
    normalized: normalized.value,
    exempt: false,
    principal: auth.value,
    decision,
  };
}

function refused(
  refusal: Refusal,
  normalized: NormalizedPath | null,
  principal: Principal | null,
  decision: Decision | null,
): Evaluation {
  return {
    status: describeRefusal(refusal).status,
    refusal,
    normalized,
    exempt: false,
    principal,
    decision,
  };
}
