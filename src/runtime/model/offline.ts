/**
 * The offline deterministic model: reads a directive from the first line of the
 * last user message and answers without a key or network. Same input, same output: it never reads
 * a clock or randomness — ids, sleep and the cancel flag come from the caller.
 */
import { toolCallChunk } from './chat-completions.js';
import type { Model, ModelChunk, ModelMessage, ModelStreamOptions, ModelTool } from './model.js';
import { splitWords } from './tokens.js';

/** The id the offline model is registered under. */
export const OFFLINE_MODEL_ID = 'offline-echo';
/** The offline model's provider name. */
export const OFFLINE_PROVIDER = 'offline';

/** `/slow N MS`: N is 1–9999 deltas, MS 0–99999 milliseconds apart. */
const SLOW_PATTERN = /^([1-9]\d{0,3})\s+(\d{1,5})$/;
const DIRECTIVE_PATTERN = /^\/(tool|think|error|slow)(?:\s+(.*))?$/;

type Directive = { readonly name: 'tool' | 'think' | 'error' | 'slow'; readonly arg: string };
type ToolMessage = Extract<ModelMessage, { role: 'tool' }>;
type UserMessage = Extract<ModelMessage, { role: 'user' }>;

/**
 * The offline model. Plain text → `Echo: <text>`, one word per delta, unless it names a client
 * tool (then a call of it, see {@link callNamedClientTool}); `/tool NAME {json}` → one
 * call of a tool it was given (else the error `Unknown tool NAME`); with a tool result after the
 * last user message → `Tool NAME returned: <result>` (`Tool NAME was rejected` when the user
 * rejected the call); `/think TEXT` → reasoning per word, then
 * `Echo: TEXT`; `/error MSG` → an error chunk; `/slow N MS` → the deltas `1`, ` 2` … ` N`, MS
 * apart, stopping early once the run is cancelled.
 */
export const offlineModel: Model = {
  id: OFFLINE_MODEL_ID,
  provider: OFFLINE_PROVIDER,
  name: 'OfflineModel',
  stream: streamOffline,
};

async function* streamOffline(
  messages: readonly ModelMessage[],
  tools: readonly ModelTool[],
  options: ModelStreamOptions,
): AsyncGenerator<ModelChunk, void, void> {
  const user = messages.findLast((m): m is UserMessage => m.role === 'user');
  if (user === undefined) {
    yield { type: 'error', message: 'No user message to answer' };
    return;
  }
  const result = messages
    .slice(messages.lastIndexOf(user) + 1)
    .findLast((m): m is ToolMessage => m.role === 'tool');
  if (result !== undefined) {
    yield* words(
      result.rejected === true
        ? `Tool ${result.toolName} was rejected`
        : `Tool ${result.toolName} returned: ${result.content}`,
    );
    return;
  }
  const directive = parseDirective(firstLine(user.content));
  if (directive === null) {
    const call = callNamedClientTool(user.content, tools, options);
    if (call !== null) yield call;
    else yield* words(`Echo: ${user.content}`);
    return;
  }
  switch (directive.name) {
    case 'tool':
      yield callTool(directive.arg, tools, options);
      return;
    case 'think':
      for (const delta of splitWords(directive.arg)) yield { type: 'reasoning', delta };
      yield* words(`Echo: ${directive.arg}`);
      return;
    case 'error':
      yield {
        type: 'error',
        message: directive.arg === '' ? 'Offline model error' : directive.arg,
      };
      return;
    case 'slow':
      yield* slow(directive.arg, options);
      return;
  }
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return (end === -1 ? text : text.slice(0, end)).trim();
}

function parseDirective(line: string): Directive | null {
  const match = DIRECTIVE_PATTERN.exec(line);
  if (match === null) return null;
  return { name: match[1] as Directive['name'], arg: match[2] ?? '' };
}

function* words(text: string): Generator<ModelChunk, void, void> {
  for (const delta of splitWords(text)) yield { type: 'text', delta };
}

/** `/tool NAME {json}`: one call, or an error chunk saying what is wrong with the directive. */
function callTool(
  arg: string,
  tools: readonly ModelTool[],
  options: ModelStreamOptions,
): ModelChunk {
  const match = /^(\S+)\s*(.*)$/.exec(arg);
  if (match === null) return { type: 'error', message: 'Usage: /tool NAME {json}' };
  const name = match[1] as string;
  const rawArgs = match[2] as string;
  if (!tools.some((tool) => tool.name === name)) {
    return { type: 'error', message: `Unknown tool ${name}` };
  }
  return toolCallChunk(() => options.newId(), name, rawArgs);
}

/**
 * A message naming one of the run's client tools (AG-UI `tools[]`) as a word: a call of the tool
 * named first, with the JSON object the message holds as arguments (else `{}`), so a web UI can
 * demo its frontend tools. Null when no client tool is named.
 */
function callNamedClientTool(
  text: string,
  tools: readonly ModelTool[],
  options: ModelStreamOptions,
): ModelChunk | null {
  let first: { readonly name: string; readonly at: number } | null = null;
  for (const tool of tools) {
    if (tool.client !== true) continue;
    const at = wordIndex(text, tool.name);
    if (at !== -1 && (first === null || at < first.at)) first = { name: tool.name, at };
  }
  if (first === null) return null;
  return { type: 'tool_call', id: options.newId(), name: first.name, args: jsonObjectIn(text) };
}

/** Where `word` first stands alone in `text` (not inside a longer identifier); -1 if nowhere. */
function wordIndex(text: string, word: string): number {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.search(new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`));
}

/** The text from its first `{` to its last `}` as a JSON object; `{}` when that is not JSON. */
function jsonObjectIn(text: string): Record<string, unknown> {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end < start) return {};
  try {
    // A JSON text that starts with `{` and ends with `}` can only be an object.
    return JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** `/slow N MS`: N deltas MS apart; returns early (no more deltas) once the run is cancelled. */
async function* slow(arg: string, options: ModelStreamOptions): AsyncGenerator<ModelChunk, void> {
  const match = SLOW_PATTERN.exec(arg);
  if (match === null) {
    yield { type: 'error', message: 'Usage: /slow N MS (N 1-9999 deltas, MS 0-99999 apart)' };
    return;
  }
  const count = Number(match[1]);
  const ms = Number(match[2]);
  for (let i = 1; i <= count; i++) {
    if (i > 1) {
      await options.sleep(ms);
      if (options.cancel.cancelled) return;
    }
    yield { type: 'text', delta: i === 1 ? '1' : ` ${i}` };
  }
}
