/**
 * A2A task shapes (a2a 0.3 JSON): a run seen as a Task (task id = run id,
 * contextId = session id, state from the run status), the agent message it answers with, and
 * the JSON-RPC result envelope. Pure: builds objects, never reads the store or writes HTTP.
 */
import type { Task, TaskState, TextPart } from '@a2a-js/sdk';
import type { RunRecord, RunStatus } from '../../store/records.js';

/** The task states a run can be in. */
export type RunTaskState = Extract<
  TaskState,
  'submitted' | 'working' | 'completed' | 'failed' | 'canceled' | 'input-required'
>;

/** A run status as a task state. A paused run waits on the client: input-required. */
export const TASK_STATE_OF: Readonly<Record<RunStatus, RunTaskState>> = Object.freeze({
  PENDING: 'submitted',
  RUNNING: 'working',
  COMPLETED: 'completed',
  ERROR: 'failed',
  CANCELLED: 'canceled',
  PAUSED: 'input-required',
});

/** An agent message: text parts only (the runtime answers with text). */
export interface AgentMessage {
  readonly kind: 'message';
  readonly messageId: string;
  readonly role: 'agent';
  readonly parts: readonly TextPart[];
  readonly contextId: string;
  readonly taskId?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** A task whose history holds agent messages only. */
export interface RunTask extends Omit<Task, 'history' | 'status'> {
  readonly status: { readonly state: RunTaskState };
  readonly history?: readonly AgentMessage[];
}

/** What a task needs of a run. */
export interface TaskRun {
  readonly runId: string;
  readonly sessionId: string;
  readonly status: RunStatus;
  /** The run output's `content`: the answer, or the error message of an ERROR run. */
  readonly content: unknown;
  readonly userId: string | null;
}

/** An agent message with one text part per non-empty text; `metadata` only when given. */
export function agentMessage(o: {
  readonly messageId: string;
  readonly contextId: string;
  readonly taskId?: string;
  readonly texts: readonly string[];
  readonly metadata?: Readonly<Record<string, unknown>> | null;
}): AgentMessage {
  const message: AgentMessage = {
    kind: 'message',
    messageId: o.messageId,
    role: 'agent',
    parts: o.texts.filter((text) => text !== '').map((text) => ({ kind: 'text', text })),
    contextId: o.contextId,
    ...(o.taskId === undefined ? {} : { taskId: o.taskId }),
  };
  return o.metadata == null ? message : { ...message, metadata: o.metadata };
}

/**
 * A stored or just finished run as a Task: its state, and one agent message holding its content
 * (with the run's user as `metadata.userId`).
 */
export function taskOf(run: TaskRun, messageId: string): RunTask {
  return {
    ...bareTask(run.runId, run.sessionId, TASK_STATE_OF[run.status]),
    history: [
      agentMessage({
        messageId,
        contextId: run.sessionId,
        taskId: run.runId,
        texts: [contentText(run.content)],
        metadata: run.userId === null ? null : { userId: run.userId },
      }),
    ],
  };
}

/** A stored run as a Task. */
export function recordTask(run: RunRecord, messageId: string): RunTask {
  const { run_id: runId, session_id: sessionId, status, user_id: userId } = run;
  return taskOf({ runId, sessionId, status, content: run.output['content'], userId }, messageId);
}

/** A task with a state and no history (a background run just started, a cancel answered). */
export function bareTask(id: string, contextId: string, state: RunTaskState): RunTask {
  return { kind: 'task', id, contextId, status: { state } };
}

/** The task of a run that threw: failed, its one message `Error: <message>`. */
export function failedTask(o: {
  readonly taskId: string;
  readonly contextId: string;
  readonly messageId: string;
  readonly error: string;
}): RunTask {
  const { messageId, contextId } = o;
  const message = agentMessage({ messageId, contextId, texts: [`Error: ${o.error}`] });
  return { ...bareTask(o.taskId, o.contextId, 'failed'), history: [message] };
}

/** A run output's content as text: a string as is, structured content as JSON, none as "". */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return content == null ? '' : JSON.stringify(content);
}

/** What a thrown value says. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A JSON-RPC 2.0 success envelope (`id` first, as Agno writes it). */
export function jsonRpcResult(id: string | number | null, result: unknown) {
  return { id, jsonrpc: '2.0' as const, result };
}
