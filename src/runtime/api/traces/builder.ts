/**
 * Builds a run's trace from its events as they stream: a root span for the run,
 * an LLM span per model request, a TOOL span per tool call, and child spans for team members
 * and workflow steps, each timed with the injected clock. Pure: no I/O, never changes an event.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../../shared/clock.js';
import type { RunEvent } from '../../engine/events.js';
import type { SpanRecord, SpanStatus, SpanType, TraceRecord } from './records.js';

/** The run a trace is built for. */
export interface TracedRun {
  readonly kind: 'agent' | 'team' | 'workflow';
  readonly entityId: string;
  readonly entityName: string;
  readonly runId: string;
  readonly sessionId: string | null;
  readonly userId: string | null;
  /** The run's input message. */
  readonly input: string;
}

/** How the run ended, as the engine returns it. */
export interface TracedOutcome {
  readonly status: string;
  readonly output: Readonly<Record<string, unknown>>;
}

/** A span while the run goes on; `parent` and the maps below hold positions in `spans`. */
interface OpenSpan {
  readonly parent: number | null;
  name: string;
  readonly type: SpanType;
  readonly startMs: number;
  readonly input: string | null;
  readonly stepType: string | null;
  readonly metadata: Record<string, unknown>;
  endMs: number | null;
  status: SpanStatus;
  output: string | null;
  error: string | null;
  /** Content deltas seen while an LLM span is open. */
  content: string;
}

const KIND_TYPE: Readonly<Record<TracedRun['kind'], SpanType>> = {
  agent: 'AGENT',
  team: 'TEAM',
  workflow: 'WORKFLOW',
};

