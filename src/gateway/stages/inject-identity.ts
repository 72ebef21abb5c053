/**
 * Stage: the headers the upstream receives. Strips every inbound `x-auth-*` header (also spelled
 * with `_`), the hop-by-hop headers and, from a peer that is not a trusted proxy, every
 * forwarding header; then sets the verified identity and the forwarding headers. Never copies a
 * client's identity claim, or a client's word about where it came from, into what the upstream
 * trusts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { IdentityContext } from '../../shared/identity-context.js';
import { encodeIdentity, type EncodedIdentity } from '../identity.js';
import type { ClientCert } from '../tls.js';
import type { IdentityTokenSigner } from '../identity-token/sign.js';

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
  /**
   * `upstream.identity_token`: its header is stripped from every inbound request and set to a
   * signed JWT of each authenticated caller. Absent or null: off.
   */
  readonly identityToken?: IdentityTokenSigner | null | undefined;
}

/** Facts about the inbound connection the forwarding headers describe. */
export interface ClientFacts {
  readonly requestId: string;
  /** The socket's peer. */
  readonly peerAddress: string;
  /** Whether the peer is in `listen.trusted_proxies`. */
  readonly peerTrusted: boolean;
  /** `https` when the inbound connection was TLS. */
  readonly protocol: 'http' | 'https';
  /** The client certificate the TLS handshake verified (`listen.tls.client_ca`), if any. */
  readonly clientCert?: ClientCert | null;
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

/** Whether a header name is one of ours: `x-auth-…`, also when a client spells `-` as `_`. */
export function isAuthHeaderName(name: string): boolean {
  return name.length >= 7 && name.slice(0, 7).toLowerCase().replace(/_/g, '-') === 'x-auth-';
}

/**
 * Whether a header tells of an earlier hop: `Forwarded`, `X-Real-IP` or any `X-Forwarded-…`
 * (`-For`, `-Proto`, `-Host`, but also `-Port`, `-Prefix`, … that some frameworks build URLs
 * from), also when a client spells `-` as `_` (some upstream stacks read `_` as `-`).
 */
export function isForwardingHeaderName(name: string): boolean {
  // Cheap first tests on character codes (any case), so the usual headers (`accept`,
  // `x-request-id`, …) are settled without building a string.
  const first = name.charCodeAt(0) | 0x20;
  if (first === 0x66 /* f */) return name.length === 9 && name.toLowerCase() === 'forwarded';
  if (first !== 0x78 /* x */) return false;
  const third = name.charCodeAt(2) | 0x20;
  // `x-real-ip` is the only name of nine characters with an `r` there (`x-request-id` is not).
  if (third === 0x72 /* r */) return name.length === 9 && normalName(name) === 'x-real-ip';
  return third === 0x66 /* f */ && normalName(name).startsWith('x-forwarded-');
}

/** A header name lower-cased, with `_` read as `-`. */
function normalName(name: string): string {
  return name.toLowerCase().replace(/_/g, '-');
}

/**
 * Names listed in `Connection` (each is hop-by-hop for this hop). The usual values name no header
 * beyond the hop-by-hop ones and are settled without building a set.
 */
function connectionListed(headers: IncomingHttpHeaders): ReadonlySet<string> | null {
  const value = headers.connection;
  if (value === undefined || value === 'keep-alive' || value === 'close') return null;
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

/** Builds the upstream request headers for a context (encoding it): strip, then set. */
export function upstreamHeaders(
  inbound: IncomingHttpHeaders,
  context: IdentityContext,
  client: ClientFacts,
  settings: ForwardHeaderSettings,
): Record<string, string | string[]> {
  return upstreamHeadersFor(
    inbound,
    encodeIdentity(context, settings.identitySecret),
    client,
    settings,
  );
}

/**
 * Builds the upstream request headers for an already encoded identity: strip the inbound
 * `x-auth-*`, hop-by-hop and (when withheld) credential headers, and every forwarding header
 * of a peer that is not a trusted proxy; then set ours.
 *
 * Forwarding headers: from an untrusted peer, `X-Forwarded-For` is the peer alone,
 * `X-Forwarded-Proto` the inbound connection's protocol and `X-Forwarded-Host` the request's
 * Host; `Forwarded`, `X-Real-IP` and every other `X-Forwarded-*` are removed. From a trusted
 * proxy, the peer is appended to the received `X-Forwarded-For`, and the received proto and
 * host are kept (set as for an untrusted peer when it sent none); its other forwarding headers
 * pass.
 */
export function upstreamHeadersFor(
  inbound: IncomingHttpHeaders,
  identity: EncodedIdentity,
  client: ClientFacts,
  settings: ForwardHeaderSettings,
): Record<string, string | string[]> {
  const withhold = !settings.forwardAuthorization;
  const untrusted = !client.peerTrusted;
  const signer = settings.identityToken ?? null;
  const tokenHeader = signer === null ? null : signer.headerKey;
  const headers = endToEndHeaders(
    inbound,
    (name) =>
      isAuthHeaderName(name) ||
      // The assertion's header, also spelled with `_`: only the gateway ever sets it.
      (tokenHeader !== null &&
        name.length === tokenHeader.length &&
        normalName(name) === tokenHeader) ||
      // undici refuses `expect` on a request it sends; it never crosses a proxy anyway.
      name === 'expect' ||
      (withhold && (name === 'authorization' || name === settings.tokenHeader)) ||
      (untrusted && isForwardingHeaderName(name)),
  );
  if (withhold && typeof headers.cookie === 'string') {
    const kept = withoutCookie(headers.cookie, settings.tokenCookie);
    if (kept === '') delete headers.cookie;
    else headers.cookie = kept;
  }
  // A verified client certificate joins the signed context (and the assertion): never the
  // caller's word, since inbound `x-auth-*` went above.
  const cert = client.clientCert;
  const sent = cert == null ? identity : withClientCert(identity, cert, settings.identitySecret);
  headers['x-auth-context'] = sent.value;
  if (sent.signature !== null) headers['x-auth-signature'] = sent.signature;
  if (sent.userIdHeader !== null) headers['x-auth-user-id'] = sent.userIdHeader;
  if (sent.scopesHeader !== null) headers['x-auth-scopes'] = sent.scopesHeader;
  // Every context is asserted, an excluded route's anonymous one too (`principal_type:
  // anonymous`, no scopes): an upstream that verifies the token believes no context without one.
  if (signer !== null) headers[signer.header] = signer.tokenFor(sent.context, sent.value);
  headers['x-request-id'] = client.requestId;
  if (cert != null) {
    headers['x-auth-client-cert-subject'] = headerSafe(cert.subject);
    headers['x-auth-client-cert-fingerprint256'] = cert.fingerprint256;
  }
  let host = inbound.host;
  if (untrusted) {
    headers['x-forwarded-for'] = client.peerAddress;
    headers['x-forwarded-proto'] = client.protocol;
  } else {
    // An empty header counts as none sent.
    const chain = joined(inbound['x-forwarded-for']);
    headers['x-forwarded-for'] = chain ? `${chain}, ${client.peerAddress}` : client.peerAddress;
    headers['x-forwarded-proto'] = inbound['x-forwarded-proto'] || client.protocol;
    host = joined(inbound['x-forwarded-host']) || host;
  }
  if (host !== undefined) headers['x-forwarded-host'] = host;
  return headers;
}

// Per encoded identity, the last certificate it was joined with and the result: a keep-alive
// connection's requests (one certificate object per connection) reuse it, and so does the
// identity token's cache, which is keyed by the context object. Entries live as long as the
// encoded identity.
const joinedWithCert = new WeakMap<
  EncodedIdentity,
  { readonly cert: ClientCert; readonly joined: EncodedIdentity }
>();

/** `identity` with `client_certificate` set to `cert`, encoded (and signed) again. */
export function withClientCert(
  identity: EncodedIdentity,
  cert: ClientCert,
  secret: string | null,
): EncodedIdentity {
  const last = joinedWithCert.get(identity);
  if (last?.cert === cert) return last.joined;
  const client_certificate = { subject: cert.subject, fingerprint256: cert.fingerprint256 };
  const joined = encodeIdentity({ ...identity.context, client_certificate }, secret);
  joinedWithCert.set(identity, { cert, joined });
  return joined;
}

/** A header's value as one string (node:http joins repeated forwarding headers with ", "). */
function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

// A certificate subject may hold any Unicode: outside printable ASCII it is percent-encoded.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** A certificate subject as a header value: kept when printable ASCII, else percent-encoded. */
function headerSafe(value: string): string {
  return PRINTABLE_ASCII.test(value) ? value : encodeURIComponent(value);
}
