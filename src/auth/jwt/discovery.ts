/**
 * OpenID Connect Discovery for `auth.jwks_url: discover`: where an issuer's configuration lives,
 * and the `jwks_uri` a fetched configuration names, once its checks pass. Pure: remote-jwks.ts
 * fetches. Never quotes more of a document than the values it checks.
 */
import { isHttpsOrLoopbackUrl } from '../../shared/secure-url.js';

/** The `auth.jwks_url` value that asks for discovery from `auth.issuer`. */
export const DISCOVER = 'discover';

/** Where an issuer publishes its configuration, below the issuer URL. */
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';

/** What a configuration document yields: the JWK set's URL, or why it cannot be used. */
export type Discovered =
  { readonly ok: true; readonly jwksUri: string } | { readonly ok: false; readonly reason: string };

// Longest document value quoted in a reason: enough to recognise a URL, bounded for the log.
const QUOTE_MAX = 200;

/**
 * The configuration URL of `issuer`: a terminating `/` is removed before the well-known path is
 * appended (OpenID Connect Discovery 1.0, section 4), so `https://tenant.auth0.com/` and
 * `https://host/realms/r` both work as their providers write them.
 */
export function discoveryUrlOf(issuer: string): string {
  const base = issuer.endsWith('/') ? issuer.slice(0, -1) : issuer;
  return `${base}${OPENID_CONFIGURATION_PATH}`;
}

/** A document value for a reason: a string quoted (and cut), anything else named by its kind. */
function quote(value: unknown): string {
  if (typeof value !== 'string') return value === undefined ? '(missing)' : '(not a string)';
  return JSON.stringify(value.length > QUOTE_MAX ? `${value.slice(0, QUOTE_MAX)}…` : value);
}

/**
 * Reads a fetched configuration for `issuer`. Its `issuer` must equal the configured one exactly
 * (OpenID Connect Discovery 1.0, section 4.3): a document served for another issuer would hand
 * the gateway another issuer's keys. Its `jwks_uri` must be an `https:` URL, or `http:` on a
 * loopback host.
 */
export function readDiscovery(text: string, issuer: string): Discovered {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, reason: 'not a JSON object' };
  }
  const document = parsed as { readonly issuer?: unknown; readonly jwks_uri?: unknown };
  if (document.issuer !== issuer) {
    return {
      ok: false,
      reason: `its issuer ${quote(document.issuer)} is not auth.issuer ${JSON.stringify(issuer)}`,
    };
  }
  const uri = document.jwks_uri;
  if (typeof uri !== 'string' || uri === '') return { ok: false, reason: 'no jwks_uri' };
  if (!isHttpsOrLoopbackUrl(uri)) {
    return {
      ok: false,
      reason: `jwks_uri ${quote(uri)} is not an https:// URL (http:// only for a loopback host)`,
    };
  }
  return { ok: true, jwksUri: uri };
}
