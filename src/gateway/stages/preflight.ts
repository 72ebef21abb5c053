/**
 * Stage: CORS preflights (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) are
 * answered by the gateway — 204 for an allowed origin, 403 otherwise — on every route, excluded
 * ones included, and never reach the upstream. Never writes responses.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isAllowedOrigin, type CorsPolicy } from '../cors.js';
import { reject, type Verdict } from '../rejections.js';
import type { Reply } from '../respond.js';

/** Whether a request is a CORS preflight (a plain `OPTIONS` is authorized like any method). */
export function isPreflight(method: string, headers: IncomingHttpHeaders): boolean {
  return (
    method === 'OPTIONS' &&
    headers.origin !== undefined &&
    headers['access-control-request-method'] !== undefined
  );
}

// A comma-separated list of RFC 9110 header names: what may be echoed back as allowed.
const HEADER_NAME_LIST =
  /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/**
 * Answers a preflight. The allowed headers echo `Access-Control-Request-Headers` when it is a
 * well-formed list (the gateway strips and checks what matters itself), else the fixed list.
 * The response headers of the request (`x-request-id`, the allowed origin) are added by the
 * pipeline; these are the preflight's own.
 */
export function answerPreflight(policy: CorsPolicy, headers: IncomingHttpHeaders): Verdict<Reply> {
  const origin = headers.origin as string;
  if (!isAllowedOrigin(policy, origin)) return reject('SG_ERR_CORS_ORIGIN_NOT_ALLOWED');
  const requested = headers['access-control-request-headers']?.trim();
  return {
    ok: true,
    value: {
      status: 204,
      headers: {
        'access-control-allow-methods': policy.allowMethods,
        'access-control-allow-headers':
          requested !== undefined && HEADER_NAME_LIST.test(requested)
            ? requested
            : policy.allowHeaders,
        'access-control-max-age': policy.maxAgeSeconds,
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      },
    },
  };
}
