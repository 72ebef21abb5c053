/**
 * What the session routes share: whose sessions a request may touch, and finding one session as
 * the caller may see it. Reads the store; never writes it or builds a response.
 */
import type { Caller } from '../../http/caller.js';
import type { SessionRecord } from '../../store/records.js';
import type { RuntimeStore } from '../../store/store.js';
import type { SessionMatch } from './table.js';

/**
 * Whose sessions a request may touch: a confined caller only its own, whatever it asks for;
 * anyone else those of the `user_id` query parameter when given (a plain filter), else any.
 */
export function ownerOf(caller: Caller, queryUserId: string | undefined): string | undefined {
  return caller.scopedUserId ?? queryUserId;
}

/**
 * The session, or `null` when there is none with this id, or it is of another kind or owner.
 * The caller cannot tell these apart: another user's session looks exactly like a missing one.
 */
export async function findSession(
  store: RuntimeStore,
  sessionId: string,
  lookup: SessionMatch,
): Promise<SessionRecord | null> {
  const session = await store.getSession(sessionId);
  if (session === null) return null;
  if (lookup.type !== undefined && session.session_type !== lookup.type) return null;
  if (lookup.owner !== undefined && session.user_id !== lookup.owner) return null;
  return session;
}