/** A string field, or null. */
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Content as a span shows it: strings as they are, anything else as JSON; null for none. */
function contentText(value: unknown): string | null {
  if (value == null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An object field, or an empty object. */
function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The numeric fields of a completed model request that an LLM span keeps. */
const LLM_NUMBERS = ['input_tokens', 'output_tokens', 'total_tokens', 'time_to_first_token'];

/** A span id: 16 hex digits, stable for a trace id and the span's position. */
export function spanIdOf(traceId: string, index: number): string {
  return createHash('sha256').update(`${traceId}/${index}`).digest('hex').slice(0, 16);
}

/**
 * Starts the trace of `run` at the clock's current time: it observes the run's events, then
 * gives its trace.
 */
export function createTraceBuilder(run: TracedRun, clock: Clock) {
  const spans: OpenSpan[] = [];
  /** Open or closed run spans by run id; the root is the run itself. */
  const runs = new Map<string, number>();
  /** The open LLM span of each run. */
  const models = new Map<string, number>();
  /** Tool spans by tool call id. */
  const tools = new Map<string, number>();
  /** The delegation tool span a member run nests under, by the member's run id. */
  const delegations = new Map<string, number>();
  /** Step spans by step id. */
  const steps = new Map<string, number>();

  /** Opens a span now (without input or step type unless given). */
  function open(
    span: Pick<OpenSpan, 'parent' | 'name' | 'type' | 'metadata'> &
      Partial<Pick<OpenSpan, 'input' | 'stepType'>>,
  ): number {
    spans.push({
      input: null,
      stepType: null,
      ...span,
      startMs: clock.now(),
      endMs: null,
      status: 'OK',
      output: null,
      error: null,
      content: '',
    });
    return spans.length - 1;
  }

  function close(index: number, status: SpanStatus, output: string | null, error: string | null) {
    const span = spans[index] as OpenSpan;
    span.endMs = clock.now();
    span.status = status;
    span.output = output;
    span.error = error;
  }

  /** Closes a span: `content` is its output, or its error when it `failed`. */
  const settle = (index: number, failed: boolean, content: string | null): void =>
    failed ? close(index, 'ERROR', null, content) : close(index, 'OK', content, null);

  const root = open({
    parent: null,
    name: `${run.entityName}.run`,
    type: KIND_TYPE[run.kind],
    input: run.input,
    metadata: { run_id: run.runId },
  });
  runs.set(run.runId, root);

  /** The span a run's model and tool spans nest under: its own, else the root. */
  const spanOfRun = (runId: string | null): number => runs.get(runId as string) ?? root;

  /** A run (member, step executor) starts or continues: a child span, unless already known. */
  function startRun(event: RunEvent, type: SpanType): void {
    const runId = text(event.run_id) as string;
    const known = runs.get(runId);
    if (known !== undefined) {
      const span = spans[known] as OpenSpan;
      Object.assign(span.metadata, modelOf(event));
      // A continue of the paused run itself: named as Agno names it.
      if (known === root && event.event.endsWith('Continued')) {
        span.name = `${run.entityName}.continue_run`;
      }
      return;
    }
    const parent =
      delegations.get(runId) ??
      runs.get(text(event.parent_run_id) as string) ??
      steps.get(text(event.step_id) as string) ??
      root;
    const id = type === 'TEAM' ? { team_id: event.team_id } : { agent_id: event.agent_id };
    const name = text(type === 'TEAM' ? event.team_name : event.agent_name) ?? runId;
    const index = open({
      parent,
      name: `${name}.run`,
      type,
      metadata: { run_id: runId, ...id, ...modelOf(event) },
    });
    runs.set(runId, index);
  }

  /** A run ends: its span closes (the root's closes in finish, but keeps an error now). */
  function endRun(event: RunEvent, failed: boolean): void {
    const index = runs.get(text(event.run_id) as string);
    if (index === undefined) return;
    const content = contentText(event.content);
    if (index === root) {
      if (failed) (spans[root] as OpenSpan).error = content;
      return;
    }
    settle(index, failed, content);
  }

  return {
    /** Takes one event, in stream order. */
    observe(event: RunEvent): void {
      const runId = text(event.run_id);
      switch (event.event) {
        case 'RunStarted':
        case 'RunContinued':
          return startRun(event, 'AGENT');
        case 'TeamRunStarted':
        case 'TeamRunContinued':
          return startRun(event, 'TEAM');
        case 'WorkflowStarted':
        case 'WorkflowContinued':
          return startRun(event, 'WORKFLOW');
        case 'ModelRequestStarted': {
          const model = text(event.model) ?? 'model';
          const index = open({
            parent: spanOfRun(runId),
            name: `${model}.invoke`,
            type: 'LLM',
            metadata: modelOf(event),
          });
          models.set(runId as string, index);
          return;
        }
        case 'RunContent':
        case 'TeamRunContent': {
          const index = models.get(runId as string);
          const delta = text(event.content);
          if (index !== undefined && delta !== null) (spans[index] as OpenSpan).content += delta;
          return;
        }
        case 'ModelRequestCompleted': {
          const index = models.get(runId as string);
          if (index === undefined) return;
          models.delete(runId as string);
          const span = spans[index] as OpenSpan;
          for (const key of LLM_NUMBERS) {
            if (typeof event[key] === 'number') span.metadata[key] = event[key];
          }
          return close(index, 'OK', span.content === '' ? null : span.content, null);
        }
        case 'ToolCallStarted':
        case 'TeamToolCallStarted': {
          const tool = record(event.tool);
          const args = record(tool.tool_args);
          const name = text(tool.tool_name) ?? 'tool';
          const index = open({
            parent: spanOfRun(runId),
            name,
            type: 'TOOL',
            input: JSON.stringify(args),
            metadata: { tool_name: name, parameters: args },
          });
          tools.set(text(tool.tool_call_id) as string, index);
          const child = text(tool.child_run_id);
          if (child !== null) delegations.set(child, index);
          return;
        }
        case 'ToolCallCompleted':
        case 'TeamToolCallCompleted': {
          const tool = record(event.tool);
          const index = tools.get(text(tool.tool_call_id) as string);
          if (index === undefined) return;
          return settle(index, tool.tool_call_error === true, contentText(tool.result));
        }
        case 'StepStarted': {
          const name = text(event.step_name) ?? 'step';
          const index = open({
            parent: spanOfRun(runId),
            name,
            type: 'WORKFLOW',
            stepType: 'Step',
            metadata: { step_name: name, step_index: event.step_index },
          });
          steps.set(text(event.step_id) as string, index);
          return;
        }
        case 'StepCompleted':
        case 'StepError': {
          const index = steps.get(text(event.step_id) as string);
          if (index === undefined) return;
          const failed = event.event === 'StepError';
          return settle(index, failed, contentText(failed ? event.error : event.content));
        }
        case 'RunCompleted':
        case 'TeamRunCompleted':
          return endRun(event, false);
        case 'RunError':
        case 'TeamRunError':
          return endRun(event, true);
        case 'WorkflowError':
          (spans[root] as OpenSpan).error = contentText(event.error);
          return;
        default:
          return;
      }
    },

    /** The trace of a run that returned `outcome`; spans still open end now. */
    finish(outcome: TracedOutcome, traceId: string): TraceRecord {
      const failed = outcome.status === 'ERROR';
      const rootSpan = spans[root] as OpenSpan;
      const content = contentText(outcome.output.content);
      return build(
        traceId,
        failed ? 'ERROR' : 'OK',
        failed ? null : content,
        failed ? (rootSpan.error ?? content) : null,
      );
    },

    /** The trace of a run whose engine threw `message`. */
    fail(message: string, traceId: string): TraceRecord {
      return build(traceId, 'ERROR', null, message);
    },
  };

  /** Closes the root and every span still open (now), and gives the finished trace. */
  function build(
    traceId: string,
    status: SpanStatus,
    output: string | null,
    error: string | null,
  ): TraceRecord {
    close(root, status, output, error);
    const end = (spans[root] as OpenSpan).endMs as number;
    const finished: SpanRecord[] = spans.map((span, index) => ({
      span_id: spanIdOf(traceId, index),
      trace_id: traceId,
      parent_span_id: span.parent === null ? null : spanIdOf(traceId, span.parent),
      name: span.name,
      type: span.type,
      status: span.status,
      start_ms: span.startMs,
      end_ms: span.endMs ?? end,
      input: span.input,
      output: span.output,
      error: span.error,
      step_type: span.stepType,
      metadata: Object.keys(span.metadata).length === 0 ? null : span.metadata,
    }));
    const top = finished[root] as SpanRecord;
    return {
      trace_id: traceId,
      name: top.name,
      status,
      start_ms: top.start_ms,
      end_ms: top.end_ms,
      error_count: finished.filter((span) => span.status === 'ERROR').length,
      input: run.input,
      output,
      error,
      run_id: run.runId,
      session_id: run.sessionId,
      user_id: run.userId,
      agent_id: run.kind === 'agent' ? run.entityId : null,
      team_id: run.kind === 'team' ? run.entityId : null,
      workflow_id: run.kind === 'workflow' ? run.entityId : null,
      spans: finished,
    };
  }
}

/** The model fields of an event, for a span's metadata. */
function modelOf(event: RunEvent): Record<string, unknown> {
  const model = text(event.model);
  return model === null ? {} : { model, model_provider: text(event.model_provider) };
}
