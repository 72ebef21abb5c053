/**
 * Run metrics: tokens are the provider's reported usage, else (deterministic)
 * whitespace words of the prompt and of the answer; durations come from the injected clock. Pure; zero values are left out of the
 * dicts, as Agno does.
 */
import type { ModelMessage, ModelToolCall, ModelUsage } from '../model/model.js';
import { countTokens } from '../model/tokens.js';

/** Token counts of one model turn or a whole run. */
export interface TokenCounts {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
  readonly reasoning_tokens: number;
}

/** No tokens yet. */
export const NO_TOKENS: TokenCounts = {
  input_tokens: 0,
  output_tokens: 0,
  total_tokens: 0,
  reasoning_tokens: 0,
};

/** Field-wise `a + sign × b`: a sum, or (`-1`) what a continued run added since its pause. */
export function addTokens(a: TokenCounts, b: TokenCounts, sign: 1 | -1 = 1): TokenCounts {
  return {
    input_tokens: a.input_tokens + sign * b.input_tokens,
    output_tokens: a.output_tokens + sign * b.output_tokens,
    total_tokens: a.total_tokens + sign * b.total_tokens,
    reasoning_tokens: a.reasoning_tokens + sign * b.reasoning_tokens,
  };
}

/** Counts whose total is input + output. */
function tokenCounts(input: number, output: number, reasoning: number): TokenCounts {
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    reasoning_tokens: reasoning,
  };
}

/** Tokens of one model turn: the prompt in, and the text, reasoning and tool calls out. */
export function turnTokens(
  prompt: readonly ModelMessage[],
  out: {
    readonly text: string;
    readonly reasoning: string;
    readonly calls: readonly ModelToolCall[];
  },
): TokenCounts {
  const input = prompt.reduce((sum, message) => sum + messageTokens(message), 0);
  const reasoning = countTokens(out.reasoning);
  return tokenCounts(input, countTokens(out.text) + reasoning + callTokens(out.calls), reasoning);
}

/** Tokens of one model turn as its provider reported them. */
export function reportedTokens(usage: ModelUsage): TokenCounts {
  return tokenCounts(usage.inputTokens, usage.outputTokens, usage.reasoningTokens);
}

function messageTokens(message: ModelMessage): number {
  if (message.role !== 'assistant') return countTokens(message.content);
  return countTokens(message.content ?? '') + callTokens(message.toolCalls);
}

function callTokens(calls: readonly ModelToolCall[]): number {
  return calls.reduce(
    (sum, call) => sum + countTokens(`${call.name} ${JSON.stringify(call.args)}`),
    0,
  );
}

/**
 * A run's `metrics` dict: token counts, `time_to_first_token` and `duration` in seconds,
 * and `details.model` when a model ran. Zeros and nulls are omitted.
 */
export function metricsDict(
  tokens: TokenCounts,
  timing: { readonly durationMs: number; readonly timeToFirstTokenMs: number | null },
  model: { readonly id: string; readonly provider: string } | null,
): Record<string, unknown> {
  const metrics: Record<string, unknown> = withoutZeros({
    ...tokens,
    time_to_first_token: timing.timeToFirstTokenMs === null ? 0 : timing.timeToFirstTokenMs / 1000,
    duration: timing.durationMs / 1000,
  });
  if (model !== null) {
    metrics['details'] = {
      model: [{ id: model.id, provider: model.provider, ...withoutZeros({ ...tokens }) }],
    };
  }
  return metrics;
}

function withoutZeros(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== 0));
}
