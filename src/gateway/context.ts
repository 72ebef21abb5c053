/**
 * Per-request facts the stages share: request id, client address, protocol. Built once per
 * request; never holds credentials.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** The facts of one inbound request. */
export interface RequestContext {
  readonly requestId: string;
  readonly clientAddress: string;
  readonly protocol: 'http' | 'https';
}

// A caller's request id is kept only when it is short and plain, so it is safe in logs and headers.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the context of a request: the caller's `x-request-id` when safe, else a new one. */
export function createRequestContext(req: IncomingMessage): RequestContext {
  const given = req.headers['x-request-id'];
  return {
    requestId: typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID(),
    clientAddress: req.socket.remoteAddress ?? 'unknown',
    protocol: (req.socket as TLSSocket).encrypted ? 'https' : 'http',
  };
}
