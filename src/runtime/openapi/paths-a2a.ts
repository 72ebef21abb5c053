/**
 * OpenAPI paths of the A2A interface under its configured prefix:
 * agent cards, the JSON-RPC endpoint `…/v1` (1.0 and 0.3 methods), message:send /
 * message:stream, tasks:get / tasks:cancel and their HTTP+JSON forms (0.3, and 1.0 by
 * `A2A-Version`), and the deprecated dynamic dispatch. Data only, placed under the prefix.
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
const TASK = pathParam(
  'task_id',
  'Task (run) id; POST takes `<id>:cancel` (1.0 also `:subscribe`)',
);
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
const VERSION = header(
  'A2A-Version',
  '`1.0` for HTTP+JSON 1.0 (absent, empty or `0.3`: 0.3); a body with a `jsonrpc` member is JSON-RPC whatever it says',
);
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
    [`${base}/v1`]: {
      post: {
        tags: TAGS,
        summary: `JSON-RPC endpoint of the ${kind.label}: every A2A method, 1.0 and 0.3 names`,
        description:
          'SendMessage, SendStreamingMessage, GetTask, CancelTask, ListTasks, SubscribeToTask, ' +
          'GetExtendedAgentCard, the push-config methods, and message/send, message/stream, ' +
          'tasks/get, tasks/cancel, tasks/resubscribe, agent/getAuthenticatedExtendedCard, ' +
          'tasks/pushNotificationConfig/*. Refusals are JSON-RPC error objects in a 200.',
        parameters: [
          id,
          USER_ID,
          header('A2A-Version', '`1.0`, `0.3` or absent; any other: -32009'),
        ],
        requestBody: RPC,
        responses: {
          '200': {
            description: 'A JSON-RPC response (result or error), or SSE frames of full responses',
            content: {
              'application/json': { schema: OBJECT },
              'text/event-stream': { schema: STRING },
            },
          },
          ...errors('404'),
        },
      },
    },
    [`${base}/v1/message:send`]: {
      post: {
        tags: TAGS,
        summary: `Send a message to the ${kind.label}`,
        parameters: [id, USER_ID, VERSION],
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
        parameters: [id, USER_ID, VERSION],
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
    paths[`${base}/v1/tasks`] = {
      get: {
        tags: TAGS,
        summary: 'The tasks of a context (HTTP+JSON 1.0: `A2A-Version: 1.0`; else 404)',
        parameters: [
          id,
          VERSION,
          { name: 'contextId', in: 'query', required: true, schema: STRING },
        ],
        responses: {
          '200': ok('`{tasks, nextPageToken, pageSize, totalSize}`', OBJECT),
          ...errors('400', '404'),
        },
      },
    };
    paths[`${base}/v1/tasks/{task_id}`] = {
      get: {
        tags: TAGS,
        summary: 'A task (HTTP+JSON binding)',
        parameters: [id, TASK, VERSION],
        responses: { '200': ok('The task', OBJECT), ...errors('404') },
      },
      post: {
        tags: TAGS,
        summary: 'Cancel a task: `<task_id>:cancel` (HTTP+JSON binding)',
        parameters: [id, TASK, VERSION],
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
