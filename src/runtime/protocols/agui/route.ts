/**
 * `POST /agui` and `GET /status`: validate the RunAgentInput (422), refuse a
 * reserved client user id (403), then stream the bound agent's or team's run — fresh, or a paused
 * one continued — as AG-UI events (`data: <JSON>\n\n`). Everything that goes wrong after the
 * stream opened is a RUN_ERROR in it. Never checks scopes: the gateway did.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { EventEncoder } from '@ag-ui/encoder';
import type { AGUIEvent } from '@ag-ui/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { callerOf, isReservedUserId, runUserOf, type Caller } from '../../http/caller.js';
import type { AgentDefinition, TeamDefinition } from '../../catalogue/definitions.js';
import { HttpError } from '../../http/errors.js';
import { errors, HTTP_VALIDATION_ERROR, ok } from '../../http/openapi.js';
import type { ActiveRun, RunService } from '../../api/runs/service.js';
import type { RuntimeStore } from '../../store/store.js';
import { AguiEventMapper } from './events.js';
import { parseRunAgentInput, runAgentInputSchema, type RunAgentInput } from './input.js';
import {
  answeredIds,
  clientToolsOf,
  clientUserIdOf,
  dependenciesOf,
  requestOf,
  resultsFor,
  stateOf,
  userTextOf,
  type AguiRequest,
} from './resume.js';

/** What the AG-UI routes run on. */
export interface AguiRoutes {
  /** The agent or team `POST /agui` runs. */
  readonly entity: AgentDefinition | TeamDefinition;
  readonly runs: RunService;
  readonly store: RuntimeStore;
  /** Ids for the AG-UI messages the stream opens. */
  readonly newId: () => string;
}

const TAGS = ['AGUI'];

/** `GET /status`'s document part. */
const STATUS_DOC = {
  tags: TAGS,
  summary: 'AG-UI interface status',
  response: {
    200: ok('Available', z.object({ status: z.literal('available') }).meta({ id: 'Status' })),
  },
};

/** `POST /agui`'s document part: the 200 body is an SSE stream, documented as FastAPI does. */
const AGUI_DOC = {
  tags: TAGS,
  summary: 'Run the bound agent or team (AG-UI)',
  description:
    'Answers 200 with AG-UI events as `text/event-stream` (`data: <JSON>` frames). Trailing tool ' +
    'messages or `resume` entries continue a paused run on the same thread.',
  body: runAgentInputSchema,
  response: {
    200: z.unknown(),
    ...errors('403'),
    422: ok('Validation Error', HTTP_VALIDATION_ERROR),
  },
};

/** Registers `GET /status` and `POST /agui`. */
export function registerAguiRoutes(app: FastifyInstance, routes: AguiRoutes): void {
  app.get('/status', { schema: STATUS_DOC }, async () => ({ status: 'available' }));
  // Its own scope: the body is read raw, whatever its content type, so that a body that is not
  // JSON is a 422 `json_invalid` (FastAPI) rather than Fastify's 400 or 415.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });
    scope.post('/agui', { schema: AGUI_DOC }, async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : '';
      const input = parseRunAgentInput(body, request.headers['content-type']);
      const caller = callerOf(request);
      const clientUserId = clientUserIdOf(input.forwardedProps);
      if (clientUserId !== null && !caller.authenticated && isReservedUserId(clientUserId)) {
        throw new HttpError(403, 'Client-supplied user_id may not claim a reserved principal');
      }
      await streamAgui(reply, routes, {
        input,
        caller,
        clientUserId,
        traceHeaders: request.headers,
      });
    });
  });
}

interface AguiCall {
  readonly input: RunAgentInput;
  readonly caller: Caller;
  readonly clientUserId: string | null;
  /** The request's headers: the run's span continues their trace. */
  readonly traceHeaders: IncomingHttpHeaders;
}

/** How the run goes: started (or refused, with the RUN_ERROR message), and its base state. */
type Launch =
  | { readonly run: ActiveRun; readonly state: Record<string, unknown> }
  | { readonly error: string; readonly state: Record<string, unknown> };

