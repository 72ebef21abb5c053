/**
 * Stage: forward an authorized request to the upstream over a keep-alive pool and stream the
 * answer back as it arrives (an SSE event reaches the client when the upstream sends it).
 * Writes only the proxied response; refusals go through respond.ts. Never retries a request.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import { hasBody, type BodyTimeoutCode, type BodyWatch } from '../body-watch.js';
import { isCorsResponseHeader } from '../cors.js';
import type { RejectionCode } from '../rejections.js';
import {
  createCallerCounts,
  createUpstreamSlots,
  type CallerCounts,
  type UpstreamSlots,
} from '../upstream-slots.js';
import { endToEndHeaders } from './inject-identity.js';

/** `upstream.max_connections` when none is given. */
export const DEFAULT_MAX_CONNECTIONS = 256;

/** The upstream: one connection pool, built once per upstream URL. */
export interface Upstream {
  readonly origin: string;
  /** Path prefix of `upstream.url` (no trailing slash), prepended to every forwarded path. */
  readonly basePath: string;
  readonly pool: Pool;
  readonly timeoutMs: number;
  /** Connections of the pool (`upstream.max_connections`). */
  readonly maxConnections: number;
  /** One slot per pooled connection: a forwarded request holds one until its exchange ends. */
  readonly slots: UpstreamSlots;
  /** Each caller's requests in flight; kept by the next pool when a reload replaces this one. */
  readonly callers: CallerCounts;
}

/**
 * Builds the pool for `upstream.url`. `callers`, when given, are the counts of the pool this one
 * replaces, so requests still in flight there keep counting against their callers.
 */
export function createUpstream(
  url: string,
  timeoutMs: number,
  maxConnections: number = DEFAULT_MAX_CONNECTIONS,
  callers: CallerCounts = createCallerCounts(),
): Upstream {
  const parsed = new URL(url);
  return {
    origin: parsed.origin,
    basePath: parsed.pathname.replace(/\/+$/, ''),
    pool: new Pool(parsed.origin, {
      connections: maxConnections,
      keepAliveTimeout: 30_000,
      // Headers and each gap between body chunks are bounded by timeout_ms (runs stream long).
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: Math.min(timeoutMs, 10_000) },
    }),
    timeoutMs,
    maxConnections,
    slots: createUpstreamSlots(maxConnections),
    callers,
  };
}

/**
 * When a forwarded request went out and when the upstream's response headers came back, in
 * `performance.now()` milliseconds: filled in by {@link forwardRequest} for the record stage
 * (NaN until it happens).
 */
export interface UpstreamTiming {
  sentAt: number;
  answeredAt: number;
}

/** What came of forwarding. */
export type ForwardOutcome =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly code: RejectionCode | null };

const TIMEOUTS = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * The headers of a proxied response: the upstream's end-to-end headers without its CORS headers
 * (the gateway's own CORS decision is in `extra`), then `extra`. A `Vary` of both is merged, so
 * a cache keeps the upstream's variants apart as well as the origins.
 */
export function proxiedResponseHeaders(
  upstreamHeaders: IncomingHttpHeaders,
  extra: Readonly<Record<string, string>>,
): Record<string, string | string[]> {
  // A fresh object: `extra` is written into it rather than both copied into a third.
  const headers = endToEndHeaders(upstreamHeaders, isCorsResponseHeader);
  const vary = headers['vary'];
  for (const name in extra) headers[name] = extra[name] as string;
  if (extra['vary'] !== undefined && vary !== undefined)
    headers['vary'] = `${vary}, ${extra['vary']}`;
  return headers;
}

/**
 * Forwards `req` to `pathAndQuery` with `headers`, streaming the response into `res` with
 * backpressure. A client that goes away aborts the upstream request. Failures before the
 * response started are returned as codes for respond.ts; after that the response is cut off.
 * `body`, when given, is a body the gateway already read (dynamic dispatch): those exact bytes
 * are sent instead of the request stream.
 * `timing`, when given, is stamped as the request goes out and as the answer starts.
 * `watch`, when given, is the request body's time-out: a body that times out aborts the upstream
 * request (the upstream sees it closed, never completed) and comes back as its 408 code.
 *
 * Built on undici's dispatch handler rather than `request()` + `pipeline()`: no AbortSignal,
 * no intermediate Readable and no promise per chunk, which is most of a proxy's own CPU time.
 */
export function forwardRequest(
  upstream: Upstream,
  req: IncomingMessage,
  res: ServerResponse,
  pathAndQuery: string,
  headers: Record<string, string | string[]>,
  extraResponseHeaders: Readonly<Record<string, string>>,
  body?: Buffer,
  timing?: UpstreamTiming,
  watch?: BodyWatch | null,
): Promise<ForwardOutcome> {
  // A body the gateway read itself is complete: only a streamed one can still time out.
  const watched = body === undefined && watch != null ? watch : null;
  if (watched?.expired != null) return Promise.resolve({ ok: false, code: watched.expired });
  return new Promise<ForwardOutcome>((resolve) => {
    let controller: Dispatcher.DispatchController | null = null;
    let clientGone = false;
    let expired: BodyTimeoutCode | null = null;
    // Removed as soon as the exchange settles, so it only ever sees a client leaving early.
    const onClose = (): void => {
      clientGone = true;
      controller?.abort(new Error('client closed the connection'));
    };
    res.once('close', onClose);
    if (watched !== null) {
      watched.onExpire = (code) => {
        expired = code;
        controller?.abort(new Error('request body timed out'));
      };
    }
    const settle = (outcome: ForwardOutcome): void => {
      res.off('close', onClose);
      if (watched !== null) watched.onExpire = null;
      resolve(outcome);
    };
    if (timing !== undefined) timing.sentAt = performance.now();
    upstream.pool.dispatch(
      {
        path: upstream.basePath + pathAndQuery,
        method: req.method as Dispatcher.HttpMethod,
        headers,
        body: body ?? (hasBody(req) ? req : null),
      },
      {
        onRequestStart(c) {
          controller = c;
          if (clientGone) c.abort(new Error('client closed the connection'));
          else if (expired !== null) c.abort(new Error('request body timed out'));
        },
        onResponseStart(_c, statusCode, responseHeaders) {
          if (timing !== undefined) timing.answeredAt = performance.now();
          res.writeHead(statusCode, proxiedResponseHeaders(responseHeaders, extraResponseHeaders));
        },
        onResponseData(c, chunk) {
          if (!res.write(chunk)) {
            c.pause();
            res.once('drain', () => c.resume());
          }
        },
        onResponseEnd() {
          res.end();
          settle({ ok: true, status: res.statusCode });
        },
        onResponseError(_c, err) {
          if (clientGone) return settle({ ok: false, code: null });
          // respond.ts answers 408, or cuts the response off when it had started already.
          if (expired !== null) return settle({ ok: false, code: expired });
          // Past the headers nothing can be said any more: cut the response off.
          if (res.headersSent) res.destroy(err);
          const code = (err as { code?: string }).code ?? '';
          settle({
            ok: false,
            code: TIMEOUTS.has(code) ? 'SG_ERR_UPSTREAM_TIMEOUT' : 'SG_ERR_UPSTREAM_UNREACHABLE',
          });
        },
      },
    );
  });
}
