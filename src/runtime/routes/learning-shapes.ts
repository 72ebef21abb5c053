/**
 * The shapes of the learning routes: their JSON bodies, the deterministic
 * ids of the identity-keyed learning types, and LearningResponse. Pure: never reads the store or
 * the caller.
 */
import { z } from 'zod';
import { HttpError } from '../errors.js';
import type { LearningRecord } from '../store/learnings.js';

const json = z.record(z.string(), z.unknown());
const optionalString = z.string().nullable().optional();

/** `POST /learnings`. */
export const createLearningBody = z.object({
  learning_type: z.string(),
  content: json,
  namespace: optionalString,
  user_id: optionalString,
  agent_id: optionalString,
  team_id: optionalString,
  session_id: optionalString,
  entity_id: optionalString,
  entity_type: optionalString,
  metadata: json.nullable().optional(),
});

/** `PATCH /learnings/{id}`: given fields replace (`content` may not be null). */
export const updateLearningBody = z.object({
  content: json.optional(),
  metadata: json.nullable().optional(),
});

/** The fields a learning's id is derived from. */
export interface LearningIdentity {
  readonly learning_type: string;
  readonly user_id: string | null;
  readonly session_id: string | null;
  readonly namespace: string | null;
  readonly entity_id: string | null;
  readonly entity_type: string | null;
}

/** A field an identity-keyed type needs: 422 (a string detail, as Agno) when it is missing. */
function required(identity: LearningIdentity, field: keyof LearningIdentity): string {
  const value = identity[field];
  if (value === null || value === '') {
    throw new HttpError(422, `${field} is required for learning_type '${identity.learning_type}'`);
  }
  return value;
}

/**
 * The id of a new learning: derived from its identity for `user_profile`, `user_memory`,
 * `session_context` and `entity_memory` (so each identity has one learning), `null` for any
 * other type (the caller picks a fresh one).
 *
 * @throws {HttpError} 422 naming the identity field that is missing
 */
export function learningIdOf(identity: LearningIdentity): string | null {
  switch (identity.learning_type) {
    case 'user_profile':
      return `user_profile_${required(identity, 'user_id')}`;
    case 'user_memory':
      return `memories_${required(identity, 'user_id')}`;
    case 'session_context':
      return `session_context_${required(identity, 'session_id')}`;
    case 'entity_memory': {
      const type = required(identity, 'entity_type');
      const id = required(identity, 'entity_id');
      return `entity_${identity.namespace ?? 'global'}_${type}_${id}`;
    }
    default:
      return null;
  }
}

/** `LearningResponse` (epoch-second times). */
export function learningResponse(l: LearningRecord): Record<string, unknown> {
  return {
    learning_id: l.learning_id,
    learning_type: l.learning_type,
    namespace: l.namespace,
    user_id: l.user_id,
    agent_id: l.agent_id,
    team_id: l.team_id,
    session_id: l.session_id,
    entity_id: l.entity_id,
    entity_type: l.entity_type,
    content: l.content,
    metadata: l.metadata,
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}
