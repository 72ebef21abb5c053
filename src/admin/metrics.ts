/**
 * Every Prometheus metric the gateway exports, in one file, in an own Registry
 * per gateway instance (never prom-client's global one). Labels are fixed and bounded: `route`
 * is a matched pattern or a fixed word, never a raw path. Never creates a
 * metric after construction.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry, type Metric } from 'prom-client';
import { packageVersion } from '../shared/package-root.js';
import { cellCounter, cellHistogram } from './metric-cells.js';

/** What the gateway decided about a request (the `decision` label). */
export type RequestDecision =
  /** Authenticated and authorized: forwarded, or answered by the gateway's own API. */
  | 'allow'
  /** Refused by the gateway before the upstream saw it (400, 401, 403, 429, 503, …). */
  | 'deny'
  /** An excluded route: forwarded without authentication. */
  | 'exempt'
  /** The client went away before the gateway had decided. */
  | 'abort';

/**
 * The `principal` label: the kind of caller (`principal_type` of `x-auth-context`), except that the
 * internal service token is `__scheduler__` (its only user), and `none` when the request never
 * got as far as a principal. Bounded: never a user id.
 */
export type PrincipalLabel =
  'jwt' | 'service_account' | 'security_key' | 'anonymous' | '__scheduler__' | 'none';

/** The outcome of a config reload (the `result` label). */
export type ReloadResult = 'success' | 'error';

/** One finished request, as the record stage reports it. */
export interface RequestObservation {
  readonly method: string;
  /** The matched pattern, or a fixed word (`unmatched`, `invalid_path`, `exempt:<pattern>`). */
  readonly route: string;
  readonly status: number;
  readonly decision: RequestDecision;
  /** From the first byte of the request to the end (or the cut-off) of the response. */
  readonly durationSeconds: number;
  /** From sending to the upstream until its response headers; null when it never answered. */
  readonly upstreamSeconds: number | null;
}

/**
 * What the `scopegate_store_up` gauge reads at each scrape: the state serving now (a
 * `GatewayState` is one), whose service-account store is null when service accounts are off.
 * The `scopegate_jwks_*` gauges read its remote JWK set (`auth.jwks_url`) the same way.
 */
export interface StoreSubject {
  readonly serviceAccounts: {
    readonly store: { readonly available: boolean };
    /** The store's change feed: seconds since it was last read successfully (null: never). */
    readonly feed?: { lagSeconds(): number | null } | null | undefined;
  } | null;
  /** The authentication chain; its remote JWK set is null or absent without `auth.jwks_url`. */
  readonly chain?: { readonly remoteJwks?: JwksSubject | null | undefined } | undefined;
}

/** What the `scopegate_jwks_*` gauges read from a remote JWK set (a `RemoteJwks` is one). */
export interface JwksSubject {
  /** The keys held now: null before the first success and once older than max stale. */
  snapshot(): { readonly keys: readonly unknown[] } | null;
  /** When the last fetch succeeded (milliseconds since the epoch), or null. */
  lastSuccessMs(): number | null;
}

/** Which document a JWKS fetch read (the `document` label): the set, or the OpenID configuration. */
export type JwksDocumentLabel = 'jwks' | 'discovery';

/** The gateway's metrics: one instance per gateway, kept across config reloads. */
export interface GatewayMetrics {
  readonly registry: Registry;
  /** Counts and times one finished request. */
  observeRequest(observation: RequestObservation): void;
  /**
   * Counts one finished request by who made it (`principal`: a {@link PrincipalLabel}), its
   * route pattern and status.
   */
  countRequestByPrincipal(principal: PrincipalLabel, route: string, status: number): void;
  /** Counts one authentication failure by its catalogue reason id (`token_expired`, …). */
  countAuthFailure(reason: string): void;
  /**
   * Counts one request the gateway refused (`decision="deny"`), by the catalogue reason id of
   * the refusal (`insufficient_scope`, `route_unmapped`, `token_expired`, …).
   */
  countDenial(reason: string): void;
  /**
   * Counts one A2A JSON-RPC call whose body the gateway read, by `method`: a known A2A method
   * name (a fixed set) or `invalid` for a body refused before one was found, never caller input.
   */
  countA2aCall(method: string, status: number, decision: RequestDecision): void;
  /** The verified-JWT cache's hooks (`TokenCacheObserver` in auth/). */
  readonly tokenCache: { hit(): void; miss(): void };
  /** Counts one config reload, for the reload code to call. */
  countConfigReload(result: ReloadResult): void;
  /**
   * Counts one fetch of `auth.jwks_url`'s documents: the JWK set, or with `jwks_url: discover`
   * the issuer's OpenID configuration (`document="discovery"`), by result.
   */
  countJwksFetch(document: JwksDocumentLabel, result: 'success' | 'error'): void;
  /**
   * Sets where `scopegate_store_up{store}` reads from at each scrape (the slot's current state,
   * kept across reloads): `store="service_accounts"` is 1 while the service-account store is
   * available, 0 while it is not, and absent when service accounts are off or nothing is watched.
   * The same state's remote JWK set feeds `scopegate_jwks_keys` and
   * `scopegate_jwks_last_success_timestamp_seconds` (absent without `auth.jwks_url`).
   */
  watchStores(current: () => StoreSubject | null): void;
}

