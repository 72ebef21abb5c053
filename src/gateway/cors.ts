/**
 * CORS: the allowed origins compiled once at assemble time, and
 * the headers a response to an allowed origin carries. The gateway is the one CORS authority:
 * upstream `Access-Control-*` response headers never pass. Pure; never writes a response.
 */

/** The CORS settings of one gateway state, fixed at load. */
export interface CorsPolicy {
  /** False when `cors.allowed_origins` is empty: no CORS at all (every preflight is 403). */
  readonly enabled: boolean;
  /** The allowed origins, lower-cased (scheme and host; the port is digits). */
  readonly origins: ReadonlySet<string>;
  /** `Access-Control-Allow-Methods` of a preflight answer. */
  readonly allowMethods: string;
  /** `Access-Control-Allow-Headers` when the preflight names none we can echo. */
  readonly allowHeaders: string;
  /** `Access-Control-Max-Age` of a preflight answer, in seconds. */
  readonly maxAgeSeconds: string;
}

/** Methods a preflight answer allows: every method the gateway authorizes. */
const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
/** How long a browser may cache a preflight answer (Chromium caps at 7200). */
const MAX_AGE_SECONDS = '600';
/**
 * Response headers a browser script may read beyond the CORS-safelisted ones: the refusal's
 * challenge and the request id that ties a response to the access log.
 */
const EXPOSE_HEADERS = 'WWW-Authenticate, X-Request-ID';

/**
 * Compiles `cors.allowed_origins`. `tokenHeader` (`auth.token_header_key`) joins the fixed
 * allow-headers list, so a custom token header works cross-origin too.
 */
export function createCorsPolicy(
  allowedOrigins: readonly string[],
  tokenHeader: string,
): CorsPolicy {
  const fixed = ['Authorization', 'Content-Type', 'X-Agent-ID', 'X-Request-ID'];
  if (!fixed.some((h) => h.toLowerCase() === tokenHeader.toLowerCase())) fixed.push(tokenHeader);
  return Object.freeze({
    enabled: allowedOrigins.length > 0,
    origins: new Set(allowedOrigins.map((o) => o.toLowerCase())),
    allowMethods: ALLOW_METHODS,
    allowHeaders: fixed.join(', '),
    maxAgeSeconds: MAX_AGE_SECONDS,
  });
}

/**
 * Whether `origin` (as the client sent it) is allowed: compared exactly with the configured
 * origins after lower-casing scheme and host. An origin is `scheme://host[:port]`, and a
 * port is digits, so lower-casing the whole value is the same thing. `null` matches only when
 * listed literally (it is then in the set like any other origin).
 */
export function isAllowedOrigin(policy: CorsPolicy, origin: string): boolean {
  return policy.enabled && policy.origins.has(origin.toLowerCase());
}

/**
 * The response headers of a request: `x-request-id`, plus the CORS headers when `origin` is
 * allowed. A request without `Origin` (every non-browser caller) costs one comparison.
 */
export function responseHeadersOf(
  policy: CorsPolicy,
  origin: string | undefined,
  requestId: string,
): Record<string, string> {
  if (origin === undefined || !isAllowedOrigin(policy, origin)) {
    return { 'x-request-id': requestId };
  }
  return {
    'x-request-id': requestId,
    // Echoed as sent: a browser compares it byte for byte with its own origin.
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': EXPOSE_HEADERS,
    vary: 'Origin',
  };
}

/**
 * Whether a response header is a CORS header. The upstream's are dropped: what a browser may
 * read is decided by `cors.allowed_origins` alone, so an upstream with its own CORS middleware
 * cannot widen it (and an empty list really means no CORS).
 */
export function isCorsResponseHeader(name: string): boolean {
  return name.length > 15 && name.startsWith('access-control-');
}
