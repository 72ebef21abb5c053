/**
 * The remote JWK set of `auth.jwks_url`: fetched at start, refreshed in the background, refreshed
 * at once for an unknown `kid` at most once per cool-down (concurrent callers share one fetch),
 * and dropped when no fetch succeeded for `max stale`. With discovery, every fetch first reads
 * the issuer's OpenID configuration and follows its `jwks_uri`. Time, timers and the fetch are
 * injected. Holds the fetched document only: never imports keys and never decides about a token.
 */
import type { Clock } from '../../shared/clock.js';
import { readDiscovery } from './discovery.js';
import { fetchJwksText } from './jwks-fetch.js';

/** `auth.jwks_refresh_seconds` when the settings leave it out (the config default). */
export const DEFAULT_JWKS_REFRESH_SECONDS = 300;
/** `auth.jwks_cooldown_seconds` when the settings leave it out. */
export const DEFAULT_JWKS_COOLDOWN_SECONDS = 30;
/** `auth.jwks_max_stale_seconds` when the settings leave it out. */
export const DEFAULT_JWKS_MAX_STALE_SECONDS = 3600;

/** The outcome of one fetch, for a counter (`scopegate_jwks_fetches_total{result}`). */
export type JwksFetchResult = 'success' | 'error';

/**
 * Which document one HTTP fetch was for: the JWK set itself, or (with discovery) the issuer's
 * OpenID configuration that names it. A fixed set: a metric label, never a URL.
 */
export type JwksDocument = 'jwks' | 'discovery';

/** Fetches the document's text; rejects with an Error whose message is a loggable reason. */
export type JwksFetcher = (url: string, signal: AbortSignal) => Promise<string>;

/** Runs `run` once after `ms`; returns what cancels it. The default never keeps Node alive. */
export type Scheduler = (run: () => void, ms: number) => () => void;

/** Where a {@link RemoteJwks} fetches from, and its timing in milliseconds. */
export interface RemoteJwksOptions {
  /** The JWK set's URL; with `issuer`, the URL of that issuer's OpenID configuration instead. */
  readonly url: string;
  /**
   * Discovery (`auth.jwks_url: discover`): every attempt fetches the configuration at `url`,
   * checks that it was issued for exactly this issuer and names a usable `jwks_uri`, then fetches
   * the set there, with the same bounds. Absent: `url` is the JWK set itself.
   */
  readonly issuer?: string | undefined;
  /** After a success, the next fetch comes this much later. */
  readonly refreshMs: number;
  /** Least time between two attempts asked for by unknown `kid`s; also the retry delay after a failure. */
  readonly cooldownMs: number;
  /** The keys are dropped this long after the last success (failing closed: 401, never accepted). */
  readonly maxStaleMs: number;
}

/** What a {@link RemoteJwks} needs besides its options. */
export interface RemoteJwksDeps {
  readonly clock: Clock;
  /** Default: {@link fetchJwksText} (undici, bounded). */
  readonly fetch?: JwksFetcher | undefined;
  /** Default: an unref'd `setTimeout`. */
  readonly schedule?: Scheduler | undefined;
  /** Told of every fetch: `detail` is the reason of a failure (a status, a code, a bound). */
  readonly onFetch?: ((result: JwksFetchResult, detail: string) => void) | undefined;
  /**
   * Told of every document fetched, once each: with discovery an attempt reads two (the
   * configuration, then the set), and a document that arrives but fails its checks is an error.
   */
  readonly onDocument?: ((document: JwksDocument, result: JwksFetchResult) => void) | undefined;
}

/** The last good document's keys. The same object while the served document does not change. */
export interface JwksSnapshot {
  readonly keys: readonly unknown[];
}

/** A remote JWK set. One per URL and timing; kept across reloads that do not change them. */
export interface RemoteJwks {
  readonly url: string;
  readonly options: RemoteJwksOptions;
  /** The last good keys: null before the first success and once older than max stale. */
  snapshot(): JwksSnapshot | null;
  /**
   * For a token whose `kid` no key carries: joins the fetch in flight, or starts one unless the
   * last attempt is within the cool-down (then resolves at once, fetching nothing). Never rejects.
   */
  refreshForUnknownKid(): Promise<void>;
  /** The first fetch, then the refresh loop. Resolves when the first attempt settled; idempotent. */
  start(): Promise<void>;
  /** Whether usable keys are held (readiness: not ready before the first success or once stale). */
  ready(): boolean;
  /** The reason of the last failed attempt, or null when the last attempt succeeded (or none ran). */
  lastError(): string | null;
  /**
   * The URL the keys are fetched from: `url` itself, or with discovery the `jwks_uri` of the last
   * configuration that passed its checks (null before one did).
   */
  keysUrl(): string | null;
  /** When the last fetch succeeded, in milliseconds on the injected clock; null before one did. */
  lastSuccessMs(): number | null;
  /** Stops the refresh loop and aborts a fetch in flight. */
  close(): void;
}

