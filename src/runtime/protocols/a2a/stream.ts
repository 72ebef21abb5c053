/**
 * A run's Agno-style events as an A2A stream: a working status-update when the
 * run starts, a Message per content delta of the run's own voice, status-updates for tool,
 * reasoning, memory and workflow-step events, then a final status-update and the Task. Pure:
 * maps events to stream items; the route writes them.
 */
import type { Entity } from '../../api/runs/service.js';
import type { RunEvent } from '../../engine/run.js';
import type { RunStatus } from '../../store/records.js';
import {
  agentMessage,
  bareTask,
  contentText,
  TASK_STATE_OF,
  type AgentMessage,
  type RunTask,
  type RunTaskState,
} from './task.js';

/** A TaskStatusUpdateEvent. */
export interface StatusUpdate {
  readonly kind: 'status-update';
  readonly taskId: string;
  readonly contextId: string;
  readonly status: { readonly state: RunTaskState };
  readonly final: boolean;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** One item of an A2A stream. */
export type StreamItem = StatusUpdate | AgentMessage | RunTask;

/** How a streamed run ended, as its result says. */
export interface StreamEnd {
  readonly status: RunStatus;
  /** The run output's `content` (the error message of an ERROR run). */
  readonly content: unknown;
  /** The run output's `metrics`, if any. */
  readonly metrics: unknown;
  /** What a PAUSED run waits on, one entry per tool call; added to its final update. */
  readonly pending?: readonly Record<string, unknown>[];
}

/** Maps one run's events; holds what the final Task needs from earlier events. */
export type StreamMapper = ReturnType<typeof createStreamMapper>;

/** Events that start the top-level run (nested depth 0). */
const STARTED = new Set(['RunStarted', 'TeamRunStarted', 'WorkflowStarted']);
const CANCELLED = new Set(['RunCancelled', 'TeamRunCancelled', 'WorkflowCancelled']);
const CONTENT = new Set(['RunContent', 'TeamRunContent']);
const REASONING_STEP = new Set(['ReasoningStep', 'TeamReasoningStep']);
const TOOL_EVENTS = new Set([
  'ToolCallStarted',
  'ToolCallCompleted',
  'TeamToolCallStarted',
  'TeamToolCallCompleted',
]);

/** A status-update event's `agno_event_type`, then the payload fields copied when set. */
type StatusSpec = readonly [type: string, ...fields: string[]];

/** Agent events reported as working status-updates; their `Team…` twins map the same way. */
const RUN_STATUS_EVENTS: Readonly<Record<string, StatusSpec>> = {
  ToolCallStarted: ['tool_call_started'],
  ToolCallCompleted: ['tool_call_completed'],
  ReasoningStarted: ['reasoning_started'],
  ReasoningCompleted: ['reasoning_completed'],
  MemoryUpdateStarted: ['memory_update_started'],
  MemoryUpdateCompleted: ['memory_update_completed'],
};

/** Workflow step and container events reported as working status-updates. */
const WORKFLOW_STATUS_EVENTS: Readonly<Record<string, StatusSpec>> = {
  StepStarted: ['workflow_step_started', 'step_name'],
  StepCompleted: ['workflow_step_completed', 'step_name'],
  StepError: ['workflow_step_error', 'step_name', 'error'],
  LoopExecutionStarted: ['loop_execution_started', 'step_name', 'max_iterations'],
  LoopIterationStarted: ['loop_iteration_started', 'step_name', 'iteration', 'max_iterations'],
  LoopIterationCompleted: ['loop_iteration_completed', 'step_name', 'iteration', 'should_continue'],
  LoopExecutionCompleted: ['loop_execution_completed', 'step_name', 'total_iterations'],
  ParallelExecutionStarted: ['parallel_execution_started', 'step_name', 'parallel_step_count'],
  ParallelExecutionCompleted: ['parallel_execution_completed', 'step_name', 'parallel_step_count'],
  ConditionExecutionStarted: ['condition_execution_started', 'step_name', 'condition_result'],
  ConditionExecutionCompleted: [
    'condition_execution_completed',
    'step_name',
    'condition_result',
    'executed_steps',
  ],
  RouterExecutionStarted: ['router_execution_started', 'step_name', 'selected_steps'],
  RouterExecutionCompleted: [
    'router_execution_completed',
    'step_name',
    'selected_steps',
    'executed_steps',
  ],
  StepsExecutionStarted: ['steps_execution_started', 'step_name', 'steps_count'],
  StepsExecutionCompleted: [
    'steps_execution_completed',
    'step_name',
    'steps_count',
    'executed_steps',
  ],
};

/** Every status-update event by name. */
const STATUS_EVENTS: ReadonlyMap<string, StatusSpec> = new Map([
  ...Object.entries(RUN_STATUS_EVENTS).flatMap(([name, spec]) => [
    [name, spec] as const,
    [`Team${name}`, spec] as const,
  ]),
  ...Object.entries(WORKFLOW_STATUS_EVENTS),
]);

/**
 * A mapper for one streamed run. `messageId` names every content delta and the final message
 * (one per stream); `newId` names each reasoning-step message.
 */
export function createStreamMapper(o: {
  readonly kind: Entity['kind'];
  readonly taskId: string;
  readonly contextId: string;
  readonly messageId: string;
  readonly newId: () => string;
}) {
  const { taskId, contextId, messageId } = o;
  let cancelReason: string | null = null;

  const update = (
    state: RunTaskState,
    final: boolean,
    metadata: Record<string, unknown> | null = null,
  ): StatusUpdate => ({
    kind: 'status-update',
    taskId,
    contextId,
    status: { state },
    final,
    ...(metadata === null ? {} : { metadata }),
  });
  const message = (
    id: string,
    texts: readonly string[],
    metadata: Record<string, unknown> | null,
  ): AgentMessage => agentMessage({ messageId: id, contextId, taskId, texts, metadata });
  const task = (state: RunTaskState, final: AgentMessage): RunTask => ({
    ...bareTask(taskId, contextId, state),
    history: [final],
  });
  /**
   * Content that makes up the answer: the top-level run's own deltas, and for a workflow those
   * of its step executors (a workflow has no deltas of its own); never a team member's.
   */
  const ownVoice = (depth: number): boolean =>
    depth === 0 || (o.kind === 'workflow' && depth === 1);

  return {
    /** The stream items for one engine event (none for most). */
    map(event: RunEvent): StreamItem[] {
      const name = event.event;
      const depth = typeof event['nested_depth'] === 'number' ? event['nested_depth'] : 0;
      if (STARTED.has(name)) return depth === 0 ? [update('working', false)] : [];
      if (CANCELLED.has(name)) {
        if (depth === 0 && typeof event['reason'] === 'string') cancelReason = event['reason'];
        return [];
      }
      if (CONTENT.has(name)) {
        const delta = event['content'];
        if (typeof delta !== 'string' || delta === '' || !ownVoice(depth)) return [];
        return [message(messageId, [delta], { agno_content_category: 'content' })];
      }
      if (REASONING_STEP.has(name)) {
        const reasoning = event['reasoning_content'];
        if (typeof reasoning !== 'string' || reasoning === '') return [];
        return [
          {
            ...message(o.newId(), [], {
              agno_content_category: 'reasoning',
              agno_event_type: 'reasoning_step',
            }),
            parts: [
              {
                kind: 'text',
                text: reasoning,
                metadata: { step_type: event['content_type'] ?? 'str' },
              },
            ],
          },
        ];
      }
      const spec = STATUS_EVENTS.get(name);
      if (spec === undefined) return [];
      const [type, ...fields] = spec;
      const metadata: Record<string, unknown> = { agno_event_type: type };
      if (TOOL_EVENTS.has(name)) Object.assign(metadata, toolMetadata(event['tool']));
      for (const field of fields) {
        if (event[field] != null) metadata[field] = event[field];
      }
      return [update('working', false, metadata)];
    },

    /** The final status-update and the Task, once the run has ended. */
    finish(end: StreamEnd): [StatusUpdate, RunTask] {
      const state = TASK_STATE_OF[end.status];
      const content = contentText(end.content);
      if (end.status === 'CANCELLED') {
        const notice =
          cancelReason === null ? 'Run was cancelled' : `Run was cancelled: ${cancelReason}`;
        const cancelled = { agno_event_type: 'run_cancelled' };
        return [
          update(
            state,
            true,
            cancelReason === null ? cancelled : { ...cancelled, reason: cancelReason },
          ),
          task(state, message(messageId, [content, notice], cancelled)),
        ];
      }
      const metrics =
        end.status === 'COMPLETED' && end.metrics != null ? { metrics: end.metrics } : null;
      const paused =
        end.status !== 'PAUSED'
          ? null
          : end.pending === undefined || end.pending.length === 0
            ? { agno_event_type: 'run_paused' }
            : { agno_event_type: 'run_paused', pending: end.pending };
      return [update(state, true, paused), task(state, message(messageId, [content], metrics))];
    },

    /** The final status-update and the failed Task, when the run threw. */
    fail(error: string): [StatusUpdate, RunTask] {
      return [
        update('failed', true),
        task('failed', message(messageId, [`Error: ${error}`], null)),
      ];
    },
  };
}

/** `tool_name`, `tool_call_id` and `tool_args` (as a JSON string) of a ToolExecution. */
function toolMetadata(tool: unknown): Record<string, unknown> {
  if (typeof tool !== 'object' || tool === null) return {};
  const { tool_name: name, tool_call_id: id, tool_args: args } = tool as Record<string, unknown>;
  const metadata: Record<string, unknown> = {
    tool_name: typeof name === 'string' && name !== '' ? name : 'tool',
  };
  if (typeof id === 'string' && id !== '') metadata['tool_call_id'] = id;
  if (typeof args === 'object' && args !== null && Object.keys(args).length > 0) {
    metadata['tool_args'] = JSON.stringify(args);
  }
  return metadata;
}
