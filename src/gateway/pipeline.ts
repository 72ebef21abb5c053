/**
 * The only place that orders the request stages: normalize → preflight → exempt → authenticate
 * → authorize → (the gateway's own `/service-accounts` API, or) the A2A method check or
 * dispatch → inject-identity →
 * admit → forward, with record and the body watch started first, and record run when the
 * response closes, whatever happened. A protocol upgrade (WebSocket) takes the same decision
 * stages, then is tunnelled.
 * `evaluateRequest` runs the decision stages with no socket, so the server, `scopegate explain`
 * and `scopegate test-policies` share one decision path. Stages return verdicts; this module
 * threads them and hands refusals and replies to respond.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { finished, type Duplex } from 'node:stream';
import type { AuthChain } from '../auth/chain.js';
import type { Principal } from '../auth/principal.js';
import type { CompiledPolicy } from '../policy/compile.js';
import type { Decision } from '../policy/decide.js';
import type { Grants } from '../policy/scopes.js';
import { createRequestContext, type RequestContext } from './context.js';
import { responseHeadersOf, type CorsPolicy } from './cors.js';
import type { EncodedIdentity, IdentityCache, IdentitySettings } from './identity.js';
import { readBoundedBody } from './body.js';
import { watchBody, type BodyTimeouts } from './body-watch.js';
import {
  reject,
  describeRefusal,
  MAX_SERVICE_ACCOUNT_BODY_BYTES,
  type Refusal,
  type Verdict,
} from './rejections.js';
import { writeRefusal, writeRefusalToSocket, writeReply } from './respond.js';
import type { ServiceAccountsApi } from './service-accounts/accounts.js';
import { serveServiceAccounts, SERVICE_ACCOUNTS_SEGMENT } from './service-accounts/routes.js';
import {
  admitCaller,
  admitRequest,
  callerKeyOf,
  releaseAdmission,
  releaseCallerAdmission,
  type Admission,
  type AdmissionLimits,
} from './stages/admit.js';
import { authenticateRequest, type CredentialNames } from './stages/authenticate.js';
import {
  a2aRouteOf,
  checkA2aCall,
  decideA2aCall,
  type A2aCall,
  type A2aRoute,
} from './stages/a2a-method.js';
import { authorizeRequest, scopesEnforced } from './stages/authorize.js';
import { checkDispatch, isDispatchRoute, type DispatchSettings } from './stages/dispatch.js';
import { isExemptRoute } from './stages/exempt.js';
import { forwardRequest, type ForwardOutcome, type Upstream } from './stages/forward.js';
import { forwardUpgrade } from './stages/forward-upgrade.js';
import type { IdentityKeyRing } from './identity-token/keys.js';
import { upstreamHeadersFor, type ForwardHeaderSettings } from './stages/inject-identity.js';
import { normalizePath, type NormalizedPath } from './stages/normalize.js';
import { answerPreflight, isPreflight } from './stages/preflight.js';
import type { RequestRecorder, Telemetry } from './stages/record.js';
import type { RequestTrace } from './tracing.js';
import type { TrustedProxies } from './trusted-proxies.js';

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
  /**
   * The identity-token keys (`upstream.identity_token`), the same ring in every state of a
   * gateway instance; null when off. The admin listener publishes its JWK Set.
   */
  readonly identityKeys?: IdentityKeyRing | null | undefined;
  /** `listen.trusted_proxies`, compiled (null when empty). */
  readonly trustedProxies: TrustedProxies;
  readonly upstream: Upstream;
  /**
   * The service-account API and its store, when `auth.service_accounts.enabled`; `null` leaves
   * `/service-accounts` to the upstream like any other route (still always scope-checked).
   */
  readonly serviceAccounts: ServiceAccountsApi | null;
  /** `cors.allowed_origins`, compiled. */
  readonly cors: CorsPolicy;
  /** Dynamic A2A dispatch: the route, the body bound and the upstream catalogue. */
  readonly dispatch: DispatchSettings;
  /** Metrics and logger of the gateway instance: the same object in every state it serves. */
  readonly telemetry: Telemetry;
  /** Records each request (metrics, access log) once, when its response closes. */
  readonly recorder: RequestRecorder;
  /** Limits that keep one caller from exhausting what every caller shares. */
  readonly limits: GatewayLimits;
}

