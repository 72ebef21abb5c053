/**
 * The shapes of the learning routes: their path and query parameters, their JSON bodies, their
 * answers (LearningResponse and the users page), as zod schemas the routes declare and the
 * OpenAPI document is generated from; and the deterministic ids of the identity-keyed learning
 * types. Pure: never reads the store or the caller.
 */
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import {
  DB_QUERY,
  EPOCH,
  fieldsOf,
  NULLABLE_STRING,
  pageQuery,
  pathParam,
  QUERY_STRING,
  sortedPageQuery,
  USER_ID,
} from '../../http/openapi-shapes.js';
import type { LearningRecord } from './table.js';

/** The document's section of the learning routes. */
export const LEARNING_TAGS = ['Learnings'] as const;

const json = z.record(z.string(), z.unknown());
const optionalString = z.string().nullable().optional();

/** `POST /learnings`. */
export const createLearningBody = z
  .object({
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
  })
  .meta({ id: 'LearningCreate' });

/** `PATCH /learnings/{learning_id}`: given fields replace (`content` may not be null). */
export const updateLearningBody = z
  .object({
    content: json.optional(),
    metadata: json.nullable().optional(),
  })
  .meta({ id: 'LearningUpdate' });

/** `/learnings/{learning_id}`. */
export const learningParams = pathParam('learning_id', 'Learning id');

/** `/learnings/users/{user_id}`. */
export const learningUserParams = pathParam('user_id', 'User id');

/** The query of `GET /learnings`: its filters, then page and sort. */
export const listLearningsQuery = z.object({
  learning_type: QUERY_STRING,
  user_id: USER_ID,
  agent_id: QUERY_STRING,
  team_id: QUERY_STRING,
  session_id: QUERY_STRING,
  namespace: QUERY_STRING,
  entity_id: QUERY_STRING,
  entity_type: QUERY_STRING,
  ...sortedPageQuery(100, 1000, 'updated_at'),
  ...DB_QUERY,
});

/** The query of `GET /learnings/users`. */
export const learningUsersQuery = z.object({
  learning_type: QUERY_STRING,
  user_id: USER_ID,
  ...pageQuery(20, 1000),
  ...DB_QUERY,
});

/** The query of `DELETE /learnings/users/{user_id}`. */
export const learningTypeQuery = z.object({ learning_type: QUERY_STRING, ...DB_QUERY });

/** `LearningResponse` (epoch-second times). */
export const learningSchema = z
  .object({
    learning_id: z.string(),
    learning_type: z.string(),
    namespace: NULLABLE_STRING,
    user_id: NULLABLE_STRING,
    agent_id: NULLABLE_STRING,
    team_id: NULLABLE_STRING,
    session_id: NULLABLE_STRING,
    entity_id: NULLABLE_STRING,
    entity_type: NULLABLE_STRING,
    content: json,
    metadata: json.nullable(),
    created_at: EPOCH,
    updated_at: EPOCH,
  })
  .meta({ id: 'Learning' });

/** A learning as the routes answer it. */
export type LearningResponse = z.infer<typeof learningSchema>;

/** One owner in `GET /learnings/users`. */
export const learningUser = z
  .object({ user_id: z.string(), last_learning_updated_at: EPOCH })
  .meta({ id: 'LearningUser' });

/** The fields a learning's id is derived from. */
type LearningIdentity = Readonly<
  Pick<
    LearningRecord,
    'learning_type' | 'user_id' | 'session_id' | 'namespace' | 'entity_id' | 'entity_type'
  >
>;

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

/** A stored learning as {@link learningSchema} writes it. */
export function learningResponse(l: LearningRecord): LearningResponse {
  return fieldsOf(learningSchema, l);
}
