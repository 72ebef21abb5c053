/**
 * Sessions (RUNTIME_API.md §5): list, read, and a session's runs, each confined to the caller's
 * `scoped_user_id` when the gateway set one. Reads the store; never writes it.
 */
import type { FastifyInstance } from 'fastify';
import { callerOf, type Caller } from '../caller.js';
import { HttpError } from '../errors.js';
import type { RunRecord, SessionRecord, SessionType } from '../store/records.js';
import type { RuntimeStore, SessionQuery } from '../store/store.js';
import { boundedInt, checkDatabase } from './query.js';

const iso = (epochSeconds: number): string =>
  new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

const idField = (type: SessionType): 'agent_id' | 'team_id' | 'workflow_id' =>
  type === 'agent' ? 'agent_id' : type === 'team' ? 'team_id' : 'workflow_id';

/** `SessionSchema`. */
export function sessionSchema(s: SessionRecord): Record<string, unknown> {
  return {
    session_id: s.session_id,
    session_name: s.session_name,
    session_state: s.session_state,
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
    session_type: s.session_type,
    user_id: s.user_id,
    agent_id: s.session_type === 'agent' ? s.component_id : null,
    team_id: s.session_type === 'team' ? s.component_id : null,
    workflow_id: s.session_type === 'workflow' ? s.component_id : null,
    session_summary: null,
    metrics: null,
    total_tokens: null,
    metadata: s.metadata,
  };
}

/** `RunSchema` / `TeamRunSchema` / `WorkflowRunSchema` of a stored run. */
export function runSchema(r: RunRecord): Record<string, unknown> {
  const out = r.output;
  return {
    run_id: r.run_id,
    parent_run_id: r.parent_run_id,
    [idField(r.session_type)]: r.component_id,
    user_id: r.user_id,
    status: r.status,
    run_input: r.input,
    content: out.content ?? null,
    run_response_format: typeof out.content === 'object' && out.content !== null ? 'json' : 'text',
    metrics: out.metrics ?? null,
    events: out.events ?? [],
    created_at: iso(r.created_at),
  };
}

/** A session the caller may see, or a 404 with the detail Agno uses. */
function visibleSession(store: RuntimeStore, caller: Caller, id: string): SessionRecord {
  const session = store.getSession(id);
  if (
    session === null ||
    (caller.scopedUserId !== null && session.user_id !== caller.scopedUserId)
  ) {
    throw new HttpError(404, `Session with id '${id}' not found`);
  }
  return session;
}

const TYPES = new Set(['agent', 'team', 'workflow']);
const SORTS = new Set(['created_at', 'updated_at', 'session_name']);

const LABELS: Readonly<Record<SessionType, string>> = {
  agent: 'Agent',
  team: 'Team',
  workflow: 'Workflow',
};

/** Registers the session routes. */
export function registerSessionRoutes(
  app: FastifyInstance,
  store: RuntimeStore,
  dbId: string,
): void {
  app.get<{ Querystring: Record<string, string | undefined> }>('/sessions', async (request) => {
    const caller = callerOf(request.headers);
    const q = request.query;
    checkDatabase(dbId, q.db_id);
    if (q.type !== undefined && !TYPES.has(q.type)) {
      throw new HttpError(422, [
        {
          type: 'enum',
          loc: ['query', 'type'],
          msg: "Input should be 'agent', 'team' or 'workflow'",
          input: q.type,
          ctx: { expected: "'agent', 'team' or 'workflow'" },
        },
      ]);
    }
    if (q.sort_order !== undefined && q.sort_order !== 'asc' && q.sort_order !== 'desc') {
      throw new HttpError(422, [
        {
          type: 'enum',
          loc: ['query', 'sort_order'],
          msg: "Input should be 'asc' or 'desc'",
          input: q.sort_order,
          ctx: { expected: "'asc' or 'desc'" },
        },
      ]);
    }
    const limit = boundedInt(q.limit, 'limit', 20, 100);
    const page = q.page === '0' ? 1 : boundedInt(q.page, 'page', 1, 1_000_000);
    const query: SessionQuery = {
      ...(q.type === undefined ? {} : { type: q.type as SessionType }),
      ...(q.component_id === undefined ? {} : { componentId: q.component_id }),
      // Confined callers see their own rows whatever they ask for (RUNTIME_API §1).
      ...(caller.scopedUserId !== null
        ? { userId: caller.scopedUserId }
        : q.user_id === undefined
          ? {}
          : { userId: q.user_id }),
      ...(q.session_name === undefined ? {} : { nameContains: q.session_name }),
      page,
      limit,
      // An unknown sort column is ignored, as Agno does.
      sortBy: (q.sort_by !== undefined && SORTS.has(q.sort_by)
        ? q.sort_by
        : 'created_at') as SessionQuery['sortBy'],
      sortOrder: q.sort_order === 'asc' ? 'asc' : 'desc',
    };
    const { rows, total } = store.listSessions(query);
    return {
      data: rows.map(sessionSchema),
      meta: {
        page,
        limit,
        total_pages: Math.ceil(total / limit),
        total_count: total,
        search_time_ms: 0,
      },
    };
  });
  app.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>(
    '/sessions/:id',
    async (request) => {
      checkDatabase(dbId, request.query.db_id);
      const session = visibleSession(store, callerOf(request.headers), request.params.id);
      const type = request.query.type;
      if (type !== undefined && TYPES.has(type) && type !== session.session_type) {
        throw new HttpError(
          404,
          `${LABELS[type as SessionType]} Session with id '${request.params.id}' not found`,
        );
      }
      const runs = store.listRuns(session.session_id);
      return {
        ...sessionSchema(session),
        [`${session.session_type}_session_id`]: session.session_id,
        chat_history: runs.flatMap((r) => [
          { role: 'user', content: r.input, created_at: r.created_at },
          ...(typeof r.output.content === 'string'
            ? [{ role: 'assistant', content: r.output.content, created_at: r.updated_at }]
            : []),
        ]),
      };
    },
  );
  app.get<{ Params: { id: string } }>('/sessions/:id/runs', async (request) => {
    const session = store.getSession(request.params.id);
    const caller = callerOf(request.headers);
    if (
      session === null ||
      (caller.scopedUserId !== null && session.user_id !== caller.scopedUserId)
    ) {
      throw new HttpError(404, `Session with ID ${request.params.id} not found`);
    }
    return store.listRuns(session.session_id).map(runSchema);
  });
}
