/**
 * Builds the identity the upstream receives from the verified principal and the
 * decision. Pure; never trusts anything the client sent about who it is.
 */
import { ANONYMOUS, type Principal } from '../auth/principal.js';
import type { Decision } from '../policy/decide.js';
import { RESOURCE_FAMILIES, type Grants } from '../policy/scopes.js';
import { isA2aRequirement } from '../policy/a2a-methods.js';
import type { Requirement, RouteEntry } from '../policy/compile.js';
import {
  encodeIdentityContext,
  signIdentityContext,
  type IdentityContext,
} from '../shared/identity-context.js';

/** Identity settings fixed at load. */
export interface IdentitySettings {
  readonly rbacEnabled: boolean;
  readonly userIsolation: boolean;
}

/**
 * `scoped_user_id`: null for an admin (a service account holding the admin scope included) and
 * the security-key root; the principal itself for any other service account, isolation on or
 * off; the user id when `user_isolation` is on; otherwise null.
 */
export function scopedUserIdOf(
  principal: Principal,
  isAdmin: boolean,
  userIsolation: boolean,
): string | null {
  if (isAdmin) return null;
  if (principal.type === 'service_account') return principal.userId;
  return userIsolation ? principal.userId : null;
}

/** The context for an authorized request. */
export function buildIdentityContext(
  principal: Principal,
  grants: Grants,
  decision: Decision,
  settings: IdentitySettings,
): IdentityContext {
  const isAdmin = grants.admin || principal.type === 'security_key';
  return {
    authenticated: principal.authenticated,
    user_id: principal.userId,
    session_id: principal.sessionId,
    scopes: principal.scopes,
    claims: principal.claims,
    audience: principal.audience,
    authorization_enabled: settings.rbacEnabled,
    dependencies: principal.dependencies,
    session_state: principal.sessionState,
    accessible_resource_ids: decision.accessibleResourceIds,
    principal_type: principal.type,
    is_admin: isAdmin,
    scoped_user_id: scopedUserIdOf(principal, isAdmin, settings.userIsolation),
    required_scopes: decision.required.map((r) => r.raw),
    service_account_name: principal.serviceAccountName,
  };
}

/** The context for an excluded route: nobody was authenticated. */
export function anonymousContext(settings: IdentitySettings): IdentityContext {
  return {
    authenticated: false,
    user_id: null,
    session_id: null,
    scopes: [],
    claims: ANONYMOUS.claims,
    audience: null,
    authorization_enabled: settings.rbacEnabled,
    dependencies: ANONYMOUS.dependencies,
    session_state: ANONYMOUS.sessionState,
    accessible_resource_ids: null,
    principal_type: 'anonymous',
    is_admin: false,
    scoped_user_id: null,
    required_scopes: [],
    service_account_name: null,
  };
}

/**
 * The context of the gateway's own catalogue reads (`GET /agents`, `/teams`, `/workflows`, made
 * outside any request to resolve a dynamic-dispatch target): an internal, unconfined principal
 * holding only the three listings' read scopes. It is signed like any other, so an upstream that
 * verifies contexts answers it; no client request ever receives it.
 */
export function catalogueContext(settings: IdentitySettings): IdentityContext {
  return {
    ...anonymousContext(settings),
    authenticated: true,
    scopes: RESOURCE_FAMILIES.map((family) => `${family}:read`),
    principal_type: 'internal',
  };
}

/** A context encoded once, with the header values derived from it. */
export interface EncodedIdentity {
  readonly context: IdentityContext;
  /** The `x-auth-context` value. */
  readonly value: string;
  /** The `x-auth-signature` value, when an identity secret is configured. */
  readonly signature: string | null;
  /** The `x-auth-user-id` value, or null to send none. */
  readonly userIdHeader: string | null;
  /** The `x-auth-scopes` value, or null to send none. */
  readonly scopesHeader: string | null;
}

// Only plain visible ASCII can stand in a space-separated header value; x-auth-context carries
// every scope, so nothing is lost by leaving the others out of x-auth-scopes.
const HEADER_TOKEN = /^[\x21-\x7e]+$/;

/** Encodes a context and derives its header values. */
export function encodeIdentity(context: IdentityContext, secret: string | null): EncodedIdentity {
  const value = encodeIdentityContext(context);
  const listable = context.scopes.filter((s) => HEADER_TOKEN.test(s));
  return Object.freeze({
    context,
    value,
    signature: secret === null ? null : signIdentityContext(value, secret),
    userIdHeader: context.user_id === null ? null : encodeURIComponent(context.user_id),
    scopesHeader: listable.length === 0 ? null : listable.join(' '),
  });
}

/** Encoded identities for one gateway state. */
export interface IdentityCache {
  /** The identity of an authorized request. */
  forDecision(principal: Principal, grants: Grants, decision: Decision): EncodedIdentity;
  /** The identity sent on excluded routes. */
  readonly anonymous: EncodedIdentity;
}

/**
 * Encodes each (principal, route) identity once. In the common case — a matched route whose
 * requirement is the route's own and no listing filter — the context depends on nothing else,
 * so a cached principal's requests skip the JSON, base64 and HMAC work. An A2A JSON-RPC call's
 * requirement is one of a few shared lists, cached the same way. Entries live as long as
 * the principal object (a WeakMap), and per principal they are bounded by the number of routes
 * (plus those shared lists).
 */
export function createIdentityCache(
  settings: IdentitySettings,
  secret: string | null,
): IdentityCache {
  const byPrincipal = new WeakMap<
    Principal,
    Map<RouteEntry | readonly Requirement[], EncodedIdentity>
  >();
  return {
    anonymous: encodeIdentity(anonymousContext(settings), secret),
    forDecision(principal, grants, decision) {
      const route = decision.route;
      const key =
        decision.accessibleResourceIds !== null
          ? null
          : route !== null && decision.required === route.required
            ? route
            : isA2aRequirement(decision.required)
              ? decision.required
              : null;
      if (key === null)
        return encodeIdentity(buildIdentityContext(principal, grants, decision, settings), secret);
      let routes = byPrincipal.get(principal);
      if (routes === undefined) byPrincipal.set(principal, (routes = new Map()));
      let encoded = routes.get(key);
      if (encoded === undefined) {
        encoded = encodeIdentity(
          buildIdentityContext(principal, grants, decision, settings),
          secret,
        );
        routes.set(key, encoded);
      }
      return encoded;
    },
  };
}
