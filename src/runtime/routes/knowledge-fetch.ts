/**
 * Fetching remote knowledge content with undici, bounded in size and time (`runtime.knowledge`
 * max_fetch_bytes and fetch_timeout_ms). Every failure is a result naming its reason, never a
 * throw. Redirects are not followed: a 3xx is a failure like any other non-2xx answer.
 */
import { request } from 'undici';

/** The bounds of one fetch. */
export interface FetchLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** A fetched body with its type, or why there is none. */
export type FetchResult =
  | { readonly ok: true; readonly type: string; readonly body: Buffer }
  | { readonly ok: false; readonly message: string };

/** `text` as a URL the runtime may fetch (http or https), else null. */
export function fetchableUrl(text: string): URL | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/**
 * GETs `url`, reading at most `limits.maxBytes` of body within `limits.timeoutMs` (headers and
 * body together). `stop` aborts it (the runtime is closing).
 */
export async function fetchContent(
  url: URL,
  limits: FetchLimits,
  stop: AbortSignal,
): Promise<FetchResult> {
  const abort = new AbortController();
  const result = await fetchBounded(url, limits, AbortSignal.any([stop, abort.signal]), stop);
  // A no-op once the body was read; otherwise (a limit hit) it tears the request down.
  abort.abort();
  return result;
}

/** {@link fetchContent} without the teardown; `signal` aborts the request. */
async function fetchBounded(
  url: URL,
  limits: FetchLimits,
  signal: AbortSignal,
  stop: AbortSignal,
): Promise<FetchResult> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const tooLarge = {
    ok: false,
    message: `${url.href} is larger than max_fetch_bytes (${limits.maxBytes} bytes)`,
  } as const;
  try {
    // undici's own timeouts are off: fetch_timeout_ms is the one deadline. `reset` closes the
    // connection afterwards: fetches are rare and go anywhere, so nothing is pooled.
    const response = await request(url, {
      method: 'GET',
      reset: true,
      headersTimeout: 0,
      bodyTimeout: 0,
      signal: AbortSignal.any([deadline, signal]),
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      return { ok: false, message: `Fetching ${url.href} returned HTTP ${response.statusCode}` };
    }
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
    if (deadline.aborted) {
      return {
        ok: false,
        message: `Fetching ${url.href} took longer than fetch_timeout_ms (${limits.timeoutMs} ms)`,
      };
    }
    if (stop.aborted) {
      return { ok: false, message: `Fetching ${url.href} was cancelled: the runtime stopped` };
    }
    return { ok: false, message: `Fetching ${url.href} failed: ${(error as Error).message}` };
  }
}
