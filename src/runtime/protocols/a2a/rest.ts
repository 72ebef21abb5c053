/**
 * Tasks and agent messages in proto-JSON, as both HTTP+JSON versions (and 1.0 JSON-RPC) answer
 * them: 0.3 in the protobuf JSON form @a2a-js/sdk's RestTransport reads (parts as `content`,
 * `TASK_STATE_CANCELLED`), 1.0 with `parts` (their metadata kept) and `TASK_STATE_CANCELED`;
 * and the 0.3 `{task}` / `{message}` / `{statusUpdate}` wrappers of send and stream answers.
 * Pure: converts shapes only.
 */
import type { StatusUpdate, StreamItem } from './stream.js';
import type { AgentMessage, RunTask, RunTaskState } from './task.js';
import type { A2AVersion } from './v1-errors.js';

/** The task states in proto-JSON; the versions spell the cancelled one differently. */
const states = (canceled: string): Readonly<Record<RunTaskState, string>> =>
  Object.freeze({
    submitted: 'TASK_STATE_SUBMITTED',
    working: 'TASK_STATE_WORKING',
    completed: 'TASK_STATE_COMPLETED',
    failed: 'TASK_STATE_FAILED',
    canceled,
    'input-required': 'TASK_STATE_INPUT_REQUIRED',
  });
const PROTO_STATE = states('TASK_STATE_CANCELLED');
/** A task state in 1.0 proto-JSON. */
export const V1_STATE = states('TASK_STATE_CANCELED');

/** A Task in the proto-JSON of `version` (1.0: the bare Task of GetTask and CancelTask). */
export function protoTask(task: RunTask, version: A2AVersion): Record<string, unknown> {
  return {
    id: task.id,
    contextId: task.contextId,
    status: { state: (version === '1.0' ? V1_STATE : PROTO_STATE)[task.status.state] },
    ...(task.history === undefined
      ? {}
      : { history: task.history.map((message) => protoMessage(message, version)) }),
  };
}

/** An agent message in the proto-JSON of `version`. */
export function protoMessage(message: AgentMessage, version: A2AVersion): Record<string, unknown> {
  return {
    messageId: message.messageId,
    contextId: message.contextId,
    ...(message.taskId === undefined ? {} : { taskId: message.taskId }),
    role: 'ROLE_AGENT',
    ...(version === '1.0'
      ? {
          parts: message.parts.map(({ text, metadata }) =>
            metadata === undefined ? { text } : { text, metadata },
          ),
        }
      : { content: message.parts.map(({ text }) => ({ text })) }),
    ...(message.metadata === undefined ? {} : { metadata: message.metadata }),
  };
}

/** A Task in 0.3 protobuf JSON (the body of `GET /v1/tasks/{id}` and `POST /v1/tasks/{id}:cancel`). */
export function restTask(task: RunTask): Record<string, unknown> {
  return protoTask(task, '0.3');
}

/** The body of a REST `message:send` answer: `{task}`. */
export function restSendResponse(task: RunTask): Record<string, unknown> {
  return { task: restTask(task) };
}

/** One REST stream frame's data: `{statusUpdate}`, `{message}` or `{task}`. */
export function restStreamResponse(item: StreamItem): Record<string, unknown> {
  switch (item.kind) {
    case 'status-update':
      return { statusUpdate: restStatusUpdate(item) };
    case 'message':
      return { message: protoMessage(item, '0.3') };
    case 'task':
      return { task: restTask(item) };
  }
}

function restStatusUpdate(update: StatusUpdate): Record<string, unknown> {
  return {
    taskId: update.taskId,
    contextId: update.contextId,
    status: { state: PROTO_STATE[update.status.state] },
    final: update.final,
    ...(update.metadata === undefined ? {} : { metadata: update.metadata }),
  };
}
