/**
 * Stage: the headers the upstream receives. Strips every inbound `x-auth-*` header (also spelled
 * with `_`) and the hop-by-hop headers, then sets the verified identity (CONTRACT.md §6). Never
 * copies a client's identity claim into what the upstream trusts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  encodeIdentityContext,
  signIdentityContext,
  type IdentityContext,
} from '../../shared/identity-context.js';

/** Header settings fixed at load. */
export interface ForwardHeaderSettings {
  /**
   * Pass the caller's credential on. When false, `Authorization`, the configured token header
   * and the token cookie (only that cookie) are withheld from the upstream.
   */
  readonly forwardAuthorization: boolean;
  /** `auth.token_header_key`, lower-cased. */
  readonly tokenHeader: string;
  /** `auth.cookie_name`. */
  readonly tokenCookie: string;
  /** HMAC key for `x-auth-signature`; null sends none. */
  readonly identitySecret: string | null;
}

/** Facts about the inbound connection the forwarding headers describe. */
export interface ClientFacts {
  readonly requestId: string;
  readonly clientAddress: string;
  /** `https` when the inbound connection was TLS. */
  readonly protocol: 'http' | 'https';
}

// RFC 9110 §7.6.1: connection-specific fields a proxy must not forward, plus the legacy ones.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

const HEADER_TOKEN = /^[\x21-\x7e]+$/;

/** Whether a header name is one of ours: `x-auth-…`, also when a client spells `-` as `_`. */
export function isAuthHeaderName(name: string): boolean {
  return name.length >= 7 && name.slice(0, 7).toLowerCase().replace(/_/g, '-') === 'x-auth-';
}

/** Names listed in `Connection` (each is hop-by-hop for this hop). */
function connectionListed(headers: IncomingHttpHeaders): ReadonlySet<string> | null {
  const value = headers.connection;
  if (value === undefined) return null;
  return new Set(
    value
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== ''),
  );
}

/** Copies the end-to-end headers of a message, leaving out hop-by-hop ones. */
export function endToEndHeaders(
  headers: IncomingHttpHeaders,
  extraDrop?: (name: string) => boolean,
): Record<string, string | string[]> {
  const listed = connectionListed(headers);
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_BY_HOP.has(name) || listed?.has(name) || extraDrop?.(name))
      continue;
    out[name] = value;
  }
  return out;
}

/** A `Cookie` header value without the cookie called `name` (other cookies kept in order). */
export function withoutCookie(header: string, name: string): string {
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && pair.slice(0, pair.indexOf('=') >>> 0).trim() !== name)
    .join('; ');
}

/** Builds the upstream request headers: strip, then set. */
export function upstreamHeaders(
  inbound: IncomingHttpHeaders,
  context: IdentityContext,
  client: ClientFacts,
  settings: ForwardHeaderSettings,
): Record<string, string | string[]> {
  const withhold = !settings.forwardAuthorization;
  const headers = endToEndHeaders(
    inbound,
    (name) =>
      isAuthHeaderName(name) ||
      (withhold && (name === 'authorization' || name === settings.tokenHeader)),
  );
  if (withhold && typeof headers.cookie === 'string') {
    const kept = withoutCookie(headers.cookie, settings.tokenCookie);
    if (kept === '') delete headers.cookie;
    else headers.cookie = kept;
  }
  const encoded = encodeIdentityContext(context);
  headers['x-auth-context'] = encoded;
  if (settings.identitySecret !== null) {
    headers['x-auth-signature'] = signIdentityContext(encoded, settings.identitySecret);
  }
  if (context.user_id !== null) headers['x-auth-user-id'] = encodeURIComponent(context.user_id);
  // Only plain visible ASCII can stand in a space-separated header value; x-auth-context
  // carries every scope, so nothing is lost by leaving the others out here.
  const listable = context.scopes.filter((s) => HEADER_TOKEN.test(s));
  if (listable.length > 0) headers['x-auth-scopes'] = listable.join(' ');
  headers['x-request-id'] = client.requestId;
  const forwardedFor = inbound['x-forwarded-for'];
  headers['x-forwarded-for'] =
    forwardedFor === undefined ? client.clientAddress : `${forwardedFor}, ${client.clientAddress}`;
  headers['x-forwarded-proto'] = inbound['x-forwarded-proto'] ?? client.protocol;
  const host = inbound['x-forwarded-host'] ?? inbound.host;
  if (host !== undefined) headers['x-forwarded-host'] = host;
  return headers;
}
