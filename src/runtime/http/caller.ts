/**
 * Who is calling, as the gateway says (`x-auth-context`): the caller a request was admitted with
 * (see identity-check.ts, which verifies the gateway's signature once per request) and the rules
 * that follow from it. No authentication code: nothing here reads a credential.
 */
import type { FastifyRequest } from 'fastify';
import { decodeIdentityContext } from '../../shared/identity-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, set by the identity check before any route runs. */
    caller: Caller;
  }
}

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

/**
 * The caller of a request without a context, admitted only when the runtime runs without an
 * identity secret (development) or on its data-free `GET /health`: anonymous, unscoped.
 */
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

/** Decodes an `x-auth-context` value into the caller; null when it is not a context. */
export function decodeCaller(raw: string): Caller | null {
  const context = decodeIdentityContext(raw);
  if (context === null) return null;
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

/** The caller a request was admitted with (decoded and verified once, before routing). */
export function callerOf(request: Pick<FastifyRequest, 'caller'>): Caller {
  return request.caller;
}

const RESERVED = /^(sa:|__oauth__:)|^__scheduler__$/;

/** Whether a client-supplied user id claims a reserved principal. */
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
 * Whether the caller may settle an approval itself (the approval gate): always without
 * RBAC, else with `approvals:write` or as admin.
 */
export function mayApprove(caller: Caller): boolean {
  return (
    !caller.authorizationEnabled || caller.isAdmin || caller.scopes.includes('approvals:write')
  );
}
