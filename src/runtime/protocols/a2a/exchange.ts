/**
 * Runs one A2A message and answers it: message/send as one Task (or 202 with a
 * background run's task), message/stream as SSE frames of A2A stream items, each in the binding
 * and protocol version the request came in (JSON-RPC envelopes or HTTP+JSON; 0.3 or 1.0 shapes).
 * Failures before the run starts are the run service's HttpErrors (plain `{"detail": …}`) unless
 * the route started the run itself; never checks scopes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf, type Caller } from '../../http/caller.js';
import type { RunEvent, RunResult } from '../../engine/run.js';
import type { ActiveRun, Entity, RunService } from '../../api/runs/service.js';
import { startEventStream, writeEvent } from '../../http/sse.js';
import type { MessageRequest } from './request.js';
import type { TaskOps } from './task-ops.js';
import { restSendResponse, restStreamResponse, protoTask } from './rest.js';
import { pendingCallsMetadata } from './resume.js';
import { createStreamMapper, type StreamItem } from './stream.js';
import { bareTask, errorText, failedTask, jsonRpcResult, taskOf, type RunTask } from './task.js';

import { createV1StreamMapper } from './v1-stream.js';

/** The content type HTTP+JSON 1.0 answers with. */
export const A2A_JSON = 'application/a2a+json';

/** What answering a message needs besides the request. */
export interface ExchangeDeps {
  readonly runs: RunService;
  /** Ids of the messages the runtime answers with. */
  readonly newId: () => string;
}

/** One message to run. */
export interface MessageExchange {
  readonly entity: Entity;
  readonly request: MessageRequest;
  readonly caller: Caller;
  /** `X-User-ID`, else `params.message.metadata.userId` (honoured for anonymous callers only). */
  readonly clientUserId: string | null;
  /** Whether `configuration.blocking: false` may run it in the background (agents, teams). */
  readonly mayRunInBackground: boolean;
  /** The shapes of the answer: 0.3 (the default) or 1.0. */
  readonly version?: '0.3' | '1.0';
  /** Answer a background run 200 rather than 202 (the `…/v1` endpoint and HTTP+JSON 1.0). */
  readonly backgroundOk?: boolean;
  /** The run, when the route started (or continued) it itself. */
  readonly run?: ActiveRun;
}

/**
 * A message to run, from the caller the gateway named. `background`: whether this route lets
 * `blocking: false` run agents and teams in the background.
 */
export function exchangeOf(
  request: FastifyRequest,
  entity: Entity,
  parsed: MessageRequest,
  o: { readonly background: boolean },
): MessageExchange {
  const header = request.headers['x-user-id'];
  return {
    entity,
    request: parsed,
    caller: callerOf(request),
    clientUserId: typeof header === 'string' && header !== '' ? header : parsed.userId,
    mayRunInBackground: o.background && entity.kind !== 'workflow',
  };
}

/** What the `…/v1` endpoint and HTTP+JSON 1.0 answer from: they start runs as tasks. */
export interface TaskExchangeDeps extends ExchangeDeps {
  readonly tasks: TaskOps;
}

/** message/send or message/stream, as `op` says. */
export function answerMessage(
  reply: FastifyReply,
  deps: ExchangeDeps,
  exchange: MessageExchange,
  op: 'send' | 'stream',
): Promise<unknown> {
  return op === 'send' ? answerSend(reply, deps, exchange) : answerStream(reply, deps, exchange);
}

/**
 * A message to the `…/v1` endpoint or in HTTP+JSON 1.0: the task operations start its run (or
 * continue the paused task it names) before the answer, and a background run answers 200.
 */
export async function answerTaskMessage(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: TaskExchangeDeps,
  o: {
    readonly entity: Entity;
    readonly parsed: MessageRequest;
    readonly version: '0.3' | '1.0';
    readonly op: 'send' | 'stream';
  },
): Promise<unknown> {
  const base = exchangeOf(request, o.entity, o.parsed, { background: true });
  const run = await deps.tasks.start(base);
  return answerMessage(reply, deps, { ...base, version: o.version, backgroundOk: true, run }, o.op);
}

/** The SSE event name of each stream item kind. */
const EVENT_NAME: Readonly<Record<StreamItem['kind'], string>> = Object.freeze({
  'status-update': 'TaskStatusUpdateEvent',
  message: 'Message',
  task: 'Task',
});

