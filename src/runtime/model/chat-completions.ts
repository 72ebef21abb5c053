/**
 * The OpenAI chat-completions wire format: our messages and tools as a request
 * body, and streamed `chat.completion.chunk` events back into model chunks. Pure: no I/O, no
 * clock; the HTTP side lives in openai-compatible.ts.
 */
import type { ModelChunk, ModelMessage, ModelTool, ModelUsage } from './model.js';

/** The longest provider message an error chunk repeats; the rest is cut. */
const MAX_PROVIDER_MESSAGE = 500;

/** The request body of one streamed model turn. */
export function chatRequestBody(
  model: string,
  messages: readonly ModelMessage[],
  tools: readonly ModelTool[],
): Record<string, unknown> {
  return {
    model,
    messages: messages.map(chatMessage),
    stream: true,
    stream_options: { include_usage: true },
    // Providers refuse `tool_choice` without tools, so both go or neither does.
    ...(tools.length === 0
      ? {}
      : {
          tools: tools.map(({ name, description, parameters }) => ({
            type: 'function',
            function: { name, description, parameters },
          })),
          tool_choice: 'auto',
        }),
  };
}

function chatMessage(message: ModelMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      // Reasoning is not sent back: some providers (DeepSeek) refuse it in the prompt.
      if (message.toolCalls.length === 0)
        return { role: 'assistant', content: message.content ?? '' };
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.args) },
        })),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/**
 * The message a provider put in an error body or error event: `error.message`, a string `error`
 * or a top-level `message` (vLLM), cut to a readable length; null when there is none.
 */
export function providerMessage(body: unknown): string | null {
  if (!isObject(body)) return null;
  const { error } = body;
  const message = isObject(error) ? error['message'] : (error ?? body['message']);
  if (typeof message !== 'string' || message.trim() === '') return null;
  const text = message.trim();
  return text.length > MAX_PROVIDER_MESSAGE ? `${text.slice(0, MAX_PROVIDER_MESSAGE)}…` : text;
}

/** A tool call being streamed: fragments gathered by its `index`. */
interface PartialCall {
  id: string | null;
  name: string | null;
  args: string;
}

/**
 * Reads one streamed turn: {@link ChatTurnReader.read} takes each event's data and returns the
 * text and reasoning deltas at once; tool calls are gathered by `index` (id and name from the
 * first fragment that has them, arguments concatenated) and come out of
 * {@link ChatTurnReader.end}, parsed, with the usage. An error chunk is always the last chunk.
 */
export class ChatTurnReader {
  /** `[DONE]` was read: the turn is complete and later events are ignored. */
  done = false;
  /** A `finish_reason` was read: the answer is complete even if `[DONE]` never comes. */
  private finished = false;
  private readonly calls = new Map<number, PartialCall>();
  private usage: ModelUsage | null = null;

  /** One event's data: the deltas it carries, or an error chunk. */
  read(data: string): ModelChunk[] {
    if (this.done) return [];
    if (data === '[DONE]') {
      this.done = true;
      return [];
    }
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      return [{ type: 'error', message: 'Model provider sent a malformed stream event' }];
    }
    if (!isObject(event)) {
      return [{ type: 'error', message: 'Model provider sent a malformed stream event' }];
    }
    if (event['error'] !== undefined && event['error'] !== null) {
      const message = providerMessage(event) ?? 'no message';
      return [{ type: 'error', message: `Model provider error: ${message}` }];
    }
    this.readUsage(event['usage']);
    const choice: unknown = Array.isArray(event['choices']) ? event['choices'][0] : undefined;
    if (!isObject(choice)) return [];
    if (typeof choice['finish_reason'] === 'string') this.finished = true;
    const delta = choice['delta'];
    if (!isObject(delta)) return [];
    const chunks: ModelChunk[] = [];
    const reasoning = text(delta['reasoning_content']) ?? text(delta['reasoning']);
    if (reasoning !== null) chunks.push({ type: 'reasoning', delta: reasoning });
    const content = text(delta['content']);
    if (content !== null) chunks.push({ type: 'text', delta: content });
    if (Array.isArray(delta['tool_calls']))
      delta['tool_calls'].forEach((c, i) => this.gather(c, i));
    return chunks;
  }

  /**
   * The body ended: the gathered tool calls (in index order, a missing id from `newId`) and the
   * usage, or an error chunk when the stream stopped early or a call cannot be used.
   */
  end(newId: () => string): ModelChunk[] {
    if (!this.done && !this.finished) {
      return [{ type: 'error', message: 'Model provider stream ended before [DONE]' }];
    }
    const chunks: ModelChunk[] = [];
    for (const [, call] of [...this.calls].sort(([a], [b]) => a - b)) {
      const parsed = parseCall(call, newId);
      if (parsed.type === 'error') return [parsed];
      chunks.push(parsed);
    }
    if (this.usage !== null) chunks.push({ type: 'usage', ...this.usage });
    return chunks;
  }

  private readUsage(usage: unknown): void {
    if (!isObject(usage)) return;
    const input = usage['prompt_tokens'];
    const output = usage['completion_tokens'];
    if (typeof input !== 'number' || typeof output !== 'number') return;
    const details = usage['completion_tokens_details'];
    const reasoning = isObject(details) ? details['reasoning_tokens'] : undefined;
    this.usage = {
      inputTokens: input,
      outputTokens: output,
      reasoningTokens: typeof reasoning === 'number' ? reasoning : 0,
    };
  }

  private gather(fragment: unknown, position: number): void {
    if (!isObject(fragment)) return;
    // Some servers leave `index` out when they send whole calls: the position stands in.
    const index = typeof fragment['index'] === 'number' ? fragment['index'] : position;
    let call = this.calls.get(index);
    if (call === undefined) {
      call = { id: null, name: null, args: '' };
      this.calls.set(index, call);
    }
    call.id ??= text(fragment['id']);
    const fn = fragment['function'];
    if (!isObject(fn)) return;
    call.name ??= text(fn['name']);
    if (typeof fn['arguments'] === 'string') call.args += fn['arguments'];
  }
}

function parseCall(call: PartialCall, newId: () => string): ModelChunk {
  if (call.name === null) {
    return { type: 'error', message: 'Model provider sent a tool call without a function name' };
  }
  return toolCallChunk(() => call.id ?? newId(), call.name, call.args);
}

/**
 * The call of tool `name` with the JSON object `args` holds (empty text: none), or the error
 * chunk saying why they cannot be used; `id` is asked for only when the call is good. The
 * offline model reads its `/tool` directive with it too.
 */
export function toolCallChunk(id: () => string, name: string, args: string): ModelChunk {
  let parsed: unknown = {};
  // An empty argument string is how some models call a tool that takes none.
  if (args.trim() !== '') {
    try {
      parsed = JSON.parse(args);
    } catch {
      return { type: 'error', message: `Invalid JSON arguments for tool ${name}` };
    }
  }
  if (!isObject(parsed)) {
    return { type: 'error', message: `Arguments for tool ${name} must be a JSON object` };
  }
  return { type: 'tool_call', id: id(), name, args: parsed };
}

/** A non-empty string, else null. */
function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