/** The limits of one config, read per request (a reload changes them for later requests). */
export interface GatewayLimits {
  /** `listen.body_idle_timeout_ms` and `listen.body_timeout_ms`. */
  readonly body: BodyTimeouts;
  /** `upstream.max_in_flight_per_principal` and `upstream.queue_timeout_ms`. */
  readonly admission: AdmissionLimits;
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
  /**
   * An A2A JSON-RPC call whose body is still to be read and decided (live requests only):
   * the path's decision above is then provisional.
   */
  readonly a2aPending: A2aRoute | null;
  /** The A2A method label once the body was decided (a known name or `invalid`), else null. */
  readonly a2aMethod: string | null;
}

/**
 * The body of a request, for the stages that read one: `undefined` while it is unread (a live
 * request: the pipeline reads it after authentication), `null` when there is none to give
 * (`explain` and `test-policies` without one: an empty body where a body must be read).
 */
export type GivenBody = Buffer | null | undefined;

const EMPTY_BODY = Buffer.alloc(0);

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
  body?: GivenBody,
): Evaluation;
export function evaluateRequest(
  state: DecisionState,
  method: string,
  target: string,
  authenticate: Authenticate<Verdict<Principal> | Promise<Verdict<Principal>>>,
  body?: GivenBody,
): Evaluation | Promise<Evaluation>;
export function evaluateRequest(
  state: DecisionState,
  method: string,
  target: string,
  authenticate: Authenticate<Verdict<Principal> | Promise<Verdict<Principal>>>,
  body?: GivenBody,
): Evaluation | Promise<Evaluation> {
  const normalized = normalizePath(target);
  if (!normalized.ok) return refused(normalized, null, null, null);
  // `/service-accounts` is never exempt: minting and revoking tokens always needs a caller
  // with the right scopes, whatever excluded_route_paths says.
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
      a2aPending: null,
      a2aMethod: null,
    };
  }
  const auth = authenticate();
  return auth instanceof Promise
    ? auth.then((verdict) => authorized(state, method, normalized.value, verdict, body))
    : authorized(state, method, normalized.value, auth, body);
}

function authorized(
  state: DecisionState,
  method: string,
  normalized: NormalizedPath,
  auth: Verdict<Principal>,
  body: GivenBody,
): Evaluation {
  if (!auth.ok) return refused(auth, normalized, null, null);
  // Anonymous callers never reach the service-account API, even with allow_anonymous.
  if (auth.value.type === 'anonymous' && normalized.segments[0] === SERVICE_ACCOUNTS_SEGMENT) {
    return refused(reject('SG_ERR_SA_ANONYMOUS'), normalized, auth.value, null);
  }
  const decision = authorizeRequest(state, state.grantsOf, method, normalized.segments, auth.value);
  // An A2A JSON-RPC call, where scopes are checked for this caller (with RBAC off for JWT callers
  // nothing is authorized, so the body is streamed on untouched like any other).
  const a2a =
    state.policy.agentFamilies && scopesEnforced(state.rbacEnabled, auth.value)
      ? a2aRouteOf(state.policy.a2aPrefix, method, normalized.segments)
      : null;
  // On the JSON-RPC endpoint the body's method decides, whatever the path alone would require;
  // a per-operation path must pass its own mapping before its body is read.
  if (a2a !== null && (a2a.operation === null || decision.allow)) {
    if (body === undefined) {
      return {
        status: 200,
        refusal: null,
        normalized,
        exempt: false,
        principal: auth.value,
        decision,
        a2aPending: a2a,
        a2aMethod: null,
      };
    }
    // Without a body given, a per-operation path is decided by its path alone.
    if (body !== null || a2a.operation === null) {
      const call = decideA2aCall(a2a, body ?? EMPTY_BODY, decision, state.grantsOf(auth.value));
      return withA2aCall(allowed(normalized, auth.value, decision), call);
    }
  }
  if (!decision.allow) {
    const refusal =
      decision.reason === 'route_unmapped'
        ? reject('SG_ERR_ROUTE_UNMAPPED', { route: `${method} ${normalized.path}` })
        : reject('SG_ERR_SCOPE_INSUFFICIENT', { scopes: decision.required.map((r) => r.raw) });
    return refused(refusal, normalized, auth.value, decision);
  }
  return allowed(normalized, auth.value, decision);
}

function allowed(normalized: NormalizedPath, principal: Principal, decision: Decision): Evaluation {
  return {
    status: 200,
    refusal: null,
    normalized,
    exempt: false,
    principal,
    decision,
    a2aPending: null,
    a2aMethod: null,
  };
}

/** The evaluation once an A2A call's body was decided. */
function withA2aCall(evaluation: Evaluation, call: A2aCall): Evaluation {
  return {
    ...evaluation,
    status: call.refusal === null ? 200 : describeRefusal(call.refusal).status,
    refusal: call.refusal,
    decision: call.decision,
    a2aPending: null,
    a2aMethod: call.method,
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
    a2aPending: null,
    a2aMethod: null,
  };
}

