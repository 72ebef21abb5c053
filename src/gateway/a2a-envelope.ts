/**
 * Reads an A2A JSON-RPC request body the gateway must authorize: strict UTF-8 JSON, one object
 * (never a batch), a well-formed envelope, no repeated top-level `jsonrpc`/`method`/`params`,
 * no tenant, and a method the gateway knows. Pure: takes bytes, returns a verdict; never
 * re-serializes the body (the bytes read are the bytes forwarded).
 */
import {
  A2A_METHODS,
  A2A_PATH_METHODS,
  type A2aMethod,
  type A2aPathOperation,
} from '../policy/a2a-methods.js';
import { reject, type Verdict } from './rejections.js';

// `fatal`: a byte sequence that is not UTF-8 is refused, never replaced by U+FFFD (the upstream
// could read it otherwise). A leading byte-order mark is dropped, as JSON parsers do.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The top-level members whose repetition is refused: JSON parsers disagree on which wins. */
const SINGLE_MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'method', 'params']);

/**
 * Reads the body of a JSON-RPC call. `operation` is the per-operation path the body was posted
 * to, or null for the entity's JSON-RPC endpoint. Answers the known method; on a per-operation
 * path a body without a `jsonrpc` member (HTTP+JSON) is not a JSON-RPC call and answers null.
 */
export function readA2aCall(
  body: Buffer,
  operation: A2aPathOperation | null,
): Verdict<A2aMethod | null> {
  let text: string;
  let parsed: unknown;
  try {
    text = UTF8.decode(body);
    parsed = JSON.parse(text);
  } catch {
    return reject('SG_ERR_JSONRPC_BODY_NOT_JSON');
  }
  if (Array.isArray(parsed)) return reject('SG_ERR_JSONRPC_BATCH');
  if (typeof parsed !== 'object' || parsed === null) return reject('SG_ERR_JSONRPC_NOT_OBJECT');
  const call = parsed as Record<string, unknown>;
  if (operation !== null && !Object.hasOwn(call, 'jsonrpc')) return { ok: true, value: null };
  const repeated = repeatedMemberOf(text);
  if (repeated !== null) return reject('SG_ERR_JSONRPC_DUPLICATE_MEMBER', { field: repeated });
  if (call['jsonrpc'] !== '2.0') return reject('SG_ERR_JSONRPC_VERSION');
  const name = call['method'];
  if (typeof name !== 'string') return reject('SG_ERR_JSONRPC_METHOD_NOT_STRING');
  if (Object.hasOwn(call, 'id') && !isValidId(call['id']))
    return reject('SG_ERR_JSONRPC_ID_INVALID');
  const params = call['params'];
  if (Object.hasOwn(call, 'params')) {
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      return reject('SG_ERR_JSONRPC_PARAMS_NOT_OBJECT');
    }
    const tenant = (params as Record<string, unknown>)['tenant'];
    // The runtime chooses the entity by path only: a tenant it would ignore is refused.
    if (tenant !== undefined && tenant !== null && tenant !== '')
      return reject('SG_ERR_JSONRPC_TENANT');
  }
  if (operation !== null) {
    const served = A2A_PATH_METHODS.get(operation) as ReadonlySet<string>;
    if (!served.has(name)) {
      return reject('SG_ERR_JSONRPC_METHOD_PATH_MISMATCH', {
        route: operation,
        methods: [...served],
      });
    }
  }
  const method = A2A_METHODS.get(name);
  return method === undefined
    ? reject('SG_ERR_JSONRPC_METHOD_UNKNOWN')
    : { ok: true, value: method };
}

function isValidId(id: unknown): boolean {
  return id === null || typeof id === 'string' || Number.isInteger(id);
}

/**
 * The first of `jsonrpc`, `method`, `params` that appears twice among the top-level members of
 * `text`, or null. `text` is known to be one valid JSON object, so the scan only has to tell
 * strings, nested values and separators apart; a key is compared as JSON decodes it (`"meth\u006fd"`
 * is `method`).
 */
export function repeatedMemberOf(text: string): string | null {
  const seen = new Set<string>();
  let i = skipSpace(text, 0) + 1;
  for (;;) {
    i = skipSpace(text, i);
    if (text.charCodeAt(i) === CLOSE_BRACE) return null;
    const end = stringEnd(text, i);
    const raw = text.slice(i + 1, end - 1);
    const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
    if (SINGLE_MEMBERS.has(key)) {
      if (seen.has(key)) return key;
      seen.add(key);
    }
    // Past the key, the spaces and the colon.
    i = valueEnd(text, skipSpace(text, end) + 1);
    i = skipSpace(text, i);
    if (text.charCodeAt(i) !== COMMA) return null;
    i += 1;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function skipSpace(text: string, i: number): number {
  let c = text.charCodeAt(i);
  // JSON whitespace: space, tab, line feed, carriage return.
  while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++i);
  return i;
}

/** The index just past the string that opens at `i` (a `"`). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return j + 1;
    j += c === BACKSLASH ? 2 : 1;
  }
}

/** The index just past the value that starts at or after `i`. */
function valueEnd(text: string, i: number): number {
  let j = skipSpace(text, i);
  const first = text.charCodeAt(j);
  if (first === QUOTE) return stringEnd(text, j);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (;;) {
      const c = text.charCodeAt(j);
      if (c === QUOTE) {
        j = stringEnd(text, j);
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth -= 1;
        if (depth === 0) return j + 1;
      }
      j += 1;
    }
  }
  // A number, true, false or null: it ends at the next separator or space.
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === COMMA || c === CLOSE_BRACE || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      return j;
    }
    j += 1;
  }
}
