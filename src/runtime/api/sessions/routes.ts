/**
 * Sessions: the list, one session, a session's runs and one of its runs, each
 * confined to the caller's `scoped_user_id` when the gateway set one; the write routes are
 * registered from writes.ts. Each route declares its input and answer (schemas.ts); the
 * lifecycle checks the input before a handler runs. Never checks scopes: the gateway did.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callerOf, type Caller } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import type { SessionRecord, SessionType } from '../../store/records.js';
import type { RuntimeStore, SessionQuery } from '../../store/store.js';
import { findSession, ownerOf } from './lookup.js';
import { runSchema, sessionDetail, sessionSchema } from './render.js';
import { SESSION_SORTS } from './table.js';
import { registerSessionWriteRoutes, type SessionWriteDeps } from './writes.js';
import { listOf, paginated } from '../../http/list-query.js';
import { errors, ok } from '../../http/openapi.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';
import { paginatedOf } from '../../http/openapi-shapes.js';
import {
  listSessionsQuery,
  oneSessionQuery,
  runSchemaSchema,
  SESSION_TAGS,
  sessionDetailSchema,
  sessionParams,
  sessionRunParams,
  sessionRunsQuery,
  sessionSchemaSchema,
} from './schemas.js';

/** The schemas of this file's routes (validation.ts). */
const { checked } = sectionSchemas(SESSION_TAGS);

const LABELS: Readonly<Record<SessionType, string>> = {
  agent: 'Agent',
  team: 'Team',
  workflow: 'Workflow',
};

/** Registers the session routes, reads and writes. */
export function registerSessionRoutes(
  parent: FastifyInstance,
  store: RuntimeStore,
  deps: SessionWriteDeps,
): void {
  const app = parent.withTypeProvider<CheckedTypes>();
  const listSchema = checked('List sessions', {
    querystring: listSessionsQuery,
    response: { 200: ok('Sessions', paginatedOf(sessionSchemaSchema)), ...errors('404', '422') },
  });
  app.get('/sessions', { schema: listSchema }, async (request) => {
    const q = request.query;
    const params = listOf(q, SESSION_SORTS, 'created_at');
    const owner = ownerOf(callerOf(request), q.user_id);
    const query: SessionQuery = {
      ...(q.type === undefined ? {} : { type: q.type }),
      ...(q.component_id === undefined ? {} : { componentId: q.component_id }),
      // Confined callers see their own rows whatever they ask for.
      ...(owner === undefined ? {} : { userId: owner }),
      ...(q.session_name === undefined ? {} : { nameContains: q.session_name }),
      ...params,
    };
    const { rows, total } = await store.listSessions(query);
    return paginated(rows.map(sessionSchema), params.page, params.limit, total);
  });

  const getSchema = checked('One session', {
    params: sessionParams,
    querystring: oneSessionQuery,
    response: { 200: ok('The session', sessionDetailSchema), ...errors('404', '422') },
  });
  app.get('/sessions/:session_id', { schema: getSchema }, async (request) => {
    const { type, user_id: userId } = request.query;
    const id = request.params.session_id;
    const session = await findSession(store, id, {
      type,
      owner: ownerOf(callerOf(request), userId),
    });
    if (session === null) {
      const label = type === undefined ? '' : `${LABELS[type]} `;
      throw new HttpError(404, `${label}Session with id '${id}' not found`);
    }
    return sessionDetail(session, await store.listRuns(session.session_id));
  });

  /**
   * The session of the run routes as the caller may see it, or Agno's 404 for them (worded
   * unlike the detail's).
   */
  async function sessionOfRuns(
    id: string,
    q: { type?: SessionType | undefined; user_id?: string | undefined },
    caller: Caller,
  ): Promise<SessionRecord> {
    const session = await findSession(store, id, {
      type: q.type,
      owner: ownerOf(caller, q.user_id),
    });
    if (session === null) throw new HttpError(404, `Session with ID ${id} not found`);
    return session;
  }

  registerSessionWriteRoutes(parent, store, deps);

  // In a scope registered after the write routes' own, so the document lists the session paths
  // in the reference's order (rename before runs).
  void parent.register(async (plain) => {
    const scope = plain.withTypeProvider<CheckedTypes>();
    const runsSchema = checked("A session's runs", {
      params: sessionParams,
      querystring: sessionRunsQuery,
      response: { 200: ok('Runs', z.array(runSchemaSchema)), ...errors('404', '422') },
    });
    scope.get('/sessions/:session_id/runs', { schema: runsSchema }, async (request) => {
      const q = request.query;
      // Epoch seconds, both ends included, as Agno filters.
      const { created_after: after, created_before: before } = q;
      const session = await sessionOfRuns(request.params.session_id, q, callerOf(request));
      return (await store.listRuns(session.session_id))
        .filter(
          (run) =>
            (after === undefined || run.created_at >= after) &&
            (before === undefined || run.created_at <= before),
        )
        .map(runSchema);
    });

    const runSchemaDoc = checked('One run of a session', {
      params: sessionRunParams,
      querystring: oneSessionQuery,
      response: { 200: ok('The run', runSchemaSchema), ...errors('404', '422') },
    });
    scope.get('/sessions/:session_id/runs/:run_id', { schema: runSchemaDoc }, async (request) => {
      const { session_id: id, run_id: runId } = request.params;
      const session = await sessionOfRuns(id, request.query, callerOf(request));
      const run = await store.getRun(runId);
      // A run of another session is not found here, even one the caller may read elsewhere.
      if (run === null || run.session_id !== session.session_id) {
        throw new HttpError(404, `Run with ID ${runId} not found in session ${id}`);
      }
      return runSchema(run);
    });
  });
}
