/**
 * Runs one agent: model turns, built-in server tools, a pause on client tools and cancellation
 * between deltas, emitting Agno's agent events and building its RunOutput through the run
 * ledger. Never does I/O: the model, clock, ids and sleep are handed in.
 */
import type { AgentDefinition, ToolDefinition } from '../catalogue/definitions.js';
import type { Model, ModelMessage, ModelTool, ModelToolCall, ModelUsage } from '../model/model.js';
import type { RunEvent } from './events.js';
import { RunLedger, type CheckpointHead, type Resume } from './ledger.js';
import type { PendingTools, RunOutcome } from './ledger.js';
import type { RecordedMessage } from './messages.js';
import { reportedTokens, turnTokens, type TokenCounts } from './metrics.js';
import type { RunStatus, ToolAnswer } from './request.js';
import type { RunScope } from './scope.js';
import { epochSeconds } from './time.js';
import {
  createRequirement,
  finishToolExecution,
  startToolExecution,
  type ToolExecution,
} from './tool-execution.js';
import { heldFields, pauseKindOf, type UserInputField } from './tool-gates.js';
import { BUILTIN_TOOLS, runBuiltinTool } from './tools.js';

/** Model turns one run may take: a model that keeps calling tools past this fails the run. */
export const MAX_MODEL_TURNS = 10;

/** The result of a call the user rejected without a note: Agno's words (`_reject_tool_call`). */
const REJECTED = 'Function call was rejected by the user';

/** How one model turn ended. */
type Turn =
  | {
      readonly kind: 'done';
      readonly text: string;
      readonly reasoning: string;
      readonly calls: readonly ModelToolCall[];
      readonly firstChunkMs: number | null;
      /** The provider's own token counts, when it sent them. */
      readonly usage: ModelUsage | null;
    }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'cancelled' };

/** What a paused agent run keeps to be continued (JSON-serializable). */
export interface AgentCheckpoint extends CheckpointHead {
  readonly kind: 'agent';
  readonly content: string;
  readonly reasoning: string;
  readonly turns: number;
  readonly firstChunkMs: number | null;
  readonly messages: readonly RecordedMessage[];
  readonly tools: readonly ToolExecution[];
  /** The calls the client must answer, in call order. */
  readonly pending: readonly ModelToolCall[];
  /** The RunRequirement of each pending call, in the same order (absent in older checkpoints). */
  readonly requirements?: readonly Record<string, unknown>[];
}

/** Continuing a paused agent run: its checkpoint and one answer per pending call, in order. */
export type AgentResume = Resume<AgentCheckpoint>;

/**
 * Runs `agent` in `scope` with `model` (null: its provider is unknown, the run fails). Yields
 * each event as it happens; returns the outcome, whose output is the agent RunOutput.
 *
 * Order: `RunStarted`, then per model turn `ModelRequestStarted`, reasoning and `RunContent`
 * deltas, `ModelRequestCompleted` and the turn's tool calls, until a turn calls no tool:
 * `RunContentCompleted`, `RunCompleted`. Ends early with `RunError`, `RunPaused` (a client
 * tool was called) or `RunCancelled` + `RunCompleted`.
 *
 * With `resume`, the paused run goes on instead: `RunContinued`, the client's results become
 * tool messages, and the model turns go on as above (the turn limit counts every turn).
 */
