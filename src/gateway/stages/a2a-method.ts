/**
 * Stage: authorize an A2A JSON-RPC call by its method. On an entity's JSON-RPC endpoint
 * (`POST <a2a>/<family>/<id>/v1`) the body (read bounded) names the method, and the method's own
 * scope for the path's id is the whole requirement. On the per-operation paths
 * (`…/v1/message:send|stream`, `…/v1/tasks:get|cancel`) a JSON-RPC body must name the path's own
 * method. Never writes responses; the bytes it read are handed back to be forwarded unchanged.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  A2A_REQUIREMENTS,
  type A2aMethod,
  type A2aPathOperation,
} from '../../policy/a2a-methods.js';
import type { Requirement } from '../../policy/compile.js';
import type { Decision } from '../../policy/decide.js';
import {
  isResourceFamily,
  satisfies,
  type Grants,
  type ParsedScope,
  type ResourceFamily,
} from '../../policy/scopes.js';
import { readA2aCall } from '../a2a-envelope.js';
import type { BodyRead } from '../body.js';
import { reject, type Refusal } from '../rejections.js';

/** A request the stage applies to: the entity and, on a per-operation path, the operation. */
export interface A2aRoute {
  readonly family: ResourceFamily;
  readonly id: string;
  /** The per-operation path's operation, or null for the entity's JSON-RPC endpoint. */
  readonly operation: A2aPathOperation | null;
}

/** The `a2a_method` label of a call whose body was refused before a known method was found. */
export const INVALID_A2A_METHOD = 'invalid';

const OPERATIONS: ReadonlySet<string> = new Set<A2aPathOperation>([
  'message:send',
  'message:stream',
  'tasks:get',
  'tasks:cancel',
]);

/**
 * The A2A route `POST segments` is, or null. Any other method costs one comparison, and a POST
 * a few more on the segment count and two literals, so other requests pay nothing for it.
 */
export function a2aRouteOf(
  prefix: readonly string[],
  method: string,
  segments: readonly string[],
): A2aRoute | null {
  if (method !== 'POST') return null;
  const p = prefix.length;
  const n = segments.length;
  if ((n !== p + 3 && n !== p + 4) || segments[p + 2] !== 'v1') return null;
  const family = segments[p] as string;
  if (!isResourceFamily(family)) return null;
  const last = segments[p + 3];
  if (last !== undefined && !OPERATIONS.has(last)) return null;
  for (let i = 0; i < p; i++) if (segments[i] !== prefix[i]) return null;
  return {
    family,
    id: segments[p + 1] as string,
    operation: (last ?? null) as A2aPathOperation | null,
  };
}

/** What the stage decided about one call. */
export interface A2aCall {
  /** Why the call is refused, or null to forward it. */
  readonly refusal: Refusal | null;
  /**
   * The method's name, {@link INVALID_A2A_METHOD} when the body was refused before a known method
   * was found, or null for an HTTP+JSON body on a per-operation path (not a JSON-RPC call).
   */
  readonly method: string | null;
  /**
   * On the JSON-RPC endpoint, the method's decision (its scope for the path's id is the whole
   * requirement); otherwise the path's own decision, unchanged.
   */
  readonly decision: Decision;
}

/**
 * Decides a call from its body. `decision` is the path's decision: on a per-operation path it
 * was allowed already and stays; on the JSON-RPC endpoint it is replaced by the method's.
 */
export function decideA2aCall(
  route: A2aRoute,
  body: Buffer,
  decision: Decision,
  grants: Grants,
): A2aCall {
  const read = readA2aCall(body, route.operation);
  if (!read.ok) return { refusal: read, method: INVALID_A2A_METHOD, decision };
  const method = read.value;
  if (method === null) return { refusal: null, method: null, decision };
  if (route.operation !== null) return { refusal: null, method: method.name, decision };
  return methodDecision(route, method, decision, grants);
}

const NONE: readonly Requirement[] = Object.freeze([]);

function methodDecision(
  route: A2aRoute,
  method: A2aMethod,
  path: Decision,
  grants: Grants,
): A2aCall {
  const required = A2A_REQUIREMENTS[route.family][method.action];
  const resource = path.resource;
  const scope = (required[0] as { readonly scope: ParsedScope }).scope;
  const held = satisfies(scope, grants, resource);
  const decision: Decision = {
    allow: held,
    reason: held ? (grants.admin ? 'admin' : 'scopes_satisfied') : 'insufficient_scope',
    route: path.route,
    required,
    missing: held ? NONE : required,
    resource,
    accessibleResourceIds: null,
  };
  return {
    refusal: held
      ? null
      : reject('SG_ERR_SCOPE_INSUFFICIENT', { scopes: required.map((r) => r.raw) }),
    method: method.name,
    decision,
  };
}

/** What the stage needs from a live request. */
export interface A2aRequest {
  readonly headers: IncomingHttpHeaders;
  readonly route: A2aRoute;
  /** The path's decision (allowed on a per-operation path; the endpoint's is replaced). */
  readonly decision: Decision;
  readonly grants: Grants;
  /** Reads the body, bounded by `maxBytes` (declared length first, then streamed bytes). */
  readBody(maxBytes: number): Promise<BodyRead>;
}

/** A checked call, with the body as read (to forward unchanged). */
export interface A2aOutcome extends A2aCall {
  readonly body: Buffer | undefined;
}

/**
 * Reads and decides a live call: 415 for an encoded body, 413 past `maxBodyBytes`, 408 for a body
 * that stalls or is too slow, then {@link decideA2aCall}. Null when the client went away while its
 * body was read.
 */
export async function checkA2aCall(
  maxBodyBytes: number,
  request: A2aRequest,
): Promise<A2aOutcome | null> {
  const { decision } = request;
  // The gateway must read the method itself; it never decodes a compressed body to find it.
  if (request.headers['content-encoding'] !== undefined) {
    return refused(reject('SG_ERR_JSONRPC_BODY_ENCODED'), decision);
  }
  const read = await request.readBody(maxBodyBytes);
  if (!read.ok) {
    if (read.reason === 'aborted') return null;
    if (read.reason === 'timed_out') return refused(reject(read.code), decision);
    return refused(reject('SG_ERR_JSONRPC_BODY_TOO_LARGE', { limit: maxBodyBytes }), decision);
  }
  return { ...decideA2aCall(request.route, read.body, decision, request.grants), body: read.body };
}

function refused(refusal: Refusal, decision: Decision): A2aOutcome {
  return { refusal, method: INVALID_A2A_METHOD, decision, body: undefined };
}
