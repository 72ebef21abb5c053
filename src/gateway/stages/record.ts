/**
 * Stage: record. Runs exactly once for every request, when its response closes (refused,
 * answered by the gateway, forwarded, or cut off by the client): feeds the metrics and writes
 * the access-log line. Never writes to the response, and never logs a header, a token, a cookie,
 * a body or the query string.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayMetrics, PrincipalLabel, RequestDecision } from '../../admin/metrics.js';
import type { Principal } from '../../auth/principal.js';
import type { CompiledPolicy, ExcludedEntry } from '../../policy/compile.js';
import { lookupRoute, type Decision } from '../../policy/decide.js';
import { lineWriterOf, type Logger, type LogLevel } from '../../shared/log.js';
import { isLimitRefusal, REJECTIONS, type Refusal } from '../rejections.js';
import { writtenRefusalOf } from '../respond.js';
import type { ClientCert } from '../tls.js';
import { inboundTraceIdOf, type RequestTrace, type RequestTracer } from '../tracing.js';
import type { UpstreamTiming } from './forward.js';
import { normalizePath, type NormalizedPath } from './normalize.js';

/** The gateway instance's metrics, logger and tracer: built once, kept across config reloads. */
export interface Telemetry {
  readonly metrics: GatewayMetrics;
  /** The process logger, or null for none (access lines are then never built). */
  readonly log: Logger | null;
  /** `telemetry.tracing`: the request tracer; absent or null when tracing is off. */
  readonly tracer?: RequestTracer | null | undefined;
}

/** The `log:` settings of one config. */
export interface AccessLogSettings {
  readonly level: LogLevel;
  /** Whether to write one line per request. */
  readonly access: boolean;
}

/** What the decision stages found (pipeline.ts's `Evaluation` is one). */
export interface RecordedEvaluation {
  readonly refusal: Refusal | null;
  readonly normalized: NormalizedPath | null;
  readonly exempt: boolean;
  readonly principal: Principal | null;
  readonly decision: Decision | null;
  /** The A2A method label when the gateway read a JSON-RPC call's body (a known name or `invalid`). */
  readonly a2aMethod?: string | null;
}

/**
 * One request's facts, filled in by the pipeline as it goes and read once, when the response
 * closes. Holds no header, credential or body.
 */
export interface RequestRecord extends UpstreamTiming {
  readonly requestId: string;
  /** The client address (the socket's peer, or the one derived behind a trusted proxy). */
  readonly clientAddress: string;
  /** The client certificate the TLS handshake verified, or null. */
  readonly clientCert: ClientCert | null;
  /** The request's span when tracing is on, else null. */
  readonly trace: RequestTrace | null;
  /** The trace id the access log names: the span's, else a well-formed inbound traceparent's. */
  readonly traceId: string | null;
  readonly method: string;
  /** The request target as received: used only when the request never reached a decision. */
  readonly target: string;
  /** `performance.now()` when the request arrived. */
  readonly startedAt: number;
  /** The decision stages' outcome; null while (or if never) decided. */
  evaluation: RecordedEvaluation | null;
}

/** The facts of the request's connection a record keeps (a `RequestContext` is one). */
export type RecordedClient = Pick<RequestRecord, 'requestId' | 'clientAddress' | 'clientCert'>;

/** Starts the record of each request of one gateway state. */
export interface RequestRecorder {
  /**
   * Starts recording `req` (its id, client address and certificate from `client`); its metrics
   * and log line are written once, when `res` closes.
   */
  begin(req: IncomingMessage, res: ServerResponse, client: RecordedClient): RequestRecord;
}

/**
 * The status recorded when the client went away before any response was sent (nginx's
 * convention): no real status was ever chosen.
 */
export const CLIENT_CLOSED_STATUS = 499;

/** The `route` label and log field of a request that matched no pattern. */
export const UNMATCHED_ROUTE = 'unmatched';
/** The `route` of a request refused by path normalization (its path is not a path we match). */
export const INVALID_PATH_ROUTE = 'invalid_path';
/** The prefix of the `route` of an excluded route: `exempt:<excluded pattern>`. */
export const EXEMPT_ROUTE_PREFIX = 'exempt:';

/**
 * The `route` of a request: the matched pattern (`/agents/*`, never the raw path), or one of the
 * fixed words above, so the label set stays bounded by the loaded policies. A request refused
 * before authorization (401) is labelled with the pattern it would have matched.
 */
export function routeOf(
  policy: CompiledPolicy,
  method: string,
  evaluation: RecordedEvaluation | null,
  target: string,
): string {
  const matched = evaluation?.decision?.route;
  if (matched != null) return matched.pattern.canonical;
  let normalized: NormalizedPath | null;
  if (evaluation === null) {
    const result = normalizePath(target);
    normalized = result.ok ? result.value : null;
  } else normalized = evaluation.normalized;
  if (normalized === null) return INVALID_PATH_ROUTE;
  // Only an evaluation knows whether the path was exempt (`/service-accounts` never is).
  if (evaluation?.exempt === true) {
    const excluded = policy.excluded.lookup(normalized.segments) as ExcludedEntry;
    return EXEMPT_ROUTE_PREFIX + excluded.pattern.canonical;
  }
  return lookupRoute(policy, method, normalized.segments)?.pattern.canonical ?? UNMATCHED_ROUTE;
}

