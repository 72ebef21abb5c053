/**
 * The A2A 0.3 HTTP+JSON (REST) binding's answers: tasks, messages and status-updates in the
 * protobuf JSON form @a2a-js/sdk's RestTransport reads (`TASK_STATE_*`, `ROLE_AGENT`, parts as
 * `{text}`), and the `{task}` / `{message}` / `{statusUpdate}` wrappers of send and stream
 * answers. Pure: converts shapes only.
 */
import type { StatusUpdate, StreamItem } from './stream.js';
import type { AgentMessage, RunTask, RunTaskState } from './task.js';

const PROTO_STATE: Readonly<Record<RunTaskState, string>> = Object.freeze({
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELLED',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
});

/** A Task in protobuf JSON (the body of `GET /v1/tasks/{id}` and `POST /v1/tasks/{id}:cancel`). */
export function restTask(task: RunTask): Record<string, unknown> {
  return {
    id: task.id,
    contextId: task.contextId,
    status: { state: PROTO_STATE[task.status.state] },
    ...(task.history === undefined ? {} : { history: task.history.map(restMessage) }),
  };
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
      return { message: restMessage(item) };
    case 'task':
      return { task: restTask(item) };
  }
}

function restMessage(message: AgentMessage): Record<string, unknown> {
  return {
    messageId: message.messageId,
    contextId: message.contextId,
    ...(message.taskId === undefined ? {} : { taskId: message.taskId }),
    role: 'ROLE_AGENT',
    content: message.parts.map((part) => ({ text: part.text })),
    ...(message.metadata === undefined ? {} : { metadata: message.metadata }),
  };
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
