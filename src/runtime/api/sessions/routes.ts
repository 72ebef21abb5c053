/**
 * Sessions: the list, one session, a session's runs and one of its runs, each
 * confined to the caller's `scoped_user_id` when the gateway set one; the write routes are
 * registered from session-writes.ts. Each route declares its document part (session-shapes.ts);
 * the handlers still check their own input. Never checks scopes: the gateway did.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callerOf, type Caller } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import type { SessionRecord, SessionType } from '../../store/records.js';
import type { RuntimeStore, SessionQuery } from '../../store/store.js';
import { findSession, ownerOf, typeQuery } from './lookup.js';
import {
  scalarQuery,
  type RawQuery,
  boundedInt,
  checkDatabase,
  intQuery,
  sortOrderQuery,
} from '../../http/query.js';
import { runSchema, sessionDetail, sessionSchema } from './render.js';
import { registerSessionWriteRoutes, type SessionWriteDeps } from './writes.js';
import { paginated } from '../../http/list-query.js';
import { errors, ok } from '../../http/openapi.js';
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

const SORTS = new Set(['created_at', 'updated_at', 'session_name']);

const LABELS: Readonly<Record<SessionType, string>> = {
  agent: 'Agent',
  team: 'Team',
  workflow: 'Workflow',
};

type OneSession = { Params: z.infer<typeof sessionParams>; Querystring: RawQuery };

/** Registers the session routes, reads and writes. */
export function registerSessionRoutes(
  app: FastifyInstance,
  store: RuntimeStore,
  dbId: string,
  deps: SessionWriteDeps,
): void {
  const listSchema = {
    tags: SESSION_TAGS,
    summary: 'List sessions',
    querystring: listSessionsQuery,
    response: { 200: ok('Sessions', paginatedOf(sessionSchemaSchema)), ...errors('404', '422') },
  };
  app.get<{ Querystring: RawQuery }>('/sessions', { schema: listSchema }, async (request) => {
    const caller = callerOf(request);
    const q = scalarQuery(request.query);
    const type = typeQuery(q.type);
    const sortOrder = sortOrderQuery(q.sort_order);
    const limit = boundedInt(q.limit, 'limit', 20, 100);
    const page = q.page === '0' ? 1 : boundedInt(q.page, 'page', 1, 1_000_000);
    checkDatabase(dbId, q.db_id);
    const owner = ownerOf(caller, q.user_id);
    const query: SessionQuery = {
      ...(type === undefined ? {} : { type }),
      ...(q.component_id === undefined ? {} : { componentId: q.component_id }),
      // Confined callers see their own rows whatever they ask for.
      ...(owner === undefined ? {} : { userId: owner }),
      ...(q.session_name === undefined ? {} : { nameContains: q.session_name }),
      page,
      limit,
      // An unknown sort column is ignored, as Agno does.
      sortBy: (q.sort_by !== undefined && SORTS.has(q.sort_by)
        ? q.sort_by
        : 'created_at') as SessionQuery['sortBy'],
      sortOrder,
    };
    const { rows, total } = await store.listSessions(query);
    return paginated(rows.map(sessionSchema), page, limit, total);
  });

  const getSchema = {
    tags: SESSION_TAGS,
    summary: 'One session',
    params: sessionParams,
    querystring: oneSessionQuery,
    response: { 200: ok('The session', sessionDetailSchema), ...errors('404', '422') },
  };
  app.get<OneSession>('/sessions/:session_id', { schema: getSchema }, async (request) => {
    const q = scalarQuery(request.query);
    const type = typeQuery(q.type);
    checkDatabase(dbId, q.db_id);
    const id = request.params.session_id;
    const session = await findSession(store, id, {
      type,
      owner: ownerOf(callerOf(request), q.user_id),
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
    q: Readonly<Record<string, string | undefined>>,
    caller: Caller,
  ): Promise<SessionRecord> {
    const type = typeQuery(q.type);
    checkDatabase(dbId, q.db_id);
    const session = await findSession(store, id, { type, owner: ownerOf(caller, q.user_id) });
    if (session === null) throw new HttpError(404, `Session with ID ${id} not found`);
    return session;
  }

  registerSessionWriteRoutes(app, store, dbId, deps);

  // In a scope registered after the write routes' own, so the document lists the session paths
  // in the reference's order (rename before runs).
  void app.register(async (scope) => {
    const runsSchema = {
      tags: SESSION_TAGS,
      summary: "A session's runs",
      params: sessionParams,
      querystring: sessionRunsQuery,
      response: { 200: ok('Runs', z.array(runSchemaSchema)), ...errors('404', '422') },
    };
    scope.get<OneSession>('/sessions/:session_id/runs', { schema: runsSchema }, async (request) => {
      const q = scalarQuery(request.query);
      // Epoch seconds, both ends included, as Agno filters.
      const after = intQuery(q.created_after, 'created_after');
      const before = intQuery(q.created_before, 'created_before');
      const session = await sessionOfRuns(request.params.session_id, q, callerOf(request));
      return (await store.listRuns(session.session_id))
        .filter(
          (run) =>
            (after === undefined || run.created_at >= after) &&
            (before === undefined || run.created_at <= before),
        )
        .map(runSchema);
    });

    const runSchemaDoc = {
      tags: SESSION_TAGS,
      summary: 'One run of a session',
      params: sessionRunParams,
      querystring: oneSessionQuery,
      response: { 200: ok('The run', runSchemaSchema), ...errors('404', '422') },
    };
    scope.get<{ Params: z.infer<typeof sessionRunParams>; Querystring: RawQuery }>(
      '/sessions/:session_id/runs/:run_id',
      { schema: runSchemaDoc },
      async (request) => {
        const { session_id: id, run_id: runId } = request.params;
        const session = await sessionOfRuns(id, scalarQuery(request.query), callerOf(request));
        const run = await store.getRun(runId);
        // A run of another session is not found here, even one the caller may read elsewhere.
        if (run === null || run.session_id !== session.session_id) {
          throw new HttpError(404, `Run with ID ${runId} not found in session ${id}`);
        }
        return runSchema(run);
      },
    );
  });
}
