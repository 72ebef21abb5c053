/**
 * The one interface every model provider implements: messages and tools in, a
 * stream of text, reasoning, tool-call, usage and error chunks out. Types only; no provider code
 * here.
 */

/** A tool call the model asks for. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** A message as a model sees it: the prompt, earlier turns and tool results. */
export type ModelMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      /** Null when the turn only called tools. */
      readonly content: string | null;
      readonly toolCalls: readonly ModelToolCall[];
      readonly reasoning: string | null;
    }
  | {
      readonly role: 'tool';
      /** The tool's result, or its error message when `toolCallError`. */
      readonly content: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly toolArgs: Record<string, unknown>;
      readonly toolCallError: boolean;
      /** Set when the user rejected the call: `content` is the rejection, the tool never ran. */
      readonly rejected?: boolean;
    };

/** A tool the model may call. */
export interface ModelTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments. */
  readonly parameters: Record<string, unknown>;
  /** Set for a tool the client executes for this run only (AG-UI `tools[]`). */
  readonly client?: boolean;
}

/** Token counts a provider reported for one turn (output includes reasoning). */
export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
}

/**
 * One piece of a model's streamed answer. `usage` is optional: without it the engine counts
 * whitespace tokens itself (the offline model never sends one).
 */
export type ModelChunk =
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'reasoning'; readonly delta: string }
  | ({ readonly type: 'tool_call' } & ModelToolCall)
  | ({ readonly type: 'usage' } & ModelUsage)
  | { readonly type: 'error'; readonly message: string };

/** What a model may use while streaming: the run's cancel flag, its sleep and its ids. */
export interface ModelStreamOptions {
  /** Checked between deltas; a model stops early once it is set. */
  readonly cancel: { readonly cancelled: boolean };
  readonly sleep: (ms: number) => Promise<void>;
  /** Ids for tool calls (counters in tests). */
  readonly newId: () => string;
}

/** A model provider. `stream` answers one model turn; the engine loops over tool calls. */
export interface Model {
  readonly id: string;
  readonly provider: string;
  readonly name: string;
  stream(
    messages: readonly ModelMessage[],
    tools: readonly ModelTool[],
    options: ModelStreamOptions,
  ): AsyncIterable<ModelChunk>;
}
