/**
 * What a validated RunAgentInput asks for: a fresh run (its message, state,
 * dependencies, client tools, client user id), or continuing a paused run — by trailing tool
 * messages (Agno's way) or by `resume[]` interrupt answers (ours) — and the tool results either
 * makes for the calls the run waits on. Pure: the route looks the paused run up.
 */
import type { ToolDefinition } from '../../catalogue/definitions.js';
import type { PendingCall, ToolResult } from '../../api/runs/service.js';
import { isRecord } from '../json.js';
import type { InputMessage, RunAgentInput } from './input.js';

/** A `resume[]` entry. */
export type ResumeAnswer = NonNullable<RunAgentInput['resume']>[number];

/** What the request asks for. */
export type AguiRequest =
  | { readonly kind: 'run' }
  | { readonly kind: 'tool-messages'; readonly results: readonly ToolResult[] }
  | { readonly kind: 'resume'; readonly answers: readonly ResumeAnswer[] };

/** The tool result of an interrupt the client cancelled. */
export const CANCELLED_RESULT = 'cancelled by user';

/** The JSON Schema a client tool without parameters gets. */
const NO_PARAMETERS = Object.freeze({ type: 'object', properties: {} });

/**
 * A non-empty `resume[]` continues the paused run its interrupts name; else messages that end
 * with tool messages continue the run waiting on those calls; else it is a fresh run. `resume[]`
 * wins when a request carries both.
 */
export function requestOf(input: RunAgentInput): AguiRequest {
  if (input.resume != null && input.resume.length > 0) {
    return { kind: 'resume', answers: input.resume };
  }
  const trailing: ToolResult[] = [];
  for (let i = input.messages.length - 1; i >= 0; i--) {
    const message = input.messages[i] as InputMessage;
    if (message.role !== 'tool') break;
    // An error text makes the result an error (Agno: tool_call_error), as the REST continue does.
    const error = message.error != null;
    trailing.unshift({
      toolCallId: message.toolCallId,
      content: error ? (message.error as string) : message.content,
      error,
    });
  }
  return trailing.length > 0 ? { kind: 'tool-messages', results: trailing } : { kind: 'run' };
}

/** The call ids a continuing request answers (to find the paused run waiting on them). */
export function answeredIds(request: Exclude<AguiRequest, { kind: 'run' }>): string[] {
  return request.kind === 'resume'
    ? request.answers.map((answer) => answer.interruptId)
    : request.results.map((result) => result.toolCallId);
}

/**
 * One result per call the paused run waits on, in the run's order; or why the request does not
 * answer them: an interrupt answered twice or not open, or a pending call left unanswered.
 */
export function resultsFor(
  pending: readonly PendingCall[],
  request: Exclude<AguiRequest, { kind: 'run' }>,
):
  | { readonly ok: true; readonly results: ToolResult[] }
  | { readonly ok: false; readonly message: string } {
  const given = new Map<string, ToolResult>();
  if (request.kind === 'resume') {
    const open = new Set(pending.map((call) => call.toolCallId));
    for (const answer of request.answers) {
      const id = answer.interruptId;
      if (!open.has(id)) return { ok: false, message: `Interrupt ${id} is not open` };
      if (given.has(id)) return { ok: false, message: `Interrupt ${id} is answered twice` };
      given.set(id, resultOf(answer));
    }
  } else {
    // Tool messages for calls the run does not wait on (a client sending back every tool) are ignored.
    for (const result of request.results) given.set(result.toolCallId, result);
  }
  const results: ToolResult[] = [];
  for (const call of pending) {
    const result = given.get(call.toolCallId);
    if (result === undefined) {
      return {
        ok: false,
        message: `Partial resume: tool call ${call.toolCallId} (${call.toolName}) has no answer`,
      };
    }
    results.push(result);
  }
  return { ok: true, results };
}

/** `resolved` → the payload (JSON text unless a string; none → ""); `cancelled` → an error. */
function resultOf(answer: ResumeAnswer): ToolResult {
  const toolCallId = answer.interruptId;
  if (answer.status === 'cancelled') return { toolCallId, content: CANCELLED_RESULT, error: true };
  const { payload } = answer;
  const content =
    payload === undefined ? '' : typeof payload === 'string' ? payload : JSON.stringify(payload);
  return { toolCallId, content, error: false };
}

/** The last user message's text (text parts joined by "\n"); null without a user message. */
export function userTextOf(messages: readonly InputMessage[]): string | null {
  const user = messages.findLast((message) => message.role === 'user');
  if (user === undefined) return null;
  if (typeof user.content === 'string') return user.content;
  return user.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** `context[]` as dependencies `{description: value}`, each value JSON-decoded when it can be. */
export function dependenciesOf(context: RunAgentInput['context']): Record<string, unknown> | null {
  if (context.length === 0) return null;
  // fromEntries, not assignment: a `__proto__` description stays data.
  return Object.fromEntries(context.map(({ description, value }) => [description, decoded(value)]));
}

function decoded(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** `tools[]` as client tools: executed by the client, parameters defaulting to an empty object. */
export function clientToolsOf(tools: RunAgentInput['tools']): ToolDefinition[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: isRecord(tool.parameters) ? tool.parameters : { ...NO_PARAMETERS },
    external_execution: true,
  }));
}

/** `forwardedProps.user_id` when forwardedProps is an object and it is a string; else null. */
export function clientUserIdOf(forwardedProps: unknown): string | null {
  if (!isRecord(forwardedProps)) return null;
  const userId = forwardedProps['user_id'];
  return typeof userId === 'string' ? userId : null;
}

/** `state` when it is an object (the run's session state); null otherwise. */
export function stateOf(state: unknown): Record<string, unknown> | null {
  return isRecord(state) ? state : null;
}