/**
 * The decision stages for a live request: its credential comes from its own headers. With a
 * `trace`, the times authentication started and ended are noted on it.
 */
function evaluateLive(
  state: GatewayState,
  req: IncomingMessage,
  method: string,
  context: RequestContext,
  trace: RequestTrace | null = null,
): Evaluation | Promise<Evaluation> {
  const authenticate = (): Verdict<Principal> | Promise<Verdict<Principal>> =>
    authenticateRequest(state.chain, state.credentialNames, {
      headers: req.headers,
      clientAddress: context.clientAddress,
    });
  if (trace === null) return evaluateRequest(state, method, req.url as string, authenticate);
  return evaluateRequest(state, method, req.url as string, () => {
    trace.authStartedAt = performance.now();
    const verdict = authenticate();
    if (!(verdict instanceof Promise)) trace.authEndedAt = performance.now();
    return verdict instanceof Promise
      ? verdict.then((settled) => {
          trace.authEndedAt = performance.now();
          return settled;
        })
      : verdict;
  });
}

/** The identity the upstream receives for an allowed evaluation (anonymous when exempt). */
function identityOf(
  state: GatewayState,
  principal: Principal | null,
  decision: Decision | null,
): EncodedIdentity {
  return decision === null
    ? state.identities.anonymous
    : state.identities.forDecision(
        principal as Principal,
        state.grantsOf(principal as Principal),
        decision,
      );
}

/**
 * Serves one live request with the state current when it arrived: decide, then either refuse or
 * forward exactly the path that was authorized, with the verified identity. Every response to
 * an allowed CORS origin carries the CORS headers, refusals included.
 */
export async function handleRequest(
  state: GatewayState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const context = createRequestContext(req, state.trustedProxies);
  const record = state.recorder.begin(req, res, context);
  // Null, and free, for a request without a body.
  const watch = watchBody(req, res, state.limits.body);
  const responseHeaders = responseHeadersOf(state.cors, req.headers.origin, context.requestId);
  // A request parsed by node:http always has a method and a URL.
  const method = req.method as string;
  if (isPreflight(method, req.headers)) {
    // After normalize (a malformed path is 400 for every caller), before anything else: the
    // preflight carries no credential, on excluded routes too, and never reaches the upstream.
    const normalized = normalizePath(req.url as string);
    const answer = normalized.ok ? answerPreflight(state.cors, req.headers) : normalized;
    if (answer.ok) writeReply(res, answer.value, responseHeaders);
    else writeRefusal(res, answer, responseHeaders);
    return;
  }
  const pending = evaluateLive(state, req, method, context, record.trace);
  const evaluation = pending instanceof Promise ? await pending : pending;
  record.evaluation = evaluation;
  // Authorization follows an authenticated caller at once (an exempt route, or a credential
  // refused, has none).
  if (record.trace !== null && evaluation.principal !== null)
    record.trace.decidedAt = performance.now();
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
      readBody: () => readBoundedBody(req, MAX_SERVICE_ACCOUNT_BODY_BYTES, watch),
    });
    if (outcome === null) return;
    if (outcome.ok) writeReply(res, outcome.value, responseHeaders);
    else writeRefusal(res, outcome, responseHeaders);
    return;
  }
  let decision = evaluation.decision;
  let body: Buffer | undefined;
  if (evaluation.a2aPending !== null) {
    const principal = evaluation.principal as Principal;
    const call = await checkA2aCall(state.dispatch.maxBodyBytes, {
      headers: req.headers,
      route: evaluation.a2aPending,
      decision: decision as Decision,
      grants: state.grantsOf(principal),
      readBody: (maxBytes) => readBoundedBody(req, maxBytes, watch),
    });
    if (call === null) return;
    const decided = withA2aCall(evaluation, call);
    record.evaluation = decided;
    if (decided.refusal !== null) {
      writeRefusal(res, decided.refusal, responseHeaders);
      return;
    }
    ({ body, decision } = call);
  }
  // Dynamic dispatch, where scopes are checked for this caller (with RBAC off for JWT callers
  // nothing is authorized, so the body is streamed on untouched like any other).
  if (
    decision !== null &&
    state.policy.agentFamilies &&
    isDispatchRoute(state.dispatch, method, normalized.segments) &&
    scopesEnforced(state.rbacEnabled, evaluation.principal as Principal)
  ) {
    const checked = await checkDispatch(state.dispatch, {
      headers: req.headers,
      agentIdHeaders: req.headersDistinct['x-agent-id'],
      decision,
      grants: state.grantsOf(evaluation.principal as Principal),
      readBody: (maxBytes) => readBoundedBody(req, maxBytes, watch),
    });
    if (checked === null) return;
    if (!checked.ok) {
      writeRefusal(res, checked, responseHeaders);
      return;
    }
    ({ body, decision } = checked.value);
  }
  const identity = identityOf(state, evaluation.principal, decision);
  const headers = upstreamHeadersFor(req.headers, identity, context, state.forwardHeaders);
  // The upstream continues the gateway's trace, not the caller's span.
  if (record.trace !== null) Object.assign(headers, record.trace.upstreamHeaders());
  const { upstream } = state;
  const caller = callerKeyOf(evaluation.principal, context.clientAddress);
  const pendingAdmission = admitRequest(upstream, state.limits.admission, caller, res, watch);
  const admitted = pendingAdmission instanceof Promise ? await pendingAdmission : pendingAdmission;
  if (admitted === null) return;
  if (!admitted.ok) {
    writeRefusal(res, admitted, responseHeaders);
    return;
  }
  let outcome: ForwardOutcome;
  try {
    outcome = await forwardRequest(
      upstream,
      req,
      res,
      normalized.path + normalized.query,
      headers,
      responseHeaders,
      body,
      record,
      watch,
    );
  } finally {
    // The exchange has ended (answered, failed, or its client gone): a stream held its slot and
    // its caller's count for its whole life.
    releaseAdmission(upstream, admitted.value);
  }
  if (!outcome.ok && outcome.code !== null)
    writeRefusal(res, reject(outcome.code), responseHeaders);
}

