/**
 * The only writer of the responses the gateway makes itself (refusals). Bodies are
 * `{"detail": "..."}` and never carry a token, claim, key or stack trace.
 */
import type { ServerResponse } from 'node:http';
import { describeRefusal, type Refusal } from './rejections.js';

const REALM = 'Bearer realm="scopegate"';

/** The `WWW-Authenticate` value for a refusal, or undefined when it carries none. */
export function challengeOf(refusal: Refusal): string | undefined {
  const { challenge } = describeRefusal(refusal);
  if (challenge === 'bearer') return REALM;
  if (challenge === 'invalid_token') return `${REALM}, error="invalid_token"`;
  if (challenge === 'insufficient_scope') {
    return `${REALM}, error="insufficient_scope", scope="${(refusal.params?.scopes ?? []).join(' ')}"`;
  }
  return undefined;
}

/**
 * Writes a refusal. `extraHeaders` carries what every response gets (request id, CORS). A
 * response whose headers already went out (a failure mid-stream) can only be cut off.
 */
export function writeRefusal(
  res: ServerResponse,
  refusal: Refusal,
  extraHeaders: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, detail } = describeRefusal(refusal);
  const body = JSON.stringify({ detail });
  const headers: Record<string, string | number> = {
    ...extraHeaders,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  };
  const challenge = challengeOf(refusal);
  if (challenge !== undefined) headers['www-authenticate'] = challenge;
  res.writeHead(status, headers);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
