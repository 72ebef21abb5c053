/**
 * The A2A routes under the configured prefix, for every agent, team and
 * workflow: the agent card, the JSON-RPC endpoint `…/v1` (1.0 and 0.3 methods), message:send /
 * message:stream (JSON-RPC bodies, HTTP+JSON 0.3 or 1.0), tasks:get / tasks:cancel and the
 * HTTP+JSON task routes (agents, teams), and the deprecated dynamic dispatch. Each route declares
 * its document part (docs.ts). Never checks scopes: the gateway did; the run service confines
 * runs to the caller.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf } from '../../http/caller.js';
import type { Catalogue } from '../../catalogue/definitions.js';
import { HttpError } from '../../http/errors.js';
import type { Entity } from '../../api/runs/service.js';
import type { RunRecord } from '../../store/records.js';
import { agentCardOf, publicOrigin } from './card.js';
import { answerMessage, exchangeOf } from './exchange.js';
import {
  dispatchTargetOf,
  parseJsonBody,
  parseMessageRequest,
  parseTaskRequest,
} from './request.js';
import { dispatchDoc, entityDocs } from './docs.js';
import { answerRpc, unsupported } from './endpoint.js';
import { restTask } from './rest.js';
import { createTaskOps, type TaskOpsDeps } from './task-ops.js';
import { bareTask, jsonRpcResult, recordTask } from './task.js';
import {
  answerRestListTasks,
  answerRestMessage,
  answerRestTask,
  sendRestError,
  sharedBodyOf,
  sharedPathProtocolOf,
  versionNotSupported,
} from './v1-rest.js';

/** What the A2A routes serve from. */
export interface A2ARouteDeps extends TaskOpsDeps {
  /** The path prefix (`a2a_prefix`), e.g. `/a2a`. */
  readonly prefix: string;
  readonly catalogue: Catalogue;
}

type Params = { id: string; task_id: string };

/**
 * Registers the A2A routes in a scope of their own under the prefix. Bodies there are read as
 * text whatever their content type, so a body that is not JSON is the A2A 400, not Fastify's.
 */
export function registerA2ARoutes(app: FastifyInstance, deps: A2ARouteDeps): void {
  void app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
        done(null, body);
      });
      registerEntityRoutes(scope, deps);
      registerDispatchRoutes(scope, deps);
    },
    { prefix: deps.prefix },
  );
}

const KINDS = [
  { path: 'agents', label: 'Agent', family: 'agents', tasks: true },
  { path: 'teams', label: 'Team', family: 'teams', tasks: true },
  { path: 'workflows', label: 'Workflow', family: 'workflows', tasks: false },
] as const;

