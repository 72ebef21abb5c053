/**
 * Agno-style run events → AG-UI events: one mapper per AG-UI stream, fed the
 * engine's events in order. Pure and synchronous: it never writes, and its ids come from `newId`.
 *
 * Decisions of our own (see docs/runtime.md § AG-UI): only the top-level run's content and
 * reasoning become messages (a team member's are RAW, the team's answer repeats them); every tool
 * call (a member's, and the team's `delegate_task_to_member`) becomes TOOL_CALL_*; a tool call
 * completed in this stream but started in an earlier one (a resumed delegation) gets only its
 * TOOL_CALL_RESULT; a pause ends in `RUN_FINISHED` with an interrupt outcome, a cancellation with
 * a cancelled one; a failed run ends in `RUN_ERROR` instead of `RUN_FINISHED`.
 */
import { EventType, type AGUIEvent, type Interrupt, type RunFinishedOutcome } from '@ag-ui/core';
import type { RunEvent } from '../../engine/events.js';
import { runBuiltinTool } from '../../engine/tools.js';
import { isRecord } from '../json.js';
import { diffState } from './state-patch.js';

/** What a mapper needs to know about its stream. */
export interface AguiStream {
  readonly threadId: string;
  /** The request's `runId` (a resumed run keeps its own id inside the engine). */
  readonly runId: string;
  /** The session state the run starts from: the base of every `STATE_DELTA`. */
  readonly state: Readonly<Record<string, unknown>>;
  /** Whether the request sent a `state` object: then STATE_SNAPSHOT opens and closes the run. */
  readonly snapshots: boolean;
  readonly newId: () => string;
}

/** A ToolExecution dict as the engine's tool events carry it. */
type ToolExecution = Readonly<Record<string, unknown>>;

/** Maps one stream's events; call `start`, `map` per event, then `end` (or `fail`). */
export class AguiEventMapper {
  private readonly stream: AguiStream;
  private state: Record<string, unknown>;
  private text: string | null = null;
  private reasoning: { readonly id: string; steps: number } | null = null;
  /** Tool calls started in this stream and not ended yet, in start order. */
  private readonly openTools = new Set<string>();
  private cancelled = false;
  /** Set once RUN_FINISHED or RUN_ERROR went out: nothing may follow. */
  finished = false;

  constructor(stream: AguiStream) {
    this.stream = stream;
    this.state = structuredClone(stream.state) as Record<string, unknown>;
  }

  /** `RUN_STARTED`, then the state the run starts from when the client sent one. */
  start(): AGUIEvent[] {
    const { threadId, runId } = this.stream;
    return [{ type: EventType.RUN_STARTED, threadId, runId }, ...this.snapshot()];
  }

  /** The AG-UI events for one engine event. */
  map(event: RunEvent): AGUIEvent[] {
    if (this.finished) return [];
    const top = (event['nested_depth'] ?? 0) === 0;
    switch (event.event) {
      case 'RunContent':
      case 'TeamRunContent':
        return top ? this.content(String(event['content'] ?? '')) : [raw(event)];
      case 'ToolCallStarted':
      case 'TeamToolCallStarted':
        return this.toolStarted(event['tool'] as ToolExecution);
      case 'ToolCallCompleted':
      case 'TeamToolCallCompleted':
        return this.toolCompleted(event['tool'] as ToolExecution);
      case 'ReasoningStarted':
        return top ? this.reasoningStarted() : [raw(event)];
      case 'ReasoningContentDelta':
        return top ? this.reasoningDelta(String(event['reasoning_content'] ?? '')) : [raw(event)];
      case 'ReasoningStep':
        return top ? this.reasoningStep(event['content']) : [raw(event)];
      case 'ReasoningCompleted':
        return top ? this.closeReasoning() : [raw(event)];
      case 'CustomEvent':
        return [{ type: EventType.CUSTOM, name: event.event, value: event }];
      case 'RunCancelled':
      case 'TeamRunCancelled':
        this.cancelled ||= top;
        return [raw(event)];
      case 'RunCompleted':
      case 'TeamRunCompleted':
        return top ? this.completed(event['session_state']) : [raw(event)];
      case 'RunPaused':
      case 'TeamRunPaused':
        return top ? this.paused((event['tools'] ?? []) as ToolExecution[]) : [raw(event)];
      case 'RunError':
      case 'TeamRunError':
        return top ? this.fail(String(event['content'] ?? 'Run failed')) : [raw(event)];
      default:
        return [raw(event)];
    }
  }

