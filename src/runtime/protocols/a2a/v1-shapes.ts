/**
 * A2A 1.0 shapes (proto-JSON, both bindings): the SendMessageRequest a 1.0 client sends
 * (`parts` as `{text|data|url|raw}`, `configuration.returnImmediately`), and tasks, messages and
 * status-updates as 1.0 answers carry them (`ROLE_AGENT`, `TASK_STATE_*`, parts `{text}`). Pure:
 * parses and converts shapes, never runs anything.
 */
import { z } from 'zod';
import type { A2ATransport, MessageRequest, RequestId } from './request.js';
import { A2AProtocolError } from './v1-errors.js';
import type { AgentMessage, RunTask, RunTaskState } from './task.js';

/** A task state in 1.0 proto-JSON. */
export const V1_STATE: Readonly<Record<RunTaskState, string>> = Object.freeze({
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
});

const metadata = z.record(z.string(), z.unknown());

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
  const parsed = v1SendMessageRequest.safeParse(body);
  if (!parsed.success) {
    throw new A2AProtocolError(
      'INVALID_PARAMS',
      `Invalid A2A request: ${parsed.error.issues
        .map((i) => (i.path.length === 0 ? i.message : `${i.path.join('.')}: ${i.message}`))
        .join('; ')}`,
    );
  }
  const { message: m, configuration } = parsed.data;
  if (m.role !== 'ROLE_USER') {
    throw new A2AProtocolError('INVALID_PARAMS', 'Only user messages are accepted');
  }
  const userId = m.metadata?.['userId'];
  return {
    transport,
    id,
    text: m.parts
      .flatMap((p) =>
        p.text !== undefined ? [p.text] : p.data !== undefined ? [JSON.stringify(p.data)] : [],
      )
      .join('\n'),
    contextId: m.contextId ?? null,
    taskId: m.taskId ?? null,
    userId: typeof userId === 'string' ? userId : null,
    blocking: configuration?.returnImmediately !== true,
  };
}

/** A Task in 1.0 proto-JSON (the bare Task of GetTask and CancelTask). */
export function v1Task(task: RunTask): Record<string, unknown> {
  return {
    id: task.id,
    contextId: task.contextId,
    status: { state: V1_STATE[task.status.state] },
    ...(task.history === undefined ? {} : { history: task.history.map(v1Message) }),
  };
}

/** An agent message in 1.0 proto-JSON. */
export function v1Message(message: AgentMessage): Record<string, unknown> {
  return {
    messageId: message.messageId,
    contextId: message.contextId,
    ...(message.taskId === undefined ? {} : { taskId: message.taskId }),
    role: 'ROLE_AGENT',
    parts: message.parts.map((part) =>
      part.metadata === undefined
        ? { text: part.text }
        : { text: part.text, metadata: part.metadata },
    ),
    ...(message.metadata === undefined ? {} : { metadata: message.metadata }),
  };
}
