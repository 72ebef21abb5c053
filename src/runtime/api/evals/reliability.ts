/**
 * A reliability eval (Agno's `ReliabilityResult`): the tool calls a run made,
 * read from its events, compared with the calls expected. Every expected tool must be called
 * (else it is missing, and failed); a call of a tool not expected is additional, and failed
 * unless additional calls are allowed; each tool named in the expected arguments must have at
 * least one call whose arguments include those (keys given, values deep-equal). Pure.
 */
import { isDeepStrictEqual } from 'node:util';
import type { RunEvent } from '../../engine/events.js';

/** One tool call: the tool's name and its arguments. */
export interface ToolCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** What a reliability eval expects. */
export interface ToolCallExpectation {
  /** Tool names that must be called (at least once each). */
  readonly toolCalls: readonly string[];
  /** Whether calls of other tools are allowed. */
  readonly allowAdditional: boolean;
  /** Per tool name, arguments one of its calls must include. */
  readonly arguments: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** Events that start a tool call: an agent's, or a team leader's (member delegation). */
const STARTS: ReadonlySet<string> = new Set(['ToolCallStarted', 'TeamToolCallStarted']);

/** The tool calls of a run, in the order they started (nested member runs included). */
export function toolCallsOf(events: readonly RunEvent[]): ToolCall[] {
  return events
    .filter((event) => STARTS.has(event.event))
    .map((event) => {
      const tool = event['tool'] as { tool_name: string; tool_args: Record<string, unknown> };
      return { name: tool.tool_name, args: tool.tool_args };
    });
}

/** Whether `args` holds every key of `expected` with a deep-equal value. */
function includesArguments(
  args: Readonly<Record<string, unknown>>,
  expected: Readonly<Record<string, unknown>>,
): boolean {
  return Object.entries(expected).every(
    ([key, value]) => Object.hasOwn(args, key) && isDeepStrictEqual(args[key], value),
  );
}

/** The `eval_data` of a reliability eval of `calls` against `expected`. */
export function reliabilityData(
  calls: readonly ToolCall[],
  expected: ToolCallExpectation,
): Record<string, unknown> {
  const wanted = new Set(expected.toolCalls);
  const called = new Set(calls.map((c) => c.name));
  const passed = calls.filter((c) => wanted.has(c.name)).map((c) => c.name);
  const additional = calls.filter((c) => !wanted.has(c.name)).map((c) => c.name);
  const missing = [...wanted].filter((name) => !called.has(name));
  const failed = [...missing, ...(expected.allowAdditional ? [] : additional)];
  const passedArguments: string[] = [];
  const failedArguments: string[] = [];
  for (const [name, args] of Object.entries(expected.arguments)) {
    const ok = calls.some((c) => c.name === name && includesArguments(c.args, args));
    (ok ? passedArguments : failedArguments).push(name);
  }
  return {
    eval_status: failed.length === 0 && failedArguments.length === 0 ? 'PASSED' : 'FAILED',
    failed_tool_calls: failed,
    passed_tool_calls: passed,
    additional_tool_calls: additional,
    missing_tool_calls: missing,
    failed_argument_checks: failedArguments,
    passed_argument_checks: passedArguments,
  };
}