export async function* runAgent(
  agent: AgentDefinition,
  scope: RunScope,
  model: Model | null,
  resume: AgentResume | null = null,
): AsyncGenerator<RunEvent, RunOutcome, void> {
  const run = new AgentRun(agent, scope, resume?.checkpoint ?? null);
  const tools = toolsOf(agent, scope.clientTools);
  if (resume === null) yield run.ledger.emit('RunStarted', run.modelFields);
  else {
    yield run.ledger.emit('RunContinued');
    yield* run.answer(resume.checkpoint.pending, resume.results, tools);
  }
  if (model === null)
    return yield* run.end('ERROR', `Unknown model provider ${agent.model.provider}`);
  const clientNames = new Set(scope.clientTools.map((tool) => tool.name));
  const offered: ModelTool[] = [...tools.values()].map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
    ...(clientNames.has(name) ? { client: true } : {}),
  }));
  while (run.turns < MAX_MODEL_TURNS) {
    if (scope.cancel.cancelled) return yield* run.end('CANCELLED', run.content);
    const startMs = run.ledger.now();
    const prompt = run.prompt();
    yield run.ledger.emit('ModelRequestStarted', run.modelFields);
    const turn = yield* streamTurn(run, model, prompt, offered);
    if (turn.kind === 'error') return yield* run.end('ERROR', turn.message);
    if (turn.kind === 'cancelled') return yield* run.end('CANCELLED', run.content);
    const tokens = turn.usage === null ? turnTokens(prompt, turn) : reportedTokens(turn.usage);
    run.recordTurn(turn, tokens);
    yield run.ledger.emit('ModelRequestCompleted', {
      ...run.modelFields,
      input_tokens: tokens.input_tokens,
      output_tokens: tokens.output_tokens,
      total_tokens: tokens.total_tokens,
      time_to_first_token: turn.firstChunkMs === null ? null : (turn.firstChunkMs - startMs) / 1000,
      reasoning_tokens: tokens.reasoning_tokens,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
    });
    if (turn.calls.length === 0) return yield* run.end('COMPLETED', run.content);
    const held: ModelToolCall[] = [];
    for (const call of turn.calls) {
      const tool = tools.get(call.name);
      const kind = pauseKindOf(tool);
      if (kind !== null) held.push(run.holdTool(call, heldFields(tool!, kind, call.args)));
      else yield* run.executeTool(call, tool);
    }
    if (held.length > 0) return yield* run.pause(held);
  }
  return yield* run.end('ERROR', `Model turn limit reached (${MAX_MODEL_TURNS} turns)`);
}

/**
 * The tools an agent may call: every built-in, then its configured tools, then the run's client
 * tools (a later one wins by name).
 */
function toolsOf(
  agent: AgentDefinition,
  clientTools: readonly ToolDefinition[],
): Map<string, ToolDefinition> {
  const tools = new Map<string, ToolDefinition>();
  for (const tool of BUILTIN_TOOLS) tools.set(tool.name, { ...tool, external_execution: false });
  for (const tool of agent.tools) tools.set(tool.name, tool);
  for (const tool of clientTools) tools.set(tool.name, tool);
  return tools;
}

