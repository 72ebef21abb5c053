/**
 * The document part of the A2A routes (routes.ts), as zod schemas: the agent card, the JSON-RPC
 * request and response, the headers the routes read, and each route's schema. They document
 * only: request.ts, endpoint.ts and v1-rest.ts read the bodies and headers themselves. Pure data.
 */
import { z } from 'zod';
import { content, errors, ok } from '../../http/openapi.js';

const TAGS = ['A2A'];
const OBJECT = z.record(z.string(), z.unknown());
const JSONRPC_ID = z.union([z.string(), z.int()]);

const AGENT_CARD = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    url: z.string(),
    version: z.string(),
    protocolVersion: z.string(),
    preferredTransport: z.string().optional(),
    capabilities: OBJECT.optional(),
    defaultInputModes: z.array(z.string()).optional(),
    defaultOutputModes: z.array(z.string()).optional(),
    skills: z.array(OBJECT).optional(),
    supportsAuthenticatedExtendedCard: z.boolean().optional(),
  })
  .meta({ id: 'AgentCard' });

const JSON_RPC_REQUEST = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: JSONRPC_ID,
    method: z.string().optional(),
    params: OBJECT,
  })
  .meta({
    id: 'JsonRpcRequest',
    description: 'An A2A JSON-RPC 2.0 request (message/send, message/stream, tasks/get, …)',
  });

const A2A_TASK = z
  .object({
    kind: z.literal('task'),
    id: z.string(),
    contextId: z.string().optional(),
    status: z.object({
      state: z
        .enum(['submitted', 'working', 'completed', 'failed', 'canceled', 'input-required'])
        .optional(),
    }),
    history: z.array(OBJECT).optional(),
    artifacts: z.array(OBJECT).optional(),
  })
  .meta({ id: 'A2ATask' });

const JSON_RPC_RESPONSE = z
  .object({ jsonrpc: z.literal('2.0'), id: JSONRPC_ID, result: A2A_TASK })
  .meta({ id: 'JsonRpcResponse' });

/** An optional header the routes read. */
const header = (description: string) => z.string().optional().meta({ description });
const USER_ID = header('Client user id (ignored for authenticated callers)');
const VERSION = header(
  '`1.0` for HTTP+JSON 1.0 (absent, empty or `0.3`: 0.3); a body with a `jsonrpc` member is ' +
    'JSON-RPC whatever it says',
);
const RPC_ANSWER = ok('JSON-RPC result: the task', JSON_RPC_RESPONSE);
const STREAM = content(
  'SSE frames `event: <TaskStatusUpdateEvent|Message|Task>` of JSON-RPC results',
  { 'text/event-stream': z.string() },
);

/** The schemas of the routes of one kind of entity (`label`: agent, team, workflow). */
export function entityDocs(label: string) {
  const params = z.object({ id: z.string().meta({ description: `The ${label} id` }) });
  const task = z.object({
    id: params.shape.id,
    task_id: z
      .string()
      .meta({ description: 'Task (run) id; POST takes `<id>:cancel` (1.0 also `:subscribe`)' }),
  });
  const versioned = z.object({ 'A2A-Version': VERSION });
  const message = z.object({ 'X-User-ID': USER_ID, 'A2A-Version': VERSION });
  /** A route's schema: the tags, `summary` and the entity id parameter, then `rest`. */
  const route = <Rest extends object>(summary: string, rest: Rest) => ({
    tags: TAGS,
    summary,
    params,
    ...rest,
  });
  const rpcTask = {
    body: JSON_RPC_REQUEST,
    response: { 200: RPC_ANSWER, ...errors('400', '404') },
  };
  return {
    card: route(`The ${label}'s agent card`, {
      response: { 200: ok('Agent card', AGENT_CARD), ...errors('404') },
    }),
    rpc: {
      tags: TAGS,
      summary: `JSON-RPC endpoint of the ${label}: every A2A method, 1.0 and 0.3 names`,
      description:
        'SendMessage, SendStreamingMessage, GetTask, CancelTask, ListTasks, SubscribeToTask, ' +
        'GetExtendedAgentCard, the push-config methods, and message/send, message/stream, ' +
        'tasks/get, tasks/cancel, tasks/resubscribe, agent/getAuthenticatedExtendedCard, ' +
        'tasks/pushNotificationConfig/*. Refusals are JSON-RPC error objects in a 200.',
      params,
      headers: z.object({
        'X-User-ID': USER_ID,
        'A2A-Version': header('`1.0`, `0.3` or absent; any other: -32009'),
      }),
      body: JSON_RPC_REQUEST,
      response: {
        200: content('A JSON-RPC response (result or error), or SSE frames of full responses', {
          'application/json': OBJECT,
          'text/event-stream': z.string(),
        }),
        ...errors('404'),
      },
    },
    send: route(`Send a message to the ${label}`, {
      headers: message,
      body: JSON_RPC_REQUEST,
      response: {
        200: RPC_ANSWER,
        202: ok('Accepted (non-blocking): the background task', JSON_RPC_RESPONSE),
        ...errors('400', '403', '404'),
      },
    }),
    stream: route(`Send a message to the ${label}, streaming`, {
      headers: message,
      body: JSON_RPC_REQUEST,
      response: { 200: STREAM, ...errors('400', '403', '404') },
    }),
    getTask: route('Poll a task', rpcTask),
    cancelTask: route('Cancel a task', rpcTask),
    listTasks: route('The tasks of a context (HTTP+JSON 1.0: `A2A-Version: 1.0`; else 404)', {
      headers: versioned,
      querystring: z.object({ contextId: z.string() }),
      response: {
        200: ok('`{tasks, nextPageToken, pageSize, totalSize}`', OBJECT),
        ...errors('400', '404'),
      },
    }),
    restTask: route('A task (HTTP+JSON binding)', {
      params: task,
      headers: versioned,
      response: { 200: ok('The task', OBJECT), ...errors('404') },
    }),
    restTaskAction: route('Cancel a task: `<task_id>:cancel` (HTTP+JSON binding)', {
      params: task,
      headers: versioned,
      response: { 200: ok('The canceled task', OBJECT), ...errors('404') },
    }),
  };
}

/** The deprecated dynamic dispatch's schema (`stream`: `message/stream`). */
export function dispatchDoc(stream: boolean) {
  return {
    tags: TAGS,
    deprecated: true,
    summary: `Dynamic dispatch: ${stream ? 'stream' : 'send'} a message to agentId / X-Agent-ID`,
    headers: z.object({
      'X-Agent-ID': header('Target id when params.message.agentId is absent'),
      'X-User-ID': USER_ID,
    }),
    body: JSON_RPC_REQUEST,
    response: { 200: stream ? STREAM : RPC_ANSWER, ...errors('400', '403', '404') },
  };
}