/** The `principal` label of a request: its principal's kind, `__scheduler__`, or `none`. */
export function principalLabelOf(evaluation: RecordedEvaluation | null): PrincipalLabel {
  const principal = evaluation?.principal ?? null;
  if (principal === null) return 'none';
  return principal.type === 'internal' ? '__scheduler__' : principal.type;
}

/**
 * The `decision` label: what the gateway decided, whatever the upstream then answered. A request
 * the decision stages allowed but a limit then refused (`written`: 408, 429, 503) is a `deny`.
 */
export function decisionOf(
  evaluation: RecordedEvaluation | null,
  responded: boolean,
  written?: Refusal,
): RequestDecision {
  if (written !== undefined && isLimitRefusal(written)) return 'deny';
  if (evaluation === null) return responded ? 'deny' : 'abort';
  if (evaluation.refusal !== null) return 'deny';
  return evaluation.exempt ? 'exempt' : 'allow';
}

/** The reason an excluded route is recorded with. */
export const EXEMPT_REASON = 'excluded_route';

/**
 * The reason id of the outcome: the catalogue reason of the refusal written (a decision stage's,
 * the service-account API's or an upstream failure's), else why the request was allowed
 * (`scopes_satisfied`, `admin`, `listing_filtered`, … or `excluded_route`); null when undecided.
 */
export function reasonOf(
  written: Refusal | undefined,
  evaluation: RecordedEvaluation | null,
): string | null {
  const refusal = written ?? evaluation?.refusal ?? null;
  if (refusal !== null) return REJECTIONS[refusal.code].reason;
  if (evaluation === null) return null;
  return evaluation.exempt ? EXEMPT_REASON : (evaluation.decision?.reason ?? null);
}

/** One access-log line's fields (snake_case, as written). */
export interface AccessLogEntry {
  readonly req_id: string;
  /**
   * The client address: the socket's peer, or behind a trusted proxy the right-most address of
   * `X-Forwarded-For` that is not a trusted proxy.
   */
  readonly client_ip: string;
  readonly method: string;
  readonly route: string;
  /**
   * The path as forwarded, never the query string: queries carry `?access_token=`, signed URLs
   * and API keys often enough that logging them would leak credentials.
   */
  readonly path: string;
  readonly status: number;
  readonly decision: RequestDecision;
  readonly reason: string | null;
  readonly principal_type: string | null;
  readonly user_id: string | null;
  readonly latency_ms: number;
  /** Until the upstream's response headers; null when nothing was forwarded or it never answered. */
  readonly upstream_latency_ms: number | null;
  /** True when the response was cut off (client gone, or a failure mid-stream). */
  readonly aborted: boolean;
  /**
   * The A2A JSON-RPC method (a known name, or `invalid`), present only when the gateway read the
   * call's body to authorize it.
   */
  readonly a2a_method?: string;
  /** On a refusal for missing scopes only: the scopes the route (or method) required. */
  readonly required_scopes?: readonly string[];
  /** On a refusal for missing scopes only: the scopes the caller held. */
  readonly held_scopes?: readonly string[];
  /** Only over mutual TLS: the verified client certificate's subject. */
  readonly client_cert_subject?: string;
  /** Only over mutual TLS: the verified client certificate's SHA-256 fingerprint. */
  readonly client_cert_fingerprint256?: string;
  /** The W3C trace id: of the gateway's span when tracing is on, else the caller's traceparent's. */
  readonly trace_id?: string;
}

/** The most of a raw path an access-log line keeps (only paths that failed normalization). */
export const MAX_LOGGED_RAW_PATH = 1024;

/** The path field: the normalized path, else the raw target up to its query, bounded. */
export function loggedPathOf(evaluation: RecordedEvaluation | null, target: string): string {
  const normalized = evaluation?.normalized;
  if (normalized != null) return normalized.path;
  const query = target.indexOf('?');
  return (query === -1 ? target : target.slice(0, query)).slice(0, MAX_LOGGED_RAW_PATH);
}

/** What the response came to, read from it when it closed. */
export interface ResponseFacts {
  readonly status: number;
  readonly decision: RequestDecision;
  readonly route: string;
  readonly reason: string | null;
  readonly durationMs: number;
  readonly upstreamMs: number | null;
  readonly aborted: boolean;
}

