/**
 * Fetching remote knowledge content through the outbound-fetch guard, bounded in size and time
 * (`runtime.knowledge` max_fetch_bytes and fetch_timeout_ms). Every failure is a result, never
 * a throw; every network-level failure reads the same, so a message never tells an open port
 * from a closed one or a refused address from an unreachable one.
 */
import type { Dispatcher } from 'undici';
import { getFollowingRedirects } from '../../outbound/follow-redirects.js';

/** The bounds of one fetch. */
export interface FetchLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/**
 * Why a fetch failed, for tests and operators: never stored, never answered (the message is
 * what the caller sees).
 */
export type FetchFailure =
  | 'blocked_address'
  | 'own_listener'
  | 'too_many_redirects'
  | 'redirect_scheme'
  | 'http_status'
  | 'network_error'
  | 'timeout'
  | 'too_large'
  | 'cancelled';

/** A fetched body with its type, or why there is none. */
export type FetchResult =
  | { readonly ok: true; readonly type: string; readonly body: Buffer }
  | { readonly ok: false; readonly message: string; readonly reason: FetchFailure };

/**
 * The one message of every network-level failure of `url`: a refused or blocked address, a
 * failed name lookup, connection or TLS handshake, a time-out, too many redirects, a non-2xx
 * answer.
 */
export function unfetchable(url: URL): string {
  return `${url.href} could not be fetched`;
}

/** `text` as a URL the runtime may fetch (http or https), else null. */
export function fetchableUrl(text: string): URL | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/**
 * GETs `url` through `dispatcher` (the guard's), reading at most `limits.maxBytes` of body
 * within `limits.timeoutMs` (every hop, headers and body together). `stop` aborts it (the
 * runtime is closing).
 */
export async function fetchContent(
  url: URL,
  limits: FetchLimits,
  dispatcher: Dispatcher,
  stop: AbortSignal,
): Promise<FetchResult> {
  const abort = new AbortController();
  const result = await fetchBounded(url, limits, dispatcher, {
    signal: AbortSignal.any([stop, abort.signal]),
    stop,
  });
  // A no-op once the body was read; otherwise (a limit hit) it tears the request down.
  abort.abort();
  return result;
}

/** {@link fetchContent} without the teardown; `signal` aborts the request. */
async function fetchBounded(
  url: URL,
  limits: FetchLimits,
  dispatcher: Dispatcher,
  { signal, stop }: { signal: AbortSignal; stop: AbortSignal },
): Promise<FetchResult> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const failed = (reason: FetchFailure) =>
    ({ ok: false, message: unfetchable(url), reason }) as const;
  const tooLarge = {
    ok: false,
    message: `${url.href} is larger than max_fetch_bytes (${limits.maxBytes} bytes)`,
    reason: 'too_large',
  } as const;
  try {
    const response = await getFollowingRedirects(
      dispatcher,
      url,
      AbortSignal.any([deadline, signal]),
    );
    // A status tells an HTTP listener from a closed port: only a 2xx is an answer.
    if (response.statusCode < 200 || response.statusCode > 299) return failed('http_status');
    // No Content-Length is NaN, which no limit is below: the body is then counted as it comes.
    const declared = Number(response.headers['content-length']);
    if (declared > limits.maxBytes) return tooLarge;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limits.maxBytes) return tooLarge;
      chunks.push(chunk);
    }
    const type = response.headers['content-type'];
    return {
      ok: true,
      type: typeof type === 'string' ? type : 'application/octet-stream',
      body: Buffer.concat(chunks),
    };
  } catch (error) {
    if (stop.aborted) {
      return {
        ok: false,
        message: `Fetching ${url.href} was cancelled: the runtime stopped`,
        reason: 'cancelled',
      };
    }
    if (deadline.aborted) return failed('timeout');
    const refusal = error as { code?: unknown; reason?: FetchFailure };
    return failed(
      refusal.code === 'SG_OUTBOUND_REFUSED' ? (refusal.reason as FetchFailure) : 'network_error',
    );
  }
}