/** Options of {@link createGatewayMetrics}. */
export interface GatewayMetricsOptions {
  /**
   * Also collect prom-client's default process metrics (CPU, memory, event loop, GC) into the
   * registry. Their observers stay for the life of the process, so `serve` turns this on once;
   * tests that build many gateways leave it off.
   */
  readonly processMetrics?: boolean;
}

// Proxied calls are mostly milliseconds; runs stream for minutes (upstream.timeout_ms is 5 min).
const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300,
];

/**
 * How many label combinations the hot path keeps resolved. Every label is bounded (methods by
 * the HTTP parser and {@link methodLabel}, routes by the loaded policies, statuses by HTTP), so
 * this only guards against many reloads with many patterns: past it the lookup cache starts
 * over; the series themselves are kept.
 */
export const MAX_CACHED_LABEL_SETS = 4096;

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The `method` label: one of the methods a policy can name (and HEAD), else `OTHER`. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

/** A bounded map from a label key to a resolved child; starts over when full. */
function childCache<C>(resolve: (key: string) => C): (key: string) => C {
  const children = new Map<string, C>();
  return (key) => {
    let child = children.get(key);
    if (child === undefined) {
      if (children.size >= MAX_CACHED_LABEL_SETS) children.clear();
      child = resolve(key);
      children.set(key, child);
    }
    return child;
  };
}

/**
 * A gauge without labels read at each scrape, with no sample at all while `read` answers null
 * (prom-client's own unlabelled gauge always exports one, 0 after a reset): a gateway without
 * `auth.jwks_url` must not look as if its keys were fetched at the epoch.
 */
function optionalGauge(
  registry: Registry,
  name: string,
  help: string,
  read: () => number | null,
): void {
  const get = () => {
    const value = read();
    return {
      name,
      help,
      type: 'gauge',
      values: value === null ? [] : [{ labels: {}, value }],
      aggregator: 'omit',
    };
  };
  registry.registerMetric({ name, get, reset() {} } as unknown as Metric);
}

