/**
 * The session write routes: create, rename, update, delete one, delete many.
 * A confined caller (`scoped_user_id`) writes only its own sessions, and another user's
 * session looks missing: 404 to rename or update, a 204 that deletes nothing. Every write stamps
 * `updated_at` from the injected clock. Each route declares its input and answer (schemas.ts);
 * the lifecycle checks the input before a handler runs. Never checks scopes: the gateway did.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../../../shared/clock.js';
import type { ValidationIssue } from '../../../shared/validation-issue.js';
import { callerOf, isReservedUserId, runUserOf } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import type { SessionRecord, SessionType } from '../../store/records.js';
import type { RuntimeStore } from '../../store/store.js';
import { ownerOf } from './lookup.js';
import type { SessionChanges } from './table.js';
import { sessionDetail } from './render.js';
import { acceptEmptyJsonBody } from '../../http/json-body.js';
import { empty, errors, ok } from '../../http/openapi.js';
import {
  createSessionBody,
  createSessionQuery,
  deleteSessionsBody,
  deleteSessionsQuery,
  JSON_TYPE,
  NOT_JSON,
  oneSessionQuery,
  renameSessionBody,
  SESSION_TAGS,
  sessionDetailSchema,
  sessionParams,
  updateSessionBody,
} from './schemas.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';

/** The schemas of this file's routes (validation.ts). */
const { checked } = sectionSchemas(SESSION_TAGS);

/** What the write routes take from the runtime besides the store. */
export interface SessionWriteDeps {
  readonly clock: Clock;
  /** A new session id (a uuid in production, a counter in tests). */
  readonly newId: () => string;
}

/** What a single-session write reads of its request. */
type Request = Pick<FastifyRequest, 'caller'> & {
  readonly params: z.output<typeof sessionParams>;
  readonly query: z.output<typeof oneSessionQuery>;
};
type CreateBody = z.output<typeof createSessionBody>;

const ID_FIELD_OF = { agent: 'agent_id', team: 'team_id', workflow: 'workflow_id' } as const;

/**
 * (ours) The id of the session's agent, team or workflow: the id field of its kind is required
 * and non-empty, and those of the other kinds must be left out: a session belongs to exactly
 * one, so `{team_id}` without `?type=team` is refused rather than stored as an agent session of
 * nobody. Else the 422 in pydantic's words, `sent` (the body as sent) named by `missing`.
 */
export function componentIdOf(body: CreateBody, type: SessionType, sent: unknown): string {
  const problems: ValidationIssue[] = [];
  for (const [kind, field] of Object.entries(ID_FIELD_OF)) {
    const value = body?.[field];
    const loc = ['body', field];
    if (kind === type) {
      if (value === undefined) {
        problems.push({ type: 'missing', loc, msg: 'Field required', input: sent ?? null });
      } else if (value === '') {
        problems.push({
          type: 'string_too_short',
          loc,
          msg: 'String should have at least 1 character',
          input: value,
          ctx: { min_length: 1 },
        });
      }
    } else if (value !== undefined && value !== '') {
      const error = `${field} does not apply to a session of type ${type}`;
      const msg = `Value error, ${error}`;
      problems.push({ type: 'value_error', loc, msg, input: value, ctx: { error } });
    }
  }
  if (problems.length > 0) throw new HttpError(422, problems);
  return body?.[ID_FIELD_OF[type]] as string;
}

/** The body each create request sent, before the lifecycle parsed it. */
const sentBodies = new WeakMap<FastifyRequest, unknown>();

/**
 * Registers the write routes in their own Fastify scope, whose JSON parser reads an empty body
 * as no body: `POST /sessions` takes an optional body, and clients send `content-type:
 * application/json` with nothing after it.
 */