/** The default scheduler: a timer that never keeps the process alive. */
const unrefTimer: Scheduler = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** The `keys` of a JWK set document, or the reason it is not one (never quoting it). */
function parseJwks(text: string): readonly unknown[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  return Array.isArray(keys) && !Array.isArray(parsed) ? keys : 'not a JWK set (no "keys" list)';
}

/** Creates the remote set; nothing is fetched before {@link RemoteJwks.start}. */
export function createRemoteJwks(options: RemoteJwksOptions, deps: RemoteJwksDeps): RemoteJwks {
  const { url, issuer, refreshMs, cooldownMs, maxStaleMs } = options;
  const { clock } = deps;
  const fetchText = deps.fetch ?? ((u: string, signal: AbortSignal) => fetchJwksText(u, signal));
  const schedule = deps.schedule ?? unrefTimer;
  const onFetch = deps.onFetch ?? (() => {});
  const onDocument = deps.onDocument ?? (() => {});

  let current: JwksSnapshot | null = null;
  let currentText: string | null = null;
  let lastSuccessAt: number | null = null;
  let lastAttemptAt = -Infinity;
  let lastError: string | null = null;
  let inFlight: Promise<void> | null = null;
  let started: Promise<void> | null = null;
  let cancelTimer: () => void = () => {};
  let keysUrl: string | null = issuer === undefined ? url : null;
  const closing = new AbortController();

  /** A failure at the JWK set itself; with discovery it names the set's URL. */
  const atKeys = (reason: string): string =>
    issuer === undefined ? reason : `JWK set at ${String(keysUrl)}: ${reason}`;
  /**
   * The JWK set's text. With discovery, the configuration is read afresh each time, so a
   * provider that moves its keys is followed; a failure names the stage that failed.
   */
  const fetchSet = async (): Promise<string> => {
    if (issuer === undefined) return fetchText(url, closing.signal);
    const where = `OpenID configuration at ${url}`;
    const text = await fetchText(url, closing.signal).catch((err: unknown) => {
      throw new Error(`${where}: ${(err as Error).message}`, { cause: 'discovery' });
    });
    const discovered = readDiscovery(text, issuer);
    if (!discovered.ok) throw new Error(`${where}: ${discovered.reason}`, { cause: 'discovery' });
    keysUrl = discovered.jwksUri;
    onDocument('discovery', 'success');
    return fetchText(discovered.jwksUri, closing.signal).catch((err: unknown) => {
      throw new Error(atKeys((err as Error).message));
    });
  };

  const succeed = (text: string, keys: readonly unknown[]): void => {
    onDocument('jwks', 'success');
    // An unchanged document keeps its snapshot, so nothing downstream re-imports or re-clears.
    if (text !== currentText) {
      current = Object.freeze({ keys: Object.freeze([...keys]) });
      currentText = text;
    }
    lastSuccessAt = clock.now();
    lastError = null;
    onFetch('success', '');
  };
  const fail = (reason: string, document: JwksDocument): void => {
    onDocument(document, 'error');
    lastError = reason;
    onFetch('error', reason);
  };

  const attempt = (): Promise<void> => {
    if (inFlight !== null) return inFlight;
    cancelTimer();
    lastAttemptAt = clock.now();
    inFlight = fetchSet()
      .then(
        (text) => {
          if (closing.signal.aborted) return;
          const keys = parseJwks(text);
          if (typeof keys === 'string') fail(atKeys(keys), 'jwks');
          else succeed(text, keys);
        },
        (err: unknown) => {
          // The discovery stage marks its failures (the `cause`); any other is the set's.
          const document = (err as Error).cause === 'discovery' ? 'discovery' : 'jwks';
          if (!closing.signal.aborted) fail((err as Error).message, document);
        },
      )
      .finally(() => {
        inFlight = null;
        if (closing.signal.aborted) return;
        // After a success, refresh well before the keys go stale; after a failure, retry at the
        // cool-down, so a gateway that started without keys gets them as soon as the IdP answers.
        cancelTimer = schedule(() => void attempt(), lastError === null ? refreshMs : cooldownMs);
      });
    return inFlight;
  };

  const snapshot = (): JwksSnapshot | null =>
    current !== null && clock.now() - (lastSuccessAt as number) <= maxStaleMs ? current : null;

  return {
    url,
    options: Object.freeze({
      url,
      ...(issuer === undefined ? {} : { issuer }),
      refreshMs,
      cooldownMs,
      maxStaleMs,
    }),
    snapshot,
    refreshForUnknownKid() {
      if (inFlight !== null) return inFlight;
      // The cool-down makes random `kid`s (an attacker's, or a misconfigured client's) cost at
      // most one fetch per cool-down, whatever the request rate.
      if (closing.signal.aborted || clock.now() - lastAttemptAt < cooldownMs) {
        return Promise.resolve();
      }
      return attempt();
    },
    start() {
      started ??= attempt();
      return started;
    },
    ready: () => snapshot() !== null,
    lastError: () => lastError,
    keysUrl: () => keysUrl,
    lastSuccessMs: () => lastSuccessAt,
    close() {
      closing.abort();
      cancelTimer();
    },
  };
}