/** Builds the metrics in a new Registry. */
export function createGatewayMetrics(options: GatewayMetricsOptions = {}): GatewayMetrics {
  const registry = new Registry();
  if (options.processMetrics === true) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  // The four metrics every request touches: label sets resolved once into cells (metric-cells.ts).
  const requests = cellCounter(registry, {
    name: 'scopegate_requests_total',
    help: 'Requests the gateway finished, by method, route pattern, status and decision.',
    labelNames: ['method', 'route', 'status', 'decision'],
  });
  const requestDuration = cellHistogram(registry, {
    name: 'scopegate_request_duration_seconds',
    help: 'Time from the request to the end of the response, by method and route pattern.',
    labelNames: ['method', 'route'],
    buckets: DURATION_BUCKETS,
  });
  const upstreamDuration = cellHistogram(registry, {
    name: 'scopegate_upstream_duration_seconds',
    help: "Time from forwarding a request to the upstream's response headers, by route pattern.",
    labelNames: ['route'],
    buckets: DURATION_BUCKETS,
  });
  const byPrincipal = cellCounter(registry, {
    name: 'scopegate_requests_by_principal_total',
    help: 'Requests the gateway finished, by kind of principal (__scheduler__ for the internal token), route pattern and status.',
    labelNames: ['principal', 'route', 'status'],
  });
  const authFailures = new Counter({
    name: 'scopegate_auth_failures_total',
    help: 'Requests refused by authentication, by reason.',
    labelNames: ['reason'] as const,
    registers,
  });
  const denials = new Counter({
    name: 'scopegate_denials_total',
    help: 'Requests the gateway refused, by the reason id of the refusal.',
    labelNames: ['reason'] as const,
    registers,
  });
  const a2aCalls = new Counter({
    name: 'scopegate_a2a_requests_total',
    help:
      'A2A JSON-RPC calls whose body the gateway read, by method (a known A2A method, or ' +
      'invalid), status and decision.',
    labelNames: ['method', 'status', 'decision'] as const,
    registers,
  });
  const cacheHits = new Counter({
    name: 'scopegate_token_cache_hits_total',
    help: 'Verified-JWT cache look-ups that skipped the signature check.',
    registers,
  });
  const cacheMisses = new Counter({
    name: 'scopegate_token_cache_misses_total',
    help: 'Verified-JWT cache look-ups that found nothing usable.',
    registers,
  });
  // The usual build-info series: always 1, the versions in its labels.
  new Gauge({
    name: 'scopegate_build_info',
    help: 'Always 1: the running scopegate version and Node.js version, as labels.',
    labelNames: ['version', 'node'] as const,
    registers,
  }).set({ version: packageVersion(), node: process.version }, 1);
  const reloads = new Counter({
    name: 'scopegate_config_reloads_total',
    help: 'Config reloads, by result (a failed reload keeps the old config serving).',
    labelNames: ['result'] as const,
    registers,
  });
  // Both results exist from the start, so `increase()` sees the first failure.
  reloads.inc({ result: 'success' }, 0);
  reloads.inc({ result: 'error' }, 0);
  let stores: () => StoreSubject | null = () => null;
  new Gauge({
    name: 'scopegate_store_up',
    help: 'Whether a store the gateway reads is available (1) or not (0), by store.',
    labelNames: ['store'] as const,
    registers,
    // Read at scrape time: the request path never updates it.
    collect() {
      this.reset();
      const accounts = stores()?.serviceAccounts;
      if (accounts != null)
        this.set({ store: 'service_accounts' }, accounts.store.available ? 1 : 0);
    },
  });
  new Gauge({
    name: 'scopegate_feed_lag_seconds',
    help:
      "Seconds since the store's change feed was last read successfully, by store: above " +
      'cluster.max_staleness_ms, cached verifications are not used.',
    labelNames: ['store'] as const,
    registers,
    collect() {
      this.reset();
      const lag = stores()?.serviceAccounts?.feed?.lagSeconds();
      // Before the first good read there is no lag to report: the series is absent.
      if (lag != null) this.set({ store: 'service_accounts' }, lag);
    },
  });

  const jwksFetches = new Counter({
    name: 'scopegate_jwks_fetches_total',
    help:
      "Fetches of auth.jwks_url's documents, by document (jwks: the JWK set; discovery: the " +
      "issuer's OpenID configuration) and result.",
    labelNames: ['document', 'result'] as const,
    registers,
  });
  // Every series exists from the start, so `increase()` sees the first failure.
  for (const document of ['jwks', 'discovery'] as const) {
    for (const result of ['success', 'error'] as const) jwksFetches.inc({ document, result }, 0);
  }
  const remoteJwks = (): JwksSubject | null => stores()?.chain?.remoteJwks ?? null;
  optionalGauge(
    registry,
    'scopegate_jwks_keys',
    'Keys in the JWK set of auth.jwks_url the gateway holds now (0 before the first fetch and once stale).',
    () => {
      const remote = remoteJwks();
      return remote === null ? null : (remote.snapshot()?.keys.length ?? 0);
    },
  );
  optionalGauge(
    registry,
    'scopegate_jwks_last_success_timestamp_seconds',
    'When the JWK set of auth.jwks_url was last fetched successfully (Unix time): key age is time() minus this.',
    () => {
      const at = remoteJwks()?.lastSuccessMs() ?? null;
      return at === null ? null : at / 1000;
    },
  );

  // Label sets resolved once each: a request then costs a string key, a Map look-up and an
  // addition, instead of a labels object, its validation and its hash per metric.
  const SEP = '\u0000';
  const counted = childCache((key) => requests.cell(key.split(SEP)));
  const timed = childCache((key) => requestDuration.cell(key.split(SEP)));
  const upstreamTimed = childCache((route) => upstreamDuration.cell([route]));
  const countedByPrincipal = childCache((key) => byPrincipal.cell(key.split(SEP)));

  return {
    registry,
    observeRequest(o) {
      const method = methodLabel(o.method);
      const timedKey = method + SEP + o.route;
      counted(timedKey + SEP + o.status + SEP + o.decision).inc();
      timed(timedKey).observe(o.durationSeconds);
      if (o.upstreamSeconds !== null) upstreamTimed(o.route).observe(o.upstreamSeconds);
    },
    countRequestByPrincipal(principal, route, status) {
      countedByPrincipal(principal + SEP + route + SEP + status).inc();
    },
    countAuthFailure(reason) {
      authFailures.inc({ reason });
    },
    countDenial(reason) {
      denials.inc({ reason });
    },
    countA2aCall(method, status, decision) {
      a2aCalls.inc({ method, status, decision });
    },
    tokenCache: {
      hit: () => cacheHits.inc(),
      miss: () => cacheMisses.inc(),
    },
    countConfigReload(result) {
      reloads.inc({ result });
    },
    countJwksFetch(document, result) {
      jwksFetches.inc({ document, result });
    },
    watchStores(current) {
      stores = current;
    },
  };
}
