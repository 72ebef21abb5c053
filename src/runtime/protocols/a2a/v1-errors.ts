/**
 * A2A-native errors of the `…/v1` endpoint and of HTTP+JSON 1.0: one table of reasons with their
 * JSON-RPC code, HTTP status and google.rpc status name, and the two wire forms (a JSON-RPC error
 * object; a google.rpc.Status body). Pure: builds objects, never writes HTTP.
 */
import { HttpError } from '../../http/errors.js';

/** The protocol version a request speaks. */
export type A2AVersion = '0.3' | '1.0';

interface ReasonSpec {
  readonly code: number;
  readonly http: number;
  readonly status: string;
  /** Whether 1.0 answers carry an ErrorInfo (the JSON-RPC envelope errors carry none). */
  readonly info: boolean;
}

/** Every reason an A2A error gives (the google.rpc.ErrorInfo `reason`), with its codes. */
const REASONS = Object.freeze({
  PARSE_ERROR: { code: -32700, http: 400, status: 'INVALID_ARGUMENT', info: false },
  INVALID_REQUEST: { code: -32600, http: 400, status: 'INVALID_ARGUMENT', info: false },
  METHOD_NOT_FOUND: { code: -32601, http: 404, status: 'NOT_FOUND', info: false },
  INVALID_PARAMS: { code: -32602, http: 400, status: 'INVALID_ARGUMENT', info: true },
  INTERNAL_ERROR: { code: -32603, http: 500, status: 'INTERNAL', info: false },
  TASK_NOT_FOUND: { code: -32001, http: 404, status: 'NOT_FOUND', info: true },
  TASK_NOT_CANCELABLE: { code: -32002, http: 400, status: 'FAILED_PRECONDITION', info: true },
  PUSH_NOTIFICATION_NOT_SUPPORTED: {
    code: -32003,
    http: 400,
    status: 'FAILED_PRECONDITION',
    info: true,
  },
  UNSUPPORTED_OPERATION: { code: -32004, http: 400, status: 'FAILED_PRECONDITION', info: true },
  VERSION_NOT_SUPPORTED: { code: -32009, http: 400, status: 'FAILED_PRECONDITION', info: true },
} satisfies Record<string, ReasonSpec>);

/** What an A2A error says went wrong. */
export type A2AErrorReason = keyof typeof REASONS;

/** The ErrorInfo `@type` and `domain` of every A2A error detail. */
const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const ERROR_DOMAIN = 'a2a-protocol.org';

/** An A2A error a handler throws; the binding renders it. */
export class A2AProtocolError extends Error {
  readonly reason: A2AErrorReason;

  constructor(reason: A2AErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Any thrown value as an A2A error: itself; the run service's `Run not found` as TASK_NOT_FOUND;
 * another 4xx HttpError as INVALID_PARAMS with its detail; anything else as INTERNAL_ERROR.
 */
export function a2aErrorOf(error: unknown): A2AProtocolError {
  if (error instanceof A2AProtocolError) return error;
  if (error instanceof HttpError && error.status < 500) {
    return error.status === 404 && error.message === 'Run not found'
      ? new A2AProtocolError('TASK_NOT_FOUND', 'Task not found')
      : new A2AProtocolError('INVALID_PARAMS', error.message);
  }
  return new A2AProtocolError('INTERNAL_ERROR', 'Internal error');
}

/** The JSON-RPC error object of `error`; 1.0 adds `data: [ErrorInfo]` where A2A defines one. */
export function jsonRpcErrorOf(error: A2AProtocolError, version: A2AVersion) {
  const spec = REASONS[error.reason];
  return version === '1.0' && spec.info
    ? { code: spec.code, message: error.message, data: [errorInfo(error.reason)] }
    : { code: spec.code, message: error.message };
}

/** A JSON-RPC error response (`id` null when the request's could not be read). */
export function jsonRpcErrorResponse(
  id: string | number | null,
  error: A2AProtocolError,
  version: A2AVersion,
) {
  return { jsonrpc: '2.0', id, error: jsonRpcErrorOf(error, version) };
}

/** The HTTP status and google.rpc.Status body of an HTTP+JSON 1.0 error. */
export function restErrorOf(error: A2AProtocolError) {
  const spec = REASONS[error.reason];
  return {
    status: spec.http,
    body: {
      error: {
        code: spec.http,
        status: spec.status,
        message: error.message,
        details: [errorInfo(error.reason)],
      },
    },
  };
}

function errorInfo(reason: A2AErrorReason): Record<string, unknown> {
  return { '@type': ERROR_INFO_TYPE, reason, domain: ERROR_DOMAIN };
}
