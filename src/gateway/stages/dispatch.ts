/**
 * Stage: the dynamic A2A dispatch re-check. On
 * `POST <a2a>/message/send|stream`, after the coarse gate passed, reads the body (bounded), takes
 * the target from `params.message.agentId` or `X-Agent-ID`, resolves its family from the
 * upstream catalogue and requires `<family>:run` for that id. Never writes responses; the body
 * bytes it read are handed back to be forwarded unchanged.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Requirement } from '../../policy/compile.js';
import type { Decision } from '../../policy/decide.js';
import {
  parseScope,
  satisfies,
  type Grants,
  type ParsedScope,
  type ResourceFamily,
} from '../../policy/scopes.js';
import type { BodyRead } from '../body.js';
import type { Catalogue } from '../catalogue.js';
import { reject, type Verdict } from '../rejections.js';

/** Dispatch settings fixed at load. */
export interface DispatchSettings {
  /** `a2a.prefix` as path segments. */
  readonly prefix: readonly string[];
  /** `a2a.max_dispatch_body_bytes`. */
  readonly maxBodyBytes: number;
  readonly catalogue: Catalogue;
}

/** A requirement on one (non-admin) scope. */
type ScopeRequirement = Requirement & { readonly scope: ParsedScope };

function runOf(family: ResourceFamily): ScopeRequirement {
  const raw = `${family}:run`;
  return Object.freeze({ raw, scope: parseScope(raw, '') as ParsedScope });
}

/** `<family>:run` of each family, parsed once. */
const RUN: Readonly<Record<ResourceFamily, ScopeRequirement>> = Object.freeze({
  agents: runOf('agents'),
  teams: runOf('teams'),
  workflows: runOf('workflows'),
});

/**
 * Whether `POST segments` is a dynamic-dispatch route. Costs one comparison for any other
 * method, so the ordinary request path pays nothing for it.
 */
export function isDispatchRoute(
  settings: DispatchSettings,
  method: string,
  segments: readonly string[],
): boolean {
  if (method !== 'POST') return false;
  const p = settings.prefix.length;
  if (segments.length !== p + 2 || segments[p] !== 'message') return false;
  const action = segments[p + 1];
  if (action !== 'send' && action !== 'stream') return false;
  for (let i = 0; i < p; i++) if (segments[i] !== settings.prefix[i]) return false;
  return true;
}

/** What the stage needs from the request. */
export interface DispatchRequest {
  readonly headers: IncomingHttpHeaders;
  /** Every `X-Agent-ID` value as sent (`req.headersDistinct`), or undefined when none. */
  readonly agentIdHeaders: readonly string[] | undefined;
  /** The coarse decision (allowed) the target's requirement is added to. */
  readonly decision: Decision;
  readonly grants: Grants;
  /** Reads the body, bounded by `maxBodyBytes` (declared length first, then streamed bytes). */
  readBody(maxBytes: number): Promise<BodyRead>;
}

/** A resolved dispatch: the body to forward as read, and the decision with both requirements. */
export interface DispatchOutcome {
  readonly body: Buffer;
  readonly decision: Decision;
}

/**
 * Checks a dispatch request: 415 for an encoded body, 413 past the bound, 400 for a body that is
 * not JSON or names no usable target, 408 for a body that stalls or is too slow, 404 for an id the catalogue does not know (never
 * forwarded), 502 when the catalogue cannot be read, 403 without `<family>:run` for the id.
 * `null` when the client went away while its body was read.
 */
export async function checkDispatch(
  settings: DispatchSettings,
  request: DispatchRequest,
): Promise<Verdict<DispatchOutcome> | null> {
  // The gateway must read the target itself; it never decodes a compressed body to find it.
  if (request.headers['content-encoding'] !== undefined) {
    return reject('SG_ERR_DISPATCH_BODY_ENCODED');
  }
  const read = await request.readBody(settings.maxBodyBytes);
  if (!read.ok) {
    if (read.reason === 'aborted') return null;
    if (read.reason === 'timed_out') return reject(read.code);
    return reject('SG_ERR_DISPATCH_BODY_TOO_LARGE', { limit: settings.maxBodyBytes });
  }
  const target = targetOf(read.body, request.agentIdHeaders);
  if (!target.ok) return target;
  const family = await settings.catalogue.familyOf(target.value);
  if (family === 'unknown') {
    return reject('SG_ERR_DISPATCH_TARGET_UNKNOWN', { target: target.value });
  }
  if (family === 'unavailable') return reject('SG_ERR_DISPATCH_CATALOGUE_UNAVAILABLE');
  const decision = withTargetRequirement(
    request.decision,
    RUN[family],
    { family, id: target.value },
    request.grants,
  );
  if (!decision.allow) {
    return reject('SG_ERR_SCOPE_INSUFFICIENT', { scopes: decision.required.map((r) => r.raw) });
  }
  return { ok: true, value: { body: read.body, decision } };
}

/**
 * The target id: `params.message.agentId` when it is a non-empty string, else `X-Agent-ID`
 * (as the runtime reads it). A body target that is present but not a string
 * (nor null) is 400, and so are a body target and a header that disagree.
 */
function targetOf(body: Buffer, headers: readonly string[] | undefined): Verdict<string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return reject('SG_ERR_DISPATCH_BODY_NOT_JSON');
  }
  const agentId = member(member(member(parsed, 'params'), 'message'), 'agentId');
  if (agentId !== undefined && agentId !== null && typeof agentId !== 'string') {
    return reject('SG_ERR_DISPATCH_TARGET_NOT_STRING');
  }
  if (headers !== undefined && headers.length > 1) return reject('SG_ERR_DISPATCH_TARGET_CONFLICT');
  const header = headers?.[0] === '' ? undefined : headers?.[0];
  const fromBody = typeof agentId === 'string' && agentId !== '' ? agentId : undefined;
  if (fromBody !== undefined && header !== undefined && fromBody !== header) {
    return reject('SG_ERR_DISPATCH_TARGET_CONFLICT');
  }
  const target = fromBody ?? header;
  return target === undefined
    ? reject('SG_ERR_DISPATCH_TARGET_MISSING')
    : { ok: true, value: target };
}

function member(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * The coarse decision with `<family>:run` for the target added after the coarse scope(s)
 * (the detail and `required_scopes` list the coarse scope, then the family one). A
 * per-resource grant (`teams:<id>:run`) satisfies it, since the target is now known.
 */
function withTargetRequirement(
  decision: Decision,
  run: ScopeRequirement,
  resource: { readonly family: ResourceFamily; readonly id: string },
  grants: Grants,
): Decision {
  const key = run.scope.key;
  // Already required globally (an agent behind the agents:run gate): it was checked and holds.
  if (
    decision.required.some((r) => r.scope !== 'admin' && r.scope.key === key && r.scope.id === null)
  ) {
    return { ...decision, resource };
  }
  const required = [...decision.required, run];
  if (satisfies(run.scope, grants, resource)) return { ...decision, required, resource };
  return {
    ...decision,
    allow: false,
    reason: 'insufficient_scope',
    required,
    missing: [run],
    resource,
  };
}
