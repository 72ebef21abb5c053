/**
 * A2A request bodies: the JSON-RPC 2.0 envelopes of message/send,
 * message/stream, tasks/get and tasks/cancel, and the A2A 0.3 HTTP+JSON (REST) body that
 * @a2a-js/sdk's RestTransport posts to the same `/v1/message:send|stream` paths (a bad request is
 * a 400 `{"detail": …}`); and the 1.0 SendMessageRequest (proto-JSON, both bindings: parts as
 * `{text|data|url|raw}`, `configuration.returnImmediately`), refused as INVALID_PARAMS. Parses
 * and validates only; never runs anything.
 */
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { isRecord } from '../json.js';
import { A2AProtocolError } from './v1-errors.js';

/** The wire format of a message request (and of its answer). */
export type A2ATransport = 'jsonrpc' | 'rest';

/** The JSON-RPC method a message route serves. */
export type MessageMethod = 'message/send' | 'message/stream';

/** A JSON-RPC request id; null when the body gave none (REST, or a task request without one). */
export type RequestId = string | number | null;

/** A validated message/send or message/stream request. */
export interface MessageRequest {
  readonly transport: A2ATransport;
  /** Echoed in every JSON-RPC answer. */
  readonly id: RequestId;
  /** The text parts and the JSON of the data parts, joined by "\n" (file parts add nothing). */
  readonly text: string;
  /** `message.contextId`: the session to run in; null starts a new one. */
  readonly contextId: string | null;
  /**
   * `message.taskId`: the task the message answers (a paused run's input); null for a new task.
   * Only the `…/v1` endpoint and HTTP+JSON 1.0 act on it.
   */
  readonly taskId: string | null;
  /** `message.metadata.userId` when it is a string. */
  readonly userId: string | null;
  /** False only when the client asked not to wait (`configuration.blocking`). */
  readonly blocking: boolean;
}

const metadata = z.record(z.string(), z.unknown());

const filePart = z.object({
  kind: z.literal('file'),
  file: z.union(
    [
      z.object({ uri: z.string(), mimeType: z.string().nullish(), name: z.string().nullish() }),
      z.object({ bytes: z.string(), mimeType: z.string().nullish(), name: z.string().nullish() }),
    ],
    { error: 'must hold a uri or bytes string' },
  ),
});

const part = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  filePart,
  z.object({ kind: z.literal('data'), data: metadata }),
]);

/** An A2A 0.3 Message (JSON-RPC binding: `kind`-tagged parts). */
const message = z.object({
  kind: z.literal('message').optional(),
  messageId: z.string(),
  role: z.enum(['user', 'agent']),
  parts: z.array(part),
  contextId: z.string().nullish(),
  taskId: z.string().nullish(),
  metadata: metadata.nullish(),
});

const requestId = z.union([z.string(), z.int()], { error: 'must be a string or an integer' });

const jsonRpcMessageRequest = z.object({
  jsonrpc: z.literal('2.0').optional(),
  id: requestId,
  method: z.string().optional(),
  params: z.object({
    message,
    configuration: z.object({ blocking: z.boolean().nullish() }).nullish(),
    metadata: metadata.nullish(),
  }),
});

/** A part in the HTTP+JSON binding (the protobuf JSON form: a oneof of text, file or data). */
const restPart = z.union(
  [
    z.object({ text: z.string() }),
    z.object({
      file: z.union([
        z.object({ fileWithUri: z.string(), mimeType: z.string().optional() }),
        z.object({ fileWithBytes: z.string(), mimeType: z.string().optional() }),
      ]),
    }),
    z.object({ data: z.object({ data: metadata }) }),
  ],
  { error: 'must be {text}, {file: {fileWithUri|fileWithBytes, mimeType}} or {data: {data}}' },
);

/** `SendMessageRequest` in the HTTP+JSON binding (what RestTransport sends). */
const restMessageRequest = z.object({
  message: z.object({
    messageId: z.string(),
    role: z.enum(['ROLE_USER', 'ROLE_AGENT']),
    // Protobuf JSON leaves an empty repeated field out.
    content: z.array(restPart).default([]),
    contextId: z.string().optional(),
    taskId: z.string().optional(),
    metadata: metadata.optional(),
  }),
  configuration: z.object({ blocking: z.boolean().optional() }).optional(),
  metadata: metadata.optional(),
});

/** A 1.0 Part: exactly one of text, data, url or raw (a file), with optional descriptors. */
const v1Part = z
  .object({
    text: z.string().optional(),
    data: z.unknown().optional(),
    url: z.string().optional(),
    raw: z.string().optional(),
    mediaType: z.string().optional(),
    filename: z.string().optional(),
    metadata: metadata.nullish(),
  })
  .refine(
    (p) => [p.text, p.data, p.url, p.raw].filter((v) => v !== undefined).length === 1,
    'a part holds exactly one of text, data, url or raw',
  );

/** The 1.0 SendMessageRequest (the JSON-RPC `params`, or the HTTP+JSON body). */
const v1SendMessageRequest = z.object({
  tenant: z.string().optional(),
  message: z.object({
    messageId: z.string(),
    role: z.enum(['ROLE_USER', 'ROLE_AGENT']),
    // Proto-JSON leaves an empty repeated field out.
    parts: z.array(v1Part).default([]),
    contextId: z.string().optional(),
    taskId: z.string().optional(),
    metadata: metadata.nullish(),
  }),
  configuration: z.object({ returnImmediately: z.boolean().nullish() }).nullish(),
  metadata: metadata.nullish(),
});