/**
 * message/send: runs to the end and answers the Task (200); a non-blocking request for an agent
 * or team answers 202 with the working task at once and runs on. A run that throws still answers
 * 200, with a failed task of a new id.
 */
export async function answerSend(
  reply: FastifyReply,
  deps: ExchangeDeps,
  exchange: MessageExchange,
): Promise<unknown> {
  const { request } = exchange;
  const run = exchange.run ?? (await startRun(deps, exchange));
  const v1 = exchange.version === '1.0';
  if (v1 && request.transport === 'rest') void reply.type(A2A_JSON);
  const render = (task: RunTask): unknown => {
    const rest = request.transport === 'rest';
    const result = v1 ? { task: protoTask(task, '1.0') } : rest ? restSendResponse(task) : task;
    return rest ? result : jsonRpcResult(request.id, result);
  };
  if (!request.blocking && exchange.mayRunInBackground) {
    // The run's stored record tells how far it got; an end that cannot be stored (the store
    // closing under it) has no one left to tell.
    drain(run).catch(() => {});
    return reply
      .code(exchange.backgroundOk === true ? 200 : 202)
      .send(render(bareTask(run.runId, run.sessionId, 'working')));
  }
  let result: RunResult;
  try {
    result = await drain(run);
  } catch (error) {
    return render(
      failedTask({
        taskId: deps.newId(),
        contextId: run.sessionId,
        messageId: deps.newId(),
        error: errorText(error),
      }),
    );
  }
  return render(
    taskOf({ ...run, status: result.status, content: result.output['content'] }, deps.newId()),
  );
}

/**
 * message/stream: SSE frames `event: <TaskStatusUpdateEvent|Message|Task>` whose data is the
 * JSON-RPC envelope of the item (HTTP+JSON: the item's `{statusUpdate|message|task}` wrapper).
 * A client that leaves cancels the run, which is still stored.
 */
export async function answerStream(
  reply: FastifyReply,
  deps: ExchangeDeps,
  exchange: MessageExchange,
): Promise<void> {
  const { request, entity } = exchange;
  const run = exchange.run ?? (await startRun(deps, exchange));
  const ids = { taskId: run.runId, contextId: run.sessionId };
  const mapper = createStreamMapper({
    kind: entity.kind,
    ...ids,
    messageId: deps.newId(),
    newId: deps.newId,
  });
  const v1 =
    exchange.version === '1.0' ? createV1StreamMapper({ ...ids, artifactId: deps.newId() }) : null;
  const rest = request.transport === 'rest';
  const res = reply.raw;
  reply.hijack();
  startEventStream(res);
  res.once('close', () => {
    if (!res.writableFinished) run.cancel();
  });
  const frame = (name: string, item: unknown): void => {
    writeEvent(res, name, rest ? item : jsonRpcResult(request.id, item));
  };
  if (v1 !== null) frame('Task', v1.start());
  const write = (items: readonly StreamItem[]): void => {
    for (const item of items) {
      if (v1 === null) frame(EVENT_NAME[item.kind], rest ? restStreamResponse(item) : item);
      else {
        for (const out of v1.map(item)) {
          frame('statusUpdate' in out ? 'TaskStatusUpdateEvent' : 'TaskArtifactUpdateEvent', out);
        }
      }
    }
  };
  try {
    const { status, output, checkpoint } = await drain(run, (event) => write(mapper.map(event)));
    write(
      mapper.finish({
        status,
        content: output['content'],
        metrics: output['metrics'],
        pending: status === 'PAUSED' ? pendingCallsMetadata(checkpoint) : undefined,
      }),
    );
  } catch (error) {
    write(mapper.fail(errorText(error)));
  }
  res.end();
}

/** Starts the run of a message (a new one, in the session the message names). */
export function startRun(deps: ExchangeDeps, exchange: MessageExchange): Promise<ActiveRun> {
  return deps.runs.start({
    entity: exchange.entity,
    caller: exchange.caller,
    clientUserId: exchange.clientUserId,
    sessionId: exchange.request.contextId,
    message: exchange.request.text,
  });
}

/** Drains a run's events, each to `each` in order; the result is stored by then. */
async function drain(run: ActiveRun, each?: (event: RunEvent) => void): Promise<RunResult> {
  let step = await run.events.next();
  while (!step.done) {
    each?.(step.value);
    step = await run.events.next();
  }
  return step.value;
}