/** Builds the access-log line of a request: identifiers and outcomes only, never a credential. */
export function accessLogEntryOf(record: RequestRecord, facts: ResponseFacts): AccessLogEntry {
  const principal = record.evaluation?.principal ?? null;
  const entry: AccessLogEntry = {
    req_id: record.requestId,
    client_ip: record.clientAddress,
    method: record.method,
    route: facts.route,
    path: loggedPathOf(record.evaluation, record.target),
    status: facts.status,
    decision: facts.decision,
    reason: facts.reason,
    principal_type: principal?.type ?? null,
    user_id: principal?.userId ?? null,
    latency_ms: roundMs(facts.durationMs),
    upstream_latency_ms: facts.upstreamMs === null ? null : roundMs(facts.upstreamMs),
    aborted: facts.aborted,
  };
  const a2aMethod = record.evaluation?.a2aMethod ?? null;
  const cert = record.clientCert;
  const withCert =
    cert === null
      ? entry
      : {
          ...entry,
          client_cert_subject: cert.subject,
          client_cert_fingerprint256: cert.fingerprint256,
        };
  const withTrace = record.traceId === null ? withCert : { ...withCert, trace_id: record.traceId };
  const withMethod = a2aMethod === null ? withTrace : { ...withTrace, a2a_method: a2aMethod };
  // Why a caller was refused is the first question a deny raises: what was needed, what it had.
  const refusal = record.evaluation?.refusal ?? null;
  if (refusal?.code !== 'SG_ERR_SCOPE_INSUFFICIENT') return withMethod;
  // That refusal always names the scopes, and only comes once a principal was authenticated.
  const { scopes } = refusal.params as { readonly scopes: readonly string[] };
  return { ...withMethod, required_scopes: scopes, held_scopes: (principal as Principal).scopes };
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** The access log of one config: the process logger at `log.level`, or null when off. */
export function accessLogOf(log: Logger | null, settings: AccessLogSettings): Logger | null {
  return log !== null && settings.access ? log.child({}, { level: settings.level }) : null;
}

/**
 * Builds the recorder of one gateway state. `log` is the access log ({@link accessLogOf}); 4xx
 * lines are written at `info` and 5xx at `error`, so a deny is one `info` line with
 * its reason and route pattern.
 */
export function createRequestRecorder(
  policy: CompiledPolicy,
  metrics: GatewayMetrics,
  log: Logger | null,
  tracer: RequestTracer | null = null,
): RequestRecorder {
  // Lines bypass pino's serializer: the entry's fields are fixed and hold no credential.
  const access = log === null ? null : { log, writeLine: lineWriterOf(log) };
  const finish = (record: RequestRecord, res: ServerResponse): void => {
    const durationMs = performance.now() - record.startedAt;
    const responded = res.headersSent;
    const { evaluation } = record;
    const status = responded ? res.statusCode : CLIENT_CLOSED_STATUS;
    const written = writtenRefusalOf(res);
    const decision = decisionOf(evaluation, responded, written);
    const route = routeOf(policy, record.method, evaluation, record.target);
    const upstreamMs = record.answeredAt - record.sentAt;
    const upstream = Number.isNaN(upstreamMs) ? null : upstreamMs;
    metrics.observeRequest({
      method: record.method,
      route,
      status,
      decision,
      durationSeconds: durationMs / 1000,
      upstreamSeconds: upstream === null ? null : upstream / 1000,
    });
    metrics.countRequestByPrincipal(principalLabelOf(evaluation), route, status);
    const a2aMethod = evaluation?.a2aMethod ?? null;
    if (a2aMethod !== null) metrics.countA2aCall(a2aMethod, status, decision);
    // Refused by the authenticate stage (or as an anonymous caller of /service-accounts): the
    // path was fine and no authorization decision was reached.
    if (
      evaluation !== null &&
      evaluation.refusal !== null &&
      evaluation.normalized !== null &&
      evaluation.decision === null
    ) {
      metrics.countAuthFailure(REJECTIONS[evaluation.refusal.code].reason);
    }
    const reason = reasonOf(written, evaluation);
    record.trace?.end({
      method: record.method,
      route,
      status,
      decision,
      reason: reason ?? 'none',
      principalType: evaluation?.principal?.type ?? null,
      userId: evaluation?.principal?.userId ?? null,
      requiredScopes: evaluation?.decision?.required.map((r) => r.raw) ?? [],
      aborted: !res.writableFinished,
    });
    // A refusal always has a reason; a deny without one is a CORS preflight the gateway answered.
    if (decision === 'deny' && reason !== null) metrics.countDenial(reason);
    if (access === null) return;
    const level = status >= 500 ? 'error' : 'info';
    if (!access.log.isLevelEnabled(level)) return;
    const entry = accessLogEntryOf(record, {
      status,
      decision,
      route,
      reason,
      durationMs,
      upstreamMs: upstream,
      aborted: !res.writableFinished,
    });
    access.writeLine(level, entry, entry.aborted ? 'request aborted' : 'request completed');
  };
  return {
    begin(req, res, client) {
      const startedAt = performance.now();
      const trace = tracer === null ? null : tracer.begin(req.headers, startedAt);
      const record: RequestRecord = {
        requestId: client.requestId,
        clientAddress: client.clientAddress,
        clientCert: client.clientCert,
        trace,
        traceId: trace === null ? inboundTraceIdOf(req.headers.traceparent) : trace.traceId,
        // node:http always sets both on a parsed request.
        method: req.method as string,
        target: req.url as string,
        startedAt,
        evaluation: null,
        sentAt: Number.NaN,
        answeredAt: Number.NaN,
      };
      // 'close' is emitted exactly once per response, whether it finished or was cut off.
      res.on('close', () => finish(record, res));
      return record;
    },
  };
}
