/**
 * `POST /agents|teams|workflows/{id}/runs` (RUNTIME_API.md §4.1): start a run from a form, stream
 * its events as SSE (or answer the run output), and persist the session and the run. Never
 * checks scopes: the gateway did; it only confines data to the caller the gateway named.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { callerOf, isReservedUserId, runUserOf } from '../caller.js';
import type {
  AgentDefinition,
  Catalogue,
  TeamDefinition,
  WorkflowDefinition,
} from '../definitions.js';
import { runEntity, type EngineDeps, type RunResult } from '../engine/run.js';
import { HttpError, missingField } from '../errors.js';
import { startEventStream, writeEvent } from '../sse.js';
import type { RunRecord, SessionRecord, SessionType } from '../store/records.js';
import type { RuntimeStore } from '../store/store.js';

type Entity = AgentDefinition | TeamDefinition | WorkflowDefinition;

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** A form boolean (`true/false/1/0/yes/no/on/off`); 422 otherwise. */
export function formBoolean(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  const text = String(value).toLowerCase();
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw new HttpError(422, [
    {
      type: 'bool_parsing',
      loc: ['body', field],
      msg: 'Input should be a valid boolean, unable to interpret input',
      input: value,
    },
  ]);
}

function formString(body: Record<string, unknown>, field: string): string | null {
  const value = body[field];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Registers the run routes. */
export function registerRunRoutes(
  app: FastifyInstance,
  catalogue: Catalogue,
  store: RuntimeStore,
  deps: EngineDeps,
): void {
  const kinds = [
    { path: 'agents', type: 'agent', label: 'Agent', items: catalogue.agents },
    { path: 'teams', type: 'team', label: 'Team', items: catalogue.teams },
    { path: 'workflows', type: 'workflow', label: 'Workflow', items: catalogue.workflows },
  ] as const;
  for (const kind of kinds) {
    app.post<{ Params: { id: string } }>(`/${kind.path}/:id/runs`, async (request, reply) => {
      const entity = (kind.items as ReadonlyMap<string, Entity>).get(request.params.id);
      if (entity === undefined) throw new HttpError(404, `${kind.label} not found`);
      // Run routes take forms (RUNTIME_API.md §0): a JSON body is not one, so it has no message.
      const isForm = (request.headers['content-type'] ?? '').startsWith(
        'application/x-www-form-urlencoded',
      );
      const body = (
        isForm && typeof request.body === 'object' && request.body !== null ? request.body : {}
      ) as Record<string, unknown>;
      const message = typeof body.message === 'string' ? body.message : null;
      if (message === null) throw missingField('body', 'message');
      const stream = formBoolean(body.stream, 'stream', true);
      const caller = callerOf(request.headers);
      const clientUser = formString(body, 'user_id');
      if (clientUser !== null && !caller.authenticated && isReservedUserId(clientUser)) {
        throw new HttpError(403, 'Client-supplied user_id may not claim a reserved principal');
      }
      const userId = runUserOf(caller, clientUser);
      const session = openSession(store, {
        sessionId: caller.sessionId ?? formString(body, 'session_id'),
        type: kind.type,
        componentId: entity.id,
        userId,
        scopedUserId: caller.scopedUserId,
        newId: deps.newId,
        now: Math.floor(deps.clock.now() / 1000),
      });
      const runId = deps.newId();
      const cancel = { cancelled: false };
      const generator = runEntity(
        entity,
        {
          runId,
          sessionId: session.session_id,
          userId,
          message,
          sessionState: session.session_state,
          cancel,
        },
        deps,
      );
      const record: RunRecord = {
        run_id: runId,
        session_id: session.session_id,
        session_type: kind.type,
        component_id: entity.id,
        parent_run_id: null,
        user_id: userId,
        status: 'RUNNING',
        input: message,
        output: {},
        created_at: session.updated_at,
        updated_at: session.updated_at,
      };
      store.putRun(record);
      if (stream)
        return streamRun(reply, generator, cancel, (result) =>
          finish(store, session, record, result, deps),
        );
      let step = await generator.next();
      while (!step.done) step = await generator.next();
      finish(store, session, record, step.value, deps);
      return step.value.output;
    });
  }
}

/** Finds the session to run in (confined to the scoped caller), or creates it. */
function openSession(
  store: RuntimeStore,
  o: {
    sessionId: string | null;
    type: SessionType;
    componentId: string;
    userId: string | null;
    scopedUserId: string | null;
    newId: () => string;
    now: number;
  },
): SessionRecord {
  if (o.sessionId !== null) {
    const existing = store.getSession(o.sessionId);
    if (existing !== null) {
      // Another user's session, or another component's, is not the caller's to write into.
      const foreign =
        (o.scopedUserId !== null && existing.user_id !== o.scopedUserId) ||
        existing.session_type !== o.type ||
        existing.component_id !== o.componentId;
      if (foreign) throw new HttpError(404, 'Session not found');
      return existing;
    }
  }
  const session: SessionRecord = {
    session_id: o.sessionId ?? o.newId(),
    session_type: o.type,
    component_id: o.componentId,
    user_id: o.userId,
    session_name: null,
    session_state: {},
    metadata: null,
    created_at: o.now,
    updated_at: o.now,
  };
  store.putSession(session);
  return session;
}

function finish(
  store: RuntimeStore,
  session: SessionRecord,
  record: RunRecord,
  result: RunResult,
  deps: EngineDeps,
): void {
  const now = Math.floor(deps.clock.now() / 1000);
  store.putRun({ ...record, status: result.status, output: result.output, updated_at: now });
  store.putSession({
    ...session,
    session_name: session.session_name ?? record.input.slice(0, 100),
    session_state: result.sessionState,
    updated_at: now,
  });
}

/** Streams a run's events as SSE; a client that leaves cancels the run. */
async function streamRun(
  reply: FastifyReply,
  generator: AsyncGenerator<{ event: string }, RunResult, void>,
  cancel: { cancelled: boolean },
  done: (result: RunResult) => void,
): Promise<void> {
  const res = reply.raw;
  reply.hijack();
  startEventStream(res);
  res.once('close', () => {
    if (!res.writableFinished) cancel.cancelled = true;
  });
  let step = await generator.next();
  while (!step.done) {
    writeEvent(res, step.value.event, step.value);
    step = await generator.next();
  }
  done(step.value);
  res.end();
}