/** Streams one model turn, emitting its reasoning and content deltas as they arrive. */
async function* streamTurn(
  run: AgentRun,
  model: Model,
  prompt: readonly ModelMessage[],
  tools: readonly ModelTool[],
): AsyncGenerator<RunEvent, Turn, void> {
  const { cancel, deps } = run.scope;
  let text = '';
  let reasoning = '';
  let reasoningOpen = false;
  let firstChunkMs: number | null = null;
  let usage: ModelUsage | null = null;
  const calls: ModelToolCall[] = [];
  try {
    const options = { cancel, sleep: deps.sleep, newId: deps.newId };
    for await (const chunk of model.stream(prompt, tools, options)) {
      // The cancel check between deltas: leaving the loop also closes the model's stream.
      if (cancel.cancelled) return { kind: 'cancelled' };
      // Usage is bookkeeping, not output: it neither starts the first token nor ends reasoning.
      if (chunk.type === 'usage') {
        usage = chunk;
        continue;
      }
      firstChunkMs ??= run.ledger.now();
      if (chunk.type === 'reasoning') {
        if (!reasoningOpen) yield run.ledger.emit('ReasoningStarted');
        reasoningOpen = true;
        reasoning += chunk.delta;
        yield run.ledger.emit('ReasoningContentDelta', { reasoning_content: chunk.delta });
        continue;
      }
      if (reasoningOpen) yield run.ledger.emit('ReasoningCompleted', reasoningDone(reasoning));
      reasoningOpen = false;
      if (chunk.type === 'error') return { kind: 'error', message: chunk.message };
      if (chunk.type === 'tool_call') {
        calls.push({ id: chunk.id, name: chunk.name, args: chunk.args });
        continue;
      }
      text += chunk.delta;
      run.content += chunk.delta;
      yield run.ledger.emit('RunContent', {
        content: chunk.delta,
        content_type: 'str',
        workflow_agent: false,
      });
    }
  } catch (error) {
    // A provider that throws (network, parse) ends the run like an error chunk would.
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (reasoningOpen) yield run.ledger.emit('ReasoningCompleted', reasoningDone(reasoning));
  // A model that noticed the cancel flag stops early without saying why.
  if (cancel.cancelled) return { kind: 'cancelled' };
  return { kind: 'done', text, reasoning, calls, firstChunkMs, usage };
}

/**
 * The run's dependencies as a system-prompt section (Agno's `<additional context>` block); null
 * without any. In the system prompt, not the user message, so the answer to the message (the
 * offline model's echo) does not change.
 */
function dependenciesPrompt(
  dependencies: Readonly<Record<string, unknown>> | null | undefined,
): string | null {
  if (dependencies == null) return null;
  return `<additional context>\n${JSON.stringify(dependencies, null, 2)}\n</additional context>`;
}

function reasoningDone(reasoning: string): Record<string, unknown> {
  return { content: reasoning, content_type: 'str' };
}

/**
 * One agent run: its ledger (events, messages, tokens) and what only an agent keeps besides, the
 * tool executions, content, reasoning and turns. A class because the model loop, the tool calls
 * and the client's answers all change these together.
 */
class AgentRun {
  readonly agent: AgentDefinition;
  readonly scope: RunScope;
  readonly ledger: RunLedger;
  readonly modelFields: Readonly<Record<string, unknown>>;
  /** All content deltas so far (partial when cancelled). */
  content = '';
  /** Model turns taken so far (a continued run counts those before the pause). */
  turns = 0;
  private reasoning = '';
  private firstChunkMs: number | null = null;
  private readonly tools: ToolExecution[] = [];

  /** A new run, or (with a checkpoint) the paused run restored as it was. */
  constructor(agent: AgentDefinition, scope: RunScope, checkpoint: AgentCheckpoint | null) {
    this.agent = agent;
    this.scope = scope;
    this.modelFields = { model: agent.model.id, model_provider: agent.model.provider };
    this.ledger = new RunLedger(scope, { agent_id: agent.id, agent_name: agent.name }, checkpoint);
    if (checkpoint !== null) {
      this.content = checkpoint.content;
      this.reasoning = checkpoint.reasoning;
      this.turns = checkpoint.turns;
      this.firstChunkMs = checkpoint.firstChunkMs;
      this.tools.push(...checkpoint.tools);
      return;
    }
    const system = [
      agent.description,
      agent.instructions,
      dependenciesPrompt(scope.dependencies),
    ].filter((part) => part !== null);
    if (system.length > 0) this.ledger.record({ role: 'system', content: system.join('\n\n') });
    this.ledger.record({ role: 'user', content: scope.message });
  }

  /**
   * The client's answers to the held calls: a result finishes its tool; a confirmed or filled-in
   * call runs now (with the user's values merged into its arguments); a rejected one gets the
   * rejection as its result. Each becomes a tool message.
   */
  *answer(
    pending: readonly ModelToolCall[],
    answers: readonly ToolAnswer[],
    tools: ReadonlyMap<string, ToolDefinition>,
  ): Generator<RunEvent, void, void> {
    for (const [index, call] of pending.entries()) {
      const answer = answers[index] as ToolAnswer;
      const at = this.tools.findIndex((tool) => tool['tool_call_id'] === call.id);
      const held = this.tools[at] as ToolExecution;
      if ('confirmed' in answer) {
        const decided = {
          ...held,
          confirmed: answer.confirmed,
          confirmation_note: answer.note,
        };
        if (answer.confirmed) yield* this.executeTool(call, tools.get(call.name), { at, decided });
        else this.settle(call, at, decided, answer.note ?? REJECTED, true, true);
        continue;
      }
      if ('values' in answer) {
        const fields = (held['user_input_schema'] as readonly UserInputField[]).map((field) => ({
          ...field,
          value: answer.values[field.name],
        }));
        const args = {
          ...call.args,
          ...Object.fromEntries(fields.map((field) => [field.name, field.value])),
        };
        const filled = { ...held, tool_args: args, user_input_schema: fields, answered: true };
        yield* this.executeTool({ ...call, args }, tools.get(call.name), { at, decided: filled });
        continue;
      }
      this.settle(call, at, held, answer.content, answer.error);
    }
  }

  /**
   * A held call finished without running here: by the client's result, or rejected (not run;
   * the rejection is its error result). Either becomes a tool message.
   */
  private settle(
    call: ModelToolCall,
    at: number,
    tool: ToolExecution,
    result: string,
    error: boolean,
    rejected = false,
  ): void {
    const nowMs = this.ledger.now();
    const end = { result, error, startMs: nowMs, endMs: nowMs };
    this.tools[at] = this.audited(finishToolExecution(tool, end));
    this.ledger.recordToolResult(call, result, error, rejected);
  }

  /** The messages the next model turn sees. */
  prompt(): ModelMessage[] {
    return this.ledger.messages.map((recorded) => recorded.message);
  }

  recordTurn(turn: Extract<Turn, { kind: 'done' }>, tokens: TokenCounts): void {
    this.turns += 1;
    this.ledger.addTokens(tokens);
    this.reasoning += turn.reasoning;
    this.firstChunkMs ??= turn.firstChunkMs;
    this.ledger.record({
      role: 'assistant',
      content: turn.text === '' ? null : turn.text,
      toolCalls: turn.calls,
      reasoning: turn.reasoning === '' ? null : turn.reasoning,
    });
  }

  /**
   * Runs a server tool: `ToolCallStarted`, `ToolCallCompleted`, and `ToolCallError` if it failed.
   * `held` is a call the run paused on, now decided: its execution replaces the held one.
   */
  *executeTool(
    call: ModelToolCall,
    definition: ToolDefinition | undefined,
    held?: { readonly at: number; readonly decided: ToolExecution },
  ): Generator<RunEvent, void, void> {
    const { ledger } = this;
    const startMs = ledger.now();
    const started = held?.decided ?? {
      ...startToolExecution({ ...call, createdAt: epochSeconds(startMs) }),
      approval_type: definition?.approval_type ?? null,
    };
    yield ledger.emit('ToolCallStarted', { tool: started });
    const outcome = runBuiltinTool(call.name, call.args, this.scope.state) ?? {
      ok: false,
      error:
        definition !== undefined
          ? `Tool ${call.name} has no server implementation`
          : `Unknown tool ${call.name}`,
    };
    const result = outcome.ok ? outcome.result : outcome.error;
    const error = !outcome.ok;
    const tool = this.audited(
      finishToolExecution(started, { result, error, startMs, endMs: ledger.now() }),
    );
    if (held === undefined) this.tools.push(tool);
    else this.tools[held.at] = tool;
    yield ledger.emit('ToolCallCompleted', { tool, content: result });
    if (error) yield ledger.emit('ToolCallError', { tool, error: result });
    ledger.recordToolResult(call, result, error);
  }

  /** A finished call of an `audit` tool gets the id of the approval that records it. */
  private audited(tool: ToolExecution): ToolExecution {
    return tool['approval_type'] === 'audit'
      ? { ...tool, approval_id: this.scope.deps.newId() }
      : tool;
  }

  /** A call the run waits on (`fields` say for what): recorded, not run; the run pauses on it. */
  holdTool(call: ModelToolCall, fields: Readonly<Record<string, unknown>>): ModelToolCall {
    this.tools.push({
      ...startToolExecution({ ...call, createdAt: epochSeconds(this.ledger.now()) }),
      ...fields,
    });
    return call;
  }

  *pause(held: readonly ModelToolCall[]): Generator<RunEvent, RunOutcome, void> {
    const ids = new Set(held.map((call) => call.id));
    // One approval per pause covers every held call that needs one.
    let approvalId: string | null = null;
    for (const [at, tool] of this.tools.entries()) {
      if (!ids.has(tool['tool_call_id'] as string) || tool['approval_type'] !== 'required')
        continue;
      approvalId ??= this.scope.deps.newId();
      this.tools[at] = { ...tool, approval_id: approvalId };
    }
    const tools = this.tools.filter((tool) => ids.has(tool['tool_call_id'] as string));
    const requirements = tools.map((tool) =>
      createRequirement(tool, this.scope.deps.newId(), this.ledger.now()),
    );
    return yield* this.end('PAUSED', this.content, { tools, requirements }, held);
  }

  /** Ends the run: `text` is its answer (or error); a pause waits on `pending`, the `held` calls. */
  end(
    status: RunStatus,
    text: string,
    pending: PendingTools | null = null,
    held: readonly ModelToolCall[] = [],
  ): Generator<RunEvent, RunOutcome, void> {
    const { agent, ledger } = this;
    return ledger.endDelegate('', status, text, pending, () => ({
      model: agent.model,
      metrics: ledger.metrics(this.firstChunkMs, this.turns > 0 ? agent.model : null),
      tools: this.tools,
      reasoning: this.reasoning,
      checkpoint:
        pending &&
        ({
          kind: 'agent',
          ...ledger.checkpointHead(),
          content: this.content,
          reasoning: this.reasoning,
          turns: this.turns,
          firstChunkMs: this.firstChunkMs,
          messages: [...ledger.messages],
          tools: [...this.tools],
          pending: held,
          requirements: pending.requirements,
        } satisfies AgentCheckpoint),
    }));
  }
}
