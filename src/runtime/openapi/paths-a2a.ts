/**
 * OpenAPI paths of the A2A interface under its configured prefix:
 * agent cards, message:send / message:stream, tasks:get / tasks:cancel and their HTTP+JSON
 * forms, and the deprecated dynamic dispatch. Data only, placed under the prefix.
 */
import {
  errors,
  jsonBody,
  ok,
  OBJECT,
  pathParam,
  ref,
  STRING,
  type Json,
  type Paths,
} from './parts.js';

const TAGS = ['A2A'];
const TASK = pathParam('task_id', 'Task (run) id; POST takes `<id>:cancel`');
/** Optional headers: the dispatch target, and the client's user id (anonymous callers). */
const header = (name: string, description: string): Json => ({
  name,
  in: 'header',
  required: false,
  description,
  schema: STRING,
});
const AGENT_ID = header('X-Agent-ID', 'Target id when params.message.agentId is absent');
const USER_ID = header('X-User-ID', 'Client user id (ignored for authenticated callers)');
const RPC = jsonBody(ref('JsonRpcRequest'));
const RPC_ANSWER = ok('JSON-RPC result: the task', ref('JsonRpcResponse'));
const STREAM: Json = {
  description: 'SSE frames `event: <TaskStatusUpdateEvent|Message|Task>` of JSON-RPC results',
  content: { 'text/event-stream': { schema: STRING } },
};

const KINDS = [
  { path: 'agents', label: 'agent', tasks: true },
  { path: 'teams', label: 'team', tasks: true },
  { path: 'workflows', label: 'workflow', tasks: false },
] as const;

function kindPaths(prefix: string, kind: (typeof KINDS)[number]): Paths {
  const id = pathParam('id', `The ${kind.label} id`);
  const base = `${prefix}/${kind.path}/{id}`;
  const card = {
    get: {
      tags: TAGS,
      summary: `The ${kind.label}'s agent card`,
      parameters: [id],
      responses: { '200': ok('Agent card', ref('AgentCard')), ...errors('404') },
    },
  };
  const paths: Record<string, Record<string, Json>> = {
    [`${base}/.well-known/agent-card.json`]: card,
    [`${base}/v1/card`]: card,
    [`${base}/v1/message:send`]: {
      post: {
        tags: TAGS,
        summary: `Send a message to the ${kind.label}`,
        parameters: [id, USER_ID],
        requestBody: RPC,
        responses: {
          '200': RPC_ANSWER,
          '202': ok('Accepted (non-blocking): the background task', ref('JsonRpcResponse')),
          ...errors('400', '403', '404'),
        },
      },
    },
    [`${base}/v1/message:stream`]: {
      post: {
        tags: TAGS,
        summary: `Send a message to the ${kind.label}, streaming`,
        parameters: [id, USER_ID],
        requestBody: RPC,
        responses: { '200': STREAM, ...errors('400', '403', '404') },
      },
    },
  };
  if (kind.tasks) {
    paths[`${base}/v1/tasks:get`] = {
      post: {
        tags: TAGS,
        summary: 'Poll a task',
        parameters: [id],
        requestBody: RPC,
        responses: { '200': RPC_ANSWER, ...errors('400', '404') },
      },
    };
    paths[`${base}/v1/tasks:cancel`] = {
      post: {
        tags: TAGS,
        summary: 'Cancel a task',
        parameters: [id],
        requestBody: RPC,
        responses: { '200': RPC_ANSWER, ...errors('400', '404') },
      },
    };
    paths[`${base}/v1/tasks/{task_id}`] = {
      get: {
        tags: TAGS,
        summary: 'A task (HTTP+JSON binding)',
        parameters: [id, TASK],
        responses: { '200': ok('The task', OBJECT), ...errors('404') },
      },
      post: {
        tags: TAGS,
        summary: 'Cancel a task: `<task_id>:cancel` (HTTP+JSON binding)',
        parameters: [id, TASK],
        responses: { '200': ok('The canceled task', OBJECT), ...errors('404') },
      },
    };
  }
  return paths;
}

/** The A2A routes under `prefix` (e.g. `/a2a`). */
export function a2aPaths(prefix: string): Paths {
  const dispatch = (stream: boolean): Json => ({
    post: {
      tags: TAGS,
      deprecated: true,
      summary: `Dynamic dispatch: ${stream ? 'stream' : 'send'} a message to agentId / X-Agent-ID`,
      parameters: [AGENT_ID, USER_ID],
      requestBody: RPC,
      responses: {
        '200': stream ? STREAM : RPC_ANSWER,
        ...errors('400', '403', '404'),
      },
    },
  });
  return Object.assign({}, ...KINDS.map((kind) => kindPaths(prefix, kind)), {
    [`${prefix}/message/send`]: dispatch(false),
    [`${prefix}/message/stream`]: dispatch(true),
  }) as Paths;
}
