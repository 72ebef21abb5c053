/**
 * The run routes of agents, teams and workflows: start a run from a form and
 * stream its events as SSE (or answer the run output), continue a paused run with tool results,
 * cancel a run, and read a session's runs back. Each route declares its document part
 * (familyDocs, in entities/schemas.ts); the handlers still read their forms and queries themselves. Never checks
 * scopes: the gateway did; the run service confines data to the caller the gateway named.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf, type Caller } from '../../http/caller.js';
import type { Catalogue } from '../../catalogue/definitions.js';
import type { RunEvent, RunResult } from '../../engine/run.js';
import { HttpError, missingField } from '../../http/errors.js';
import {
  checkFiles,
  formBoolean,
  formJson,
  formString,
  readForm,
  type Form,
} from '../../http/forms.js';
import type { ActiveRun, Entity, RunService } from './service.js';
import { startEventStream, writeEvent } from '../../http/sse.js';
import type { RuntimeStore } from '../../store/store.js';
import { familyDocs, FAMILY_NAMES } from '../entities/schemas.js';
import { runSchema } from '../sessions/render.js';
import { toolAnswersOf } from './tool-answers.js';

/** The entity's id under its family's name (`agent_id`), and `run_id`. */
type Params = Record<string, string>;
type Query = { session_id?: string; status?: string };

/** Registers the run routes of the three kinds. */
export function registerRunRoutes(
  app: FastifyInstance,
  catalogue: Catalogue,
  runs: RunService,
  store: RuntimeStore,
): void {
  const items = [catalogue.agents, catalogue.teams, catalogue.workflows] as const;
  const labels = ['Agent', 'Team', 'Workflow'] as const;
  // Background runs still draining: stopped and awaited when the app closes, so none is cut off
  // mid-write by the store closing after it.
  const draining = new Set<{ run: ActiveRun; done: Promise<unknown> }>();
  app.addHook('onClose', async () => {
    for (const entry of draining) entry.run.cancel();
    await Promise.all([...draining].map((entry) => entry.done));
  });
  /** Drains a run server-side and answers 202 with where to poll it. */
  const inBackground = (reply: FastifyReply, run: ActiveRun) => {
    // Settled, never rejected: a run whose engine throws is stored as ERROR by the run service.
    const entry = { run, done: Promise.allSettled([drain(run)]) };
    draining.add(entry);
    void entry.done.finally(() => draining.delete(entry));
    return reply
      .code(202)
      .send({ run_id: run.runId, session_id: run.sessionId, status: 'RUNNING' });
  };

  for (const [index, kind] of FAMILY_NAMES.entries()) {
    const docs = familyDocs(kind);
    const entityOf = (request: FastifyRequest<{ Params: Params }>): Entity => {
      const id = request.params[kind.param] as string;
      const entity = (items[index] as ReadonlyMap<string, Entity>).get(id);
      if (entity === undefined) throw new HttpError(404, `${labels[index]} not found`);
      return entity;
    };
    const base = `/${kind.path}/:${kind.param}/runs`;

    app.post<{ Params: Params }>(base, { schema: docs.start }, async (request, reply) => {
      const entity = entityOf(request);
      const form = readForm(request);
      // A JSON body is not a form, so it has no message.
      const message = form.fields['message'];
      if (message === undefined) throw missingField('body', 'message');
      const stream = formBoolean(form, 'stream', true);
      const background = formBoolean(form, 'background', false);
      if (background && stream) {
        throw new HttpError(
          400,
          'Background runs are not streamed: send background=true with stream=false and poll ' +
            'GET …/runs/{run_id}?session_id=',
        );
      }
      checkFiles(form);
      const caller = callerOf(request);
      const run = await runs.start({
        entity,
        caller,
        clientUserId: formString(form, 'user_id'),
        sessionId: formString(form, 'session_id'),
        message,
        sessionState: await sessionStateOf(form, caller, store, entity),
        dependencies: dependenciesOf(form, caller),
        traceHeaders: request.headers,
      });
      if (background) return inBackground(reply, run);
      return answer(reply, run, stream);
    });

    app.get<{ Params: Params; Querystring: Query }>(
      base,
      { schema: docs.runs },
      async (request) => {
        const entity = entityOf(request);
        const sessionId = request.query.session_id;
        if (sessionId === undefined) throw missingField('query', 'session_id');
        const caller = callerOf(request);
        const session = await store.getSession(sessionId);
        if (
          session === null ||
          session.component_id !== entity.id ||
          (caller.scopedUserId !== null && session.user_id !== caller.scopedUserId)
        ) {
          throw new HttpError(404, 'Session not found');
        }
        const { status } = request.query;
        return (await store.listRuns(sessionId))
          .filter((run) => status === undefined || run.status === status)
          .map(runSchema);
      },
    );

    app.get<{ Params: Params; Querystring: Query }>(
      `${base}/:run_id`,
      { schema: docs.run },
      async (request) => {
        const entity = entityOf(request);
        const sessionId = request.query.session_id;
        if (sessionId === undefined) throw missingField('query', 'session_id');
        const run = await runs.getRun({
          entity,
          caller: callerOf(request),
          runId: request.params['run_id'] as string,
          sessionId,
        });
        return {
          ...run.output,
          run_id: run.run_id,
          session_id: run.session_id,
          status: run.status,
        };
      },
    );

    app.post<{ Params: Params; Querystring: Query }>(
      `${base}/:run_id/continue`,
      { schema: docs.continue },
      async (request, reply) => {
        const entity = entityOf(request);
        const form = readForm(request);
        const stream = formBoolean(form, 'stream', true);
        const run = await runs.continue(
          {
            entity,
            caller: callerOf(request),
            runId: request.params['run_id'] as string,
            sessionId: formString(form, 'session_id') ?? request.query.session_id ?? null,
          },
          toolAnswersOf(form),
        );
        return answer(reply, run, stream);
      },
    );

    app.post<{ Params: Params; Querystring: Query }>(
      `${base}/:run_id/cancel`,
      { schema: docs.cancel },
      async (request) => {
        const entity = entityOf(request);
        await runs.cancel({
          entity,
          caller: callerOf(request),
          runId: request.params['run_id'] as string,
          sessionId: request.query.session_id ?? formString(readForm(request), 'session_id'),
        });
        return {};
      },
    );
  }
}

