/**
 * The session write routes: create, rename, update, delete one, delete many.
 * A confined caller (`scoped_user_id`) writes only its own sessions, and another user's
 * session looks missing: 404 to rename or update, a 204 that deletes nothing. Every write stamps
 * `updated_at` from the injected clock. Each route declares its document part
 * (session-shapes.ts); the handlers still check their own input. Never checks scopes: the
 * gateway did.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../../../shared/clock.js';
import { callerOf, isReservedUserId, runUserOf } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import type { SessionRecord, SessionType } from '../../store/records.js';
import type { RuntimeStore } from '../../store/store.js';
import {
  parseBulkDeleteBody,
  parseCreateBody,
  parseRenameBody,
  parseUpdateBody,
} from './bodies.js';
import { ownerOf, typeQuery } from './lookup.js';
import type { SessionChanges } from './table.js';
import { scalarQuery, type RawQuery, checkDatabase } from '../../http/query.js';
import { sessionDetail } from './render.js';
import { acceptEmptyJsonBody } from '../../http/json-body.js';
import { empty, errors, ok } from '../../http/openapi.js';
import {
  createSessionBody,
  createSessionQuery,
  deleteSessionsBody,
  deleteSessionsQuery,
  oneSessionQuery,
  renameSessionBody,
  SESSION_TAGS,
  sessionDetailSchema,
  sessionParams,
  updateSessionBody,
} from './schemas.js';

/** What the write routes take from the runtime besides the store. */
export interface SessionWriteDeps {
  readonly clock: Clock;
  /** A new session id (a uuid in production, a counter in tests). */
  readonly newId: () => string;
}

type OneSession = { Params: z.infer<typeof sessionParams>; Querystring: RawQuery };
type Request = FastifyRequest<OneSession>;

/**
 * Registers the write routes in their own Fastify scope, whose JSON parser reads an empty body
 * as no body: `POST /sessions` takes an optional body, and clients send `content-type:
 * application/json` with nothing after it.
 */
export function registerSessionWriteRoutes(
  app: FastifyInstance,
  store: RuntimeStore,
  dbId: string,
  deps: SessionWriteDeps,
): void {
  const nowSeconds = (): number => Math.floor(deps.clock.now() / 1000);

  /**
   * Sets `changes` on the session a single-session write may change, in one conditional UPDATE
   * (a concurrent write of other fields is kept), and answers its detail; or the 404 Agno
   * answers. Called after the body is checked: FastAPI refuses a bad request (422) before its
   * handler looks anything up.
   */
  async function changed(
    request: Request,
    type: SessionType | undefined,
    changes: SessionChanges,
  ): Promise<Record<string, unknown>> {
    const q = scalarQuery(request.query);
    checkDatabase(dbId, q.db_id);
    const session = await store.updateSession(request.params.session_id, changes, {
      type,
      owner: ownerOf(callerOf(request), q.user_id),
    });
    if (session === null) {
      throw new HttpError(404, `Session with id '${request.params.session_id}' not found`);
    }
    return sessionDetail(session, await store.listRuns(session.session_id));
  }

  void app.register(async (scope) => {
    acceptEmptyJsonBody(scope);

    const createSchema = {
      tags: SESSION_TAGS,
      summary: 'Create a session',
      querystring: createSessionQuery,
      body: createSessionBody.optional(),
      response: { 201: ok('Created', sessionDetailSchema), ...errors('400', '404', '422') },
    };
    scope.post<{ Querystring: RawQuery }>(
      '/sessions',
      { schema: createSchema },
      async (request, reply) => {
        const q = scalarQuery(request.query);
        const type = typeQuery(q.type) ?? 'agent';
        const body = parseCreateBody(request.body, request.headers['content-type'], type);
        checkDatabase(dbId, q.db_id);
        const caller = callerOf(request);
        if (body.userId !== null && !caller.authenticated && isReservedUserId(body.userId)) {
          throw new HttpError(403, 'Client-supplied user_id may not claim a reserved principal');
        }
        const now = nowSeconds();
        const session: SessionRecord = {
          session_id: body.sessionId ?? deps.newId(),
          session_type: type,
          component_id: body.componentId,
          // The context's user wins: a confined caller cannot create a session for another.
          user_id: runUserOf(caller, body.userId),
          session_name: body.sessionName,
          session_state: body.sessionState ?? {},
          metadata: body.metadata,
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

    const renameSchema = {
      tags: SESSION_TAGS,
      summary: 'Rename a session',
      params: sessionParams,
      querystring: oneSessionQuery,
      body: renameSessionBody,
      response: { 200: ok('Renamed', sessionDetailSchema), ...errors('404', '422') },
    };
    scope.post<OneSession>(
      '/sessions/:session_id/rename',
      { schema: renameSchema },
      async (request) => {
        const type = typeQuery(scalarQuery(request.query).type);
        const name = parseRenameBody(request.body, request.headers['content-type']);
        return changed(request, type, { session_name: name, updated_at: nowSeconds() });
      },
    );

    const updateSchema = {
      tags: SESSION_TAGS,
      summary: 'Update a session (given fields replace)',
      params: sessionParams,
      querystring: oneSessionQuery,
      body: updateSessionBody,
      response: { 200: ok('Updated', sessionDetailSchema), ...errors('404', '422') },
    };
    scope.patch<OneSession>('/sessions/:session_id', { schema: updateSchema }, async (request) => {
      const type = typeQuery(scalarQuery(request.query).type);
      const body = parseUpdateBody(request.body, request.headers['content-type']);
      const now = nowSeconds();
      const { summary } = body;
      // Only the given fields are set; the others stay as stored.
      return changed(request, type, {
        session_name: body.sessionName,
        session_state: body.sessionState,
        metadata: body.metadata,
        session_summary: summary && {
          summary: summary.summary,
          topics: summary.topics,
          updated_at: summary.updatedAt ?? now,
        },
        updated_at: now,
      });
    });

    const deleteOneSchema = {
      tags: SESSION_TAGS,
      summary: 'Delete a session',
      params: sessionParams,
      querystring: deleteSessionsQuery,
      response: { 204: empty('Deleted (also when unknown)') },
    };
    scope.delete<OneSession>(
      '/sessions/:session_id',
      { schema: deleteOneSchema },
      async (request, reply) => {
        const q = scalarQuery(request.query);
        checkDatabase(dbId, q.db_id);
        // One conditional DELETE: another user's session is simply not matched (204, no-op).
        await store.deleteSessions(
          [{ sessionId: request.params.session_id }],
          ownerOf(callerOf(request), q.user_id),
        );
        return reply.code(204).send();
      },
    );

    const deleteSchema = {
      tags: SESSION_TAGS,
      summary: 'Delete sessions',
      querystring: deleteSessionsQuery,
      body: deleteSessionsBody,
      response: { 204: empty('Deleted'), ...errors('400', '422') },
    };
    scope.delete<{ Querystring: RawQuery }>(
      '/sessions',
      { schema: deleteSchema },
      async (request, reply) => {
        const q = scalarQuery(request.query);
        const body = parseBulkDeleteBody(request.body, request.headers['content-type']);
        if (body.sessionIds.length !== body.sessionTypes.length) {
          throw new HttpError(400, 'Session IDs and session types must have the same length');
        }
        checkDatabase(dbId, q.db_id);
        // Each id only with its own kind; all in one transaction, so a failure deletes none.
        await store.deleteSessions(
          body.sessionIds.map((sessionId, i) => ({ sessionId, type: body.sessionTypes[i] })),
          ownerOf(callerOf(request), q.user_id),
        );
        return reply.code(204).send();
      },
    );
  });
}
