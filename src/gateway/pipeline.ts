/**
 * The only place that orders the request stages: normalize → exempt → authenticate → authorize
 * → (the gateway's own `/service-accounts` API, or) inject-identity → forward, with record
 * started first and run when the response closes, whatever happened. `evaluateRequest`
 * runs the decision stages with no socket, so the server, `scopegate explain` and
 * `scopegate test-policies` share one decision path. Stages return verdicts; this module threads
 * them and hands refusals and replies to respond.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthChain } from '../auth/chain.js';
import type { Principal } from '../auth/principal.js';
import type { CompiledPolicy } from '../policy/compile.js';
import type { Decision } from '../policy/decide.js';
import type { Grants } from '../policy/scopes.js';
import { createRequestContext } from './context.js';
import type { IdentityCache, IdentitySettings } from './identity.js';
import { readBoundedBody } from './body.js';
import {
  reject,
  describeRefusal,
  MAX_SERVICE_ACCOUNT_BODY_BYTES,
  type Refusal,
  type Verdict,
} from './rejections.js';
import { writeRefusal, writeReply } from './respond.js';
import {
  serveServiceAccounts,
  SERVICE_ACCOUNTS_SEGMENT,
  type ServiceAccountsApi,
} from './service-accounts-api.js';
import { authenticateRequest, type CredentialNames } from './stages/authenticate.js';
import { authorizeRequest } from './stages/authorize.js';
import { isExemptRoute } from './stages/exempt.js';
import { forwardRequest, type Upstream } from './stages/forward.js';
import { upstreamHeadersFor, type ForwardHeaderSettings } from './stages/inject-identity.js';
import { normalizePath, type NormalizedPath } from './stages/normalize.js';
import type { RequestRecorder, Telemetry } from './stages/record.js';

/** What the decision stages need from the frozen gateway state. */
export interface DecisionState {
  readonly policy: CompiledPolicy;
  readonly rbacEnabled: boolean;
  readonly grantsOf: (principal: Principal) => Grants;
}

/** Everything a live request needs: one frozen object, swapped whole on reload. */
export interface GatewayState extends DecisionState {
  readonly chain: AuthChain;
  readonly credentialNames: CredentialNames;
  readonly identity: IdentitySettings;
  /** Encoded identities, cached per principal and route. */
  readonly identities: IdentityCache;
  readonly forwardHeaders: ForwardHeaderSettings;
  readonly upstream: Upstream;
  /**
   * The service-account API and its store, when `auth.service_accounts.enabled`; `null` leaves
   * `/service-accounts` to the upstream like any other route (still always scope-checked).
   */
  readonly serviceAccounts: ServiceAccountsApi | null;
  /** Metrics and logger of the gateway instance: the same object in every state it serves. */
  readonly telemetry: Telemetry;
  /** Records each request (metrics, access log) once, when its response closes. */
  readonly recorder: RequestRecorder;
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

type Authenticate<R> = () => R;

/**
 * Runs the decision stages. `authenticate` is the credential stage: it is only called for a
 * request that is not exempt, after the path was found well-formed. When it answers
 * synchronously, so does this function.
 */
export function evaluateRequest(
  state: DecisionState,
  method: string,
  target: string,
  authenticate: Authenticate<Verdict<Principal>>,
): Evaluation;
export function evaluateRequest(
  state: DecisionState,
  method: string,
  target: string,
  authenticate: Authenticate<Verdict<Principal> | Promise<Verdict<Principal>>>,
): Evaluation | Promise<Evaluation>;
export function evaluateRequest(
  state: DecisionState,
  method: string,
  target: string,
  authenticate: Authenticate<Verdict<Principal> | Promise<Verdict<Principal>>>,
): Evaluation | Promise<Evaluation> {
  const normalized = normalizePath(target);
  if (!normalized.ok) return refused(normalized, null, null, null);
  // `/service-accounts` is never exempt: minting and revoking tokens always needs a caller
  // with the right scopes, whatever excluded_route_paths says (CONTRACT.md §9.16).
  if (
    normalized.value.segments[0] !== SERVICE_ACCOUNTS_SEGMENT &&
    isExemptRoute(state.policy, normalized.value.segments)
  ) {
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
  return auth instanceof Promise
    ? auth.then((verdict) => authorized(state, method, normalized.value, verdict))
    : authorized(state, method, normalized.value, auth);
}

function authorized(
  state: DecisionState,
  method: string,
  normalized: NormalizedPath,
  auth: Verdict<Principal>,
): Evaluation {
  if (!auth.ok) return refused(auth, normalized, null, null);
  // Anonymous callers never reach the service-account API, even with allow_anonymous (§9.25).
  if (auth.value.type === 'anonymous' && normalized.segments[0] === SERVICE_ACCOUNTS_SEGMENT) {
    return refused(reject('SG_ERR_SA_ANONYMOUS'), normalized, auth.value, null);
  }
  const decision = authorizeRequest(state, state.grantsOf, method, normalized.segments, auth.value);
  if (!decision.allow) {
    const refusal =
      decision.reason === 'route_unmapped'
        ? reject('SG_ERR_ROUTE_UNMAPPED', { route: `${method} ${normalized.path}` })
        : reject('SG_ERR_SCOPE_INSUFFICIENT', { scopes: decision.required.map((r) => r.raw) });
    return refused(refusal, normalized, auth.value, decision);
  }
  return { status: 200, refusal: null, normalized, exempt: false, principal: auth.value, decision };
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

/**
 * Serves one live request with the state current when it arrived: decide, then either refuse or
 * forward exactly the path that was authorized, with the verified identity.
 */
export async function handleRequest(
  state: GatewayState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const context = createRequestContext(req);
  const record = state.recorder.begin(req, res, context.requestId);
  const responseHeaders = { 'x-request-id': context.requestId };
  // A request parsed by node:http always has a method and a URL.
  const method = req.method as string;
  const pending = evaluateRequest(state, method, req.url as string, () =>
    authenticateRequest(state.chain, state.credentialNames, {
      headers: req.headers,
      clientAddress: context.clientAddress,
    }),
  );
  const evaluation = pending instanceof Promise ? await pending : pending;
  record.evaluation = evaluation;
  if (evaluation.refusal !== null) {
    writeRefusal(res, evaluation.refusal, responseHeaders);
    return;
  }
  const normalized = evaluation.normalized as NormalizedPath;
  if (state.serviceAccounts !== null && normalized.segments[0] === SERVICE_ACCOUNTS_SEGMENT) {
    const principal = evaluation.principal as Principal;
    const outcome = await serveServiceAccounts(state.serviceAccounts, {
      method,
      segments: normalized.segments,
      query: normalized.query,
      caller: principal,
      grants: state.grantsOf(principal),
      readBody: () => readBoundedBody(req, MAX_SERVICE_ACCOUNT_BODY_BYTES),
    });
    if (outcome === null) return;
    if (outcome.ok) writeReply(res, outcome.value, responseHeaders);
    else writeRefusal(res, outcome, responseHeaders);
    return;
  }
  const identity =
    evaluation.decision === null
      ? state.identities.anonymous
      : state.identities.forDecision(
          evaluation.principal as Principal,
          state.grantsOf(evaluation.principal as Principal),
          evaluation.decision,
        );
  const headers = upstreamHeadersFor(req.headers, identity, context, state.forwardHeaders);
  const outcome = await forwardRequest(
    state.upstream,
    req,
    res,
    normalized.path + normalized.query,
    headers,
    responseHeaders,
    record,
  );
  if (!outcome.ok && outcome.code !== null)
    writeRefusal(res, reject(outcome.code), responseHeaders);
}
