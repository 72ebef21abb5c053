/**
 * The task operations the `…/v1` endpoint and HTTP+JSON 1.0 share: find a task by id alone,
 * cancel it, list a context's tasks, and start a message's run (or continue the paused task it
 * names), each confined to the caller by the run service. Failures are A2A errors; never
 * writes HTTP, never checks scopes.
 */
import type { Caller } from '../../http/caller.js';
import { HttpError } from '../../http/errors.js';
import type { ActiveRun, Entity } from '../../api/runs/service.js';
import type { RunRecord } from '../../store/records.js';
import type { RuntimeStore } from '../../store/store.js';
import { startRun, type ExchangeDeps, type MessageExchange } from './exchange.js';
import { protoTask } from './rest.js';
import { toolAnswersOf } from './resume.js';
import { A2AProtocolError } from './v1-errors.js';
import { bareTask, recordTask, type RunTask } from './task.js';

/** What the task operations read and run. */
export interface TaskOpsDeps extends ExchangeDeps {
  readonly store: RuntimeStore;
}

/** Run statuses a task can no longer leave. */
const TERMINAL = new Set(['COMPLETED', 'ERROR', 'CANCELLED']);

/** The task operations of one runtime. */
export type TaskOps = ReturnType<typeof createTaskOps>;

/** Builds the task operations. */
export function createTaskOps(deps: TaskOpsDeps) {
  const { runs, store } = deps;
  const notFound = (): A2AProtocolError => new A2AProtocolError('TASK_NOT_FOUND', 'Task not found');

  const find = async (entity: Entity, caller: Caller, taskId: string): Promise<RunRecord> => {
    if ((await store.getRun(taskId)) === null) throw notFound();
    try {
      return await runs.getRun({ entity, caller, runId: taskId, sessionId: null });
    } catch (error) {
      /* c8 ignore next -- getRun throws nothing but its 404 */
      if (!(error instanceof HttpError)) throw error;
      throw notFound();
    }
  };
  const asTask = (run: RunRecord): RunTask => recordTask(run, deps.newId());

  return {
    /** The caller's task `taskId` of `entity`; TASK_NOT_FOUND when there is none it may see. */
    get: async (entity: Entity, caller: Caller, taskId: string): Promise<RunTask> =>
      asTask(await find(entity, caller, taskId)),
    /** Cancels a task that has not ended; TASK_NOT_CANCELABLE for one that has. */
    async cancel(entity: Entity, caller: Caller, taskId: string): Promise<RunTask> {
      const run = await find(entity, caller, taskId);
      if (TERMINAL.has(run.status)) {
        throw new A2AProtocolError(
          'TASK_NOT_CANCELABLE',
          `Task ${taskId} is ${run.status.toLowerCase()} and cannot be canceled`,
        );
      }
      await runs.cancel({ entity, caller, runId: run.run_id, sessionId: run.session_id });
      return bareTask(run.run_id, run.session_id, 'canceled');
    },
    /**
     * ListTasks' answer: the caller's tasks of `entity` in a context (session), newest last, in
     * 1.0 shapes on one page.
     */
    async list(entity: Entity, caller: Caller, contextId: string) {
      const session = await store.getSession(contextId);
      const visible =
        session !== null &&
        session.component_id === entity.id &&
        (caller.scopedUserId === null || session.user_id === caller.scopedUserId);
      const tasks = (visible ? await store.listRuns(contextId) : [])
        .filter((run) => run.parent_run_id === null)
        .map((run) => protoTask(asTask(run), '1.0'));
      return { tasks, nextPageToken: '', pageSize: tasks.length, totalSize: tasks.length };
    },
    /**
     * The run of a message: a new one, or, when the message names a task (`taskId`), the paused
     * run continued with the message as its answers.
     */
    async start(exchange: MessageExchange): Promise<ActiveRun> {
      const { entity, caller, request } = exchange;
      if (request.taskId === null) return startRun(deps, exchange);
      const run = await find(entity, caller, request.taskId);
      if (run.status !== 'PAUSED') {
        throw new A2AProtocolError(
          'UNSUPPORTED_OPERATION',
          `Task ${run.run_id} is ${run.status.toLowerCase()}: only a task waiting for input takes a message`,
        );
      }
      return runs.continue(
        { entity, caller, runId: run.run_id, sessionId: run.session_id },
        toolAnswersOf(run.checkpoint, request.text),
      );
    },
  };
}