/**
 * Serves one protocol upgrade (WebSocket): the same decision stages and identity headers as any
 * request, then the tunnel. A refusal is written on the socket as an ordinary HTTP response and
 * the socket closed: a refused upgrade never sees a `101`.
 */
export async function handleUpgrade(
  state: GatewayState,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  // A client that resets the connection mid-decision must not take the process down.
  socket.on('error', ignore);
  const context = createRequestContext(req, state.trustedProxies);
  const responseHeaders = responseHeadersOf(state.cors, req.headers.origin, context.requestId);
  const method = req.method as string;
  // Upgrades are rare: one microtask more when the decision was synchronous costs nothing here.
  const evaluation = await evaluateLive(state, req, method, context);
  if (evaluation.refusal !== null) {
    writeRefusalToSocket(socket, evaluation.refusal, responseHeaders);
    return;
  }
  const normalized = evaluation.normalized as NormalizedPath;
  // Only GET switches protocols (RFC 6455), and the gateway's own API is never tunnelled.
  if (
    method !== 'GET' ||
    (state.serviceAccounts !== null && normalized.segments[0] === SERVICE_ACCOUNTS_SEGMENT)
  ) {
    writeRefusalToSocket(socket, reject('SG_ERR_UPGRADE_REFUSED'), responseHeaders);
    return;
  }
  const identity = identityOf(state, evaluation.principal, evaluation.decision);
  const headers = upstreamHeadersFor(req.headers, identity, context, state.forwardHeaders);
  const { upstream } = state;
  // A tunnel opens its own upstream connection (outside the pool), so it takes no pool slot, but
  // it counts against its caller for as long as it is open.
  const admitted = admitCaller(
    upstream,
    state.limits.admission,
    callerKeyOf(evaluation.principal, context.clientAddress),
  );
  if (!admitted.ok) {
    writeRefusalToSocket(socket, admitted, responseHeaders);
    return;
  }
  const outcome = await forwardUpgrade(
    upstream,
    req,
    socket,
    head,
    normalized.path + normalized.query,
    headers,
    responseHeaders,
  );
  releaseWhenClosed(upstream, admitted.value, outcome.ok ? socket : null);
  if (!outcome.ok && outcome.code !== null)
    writeRefusalToSocket(socket, reject(outcome.code), responseHeaders);
}

/**
 * Releases an upgrade's admission when its connection closes (a tunnel, or the upstream's
 * refusal relayed), or at once when nothing was opened upstream.
 */
function releaseWhenClosed(upstream: Upstream, admission: Admission, socket: Duplex | null): void {
  if (socket === null) releaseCallerAdmission(upstream, admission);
  // `finished` also calls back for a socket that closed already.
  else finished(socket, () => releaseCallerAdmission(upstream, admission));
}

function ignore(): void {}
