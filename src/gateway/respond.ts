/**
 * The only writer of the responses the gateway makes itself: refusals (also on the raw socket of
 * a refused protocol upgrade), CORS preflight answers, and the replies of the one API it serves
 * (`/service-accounts`). Refusal bodies are `{"detail": "..."}` (a 422's detail is the
 * HTTPValidationError list) and never carry a token, claim, key or stack trace.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { describeRefusal, type Refusal } from './rejections.js';

const REALM = 'Bearer realm="scopegate"';

// The refusal each response was answered with, for the record stage's reason: kept beside the
// response rather than threaded through every caller, so no refusal goes unrecorded.
const written = new WeakMap<ServerResponse, Refusal>();

/** The refusal `res` was answered (or cut off) with, if any. */
export function writtenRefusalOf(res: ServerResponse): Refusal | undefined {
  return written.get(res);
}

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
  written.set(res, refusal);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, headers, body } = refusalMessage(refusal, extraHeaders);
  res.writeHead(status, headers);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/** A refusal's status, its own headers and its JSON body. */
interface RefusalMessage {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | number>>;
  readonly body: string;
}

// Refusals without parameters (every authentication failure among them) always read the same:
// built once per code, so refusing a flood of bad tokens serializes nothing.
const PREBUILT = new Map<Refusal['code'], RefusalMessage>();

/** A refusal's status, headers (`extraHeaders` first) and JSON body. */
function refusalMessage(
  refusal: Refusal,
  extraHeaders: Readonly<Record<string, string>>,
): { status: number; headers: Record<string, string | number>; body: string } {
  let message = refusal.params === undefined ? PREBUILT.get(refusal.code) : undefined;
  if (message === undefined) {
    message = ownMessage(refusal);
    if (refusal.params === undefined) PREBUILT.set(refusal.code, message);
  }
  // Copied by assignment: spreading both objects into a new one cost ~3.5 µs a refusal.
  const headers: Record<string, string | number> = {};
  for (const name in extraHeaders) headers[name] = extraHeaders[name] as string;
  for (const name in message.headers) headers[name] = message.headers[name] as string | number;
  return { status: message.status, headers, body: message.body };
}

/** Builds a refusal's status, own headers and body. */
function ownMessage(refusal: Refusal): RefusalMessage {
  const { status, detail, retryAfterSeconds, closeConnection } = describeRefusal(refusal);
  const validation = refusal.params?.validation;
  const body = JSON.stringify({ detail: validation ?? detail });
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  };
  if (retryAfterSeconds !== undefined) headers['retry-after'] = retryAfterSeconds;
  // Node closes the connection once this response is written (a slow body is never drained).
  if (closeConnection === true) headers['connection'] = 'close';
  const challenge = challengeOf(refusal);
  if (challenge !== undefined) headers['www-authenticate'] = challenge;
  const allow = refusal.params?.allow;
  if (allow !== undefined) headers['allow'] = allow.join(', ');
  return { status, headers, body };
}

/**
 * An HTTP/1.1 response head: status line and header lines, ending with the blank line. Values
 * come from our catalogue or from headers node already parsed, so none holds a line break.
 */
export function responseHead(
  status: number,
  headers: Readonly<Record<string, string | number | readonly string[]>>,
): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n`;
  for (const name in headers) {
    const value = headers[name] as string | number | readonly string[];
    if (Array.isArray(value)) for (const one of value) head += `${name}: ${one}\r\n`;
    else head += `${name}: ${value as string | number}\r\n`;
  }
  return head + '\r\n';
}

/**
 * Writes a refusal on the raw socket of a protocol upgrade the gateway refuses, then closes it:
 * the client sees an ordinary HTTP status (401, 403, …), never a `101`. The socket is drained
 * until the client closes its side, so the answer is not lost to a reset.
 */
export function writeRefusalToSocket(
  socket: Duplex,
  refusal: Refusal,
  extraHeaders: Readonly<Record<string, string>> = {},
): void {
  if (socket.destroyed) return;
  const { status, headers, body } = refusalMessage(refusal, extraHeaders);
  headers['connection'] = 'close';
  socket.resume();
  socket.end(responseHead(status, headers) + body);
}

/** A successful answer the gateway gives itself: a status and a JSON body, or none (204). */
export interface Reply {
  readonly status: number;
  /** Serialized as JSON; `undefined` sends no body. */
  readonly body?: unknown;
  /** The reply's own headers (a preflight's CORS headers); they win over `extraHeaders`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Writes a reply. Never cached by anything between (a minted token is in the body once), and a
 * HEAD gets the headers of the GET without its body.
 */
export function writeReply(
  res: ServerResponse,
  reply: Reply,
  extraHeaders: Readonly<Record<string, string>> = {},
): void {
  const headers: Record<string, string | number> = {
    ...extraHeaders,
    'cache-control': 'no-store',
    ...reply.headers,
  };
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const body = JSON.stringify(reply.body);
  headers['content-type'] = 'application/json';
  headers['content-length'] = Buffer.byteLength(body);
  res.writeHead(reply.status, headers);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
