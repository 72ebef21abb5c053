/**
 * The `x-auth-context` header: its type and its codec. The gateway encodes it,
 * the runtime decodes it; neither side may add a field the other does not know.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The principal kinds the upstream may see. */
export type ContextPrincipalType =
  'jwt' | 'service_account' | 'internal' | 'security_key' | 'anonymous';

/** The verified identity the upstream receives. */
export interface IdentityContext {
  readonly authenticated: boolean;
  readonly user_id: string | null;
  readonly session_id: string | null;
  readonly scopes: readonly string[];
  readonly claims: Readonly<Record<string, unknown>>;
  /** The audience claim as sent (string or list), or null. */
  readonly audience: unknown;
  readonly authorization_enabled: boolean;
  readonly dependencies: Readonly<Record<string, unknown>>;
  readonly session_state: Readonly<Record<string, unknown>>;
  /** Ids the caller may list on a filtered listing; null when the route is not one. */
  readonly accessible_resource_ids: readonly string[] | null;
  readonly principal_type: ContextPrincipalType;
  readonly is_admin: boolean;
  /** The principal user-owned data must be confined to; null means unconfined. */
  readonly scoped_user_id: string | null;
  readonly required_scopes: readonly string[];
  readonly service_account_name: string | null;
  /**
   * Only on a request whose TLS connection presented a client certificate the gateway verified
   * against `listen.tls.client_ca`: its subject and SHA-256 fingerprint. Absent otherwise.
   */
  readonly client_certificate?: ClientCertificateClaim;
}

/** The verified client certificate as the identity context carries it. */
export interface ClientCertificateClaim {
  /** The subject, its attributes joined by `,` (e.g. `O=Example,CN=billing-worker`). */
  readonly subject: string;
  /** SHA-256 of the certificate's DER, as upper-case hex pairs joined by `:`. */
  readonly fingerprint256: string;
}

/** Encodes a context as the header value: base64url of its JSON. */
export function encodeIdentityContext(context: IdentityContext): string {
  return Buffer.from(JSON.stringify(context), 'utf8').toString('base64url');
}

/** Decodes a header value; `null` when it is not a base64url JSON object. */
export function decodeIdentityContext(value: string): IdentityContext | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as IdentityContext)
      : null;
  } catch {
    return null;
  }
}

/**
 * The identity token's `ctx` claim for a header value: base64url of the SHA-256 of the exact
 * `x-auth-context` value (its base64url text, not the decoded JSON). The gateway signs it, the
 * runtime compares it, so a token proves one context only.
 */
export function identityContextHashOf(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** HMAC-SHA256 (hex) of the exact header value: the `x-auth-signature` header. */
export function signIdentityContext(value: string, secret: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

/** Exactly a SHA-256 in hex: `Buffer.from(s, 'hex')` alone would stop at the first non-hex digit. */
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * Whether `signature` is the HMAC of `value` under `secret`, compared in constant time. Anything
 * but 64 hex digits is refused before any comparison (its length is no secret).
 */
export function verifyIdentitySignature(value: string, signature: string, secret: string): boolean {
  if (!HEX_SHA256.test(signature)) return false;
  const expected = Buffer.from(signIdentityContext(value, secret), 'hex');
  return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
}