  /** The stream ended: finishes the run if no terminal event did. */
  end(): AGUIEvent[] {
    return this.finished ? [] : this.completed(undefined);
  }

  /** `RUN_ERROR`: the run failed (a model or tool failure, or an exception). */
  fail(message: string): AGUIEvent[] {
    if (this.finished) return [];
    this.finished = true;
    return [{ type: EventType.RUN_ERROR, message }];
  }

  private content(delta: string): AGUIEvent[] {
    const out = this.closeReasoning();
    if (this.text === null) {
      this.text = this.stream.newId();
      out.push({ type: EventType.TEXT_MESSAGE_START, messageId: this.text, role: 'assistant' });
    }
    if (delta !== '') {
      out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: this.text, delta });
    }
    return out;
  }

  /** A tool call's parent: the open text message (closed now), else a new empty one. */
  private toolStarted(tool: ToolExecution): AGUIEvent[] {
    const out = this.content('');
    const parent = this.text as string;
    out.push(...this.closeText(), ...toolCallOpened(tool, parent));
    this.openTools.add(String(tool['tool_call_id']));
    return out;
  }

  private toolCompleted(tool: ToolExecution): AGUIEvent[] {
    const toolCallId = String(tool['tool_call_id']);
    const out: AGUIEvent[] = [];
    if (this.openTools.delete(toolCallId)) out.push({ type: EventType.TOOL_CALL_END, toolCallId });
    const result = tool['result'];
    if (result != null) {
      out.push({
        type: EventType.TOOL_CALL_RESULT,
        messageId: toolCallId,
        toolCallId,
        content: resultContent(result),
        role: 'tool',
      });
    }
    if (tool['tool_call_error'] !== true) out.push(...this.stateDelta(tool));
    return out;
  }

  /**
   * The session-state change of a built-in tool, replayed on this mapper's copy of the state: the
   * built-ins are pure functions of their arguments and the state, and the engine ran them on the
   * same state in the same order, so the copy stays equal to the run's.
   */
  private stateDelta(tool: ToolExecution): AGUIEvent[] {
    const next = structuredClone(this.state);
    const args = (tool['tool_args'] ?? {}) as Record<string, unknown>;
    if (runBuiltinTool(String(tool['tool_name']), args, next) === null) return [];
    const delta = diffState(this.state, next);
    this.state = next;
    return delta.length === 0 ? [] : [{ type: EventType.STATE_DELTA, delta }];
  }

  private reasoningStarted(): AGUIEvent[] {
    const out = this.closeText();
    out.push(...this.closeReasoning());
    const messageId = this.stream.newId();
    this.reasoning = { id: messageId, steps: 0 };
    out.push(
      { type: EventType.REASONING_START, messageId },
      { type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning' },
    );
    return out;
  }

  private reasoningDelta(delta: string): AGUIEvent[] {
    const out = this.reasoning === null ? this.reasoningStarted() : [];
    const messageId = (this.reasoning as { id: string }).id;
    if (delta !== '') out.push({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta });
    return out;
  }

  /** A ReasoningStep, numbered within its reasoning message. */
  private reasoningStep(content: unknown): AGUIEvent[] {
    const out = this.reasoning === null ? this.reasoningStarted() : [];
    const reasoning = this.reasoning as { readonly id: string; steps: number };
    reasoning.steps += 1;
    out.push({
      type: EventType.REASONING_MESSAGE_CONTENT,
      messageId: reasoning.id,
      delta: stepMarkdown(content, reasoning.steps),
    });
    return out;
  }

  private closeReasoning(): AGUIEvent[] {
    if (this.reasoning === null) return [];
    const messageId = this.reasoning.id;
    this.reasoning = null;
    return [
      { type: EventType.REASONING_MESSAGE_END, messageId },
      { type: EventType.REASONING_END, messageId },
    ];
  }

  private closeText(): AGUIEvent[] {
    if (this.text === null) return [];
    const messageId = this.text;
    this.text = null;
    return [{ type: EventType.TEXT_MESSAGE_END, messageId }];
  }

  /** Closes whatever is open: reasoning, tool calls (in start order), then text. */
  private closeAll(): AGUIEvent[] {
    const out = this.closeReasoning();
    for (const toolCallId of this.openTools)
      out.push({ type: EventType.TOOL_CALL_END, toolCallId });
    this.openTools.clear();
    out.push(...this.closeText());
    return out;
  }

  private snapshot(): AGUIEvent[] {
    return this.stream.snapshots
      ? [{ type: EventType.STATE_SNAPSHOT, snapshot: structuredClone(this.state) }]
      : [];
  }

  private finish(outcome: RunFinishedOutcome | undefined): AGUIEvent[] {
    const { threadId, runId } = this.stream;
    this.finished = true;
    return [
      ...this.snapshot(),
      { type: EventType.RUN_FINISHED, threadId, runId, ...(outcome && { outcome }) },
    ];
  }

  private completed(sessionState: unknown): AGUIEvent[] {
    const out = this.closeAll();
    if (typeof sessionState === 'object' && sessionState !== null) {
      this.state = structuredClone(sessionState) as Record<string, unknown>;
    }
    out.push(...this.finish(this.cancelled ? { type: 'cancelled' } : undefined));
    return out;
  }

  /**
   * The pause: an assistant message carrying one tool call per call the client must run (our
   * engine's RunPaused has no separate pause notice, so the message has no text), then
   * `RUN_FINISHED` whose interrupts name those calls.
   */
  private paused(tools: readonly ToolExecution[]): AGUIEvent[] {
    const out = this.closeAll();
    const parent = this.stream.newId();
    out.push(
      { type: EventType.TEXT_MESSAGE_START, messageId: parent, role: 'assistant' },
      { type: EventType.TEXT_MESSAGE_END, messageId: parent },
    );
    const interrupts: Interrupt[] = [];
    for (const tool of tools) {
      const toolCallId = String(tool['tool_call_id']);
      out.push(...toolCallOpened(tool, parent), { type: EventType.TOOL_CALL_END, toolCallId });
      interrupts.push({ id: toolCallId, reason: 'tool_call', toolCallId });
    }
    // The interrupt outcome needs at least one interrupt; a pause without tools just finishes.
    out.push(...this.finish(interrupts.length > 0 ? { type: 'interrupt', interrupts } : undefined));
    return out;
  }
}

