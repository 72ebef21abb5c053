/**
 * Stage: forward an authorized request to the upstream over a keep-alive pool and stream the
 * answer back as it arrives (an SSE event reaches the client when the upstream sends it).
 * Writes only the proxied response; refusals go through respond.ts. Never retries a request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';
import type { RejectionCode } from '../rejections.js';
import { endToEndHeaders } from './inject-identity.js';

/** The upstream: one connection pool, built once per upstream URL. */
export interface Upstream {
  readonly origin: string;
  /** Path prefix of `upstream.url` (no trailing slash), prepended to every forwarded path. */
  readonly basePath: string;
  readonly pool: Pool;
  readonly timeoutMs: number;
}

/** Builds the pool for `upstream.url`. */
export function createUpstream(url: string, timeoutMs: number): Upstream {
  const parsed = new URL(url);
  return {
    origin: parsed.origin,
    basePath: parsed.pathname.replace(/\/+$/, ''),
    pool: new Pool(parsed.origin, {
      connections: 256,
      keepAliveTimeout: 30_000,
      // Headers and each gap between body chunks are bounded by timeout_ms (runs stream long).
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: Math.min(timeoutMs, 10_000) },
    }),
    timeoutMs,
  };
}

/** What came of forwarding. */
export type ForwardOutcome =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly code: RejectionCode | null };

// undici refuses these on a request it sends; none of them may cross a proxy anyway.
const REQUEST_DROP = new Set(['expect']);

const TIMEOUTS = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Whether the inbound request carries a body to stream on. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Forwards `req` to `pathAndQuery` with `headers`, streaming the response into `res`. A client
 * that goes away aborts the upstream request. Failures before the response started are returned
 * as codes for respond.ts; after that the response can only be cut off.
 */
export async function forwardRequest(
  upstream: Upstream,
  req: IncomingMessage,
  res: ServerResponse,
  pathAndQuery: string,
  headers: Record<string, string | string[]>,
  extraResponseHeaders: Readonly<Record<string, string>>,
): Promise<ForwardOutcome> {
  const abort = new AbortController();
  const onClose = (): void => {
    if (!res.writableFinished) abort.abort();
  };
  res.once('close', onClose);
  for (const name of REQUEST_DROP) delete headers[name];
  try {
    const response = await upstream.pool.request({
      path: upstream.basePath + pathAndQuery,
      method: req.method as string,
      headers,
      body: hasBody(req) ? req : null,
      signal: abort.signal,
    });
    const out = endToEndHeaders(response.headers);
    res.writeHead(response.statusCode, { ...out, ...extraResponseHeaders });
    await pipeline(response.body, res);
    return { ok: true, status: response.statusCode };
  } catch (err) {
    if (abort.signal.aborted) return { ok: false, code: null };
    const code = (err as { code?: string }).code ?? '';
    return {
      ok: false,
      code: TIMEOUTS.has(code) ? 'SG_ERR_UPSTREAM_TIMEOUT' : 'SG_ERR_UPSTREAM_UNREACHABLE',
    };
  } finally {
    res.off('close', onClose);
  }
}
