/**
 * Readiness (`/readyz`): a config is loaded, the upstream answers, and the keys of
 * `auth.jwks_url` are held (when configured); the service-account store (when enabled) is
 * reported too, but a store that is down does not make the gateway unready: JWT and other
 * credentials are still served, only service-account tokens get 503. The upstream probe is cached
 * briefly and shared by concurrent callers, so a storm of probes or scrapes costs the upstream
 * one request per interval. Never throws.
 */
import type { Dispatcher } from 'undici';
import type { Clock } from '../shared/clock.js';

/** The part of a gateway state readiness looks at (a `GatewayState` is one). */
export interface ReadinessSubject {
  readonly upstream: {
    /** The upstream's connection pool: the probe goes where the traffic goes. */
    readonly pool: Pick<Dispatcher, 'request'>;
    /** Path prefix of `upstream.url` (no trailing slash). */
    readonly basePath: string;
  };
  /** The service-account API, null when `auth.service_accounts.enabled` is false. */
  readonly serviceAccounts: { readonly store: { readonly available: boolean } } | null;
  /** The credential chain: its remote key set, when `auth.jwks_url` is configured. */
  readonly chain: { readonly remoteJwks?: { ready(): boolean } | null };
}

/** Names of the checked parts, as `/readyz` reports them. */
export type ReadinessPart = 'config' | 'upstream' | 'service_account_store' | 'jwks';

/** The outcome of one readiness check. */
export interface ReadinessReport {
  readonly ready: boolean;
  /** Every part checked, `ok` or `failing`. */
  readonly checks: Readonly<Partial<Record<ReadinessPart, 'ok' | 'failing'>>>;
  /** The failing parts that make the gateway unready, in check order. */
  readonly failing: readonly ReadinessPart[];
  /**
   * The failing parts that leave it ready (the service-account store: only its tokens are
   * refused), in check order.
   */
  readonly degraded: readonly ReadinessPart[];
}

/** Options of {@link createReadiness}. */
export interface ReadinessOptions {
  /** The state serving now; null while none is loaded. Read once per check. */
  readonly current: () => ReadinessSubject | null;
  readonly clock: Clock;
  /** Bound of one upstream probe (default {@link PROBE_TIMEOUT_MS}). */
  readonly probeTimeoutMs?: number;
  /** How long a probe's answer is reused (default {@link PROBE_CACHE_MS}). */
  readonly probeCacheMs?: number;
}

/** Default bound of one upstream probe. */
export const PROBE_TIMEOUT_MS = 2_000;
/** Default time a probe's answer is reused. */
export const PROBE_CACHE_MS = 1_000;
/** The path probed under `upstream.url`: the runtime's health route. */
export const PROBE_PATH = '/health';

/**
 * Sends one `GET <base>/health` and says whether the upstream answered: any status below 500
 * counts (an upstream without that route answers 404 and is up); a 5xx, a refused connection or
 * no answer within `timeoutMs` does not.
 */
export async function probeUpstream(
  upstream: ReadinessSubject['upstream'],
  timeoutMs: number,
): Promise<boolean> {
  try {
    const { statusCode, body } = await upstream.pool.request({
      method: 'GET',
      path: upstream.basePath + PROBE_PATH,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await body.dump();
    return statusCode < 500;
  } catch {
    return false;
  }
}

/** Checks readiness on demand; see {@link createReadiness}. */
export type Readiness = () => Promise<ReadinessReport>;

/**
 * Builds the readiness check. The probe's answer is kept for `probeCacheMs` by `clock` and for
 * the upstream it was taken from (a reload that changes the upstream probes again at once).
 */
export function createReadiness(options: ReadinessOptions): Readiness {
  const timeoutMs = options.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
  const cacheMs = options.probeCacheMs ?? PROBE_CACHE_MS;
  let cached: {
    readonly upstream: ReadinessSubject['upstream'];
    readonly at: number;
    readonly answer: Promise<boolean>;
  } | null = null;
  const upstreamAnswers = (upstream: ReadinessSubject['upstream']): Promise<boolean> => {
    const now = options.clock.now();
    if (cached === null || cached.upstream !== upstream || now - cached.at >= cacheMs) {
      // Stored before it settles: concurrent checks share the one probe in flight.
      cached = { upstream, at: now, answer: probeUpstream(upstream, timeoutMs) };
    }
    return cached.answer;
  };
  return async () => {
    const state = options.current();
    const checks: Partial<Record<ReadinessPart, 'ok' | 'failing'>> = {};
    const failing: ReadinessPart[] = [];
    const degraded: ReadinessPart[] = [];
    const mark = (part: ReadinessPart, ok: boolean, into = failing): void => {
      checks[part] = ok ? 'ok' : 'failing';
      if (!ok) into.push(part);
    };
    mark('config', state !== null);
    mark('upstream', state !== null && (await upstreamAnswers(state.upstream)));
    if (state?.serviceAccounts != null) {
      mark('service_account_store', state.serviceAccounts.store.available, degraded);
    }
    // Without its keys (never fetched, or held past their bound) every JWT would be refused.
    const jwks = state?.chain.remoteJwks;
    if (jwks != null) mark('jwks', jwks.ready());
    return { ready: failing.length === 0, checks, failing, degraded };
  };
}