/** `TOOL_CALL_START` and `TOOL_CALL_ARGS` (the arguments as one JSON delta). */
function toolCallOpened(tool: ToolExecution, parentMessageId: string): AGUIEvent[] {
  const toolCallId = String(tool['tool_call_id']);
  return [
    {
      type: EventType.TOOL_CALL_START,
      toolCallId,
      toolCallName: String(tool['tool_name']),
      parentMessageId,
    },
    { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(tool['tool_args'] ?? {}) },
  ];
}

/** A ReasoningStep as markdown: `## Step n: title`, the reasoning, Action/Result/Confidence. */
function stepMarkdown(content: unknown, n: number): string {
  const step: Record<string, unknown> = isRecord(content) ? content : {};
  const title = step['title'] == null ? '' : `: ${String(step['title'])}`;
  const lines = [`## Step ${n}${title}`, ''];
  if (step['reasoning'] != null) lines.push(String(step['reasoning']));
  for (const [key, label] of [
    ['action', 'Action'],
    ['result', 'Result'],
    ['confidence', 'Confidence'],
  ] as const) {
    if (step[key] != null) lines.push(`${label}: ${String(step[key])}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/** A tool result as TOOL_CALL_RESULT content: JSON text as is, anything else as a JSON string. */
function resultContent(result: unknown): string {
  if (typeof result !== 'string') return JSON.stringify(result);
  try {
    JSON.parse(result);
    return result;
  } catch {
    return JSON.stringify(result);
  }
}

function raw(event: RunEvent): AGUIEvent {
  return { type: EventType.RAW, event, source: 'agno' };
}
