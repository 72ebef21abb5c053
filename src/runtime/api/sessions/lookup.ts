/**
 * What the session routes share: their query parameters (the one database id, the `type` enum,
 * integers, refused with pydantic's words) and finding one session as the caller may see it.
 * Reads the store; never writes it or builds a response.
 */
import type { Caller } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import type { SessionRecord, SessionType } from '../../store/records.js';
import type { RuntimeStore } from '../../store/store.js';
import { type ValidationIssue } from '../../../shared/validation-issue.js';

const TYPES: ReadonlySet<string> = new Set<SessionType>(['agent', 'team', 'workflow']);

/** Whether `value` names a session kind. */
export const isSessionType = (value: unknown): value is SessionType =>
  typeof value === 'string' && TYPES.has(value);

/** The 422 entry of a value outside `agent|team|workflow`. */
export function typeEnumDetail(loc: readonly (string | number)[], input: unknown): ValidationIssue {
  return {
    type: 'enum',
    loc,
    msg: "Input should be 'agent', 'team' or 'workflow'",
    input,
    ctx: { expected: "'agent', 'team' or 'workflow'" },
  };
}

/** The `type` query parameter: absent, or a session kind (else 422). */
export function typeQuery(value: string | undefined): SessionType | undefined {
  if (value === undefined || isSessionType(value)) return value;
  throw new HttpError(422, [typeEnumDetail(['query', 'type'], value)]);
}

/**
 * Whose sessions a request may touch: a confined caller only its own, whatever it asks for;
 * anyone else those of the `user_id` query parameter when given (a plain filter), else any.
 */
export function ownerOf(caller: Caller, queryUserId: string | undefined): string | undefined {
  return caller.scopedUserId ?? queryUserId;
}

/** How a single-session route looks its session up. */
export interface SessionLookup {
  /** Only a session of this kind; any kind when absent. */
  readonly type?: SessionType | undefined;
  /** Only a session of this owner; any owner when absent. */
  readonly owner?: string | undefined;
}

/**
 * The session, or `null` when there is none with this id, or it is of another kind or owner.
 * The caller cannot tell these apart: another user's session looks exactly like a missing one.
 */
export async function findSession(
  store: RuntimeStore,
  sessionId: string,
  lookup: SessionLookup,
): Promise<SessionRecord | null> {
  const session = await store.getSession(sessionId);
  if (session === null) return null;
  if (lookup.type !== undefined && session.session_type !== lookup.type) return null;
  if (lookup.owner !== undefined && session.user_id !== lookup.owner) return null;
  return session;
}
