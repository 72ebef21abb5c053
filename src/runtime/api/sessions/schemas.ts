/**
 * The shapes of the session routes as zod schemas the routes declare and the OpenAPI document is
 * generated from: their path and query parameters, their JSON bodies (documented here; checked
 * by session-bodies.ts in pydantic's words) and their answers (`SessionSchema`, the session
 * detail, `RunSchema`, built by session-schemas.ts). Pure data.
 */
import { z } from 'zod';
import {
  DB_QUERY,
  EPOCH,
  ISO_TIME,
  NULLABLE_STRING,
  QUERY_STRING,
  sortedPageQuery,
  USER_ID,
} from '../../http/openapi-shapes.js';

/** The document's section of the session routes. */
export const SESSION_TAGS = ['Sessions'] as const;

const KIND = z.enum(['agent', 'team', 'workflow']);
const json = z.record(z.string(), z.unknown());

/** `/sessions/{session_id}`. */
export const sessionParams = z.object({
  session_id: z.string().meta({ description: 'Session id' }),
});

/** `/sessions/{session_id}/runs/{run_id}`. */
export const sessionRunParams = sessionParams.extend({
  run_id: z.string().meta({ description: 'Run id' }),
});

const TYPE = KIND.optional().meta({ description: 'Session kind' });

/** The query of `GET /sessions`. */
export const listSessionsQuery = z.object({
  type: TYPE,
  component_id: QUERY_STRING,
  user_id: USER_ID,
  session_name: QUERY_STRING.meta({ description: 'Substring of the name' }),
  ...sortedPageQuery(20, 100, 'created_at'),
  ...DB_QUERY,
});

/** The query of `POST /sessions`. */
export const createSessionQuery = z.object({ type: TYPE, db_id: DB_QUERY.db_id });

/** The query of the routes that read or write one session of a kind. */
export const oneSessionQuery = z.object({ type: TYPE, user_id: USER_ID, ...DB_QUERY });

/** The query of the routes that delete sessions. */
export const deleteSessionsQuery = z.object({ user_id: USER_ID, ...DB_QUERY });

/** The query of `GET /sessions/{session_id}/runs`. */
export const sessionRunsQuery = z.object({
  type: TYPE,
  user_id: USER_ID,
  created_after: EPOCH.optional(),
  created_before: EPOCH.optional(),
  ...DB_QUERY,
});

/** `POST /sessions` (no body creates an empty session). */
export const createSessionBody = z
  .object({
    session_id: z.string().optional(),
    session_name: z.string().optional(),
    session_state: json.optional(),
    metadata: json.optional(),
    user_id: z.string().optional(),
    agent_id: z.string().optional(),
    team_id: z.string().optional(),
    workflow_id: z.string().optional(),
  })
  .meta({ id: 'SessionCreate' });

/** `POST /sessions/{session_id}/rename`. */
export const renameSessionBody = z
  .object({ session_name: z.string() })
  .meta({ id: 'SessionRename' });

/** `PATCH /sessions/{session_id}`: given fields replace. */
export const updateSessionBody = z
  .object({
    session_name: z.string().optional(),
    session_state: json.optional(),
    metadata: json.optional(),
    summary: z
      .object({
        summary: z.string(),
        topics: z.array(z.string()).optional(),
        updated_at: z.string().optional(),
      })
      .optional(),
  })
  .meta({ id: 'SessionUpdate' });

/** The bulk `DELETE /sessions`: ids and their kinds, pairwise. */
export const deleteSessionsBody = z
  .object({
    session_ids: z.array(z.string()).min(1),
    session_types: z.array(KIND).min(1),
  })
  .meta({ id: 'SessionsDelete' });

const SESSION_FIELDS = {
  session_id: z.string(),
  session_name: NULLABLE_STRING,
  session_state: z.unknown(),
  session_type: KIND,
  user_id: NULLABLE_STRING,
  agent_id: NULLABLE_STRING,
  team_id: NULLABLE_STRING,
  workflow_id: NULLABLE_STRING,
  session_summary: z.unknown(),
  metrics: z.unknown(),
  total_tokens: z.int().nullable(),
  metadata: z.unknown(),
  created_at: ISO_TIME,
  updated_at: ISO_TIME,
};

/** `SessionSchema`: a session as the listing answers it. */
export const sessionSchemaSchema = z.object(SESSION_FIELDS).meta({ id: 'SessionSchema' });

/** The detail every single-session route answers. */
export const sessionDetailSchema = z
  .object({
    ...SESSION_FIELDS,
    agent_session_id: z.string().optional(),
    team_session_id: z.string().optional(),
    workflow_session_id: z.string().optional(),
    chat_history: z.array(json),
  })
  .meta({
    id: 'SessionDetail',
    description:
      'An agent, team or workflow session in detail (SessionSchema, its id again as ' +
      '<type>_session_id, and the chat history of its runs)',
  });

/** `RunSchema` / `TeamRunSchema` / `WorkflowRunSchema`: a stored run as sessions list it. */
export const runSchemaSchema = z
  .object({
    run_id: z.string(),
    parent_run_id: NULLABLE_STRING,
    agent_id: z.string().optional(),
    team_id: z.string().optional(),
    workflow_id: z.string().optional(),
    user_id: NULLABLE_STRING,
    status: z.enum(['PENDING', 'RUNNING', 'COMPLETED', 'PAUSED', 'CANCELLED', 'ERROR']),
    run_input: z.string(),
    content: z.unknown(),
    run_response_format: z.enum(['json', 'text']),
    metrics: z.unknown(),
    events: z.array(json),
    created_at: ISO_TIME,
  })
  .meta({
    id: 'RunSchema',
    description: 'A stored run as sessions list it (RunSchema, TeamRunSchema, WorkflowRunSchema)',
  });
