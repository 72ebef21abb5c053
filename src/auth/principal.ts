/**
 * The authenticated caller. Authenticators build Principals; nothing here checks a credential
 * or writes a response. Scopes stay raw strings: the gateway compiles them into grants.
 */

/** The kinds of caller (`principal_type` of `x-auth-context`). */
export type PrincipalType = 'jwt' | 'service_account' | 'internal' | 'security_key' | 'anonymous';

/** A verified caller. Immutable; cached principals are shared between requests. */
export interface Principal {
  readonly type: PrincipalType;
  /** Whether the caller presented a valid credential (false only for `anonymous`). */
  readonly authenticated: boolean;
  readonly userId: string | null;
  readonly sessionId: string | null;
  readonly scopes: readonly string[];
  /** Full decoded JWT payload (`{}` for other kinds). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** The audience claim as sent (string or list), or null. */
  readonly audience: unknown;
  readonly dependencies: Readonly<Record<string, unknown>>;
  readonly sessionState: Readonly<Record<string, unknown>>;
  /** Service-account name for `service_account` principals. */
  readonly serviceAccountName: string | null;
  /** Expiry in epoch seconds, when the credential has one. */
  readonly expiresAt: number | null;
}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

/** Builds a frozen principal; unspecified fields take their empty values. */
export function createPrincipal(fields: Partial<Principal> & Pick<Principal, 'type'>): Principal {
  return Object.freeze({
    authenticated: fields.type !== 'anonymous',
    userId: null,
    sessionId: null,
    scopes: Object.freeze([]),
    claims: EMPTY,
    audience: null,
    dependencies: EMPTY,
    sessionState: EMPTY,
    serviceAccountName: null,
    expiresAt: null,
    ...fields,
  });
}

/** The anonymous caller: no identity, no scopes. */
export const ANONYMOUS: Principal = createPrincipal({ type: 'anonymous' });
