/**
 * The run ledger every kind of run keeps (agent, team, workflow): its events, messages and
 * tokens, stamped with the injected clock and ids, and the one place a run's RunOutcome (what a
 * nested run hands its parent) is assembled. Pure: never does I/O.
 */
import type { ModelMessage, ModelToolCall } from '../model/model.js';
import { createEvent, omitNulls, type RunEvent } from './events.js';
import { messageDict, type RecordedMessage } from './messages.js';
import { addTokens, metricsDict, NO_TOKENS, type TokenCounts } from './metrics.js';
import type { RunResult, RunStatus, ToolAnswer } from './request.js';
import { scopeFields, type RunScope } from './scope.js';
import { epochSeconds } from './time.js';
import type { ToolExecution } from './tool-execution.js';

/** Tool calls a paused run waits on. */
export interface PendingTools {
  readonly tools: readonly ToolExecution[];
  readonly requirements: readonly Record<string, unknown>[];
}

/**
 * A finished run, as seen by its parent: the public result plus the answer text, tokens and
 * events the team or workflow around it needs without re-reading the output dict.
 */
export interface RunOutcome extends RunResult {
  /** The answer (the error message when ERROR). */
  readonly text: string;
  readonly tokens: TokenCounts;
  /** Every event the run emitted, its nested runs' included, in order. */
  readonly events: readonly RunEvent[];
  /** Set when PAUSED. */
  readonly pending: PendingTools | null;
}

/** What every checkpoint starts with: the run, its input, and its ledger's state at the pause. */
export interface CheckpointHead {
  readonly runId: string;
  readonly message: string;
  readonly startMs: number;
  readonly tokens: TokenCounts;
  /** Every event up to the pause (filled in by {@link RunLedger.toOutcome}). */
  readonly events: readonly RunEvent[];
  /** The messages recorded up to the pause (agents and teams). */
  readonly messages?: readonly RecordedMessage[];
}

/** Continuing a paused run: its checkpoint and one answer per call it waits on, in order. */
export interface Resume<Checkpoint extends CheckpointHead> {
  readonly checkpoint: Checkpoint;
  readonly results: readonly ToolAnswer[];
}

/** A run's end as its kind describes it to {@link RunLedger.toOutcome}. */
export interface RunEnd {
  /** The run output dict in its kind's key order, given the run's events; nulls are dropped. */
  readonly output: (events: readonly RunEvent[]) => Record<string, unknown>;
  /** The calls a paused run waits on. */
  readonly pending?: PendingTools | null;
  /** What a paused run keeps to be continued. */
  readonly checkpoint?: CheckpointHead | null;
}

/** What an agent's or a team's output holds besides what their ledger does. */
export interface DelegateEnd {
  readonly model: { readonly id: string; readonly provider: string };
  readonly metrics: Record<string, unknown>;
  readonly tools: readonly ToolExecution[];
  /** An agent's reasoning ('' or absent: none). */
  readonly reasoning?: string;
  /** A team's member outputs. */
  readonly memberResponses?: readonly Record<string, unknown>[];
  readonly pending: PendingTools | null;
  readonly checkpoint: CheckpointHead | null;
}

/** One run's ledger: a new one, or (with `saved`) the paused run's restored as it was. */
export class RunLedger {
  readonly scope: RunScope;
  readonly startMs: number;
  readonly events: RunEvent[];
  readonly messages: RecordedMessage[];
  tokens: TokenCounts;
  /** The entity's id and name fields (`agent_id`/`agent_name`, `team_id`/…, `workflow_id`/…). */
  private readonly identity: Readonly<Record<string, unknown>>;
  /** The fields every event of this run carries. */
  private readonly common: Readonly<Record<string, unknown>>;

  constructor(
    scope: RunScope,
    identity: Readonly<Record<string, unknown>>,
    saved: CheckpointHead | null,
  ) {
    this.scope = scope;
    this.identity = identity;
    this.common = { ...identity, ...scopeFields(scope) };
    this.startMs = saved?.startMs ?? this.now();
    this.tokens = saved?.tokens ?? NO_TOKENS;
    this.events = [...(saved?.events ?? [])];
    this.messages = [...(saved?.messages ?? [])];
  }

  /** The injected clock's time, epoch milliseconds. */
  now(): number {
    return this.scope.deps.clock.now();
  }

  /** Builds an event with this run's common fields and logs it for the output's `events`. */
  emit(name: string, fields: Readonly<Record<string, unknown>> = {}): RunEvent {
    const event = createEvent(name, { created_at: epochSeconds(this.now()) }, this.common, fields);
    this.events.push(event);
    return event;
  }

  /** Emits the cancel event `name` (`RunCancelled`, `TeamRunCancelled`, …) with its reason. */
  emitCancelled(name: string): RunEvent {
    return this.emit(name, { reason: `Run ${this.scope.runId} was cancelled` });
  }

  /** Records a message of the run's conversation, with a new id and the time. */
  record(message: ModelMessage): void {
    const createdAt = epochSeconds(this.now());
    this.messages.push({ id: this.scope.deps.newId(), createdAt, message });
  }