/** How a parse refuses a request: 0.3 with a 400 `{"detail": …}`, 1.0 with INVALID_PARAMS. */
type Refuse = (message: string) => Error;
const refuse03: Refuse = (message) => new HttpError(400, message);
const refuse10: Refuse = (message) => new A2AProtocolError('INVALID_PARAMS', message);

/** Reads a raw body as JSON; 400 `Invalid A2A request: …` when it is not. */
export function parseJsonBody(raw: unknown): unknown {
  try {
    return JSON.parse(typeof raw === 'string' ? raw : '');
  } catch {
    throw invalid('the body is not JSON');
  }
}

/**
 * The wire format of a body sent to `/v1/message:send|stream`: JSON-RPC when it carries a
 * `jsonrpc` member, else HTTP+JSON. The two bindings share these paths; only JSON-RPC bodies
 * have that member.
 */
export function transportOf(body: unknown): A2ATransport {
  return isRecord(body) && 'jsonrpc' in body ? 'jsonrpc' : 'rest';
}

/**
 * Validates a message request in either binding. A JSON-RPC `method`, when given, must be the
 * one the route serves.
 *
 * @throws {HttpError} 400 `Invalid A2A request: …`; 400 `Only user messages are accepted`
 */
export function parseMessageRequest(
  body: unknown,
  method: MessageMethod,
  transport: A2ATransport = transportOf(body),
): MessageRequest {
  if (transport === 'rest') {
    const { message: m, configuration } = check(restMessageRequest, body);
    const parts = m.content.map((p) => ('data' in p ? p.data : p));
    // Protobuf JSON leaves `blocking: false` out: a configuration without it is non-blocking.
    const blocking = configuration === undefined || configuration.blocking === true;
    return build(transport, null, m, parts, blocking);
  }
  const request = check(jsonRpcMessageRequest, body);
  if (request.method !== undefined && request.method !== method) {
    throw invalid(`method "${request.method}" is not served here (expected "${method}")`);
  }
  const { message: m, configuration } = request.params;
  return build(transport, request.id, m, m.parts, configuration?.blocking !== false);
}

/**
 * Validates a 1.0 SendMessageRequest. Text parts and the JSON of data parts are joined by "\n";
 * `returnImmediately` absent or false is blocking.
 *
 * @throws {A2AProtocolError} INVALID_PARAMS for a body of the wrong shape or an agent message
 */
export function parseV1MessageRequest(
  body: unknown,
  id: RequestId,
  transport: A2ATransport,
): MessageRequest {
  const { message: m, configuration } = check(v1SendMessageRequest, body, refuse10);
  return build(transport, id, m, m.parts, configuration?.returnImmediately !== true, refuse10);
}

/**
 * The dynamic-dispatch target: `params.message.agentId` (a non-standard member, read first) or
 * the `X-Agent-ID` header; null when neither names one.
 */
export function dispatchTargetOf(body: unknown, header: string | undefined): string | null {
  const params = isRecord(body) ? body['params'] : undefined;
  const message = isRecord(params) ? params['message'] : undefined;
  const agentId = isRecord(message) ? message['agentId'] : undefined;
  if (typeof agentId === 'string' && agentId !== '') return agentId;
  return header === undefined || header === '' ? null : header;
}

/**
 * Validates a tasks/get or tasks/cancel body: its `id`, and `params.id` (required) as `taskId`;
 * `params.contextId` is returned as given (each route decides whether it is required).
 *
 * @throws {HttpError} 400 `Invalid A2A request: …` for a body that is not an object; 400
 *   `Task ID (params.id) is required`
 */
export function parseTaskRequest(body: unknown) {
  if (!isRecord(body)) throw invalid('the body must be a JSON object');
  const params = isRecord(body['params']) ? body['params'] : {};
  const id = body['id'];
  const taskId = nonEmpty(params['id']);
  if (taskId === null) throw new HttpError(400, 'Task ID (params.id) is required');
  return {
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    taskId,
    contextId: nonEmpty(params['contextId']),
  };
}

/**
 * The request of a parsed message: its text parts and the JSON of its data parts (`data`) joined
 * by "\n" (file parts add nothing), and its user id.
 */
function build(
  transport: A2ATransport,
  id: RequestId,
  m: {
    readonly role: string;
    readonly contextId?: string | null;
    readonly taskId?: string | null;
    readonly metadata?: Record<string, unknown> | null;
  },
  parts: readonly {
    readonly text?: string;
    readonly data?: unknown;
    readonly [k: string]: unknown;
  }[],
  blocking: boolean,
  refuse = refuse03,
): MessageRequest {
  if (m.role !== 'user' && m.role !== 'ROLE_USER') throw refuse('Only user messages are accepted');
  const texts = parts.flatMap((p) =>
    p.text !== undefined ? [p.text] : p.data !== undefined ? [JSON.stringify(p.data)] : [],
  );
  const userId = m.metadata?.['userId'];
  return {
    transport,
    id,
    text: texts.join('\n'),
    contextId: m.contextId ?? null,
    taskId: m.taskId ?? null,
    userId: typeof userId === 'string' ? userId : null,
    blocking,
  };
}

function check<T>(schema: z.ZodType<T>, body: unknown, refuse = refuse03): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw invalid(
    parsed.error.issues
      .map((issue) =>
        issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`,
      )
      .join('; '),
    refuse,
  );
}

function invalid(reason: string, refuse = refuse03): Error {
  return refuse(`Invalid A2A request: ${reason}`);
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
