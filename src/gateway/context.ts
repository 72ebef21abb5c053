/**
 * Per-request facts the stages share: request id, socket peer, client address, protocol. Built
 * once per request; never holds credentials.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { verifiedClientCert, type ClientCert } from './tls.js';
import {
  clientAddressOf,
  isTrustedProxy,
  peerAddressOf,
  type TrustedProxies,
} from './trusted-proxies.js';

/** The facts of one inbound request. */
export interface RequestContext {
  readonly requestId: string;
  /**
   * The client: the socket's peer, or, when that peer is a trusted proxy, the address derived
   * from `X-Forwarded-For`. The service-account failure throttle counts per this address, and
   * the access log writes it as `client_ip`.
   */
  readonly clientAddress: string;
  /** The socket's peer (an IPv4-mapped IPv6 address written as IPv4; `unknown` when gone). */
  readonly peerAddress: string;
  /** Whether the peer is in `listen.trusted_proxies`: its forwarding headers are believed. */
  readonly peerTrusted: boolean;
  /** Of the inbound connection: `https` when it is TLS. */
  readonly protocol: 'http' | 'https';
  /** The client certificate the TLS handshake verified against `listen.tls.client_ca`, or null. */
  readonly clientCert: ClientCert | null;
}

// A caller's request id is kept only when it is short and plain, so it is safe in logs and headers.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Builds the context of a request: the caller's `x-request-id` when safe, else a new one; the
 * client address, read from `X-Forwarded-For` only when the peer is one of `trusted`.
 */
export function createRequestContext(
  req: IncomingMessage,
  trusted: TrustedProxies,
): RequestContext {
  const given = req.headers['x-request-id'];
  const peer = peerAddressOf(req.socket.remoteAddress);
  // With no trusted proxy configured nothing more is done: no header is read for the address.
  const peerTrusted = trusted !== null && isTrustedProxy(trusted, peer);
  return {
    requestId: typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID(),
    clientAddress: peerTrusted
      ? clientAddressOf(trusted, peer, joined(req.headers['x-forwarded-for']))
      : peer,
    peerAddress: peer,
    peerTrusted,
    protocol: (req.socket as TLSSocket).encrypted ? 'https' : 'http',
    clientCert: verifiedClientCert(req.socket),
  };
}

/** A header's value as one string (node:http already joins a repeated one with ", "). */
function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