export function registerSessionWriteRoutes(
  app: FastifyInstance,
  store: RuntimeStore,
  deps: SessionWriteDeps,
): void {
  const nowSeconds = (): number => Math.floor(deps.clock.now() / 1000);

  /**
   * Sets `changes` on the session a single-session write may change, in one conditional UPDATE
   * (a concurrent write of other fields is kept), and answers its detail; or the 404 Agno
   * answers.
   */
  async function changed(
    request: Request,
    changes: SessionChanges,
  ): Promise<Record<string, unknown>> {
    const { type } = request.query;
    const session = await store.updateSession(request.params.session_id, changes, {
      type,
      owner: ownerOf(callerOf(request), request.query.user_id),
    });
    if (session === null) {
      throw new HttpError(404, `Session with id '${request.params.session_id}' not found`);
    }
    return sessionDetail(session, await store.listRuns(session.session_id));
  }

  void app.register(async (parent) => {
    const scope = parent.withTypeProvider<CheckedTypes>();
    acceptEmptyJsonBody(scope);
    // A body of another content type reaches pydantic as bytes: a form is not read as fields.
    scope.addHook('preValidation', async (request) => {
      const body = request.body;
      if (body === undefined || body === null || typeof body === 'string') return;
      if (!JSON_TYPE.test(String(request.headers['content-type']))) request.body = NOT_JSON;
    });

    const createSchema = checked('Create a session', {
      querystring: createSessionQuery,
      body: createSessionBody,
      response: { 201: ok('Created', sessionDetailSchema), ...errors('400', '404', '422') },
    });
    scope.post(
      '/sessions',
      {
        schema: createSchema,
        preValidation: async (request) => void sentBodies.set(request, request.body),
      },
      async (request, reply) => {
        const type = request.query.type ?? 'agent';
        const body = request.body;
        const componentId = componentIdOf(body, type, sentBodies.get(request));
        const caller = callerOf(request);
        const userId = body?.user_id;
        if (userId !== undefined && !caller.authenticated && isReservedUserId(userId)) {
          throw new HttpError(403, 'Client-supplied user_id may not claim a reserved principal');
        }
        const now = nowSeconds();
        const session: SessionRecord = {
          // None, or an empty one (as in Agno): the runtime picks one.
          session_id: body?.session_id || deps.newId(),
          session_type: type,
          component_id: componentId,
          // The context's user wins: a confined caller cannot create a session for another.
          user_id: runUserOf(caller, userId ?? null),
          session_name: body?.session_name ?? null,
          session_state: body?.session_state ?? {},
          metadata: body?.metadata ?? null,
          session_summary: null,
          created_at: now,
          updated_at: now,
        };
        // (ours) Agno would overwrite the stored session; a taken id is refused, whoever owns it.
        if (!(await store.insertSession(session))) {
          throw new HttpError(409, `Session with id '${session.session_id}' already exists`);
        }
        return reply.code(201).send(sessionDetail(session, []));
      },
    );

    const renameSchema = checked('Rename a session', {
      params: sessionParams,
      querystring: oneSessionQuery,
      body: renameSessionBody,
      response: { 200: ok('Renamed', sessionDetailSchema), ...errors('404', '422') },
    });
    scope.post('/sessions/:session_id/rename', { schema: renameSchema }, async (request) =>
      changed(request, { session_name: request.body.session_name, updated_at: nowSeconds() }),
    );

    const updateSchema = checked('Update a session (given fields replace)', {
      params: sessionParams,
      querystring: oneSessionQuery,
      body: updateSessionBody,
      response: { 200: ok('Updated', sessionDetailSchema), ...errors('404', '422') },
    });
    scope.patch('/sessions/:session_id', { schema: updateSchema }, async (request) => {
      const body = request.body;
      const now = nowSeconds();
      const { summary } = body;
      // Only the given fields are set; the others stay as stored.
      return changed(request, {
        session_name: body.session_name,
        session_state: body.session_state,
        metadata: body.metadata,
        session_summary: summary && {
          summary: summary.summary,
          topics: summary.topics ?? null,
          updated_at: summary.updated_at ?? now,
        },
        updated_at: now,
      });
    });

    const deleteOneSchema = checked('Delete a session', {
      params: sessionParams,
      querystring: deleteSessionsQuery,
      response: { 204: empty('Deleted (also when unknown)') },
    });
    scope.delete('/sessions/:session_id', { schema: deleteOneSchema }, async (request, reply) => {
      // One conditional DELETE: another user's session is simply not matched (204, no-op).
      await store.deleteSessions(
        [{ sessionId: request.params.session_id }],
        ownerOf(callerOf(request), request.query.user_id),
      );
      return reply.code(204).send();
    });

    const deleteSchema = checked('Delete sessions', {
      querystring: deleteSessionsQuery,
      body: deleteSessionsBody,
      response: { 204: empty('Deleted'), ...errors('400', '422') },
    });
    scope.delete('/sessions', { schema: deleteSchema }, async (request, reply) => {
      const { session_ids: ids, session_types: types } = request.body;
      if (ids.length !== types.length) {
        throw new HttpError(400, 'Session IDs and session types must have the same length');
      }
      // Each id only with its own kind; all in one transaction, so a failure deletes none.
      await store.deleteSessions(
        ids.map((sessionId, i) => ({ sessionId, type: types[i] })),
        ownerOf(callerOf(request), request.query.user_id),
      );
      return reply.code(204).send();
    });
  });
}