/**
 * The state a run starts from: the session's stored state, then the form's `session_state`
 * (a JSON object), then the claims the gateway extracted (`session_state` in the context).
 */
async function sessionStateOf(
  form: Form,
  caller: Caller,
  store: RuntimeStore,
  entity: Entity,
): Promise<Record<string, unknown> | null> {
  const given = formJson(form, 'session_state');
  if (given !== null && (typeof given !== 'object' || Array.isArray(given))) {
    throw new HttpError(400, 'session_state must be a JSON object');
  }
  if (given === null && caller.sessionState === null) return null;
  const sessionId = caller.sessionId ?? formString(form, 'session_id');
  const stored = sessionId === null ? null : await store.getSession(sessionId);
  const base = stored !== null && stored.component_id === entity.id ? stored.session_state : {};
  return { ...base, ...(given as Record<string, unknown> | null), ...caller.sessionState };
}

/**
 * The run's dependencies: the form's `dependencies` (a JSON object), then the claims the gateway
 * extracted into `dependencies` over it; null when neither is given.
 */
function dependenciesOf(form: Form, caller: Caller): Record<string, unknown> | null {
  const given = formJson(form, 'dependencies');
  if (given !== null && (typeof given !== 'object' || Array.isArray(given))) {
    throw new HttpError(400, 'dependencies must be a JSON object');
  }
  if (given === null && caller.dependencies === null) return null;
  return { ...(given as Record<string, unknown> | null), ...caller.dependencies };
}

/** Runs `run` to its end without a client; its result. */
async function drain(run: ActiveRun): Promise<RunResult> {
  let step = await run.events.next();
  while (!step.done) step = await run.events.next();
  return step.value;
}

/** Streams the run as SSE, or drains it and answers the run output. */
async function answer(reply: FastifyReply, run: ActiveRun, stream: boolean): Promise<unknown> {
  if (stream) return streamRun(reply, run);
  return (await drain(run)).output;
}

/** Streams a run's events as SSE; a client that leaves cancels the run, which is still stored. */
async function streamRun(reply: FastifyReply, run: ActiveRun): Promise<void> {
  const res = reply.raw;
  reply.hijack();
  startEventStream(res);
  res.once('close', () => {
    if (!res.writableFinished) run.cancel();
  });
  let step: IteratorResult<RunEvent, RunResult> = await run.events.next();
  while (!step.done) {
    writeEvent(res, step.value.event, step.value);
    step = await run.events.next();
  }
  res.end();
}