function registerEntityRoutes(app: FastifyInstance, deps: A2ARouteDeps): void {
  const { catalogue, runs, store } = deps;
  const v1 = { ...deps, tasks: createTaskOps(deps) };
  for (const kind of KINDS) {
    const items = catalogue[kind.family] as ReadonlyMap<string, Entity>;
    const entityOf = (request: FastifyRequest<{ Params: Pick<Params, 'id'> }>): Entity => {
      const entity = items.get(request.params.id);
      if (entity === undefined) throw new HttpError(404, `${kind.label} not found`);
      return entity;
    };
    const card = async (request: FastifyRequest<{ Params: Pick<Params, 'id'> }>) =>
      agentCardOf(entityOf(request), publicOrigin(request.headers, request.host) + deps.prefix);
    const base = `/${kind.path}/:id`;
    const docs = entityDocs(kind.label.toLowerCase());

    app.get(`${base}/.well-known/agent-card.json`, { schema: docs.card }, card);
    // The HTTP+JSON binding's card route: the same card (no authenticated extended card).
    app.get(`${base}/v1/card`, { schema: docs.card }, card);

    // The JSON-RPC endpoint: one URL for every method, 1.0 and 0.3.
    app.post<{ Params: Params }>(`${base}/v1`, { schema: docs.rpc }, async (request, reply) =>
      answerRpc(request, reply, v1, entityOf(request)),
    );

    for (const [path, method, op] of [
      ['message::send', 'message/send', 'send'],
      ['message::stream', 'message/stream', 'stream'],
    ] as const) {
      const schema = op === 'send' ? docs.send : docs.stream;
      app.post<{ Params: Params }>(`${base}/v1/${path}`, { schema }, async (request, reply) => {
        const entity = entityOf(request);
        const body = sharedBodyOf(request.body);
        const protocol = sharedPathProtocolOf(request.headers, body);
        if (protocol === 'rest-1.0') return answerRestMessage(request, reply, v1, entity, body, op);
        if (protocol === 'unsupported') return sendRestError(reply, versionNotSupported());
        const parsed = parseMessageRequest(parseJsonBody(request.body), method);
        const exchange = exchangeOf(request, entity, parsed, { background: true });
        return answerMessage(reply, deps, exchange, op);
      });
    }
    if (!kind.tasks) continue;

    app.post<{ Params: Params }>(
      `${base}/v1/tasks::get`,
      { schema: docs.getTask },
      async (request) => {
        const entity = entityOf(request);
        const { id, taskId, contextId } = parseTaskRequest(parseJsonBody(request.body));
        if (contextId === null) throw new HttpError(400, 'contextId is required to poll a task');
        const run = await ownRun(request, entity, taskId, contextId);
        return jsonRpcResult(id, recordTask(run, deps.newId()));
      },
    );

    app.post<{ Params: Params }>(
      `${base}/v1/tasks::cancel`,
      { schema: docs.cancelTask },
      async (request) => {
        const entity = entityOf(request);
        const { id, taskId, contextId } = parseTaskRequest(parseJsonBody(request.body));
        const caller = callerOf(request);
        if (caller.scopedUserId !== null && contextId === null) {
          throw new HttpError(400, 'contextId is required to cancel a task');
        }
        await runs.cancel({ entity, caller, runId: taskId, sessionId: contextId });
        // Always canceled once past validation, like REST cancel.
        const sessionId = contextId ?? (await store.getRun(taskId))?.session_id ?? null;
        return jsonRpcResult(id, {
          kind: 'task',
          id: taskId,
          contextId: sessionId,
          status: { state: 'canceled' },
        });
      },
    );

    // HTTP+JSON task routes (what RestTransport calls): the task id alone names the run; the
    // run service still confines it to its owner.
    // The `A2A-Version` header tells HTTP+JSON 1.0 from 0.3 here (no body to tell by).
    app.get<{ Params: Params; Querystring: { contextId?: string } }>(
      `${base}/v1/tasks`,
      { schema: docs.listTasks },
      async (request, reply) => {
        const entity = entityOf(request);
        const protocol = sharedPathProtocolOf(request.headers, null);
        if (protocol === 'rest-1.0') return answerRestListTasks(request, reply, v1, entity);
        if (protocol === 'unsupported') return sendRestError(reply, versionNotSupported());
        return reply.code(404).send({ detail: 'Not Found' });
      },
    );

    app.get<{ Params: Params }>(
      `${base}/v1/tasks/:task_id`,
      { schema: docs.restTask },
      async (request, reply) => {
        const entity = entityOf(request);
        const protocol = sharedPathProtocolOf(request.headers, null);
        if (protocol === 'rest-1.0') {
          const taskId = request.params.task_id;
          return answerRestTask(reply, () => v1.tasks.get(entity, callerOf(request), taskId));
        }
        if (protocol === 'unsupported') return sendRestError(reply, versionNotSupported());
        const run = await ownRun(request, entity, request.params.task_id);
        return restTask(recordTask(run, deps.newId()));
      },
    );

    app.post<{ Params: Params }>(
      `${base}/v1/tasks/:task_id`,
      { schema: docs.restTaskAction },
      async (request, reply) => {
        const entity = entityOf(request);
        const protocol = sharedPathProtocolOf(request.headers, null);
        const action = /^(.+):(cancel|subscribe)$/.exec(request.params.task_id);
        if (protocol === 'rest-1.0' && action !== null) {
          return answerRestTask(reply, async () => {
            if (action[2] === 'subscribe') {
              throw unsupported('Subscribing to a task is not supported');
            }
            return v1.tasks.cancel(entity, callerOf(request), action[1] as string);
          });
        }
        if (protocol === 'unsupported') return sendRestError(reply, versionNotSupported());
        // 0.3: `<id>:cancel`; `:subscribe` and push-notification configs are not served.
        const match = /^(.+):cancel$/.exec(request.params.task_id);
        if (match === null) return reply.code(404).send({ detail: 'Not Found' });
        const run = await ownRun(request, entity, match[1] as string);
        await runs.cancel({
          entity,
          caller: callerOf(request),
          runId: run.run_id,
          sessionId: run.session_id,
        });
        return restTask(bareTask(run.run_id, run.session_id, 'canceled'));
      },
    );
  }

  /**
   * The stored run `taskId` of `entity` (in session `sessionId` when given) the caller may see;
   * 404 `Task not found` when none.
   */
  async function ownRun(
    request: FastifyRequest,
    entity: Entity,
    taskId: string,
    sessionId: string | null = null,
  ): Promise<RunRecord> {
    if ((await store.getRun(taskId)) === null) throw new HttpError(404, 'Task not found');
    return runs.getRun({ entity, caller: callerOf(request), runId: taskId, sessionId });
  }
}

/**
 * The deprecated dynamic dispatch: `POST {prefix}/message/send|stream`, the target from
 * `params.message.agentId` or `X-Agent-ID`, looked up in agents, then teams, then workflows.
 * JSON-RPC bodies only; `configuration.blocking` is ignored (always blocking).
 */
function registerDispatchRoutes(app: FastifyInstance, deps: A2ARouteDeps): void {
  const { catalogue } = deps;
  for (const method of ['message/send', 'message/stream'] as const) {
    app.post(
      `/${method}`,
      { schema: dispatchDoc(method === 'message/stream') },
      async (request, reply) => {
        const body = parseJsonBody(request.body);
        const header = request.headers['x-agent-id'];
        const target = dispatchTargetOf(body, typeof header === 'string' ? header : undefined);
        if (target === null) {
          throw new HttpError(
            400,
            "Entity ID required. Provide it via 'agentId' in params.message or 'X-Agent-ID' header.",
          );
        }
        const entity: Entity | undefined =
          catalogue.agents.get(target) ??
          catalogue.teams.get(target) ??
          catalogue.workflows.get(target);
        if (entity === undefined) {
          throw new HttpError(404, `Agent, Team, or Workflow with ID '${target}' not found`);
        }
        const parsed = parseMessageRequest(body, method, 'jsonrpc');
        const exchange = exchangeOf(request, entity, parsed, { background: false });
        return answerMessage(reply, deps, exchange, method === 'message/send' ? 'send' : 'stream');
      },
    );
  }
}
