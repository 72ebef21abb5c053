/**
 * The OpenAI-compatible chat-completions provider: one streamed `POST
 * {base_url}/chat/completions` per model turn, over an undici Pool per configured model. Never
 * logs, and never lets the API key (or an extra header's value) into an error message.
 */
import type { Readable } from 'node:stream';
import { Pool } from 'undici';
import type { ModelSettings } from '../catalogue/definitions.js';
import { ChatTurnReader, chatRequestBody, providerMessage } from './chat-completions.js';
import type { Model, ModelChunk, ModelMessage, ModelStreamOptions, ModelTool } from './model.js';
import { SseDecoder } from './sse-decoder.js';

/** The `name` of these models (Agno's class for OpenAI-compatible servers). */
export const OPENAI_COMPATIBLE_NAME = 'OpenAILike';

/** Bytes of a non-2xx body read for its message; the rest is never read. */
const MAX_ERROR_BODY = 64 * 1024;
/** Characters one stream event may hold before the stream counts as malformed. */
const MAX_EVENT = 1024 * 1024;
/** Header values shorter than this are not redacted (they would blank out ordinary words). */
const MIN_SECRET_HEADER = 8;

/** What every turn of one configured model shares. */
interface Endpoint {
  readonly pool: Pool;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly model: string;
  readonly timeoutMs: number;
  readonly secrets: readonly string[];
}

/**
 * A model served by an OpenAI-compatible chat-completions API. The Pool is built here, once per
 * configured model: it keeps connections to that one origin alive between turns, and its idle
 * sockets are unref'd, so an unused model never holds the process open. undici's own header and
 * body timeouts are off: `timeout_ms` is the one deadline of a turn.
 */
export function createOpenAiCompatibleModel(settings: ModelSettings): Model {
  const base = new URL(settings.base_url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(settings.headers)) headers[name.toLowerCase()] = value;
  // Ours are set last: an extra header cannot break the body or the stream, and `authorization`
  // may only come from `headers` when there is no api_key (a gateway with its own scheme).
  headers['content-type'] = 'application/json';
  headers['accept'] = 'text/event-stream';
  if (settings.api_key !== '') headers['authorization'] = `Bearer ${settings.api_key}`;
  const endpoint: Endpoint = {
    pool: new Pool(base.origin, { headersTimeout: 0, bodyTimeout: 0 }),
    path: `${base.pathname.replace(/\/+$/, '')}/chat/completions`,
    headers,
    model: settings.model,
    timeoutMs: settings.timeout_ms,
    secrets: [
      settings.api_key,
      ...Object.values(settings.headers).filter((v) => v.length >= MIN_SECRET_HEADER),
    ].filter((secret) => secret !== ''),
  };
  return {
    id: settings.model,
    provider: settings.provider,
    name: OPENAI_COMPATIBLE_NAME,
    stream: (messages, tools, options) => streamChat(endpoint, messages, tools, options),
  };
}

/**
 * One model turn. Text and reasoning deltas go out as they arrive; tool calls and usage when the
 * stream ends. Every failure is an error chunk, never a throw. The cancel flag is checked before
 * each body chunk is read on and after each delta is taken; once it is set the request is
 * aborted (its connection closed) and the stream ends without a word.
 */
async function* streamChat(
  endpoint: Endpoint,
  messages: readonly ModelMessage[],
  tools: readonly ModelTool[],
  options: ModelStreamOptions,
): AsyncGenerator<ModelChunk, void, void> {
  const deadline = AbortSignal.timeout(endpoint.timeoutMs);
  const abort = new AbortController();
  const redact = (chunk: ModelChunk): ModelChunk =>
    chunk.type === 'error'
      ? { type: 'error', message: hide(chunk.message, endpoint.secrets) }
      : chunk;
  try {
    const response = await endpoint.pool.request({
      method: 'POST',
      path: endpoint.path,
      headers: endpoint.headers,
      body: JSON.stringify(chatRequestBody(endpoint.model, messages, tools)),
      signal: AbortSignal.any([deadline, abort.signal]),
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      const message = providerMessage(await readBounded(response.body));
      const status = `Model provider returned HTTP ${response.statusCode}`;
      yield redact({ type: 'error', message: message === null ? status : `${status}: ${message}` });
      return;
    }
    const decoder = new SseDecoder();
    const reader = new ChatTurnReader();
    for await (const bytes of response.body as AsyncIterable<Buffer>) {
      if (options.cancel.cancelled) return;
      for (const chunk of readEvents(reader, decoder.push(bytes))) {
        yield redact(chunk);
        if (chunk.type === 'error' || options.cancel.cancelled) return;
      }
      // Leaving now closes the body; what could follow `[DONE]` is nothing we would read.
      if (reader.done) break;
      if (decoder.buffered > MAX_EVENT) {
        yield {
          type: 'error',
          message: `Model provider sent a stream event over ${MAX_EVENT} characters`,
        };
        return;
      }
    }
    const last = reader.done ? [] : readEvents(reader, decoder.end());
    for (const chunk of [...last, ...reader.end(options.newId)]) {
      yield redact(chunk);
      if (chunk.type === 'error') return;
    }
  } catch (error) {
    const message = deadline.aborted
      ? `Model provider did not answer within ${endpoint.timeoutMs} ms`
      : `Model provider request failed: ${(error as Error).message}`;
    yield redact({ type: 'error', message });
  } finally {
    // A no-op once the response is complete; otherwise (cancel, error, a consumer that stopped
    // early) it tears the request down and closes its connection.
    abort.abort();
  }
}

/** Reads events' data in order, stopping after the first error chunk. */
function readEvents(reader: ChatTurnReader, events: readonly string[]): ModelChunk[] {
  const chunks: ModelChunk[] = [];
  for (const data of events) {
    const read = reader.read(data);
    chunks.push(...read);
    if (read.at(-1)?.type === 'error') break;
  }
  return chunks;
}

/** Up to {@link MAX_ERROR_BODY} bytes of a body, parsed as JSON; null if it is not JSON. */
async function readBounded(body: Readable): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of body as AsyncIterable<Buffer>) {
    parts.push(part);
    size += part.length;
    // Leaving the loop destroys the body: a huge error page is never read to its end.
    if (size >= MAX_ERROR_BODY) break;
  }
  try {
    return JSON.parse(Buffer.concat(parts).subarray(0, MAX_ERROR_BODY).toString('utf8'));
  } catch {
    return null;
  }
}

/** `text` with every secret replaced, so no message can carry the key. */
function hide(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}
