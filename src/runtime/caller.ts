/**
 * Who is calling, as the gateway says (`x-auth-context`, CONTRACT.md §6). The runtime has no auth
 * code: it trusts this header and, without it, treats the caller as anonymous and unscoped.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { decodeIdentityContext } from '../shared/identity-context.js';

/** The parts of the identity the runtime acts on. */
export interface Caller {
  readonly authenticated: boolean;
  readonly userId: string | null;
  /** The principal user-owned data is confined to; null = unconfined. */
  readonly scopedUserId: string | null;
  /** Listing filter for agents/teams/workflows; null = unfiltered. */
  readonly accessibleResourceIds: readonly string[] | null;
  readonly sessionId: string | null;
  /** Claims the gateway extracted into `session_state`; null when none. */
  readonly sessionState: Readonly<Record<string, unknown>> | null;
  /** Claims the gateway extracted into `dependencies`; null when none. */
  readonly dependencies: Readonly<Record<string, unknown>> | null;
  /** Whether the gateway checked scopes (RBAC on) for this request. */
  readonly authorizationEnabled: boolean;
  /** The caller's scopes as the gateway verified them. */
  readonly scopes: readonly string[];
  /** Whether the caller holds the admin scope (or is the security-key root). */
  readonly isAdmin: boolean;
}

/** The caller with no context header: anonymous, unscoped (runtime run alone). */
export const ANONYMOUS_CALLER: Caller = Object.freeze({
  authenticated: false,
  userId: null,
  scopedUserId: null,
  accessibleResourceIds: null,
  sessionId: null,
  sessionState: null,
  dependencies: null,
  authorizationEnabled: false,
  scopes: [],
  isAdmin: false,
});

const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A non-empty JSON object, or null. */
const claimsOrNull = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0
    ? (v as Record<string, unknown>)
    : null;

/** Reads the caller from the request headers. */
export function callerOf(headers: IncomingHttpHeaders): Caller {
  const raw = headers['x-auth-context'];
  if (typeof raw !== 'string') return ANONYMOUS_CALLER;
  const context = decodeIdentityContext(raw);
  if (context === null) return ANONYMOUS_CALLER;
  const ids = context.accessible_resource_ids;
  return Object.freeze({
    authenticated: context.authenticated === true,
    userId: strOrNull(context.user_id),
    scopedUserId: strOrNull(context.scoped_user_id),
    accessibleResourceIds: Array.isArray(ids)
      ? ids.filter((i): i is string => typeof i === 'string')
      : null,
    sessionId: strOrNull(context.session_id),
    sessionState: claimsOrNull(context.session_state),
    dependencies: claimsOrNull(context.dependencies),
    authorizationEnabled: context.authorization_enabled === true,
    scopes: Array.isArray(context.scopes)
      ? context.scopes.filter((s): s is string => typeof s === 'string')
      : [],
    isAdmin: context.is_admin === true,
  });
}

const RESERVED = /^(sa:|__oauth__:)|^__scheduler__$/;

/** Whether a client-supplied user id claims a reserved principal (RUNTIME_API §1). */
export function isReservedUserId(userId: string): boolean {
  return RESERVED.test(userId);
}

/**
 * The user a run is attributed to: `scoped_user_id` > context `user_id` > the client's value,
 * which only an anonymous caller may supply.
 */
export function runUserOf(caller: Caller, clientUserId: string | null): string | null {
  if (caller.scopedUserId !== null) return caller.scopedUserId;
  if (caller.userId !== null && caller.userId !== '') return caller.userId;
  return caller.authenticated ? null : clientUserId;
}

/**
 * Whether the caller may settle an approval itself (RUNTIME_API §4.4's gate): always without
 * RBAC, else with `approvals:write` or as admin.
 */
export function mayApprove(caller: Caller): boolean {
  return (
    !caller.authorizationEnabled || caller.isAdmin || caller.scopes.includes('approvals:write')
  );
}
