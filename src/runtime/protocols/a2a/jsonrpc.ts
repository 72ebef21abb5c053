/**
 * The JSON-RPC 2.0 envelope of the `…/v1` endpoint: reads a request, refuses the shapes A2A
 * never sends (batches, a `jsonrpc` other than "2.0", a bad method, id or params, a tenant), and
 * names the operation of each method, 1.0 (PascalCase) and 0.3 (`ns/verb`) alike. Also reads
 * the `A2A-Version` header. Pure: parses only, never runs anything.
 */
import type { RequestId } from './request.js';
import { A2AProtocolError, type A2AVersion } from './v1-errors.js';

/** What a method asks for. */
export type A2AOperation =
  'send' | 'stream' | 'get' | 'cancel' | 'list' | 'subscribe' | 'extended-card' | 'push-config';

/** Every method served, with its operation and protocol version. */
const METHODS: ReadonlyMap<string, { readonly op: A2AOperation; readonly version: A2AVersion }> =
  new Map([
    ['SendMessage', { op: 'send', version: '1.0' }],
    ['SendStreamingMessage', { op: 'stream', version: '1.0' }],
    ['GetTask', { op: 'get', version: '1.0' }],
    ['CancelTask', { op: 'cancel', version: '1.0' }],
    ['ListTasks', { op: 'list', version: '1.0' }],
    ['SubscribeToTask', { op: 'subscribe', version: '1.0' }],
    ['GetExtendedAgentCard', { op: 'extended-card', version: '1.0' }],
    ['CreateTaskPushNotificationConfig', { op: 'push-config', version: '1.0' }],
    ['GetTaskPushNotificationConfig', { op: 'push-config', version: '1.0' }],
    ['ListTaskPushNotificationConfigs', { op: 'push-config', version: '1.0' }],
    ['DeleteTaskPushNotificationConfig', { op: 'push-config', version: '1.0' }],
    ['message/send', { op: 'send', version: '0.3' }],
    ['message/stream', { op: 'stream', version: '0.3' }],
    ['tasks/get', { op: 'get', version: '0.3' }],
    ['tasks/cancel', { op: 'cancel', version: '0.3' }],
    ['tasks/resubscribe', { op: 'subscribe', version: '0.3' }],
    ['agent/getAuthenticatedExtendedCard', { op: 'extended-card', version: '0.3' }],
    ['tasks/pushNotificationConfig/set', { op: 'push-config', version: '0.3' }],
    ['tasks/pushNotificationConfig/get', { op: 'push-config', version: '0.3' }],
    ['tasks/pushNotificationConfig/list', { op: 'push-config', version: '0.3' }],
    ['tasks/pushNotificationConfig/delete', { op: 'push-config', version: '0.3' }],
  ]);

/** A readable JSON-RPC request. */
export interface RpcCall {
  readonly id: RequestId;
  readonly method: string;
  readonly op: A2AOperation;
  readonly version: A2AVersion;
  /** `params`, `{}` when absent. */
  readonly params: Record<string, unknown>;
}

/** A request read, or refused with the id to answer with (null when it could not be read). */
export type RpcRead =
  | { readonly ok: true; readonly call: RpcCall }
  | { readonly ok: false; readonly id: RequestId; readonly error: A2AProtocolError };

/**
 * The protocol version an `A2A-Version` header asks for: absent or empty is 0.3 (as the
 * specification says of clients that send none); null for any version not served.
 */
export function requestedVersionOf(header: string | string[] | undefined): A2AVersion | null {
  // Node joins a repeated header into one string; only an absent one is not a string.
  const value = typeof header === 'string' ? header.trim() : '';
  if (value === '' || value === '0.3') return '0.3';
  return value === '1.0' ? '1.0' : null;
}

/** Reads a raw body as one JSON-RPC request of a served method. */
export function readRpcCall(raw: unknown): RpcRead {
  let body: unknown;
  try {
    body = JSON.parse(typeof raw === 'string' ? raw : '');
  } catch {
    return refuse(null, 'PARSE_ERROR', 'Parse error: the body is not JSON');
  }
  if (Array.isArray(body)) {
    return refuse(null, 'INVALID_REQUEST', 'Batch requests are not supported');
  }
  if (typeof body !== 'object' || body === null) {
    return refuse(null, 'INVALID_REQUEST', 'Invalid request: the body must be a JSON object');
  }
  const request = body as Record<string, unknown>;
  const id = request['id'];
  if (!(typeof id === 'string' || Number.isInteger(id) || id === null)) {
    return refuse(
      null,
      'INVALID_REQUEST',
      'Invalid request: id must be a string, an integer or null',
    );
  }
  const rid = id as RequestId;
  if (request['jsonrpc'] !== '2.0') {
    return refuse(rid, 'INVALID_REQUEST', 'Invalid request: jsonrpc must be "2.0"');
  }
  const method = request['method'];
  if (typeof method !== 'string') {
    return refuse(rid, 'INVALID_REQUEST', 'Invalid request: method must be a string');
  }
  const served = METHODS.get(method);
  if (served === undefined) return refuse(rid, 'METHOD_NOT_FOUND', `Method not found: ${method}`);
  const params = request['params'] ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return refuse(rid, 'INVALID_PARAMS', 'Invalid params: params must be an object');
  }
  const tenant = (params as Record<string, unknown>)['tenant'];
  if (tenant !== undefined && tenant !== '') {
    // The runtime routes by path alone: a tenant would name a partition it does not have.
    return refuse(rid, 'INVALID_PARAMS', 'Invalid params: no tenant is served here');
  }
  return {
    ok: true,
    call: { id: rid, method, ...served, params: params as Record<string, unknown> },
  };
}

function refuse(id: RequestId, reason: A2AProtocolError['reason'], message: string): RpcRead {
  return { ok: false, id, error: new A2AProtocolError(reason, message) };
}