/** Streams the run's AG-UI events; a client that leaves cancels the run, which is still stored. */
async function streamAgui(reply: FastifyReply, routes: AguiRoutes, call: AguiCall): Promise<void> {
  const encoder = new EventEncoder();
  const res = reply.raw;
  reply.hijack();
  res.writeHead(200, {
    'content-type': encoder.getContentType(),
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const write = (events: readonly AGUIEvent[]): void => {
    for (const event of events) res.write(encoder.encodeSSE(event));
  };
  const { input } = call;
  const launch = await launchRun(routes, call, requestOf(input));
  const mapper = new AguiEventMapper({
    threadId: input.threadId,
    runId: input.runId,
    state: launch.state,
    snapshots: stateOf(input.state) !== null,
    newId: routes.newId,
  });
  write(mapper.start());
  if ('error' in launch) {
    write(mapper.fail(launch.error));
    res.end();
    return;
  }
  const { run } = launch;
  res.once('close', () => {
    if (!res.writableFinished) run.cancel();
  });
  try {
    let step = await run.events.next();
    while (!step.done) {
      write(mapper.map(step.value));
      step = await run.events.next();
    }
    write(mapper.end());
  } catch (error) {
    // The engine throws only for a run it cannot go on with (a checkpoint it did not write).
    write(mapper.fail((error as Error).message));
  }
  res.end();
}

/** Starts the fresh run, or continues the paused run the request answers. */
async function launchRun(
  routes: AguiRoutes,
  call: AguiCall,
  request: AguiRequest,
): Promise<Launch> {
  const { entity, runs, store } = routes;
  const { input, caller, clientUserId } = call;
  const sessionId = caller.sessionId ?? input.threadId;
  const stored = await store.getSession(sessionId);
  if (request.kind === 'run') {
    const given = stateOf(input.state);
    const claims = caller.sessionState;
    const sessionState =
      given === null && claims === null ? null : { ...(given ?? stored?.session_state), ...claims };
    const state = sessionState ?? stored?.session_state ?? {};
    const message = userTextOf(input.messages);
    if (message === null) return { error: 'No user message to run', state };
    const dependencies = dependenciesOf(input.context);
    return launched(
      runs.start({
        entity,
        caller,
        clientUserId,
        sessionId: input.threadId,
        message,
        sessionState,
        clientTools: clientToolsOf(input.tools),
        runId: input.runId,
        traceHeaders: call.traceHeaders,
        dependencies:
          dependencies === null && caller.dependencies === null
            ? null
            : { ...dependencies, ...caller.dependencies },
      }),
      state,
      sessionId,
    );
  }
  // Continuing: only the session's own user may answer its paused run (ours).
  const owner = runUserOf(caller, clientUserId);
  if (
    stored === null ||
    stored.user_id !== owner ||
    stored.component_id !== entity.id ||
    stored.session_type !== entity.kind
  ) {
    return { error: `Session ${sessionId} not found`, state: {} };
  }
  const state = stored.session_state;
  const paused = await runs.findPausedRun(sessionId, answeredIds(request));
  if (paused === null) {
    return {
      error: `No paused run matching the provided tool results found in session ${sessionId}`,
      state,
    };
  }
  const answers = resultsFor(runs.pendingCalls(paused), request);
  if (!answers.ok) return { error: answers.message, state };
  const run = runs.continue({ entity, caller, runId: paused.run_id, sessionId }, answers.results);
  return launched(run, state, sessionId);
}

/** The run the service started or continued, or why it refused to (the RUN_ERROR message). */
async function launched(
  run: Promise<ActiveRun>,
  state: Record<string, unknown>,
  sessionId: string,
): Promise<Launch> {
  try {
    return { run: await run, state };
  } catch (error) {
    // 404 is the service's `Session not found` (another user's or component's session).
    const notFound = error instanceof HttpError && error.status === 404;
    return { error: notFound ? `Session ${sessionId} not found` : (error as Error).message, state };
  }
}
