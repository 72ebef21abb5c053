/**
 * Stage: forward an authorized protocol upgrade (WebSocket) to the upstream over a fresh
 * connection and, once the upstream switched protocols, pipe the bytes both ways. An upstream
 * that declines is relayed as is. Writes only the proxied answer; refusals go through
 * respond.ts. Never sends a `101` the upstream did not send.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { isCorsResponseHeader } from '../cors.js';
import { responseHead } from '../respond.js';
import { proxiedResponseHeaders, type ForwardOutcome, type Upstream } from './forward.js';

/** The timer code of an upstream that did not answer the upgrade within `timeout_ms`. */
const UPSTREAM_TIMEOUT = 'SG_UPGRADE_TIMEOUT';

/**
 * Forwards the upgrade request `req` (its client socket `socket`, and `head`, the first bytes the
 * client sent past the request) to `pathAndQuery` with `headers` (identity already set). Failures
 * before the upstream answered are returned as codes for respond.ts.
 */
export function forwardUpgrade(
  upstream: Upstream,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  pathAndQuery: string,
  headers: Record<string, string | string[]>,
  extraResponseHeaders: Readonly<Record<string, string>>,
): Promise<ForwardOutcome> {
  return new Promise<ForwardOutcome>((resolve) => {
    const target = new URL(upstream.origin);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const settle = (outcome: ForwardOutcome): void => {
      if (settled) return;
      settled = true;
      socket.off('end', onClientGone);
      socket.off('close', onClientGone);
      resolve(outcome);
    };
    const proxyReq = send({
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port,
      method: 'GET',
      path: upstream.basePath + pathAndQuery,
      // inject-identity dropped the hop-by-hop `Connection`/`Upgrade`; this hop needs them back.
      headers: { ...headers, connection: 'Upgrade', upgrade: req.headers.upgrade as string },
      agent: false,
      timeout: upstream.timeoutMs,
    });
    // A client that leaves (or half-closes: the listener keeps sockets half-open) before the
    // upstream answered: nothing to forward any more, and nobody to answer.
    const onClientGone = (): void => {
      proxyReq.destroy();
      socket.destroy();
      settle({ ok: false, code: null });
    };
    socket.once('end', onClientGone);
    socket.once('close', onClientGone);
    proxyReq.once('timeout', () => {
      proxyReq.destroy(Object.assign(new Error('upstream time-out'), { code: UPSTREAM_TIMEOUT }));
    });
    proxyReq.on('error', (err: Error & { code?: string }) => {
      settle({
        ok: false,
        code:
          err.code === UPSTREAM_TIMEOUT ? 'SG_ERR_UPSTREAM_TIMEOUT' : 'SG_ERR_UPSTREAM_UNREACHABLE',
      });
    });
    proxyReq.once(
      'upgrade',
      (proxyRes: IncomingMessage, proxySocket: Duplex, proxyHead: Buffer) => {
        settle({ ok: true, status: 101 });
        tunnel(socket, head, proxyRes, proxySocket, proxyHead, extraResponseHeaders);
      },
    );
    proxyReq.once('response', (proxyRes: IncomingMessage) => {
      settle({ ok: true, status: proxyRes.statusCode as number });
      // The upstream declined to switch: its answer goes back as is, then the connection closes
      // (the body is delimited by the close, since its framing belonged to the other hop).
      socket.write(
        responseHead(proxyRes.statusCode as number, {
          ...proxiedResponseHeaders(proxyRes.headers, extraResponseHeaders),
          connection: 'close',
        }),
      );
      proxyRes.pipe(socket);
    });
    proxyReq.end();
  });
}

/** Sends the upstream's `101` to the client and pipes both sockets until either side ends. */
function tunnel(
  socket: Duplex,
  head: Buffer,
  proxyRes: IncomingMessage,
  proxySocket: Duplex,
  proxyHead: Buffer,
  extraResponseHeaders: Readonly<Record<string, string>>,
): void {
  // The request's time-out bounded the wait for the answer; an open tunnel may idle for ever.
  (proxySocket as Duplex & { setTimeout(ms: number): void }).setTimeout(0);
  proxySocket.on('error', () => socket.destroy());
  socket.on('error', () => proxySocket.destroy());
  proxySocket.once('close', () => socket.destroy());
  socket.once('close', () => proxySocket.destroy());
  const headers: Record<string, string | string[]> = {};
  for (const name in proxyRes.headers) {
    if (!isCorsResponseHeader(name)) headers[name] = proxyRes.headers[name] as string | string[];
  }
  socket.write(responseHead(101, { ...headers, ...extraResponseHeaders }));
  if (proxyHead.length > 0) socket.write(proxyHead);
  if (head.length > 0) proxySocket.write(head);
  proxySocket.pipe(socket);
  socket.pipe(proxySocket);
}