  /** Records a tool call's result (or error, or the user's rejection) as a tool message. */
  recordToolResult(call: ModelToolCall, content: string, error: boolean, rejected = false): void {
    this.record({
      role: 'tool',
      content,
      toolCallId: call.id,
      toolName: call.name,
      toolArgs: call.args,
      toolCallError: error,
      ...(rejected ? { rejected } : {}),
    });
  }

  /** Adds one model turn's tokens. */
  addTokens(tokens: TokenCounts): void {
    this.tokens = addTokens(this.tokens, tokens);
  }

  /**
   * Takes in a finished child run's events and tokens; for a child continued from `before` (its
   * checkpoint), only those after it, as the ones before are in this ledger already.
   */
  adopt(child: RunOutcome, before: CheckpointHead | null): void {
    this.events.push(...child.events.slice(before?.events.length ?? 0));
    this.addTokens(child.tokens);
    if (before !== null) this.tokens = addTokens(this.tokens, before.tokens, -1);
  }

  /**
   * The run's `metrics` dict as of now: tokens, duration, the time to the first token (null:
   * none) and the model (null: none ran).
   */
  metrics(
    firstTokenMs: number | null = null,
    model: { readonly id: string; readonly provider: string } | null = null,
  ): Record<string, unknown> {
    const { startMs } = this;
    const timeToFirstTokenMs = firstTokenMs === null ? null : firstTokenMs - startMs;
    return metricsDict(
      this.tokens,
      { durationMs: this.now() - startMs, timeToFirstTokenMs },
      model,
    );
  }

  /** The head of this run's checkpoint, as of now. */
  checkpointHead(): CheckpointHead {
    const { runId, message } = this.scope;
    return { runId, message, startMs: this.startMs, tokens: this.tokens, events: [] };
  }

  /**
   * The run's outcome: its output (nulls dropped), the session state, the answer (or error),
   * tokens and events, and for a paused run what it waits on and its checkpoint, events
   * included. The one place a RunOutcome is assembled, for every kind.
   */
  toOutcome(status: RunStatus, text: string, end: RunEnd): RunOutcome {
    const events = [...this.events];
    const { pending = null, checkpoint = null } = end;
    return {
      status,
      output: omitNulls(end.output(events)),
      sessionState: this.scope.state,
      text,
      tokens: this.tokens,
      events,
      pending,
      checkpoint: checkpoint === null ? null : { ...checkpoint, events },
    };
  }

  /**
   * {@link toOutcome} for an agent (Agno's RunOutput) or a team (TeamRunOutput), whose outputs
   * share one layout: this run's ids, input, messages and events with `end`'s fields in place.
   */
  delegateOutcome(status: RunStatus, text: string, end: DelegateEnd): RunOutcome {
    const { scope } = this;
    const { pending, checkpoint } = end;
    const output = (events: readonly RunEvent[]): Record<string, unknown> => ({
      run_id: scope.runId,
      ...this.identity,
      session_id: scope.sessionId,
      parent_run_id: scope.parentRunId,
      workflow_id: scope.workflow?.workflow_id,
      user_id: scope.userId,
      input: { input_content: scope.message },
      content: text,
      content_type: 'str',
      reasoning_content: end.reasoning || null,
      model: end.model.id,
      model_provider: end.model.provider,
      messages: this.messages.map(messageDict),
      metrics: end.metrics,
      tools: end.tools.length === 0 ? null : [...end.tools],
      member_responses: end.memberResponses && [...end.memberResponses],
      session_state: structuredClone(scope.state),
      created_at: epochSeconds(this.startMs),
      events,
      status,
      requirements: pending?.requirements,
    });
    return this.toOutcome(status, text, { output, pending, checkpoint });
  }

  /**
   * Ends an agent's or a team's run, whose closing events differ only by the `Team` prefix:
   * COMPLETED emits `RunContentCompleted` and `RunCompleted`, CANCELLED `RunCancelled` and
   * `RunCompleted`, ERROR `RunError`, PAUSED `RunPaused` with the `pending` calls; then returns
   * the {@link delegateOutcome}. `end` is asked again for each use, so its metrics are as of then.
   */
  *endDelegate(
    prefix: '' | 'Team',
    status: RunStatus,
    text: string,
    pending: PendingTools | null,
    end: () => Omit<DelegateEnd, 'pending'>,
  ): Generator<RunEvent, RunOutcome, void> {
    const completed = (): RunEvent => {
      const { reasoning, metrics } = end();
      const session_state = structuredClone(this.scope.state);
      const content = { content: text, content_type: 'str', reasoning_content: reasoning || null };
      return this.emit(`${prefix}RunCompleted`, { ...content, metrics, session_state });
    };
    if (status === 'COMPLETED') {
      yield this.emit(`${prefix}RunContentCompleted`);
      yield completed();
    } else if (status === 'CANCELLED') {
      yield this.emitCancelled(`${prefix}RunCancelled`);
      yield completed();
    } else if (status === 'ERROR') yield this.emit(`${prefix}RunError`, { content: text });
    else yield this.emit(`${prefix}RunPaused`, { ...pending, content: text });
    return this.delegateOutcome(status, text, { ...end(), pending });
  }
}
