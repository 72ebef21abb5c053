/**
 * The one catalogue of refusals: every SG_ERR_* code → status, detail, reason id. Stages return
 * codes; only this table chooses the HTTP status. Documented one anchor per code in docs/errors.md.
 */
import type { ValidationIssue } from '../shared/validation-issue.js';

/** Values a parameterized detail is built from (never token text, claims or keys). */
export interface RejectionParams {
  /** Required scopes, in configured order (403 insufficient scope). */
  readonly scopes?: readonly string[];
  /** `METHOD /path` of the request (403 unmapped route). */
  readonly route?: string;
  /** Where a credential was expected (401 missing credential): names as configured. */
  readonly expected?: { readonly header?: string; readonly cookie?: string };
  /** What failed validation (422): sent as the body's `detail` list. */
  readonly validation?: readonly ValidationIssue[];
  /** One phrase per offending item, each naming its field (400 malformed / unknown scope). */
  readonly problems?: readonly string[];
  /** The field at fault, when the detail names one (default per code). */
  readonly field?: string;
  /** A service-account name (409). */
  readonly name?: string;
  /** A service-account id from the path (404). */
  readonly id?: string;
  /** The methods a path supports (405): the detail and the `Allow` header. */
  readonly allow?: readonly string[];
  /** The JSON-RPC methods a per-operation A2A path serves (400 method/path mismatch). */
  readonly methods?: readonly string[];
  /** A dynamic-dispatch target id as the caller sent it (404). */
  readonly target?: string;
  /** A size bound in bytes (413 dynamic-dispatch or A2A JSON-RPC body). */
  readonly limit?: number;
}

/** The largest `/service-accounts` request body the gateway reads. */
export const MAX_SERVICE_ACCOUNT_BODY_BYTES = 65_536;

/**
 * Which `WWW-Authenticate` challenge a refusal carries (RFC 6750 §3): a bare challenge when no
 * credential was presented, `invalid_token` when one was, `insufficient_scope` on 403.
 */
export type Challenge = 'bearer' | 'invalid_token' | 'insufficient_scope';

/** A refusal's fixed parts. `reason` is the snake_case id used in logs and metric labels. */
export interface Rejection {
  readonly status: number;
  readonly detail: string | ((params: RejectionParams) => string);
  readonly reason: string;
  readonly challenge?: Challenge;
  /** Sent as `Retry-After` (seconds): when the caller may try again. */
  readonly retryAfterSeconds?: number;
  /** Answered with `Connection: close`: the connection is not reused after this refusal. */
  readonly closeConnection?: true;
  /**
   * A limit protecting other callers refused an allowed request: recorded as decision `deny`,
   * although the decision stages allowed it.
   */
  readonly limit?: true;
}

/** Every code the gateway can refuse a request with. */
export const REJECTIONS = {
  SG_ERR_PATH_NOT_ORIGIN_FORM: {
    status: 400,
    detail: 'Invalid request path: the request target must be a path starting with "/"',
    reason: 'path_not_origin_form',
  },
  SG_ERR_PATH_ENCODED_SEPARATOR: {
    status: 400,
    detail: 'Invalid request path: an encoded "/", "\\" or NUL (%2F, %5C, %00) is not allowed',
    reason: 'path_encoded_separator',
  },
  SG_ERR_PATH_FORBIDDEN_CHARACTER: {
    status: 400,
    detail: 'Invalid request path: "\\", NUL, ";" and "#" are not allowed in the path',
    reason: 'path_forbidden_character',
  },
  SG_ERR_PATH_DOUBLE_ENCODED: {
    status: 400,
    detail: 'Invalid request path: double percent-encoding (%25XX) is not allowed',
    reason: 'path_double_encoded',
  },
  SG_ERR_PATH_EMPTY_SEGMENT: {
    status: 400,
    detail: 'Invalid request path: empty path segment ("//")',
    reason: 'path_empty_segment',
  },
  SG_ERR_PATH_DOT_SEGMENT: {
    status: 400,
    detail: 'Invalid request path: "." and ".." segments are not allowed',
    reason: 'path_dot_segment',
  },
  SG_ERR_PATH_INVALID_ENCODING: {
    status: 400,
    detail: 'Invalid request path: malformed percent-encoding or invalid UTF-8',
    reason: 'path_invalid_encoding',
  },
  SG_ERR_AUTH_MISSING: {
    status: 401,
    detail: (p) => {
      const where = [
        p.expected?.header === undefined
          ? null
          : `a bearer token in the ${p.expected.header} header`,
        p.expected?.cookie === undefined ? null : `the ${p.expected.cookie} cookie`,
      ].filter((w) => w !== null);
      return where.length === 0
        ? 'Not authenticated: no credential was presented'
        : `Not authenticated: expected ${where.join(' or ')}`;
    },
    reason: 'credential_missing',
    challenge: 'bearer',
  },
  SG_ERR_AUTH_TOKEN_MALFORMED: {
    status: 401,
    detail: 'Invalid token',
    reason: 'token_malformed',
    challenge: 'invalid_token',
  },
  SG_ERR_AUTH_SIGNATURE_INVALID: {
    status: 401,
    detail: 'Invalid token',
    reason: 'signature_invalid',
    challenge: 'invalid_token',
  },
  SG_ERR_AUTH_ALGORITHM_NOT_ALLOWED: {
    status: 401,
    detail: 'Invalid token',
    reason: 'algorithm_not_allowed',
    challenge: 'invalid_token',
  },
  SG_ERR_AUTH_KEY_UNKNOWN: {
    status: 401,
    detail: 'Invalid token',
    reason: 'key_unknown',
    challenge: 'invalid_token',
  },
  SG_ERR_AUTH_TOKEN_EXPIRED: {
    status: 401,
    detail: 'Token has expired',
    reason: 'token_expired',
    challenge: 'invalid_token',
  },
  SG_ERR_AUTH_TOKEN_NOT_YET_VALID: {
    status: 401,
    detail: 'Token is not yet valid',
    reason: 'token_not_yet_valid',
    challenge: 'invalid_token',
  },
  SG_ERR_AUTH_AUDIENCE_MISMATCH: {
    status: 401,
    detail: 'Invalid audience: the token is not for this service',
    reason: 'audience_mismatch',
    challenge: 'invalid_token',
  },
  SG_ERR_AUTH_ISSUER_MISMATCH: {
    status: 401,
    detail: 'Invalid issuer',
    reason: 'issuer_mismatch',
    challenge: 'invalid_token',
  },
  SG_ERR_AUTH_SUBJECT_INVALID: {
    status: 401,
    detail: 'Invalid token subject',
    reason: 'subject_invalid',
    challenge: 'invalid_token',
  },
  SG_ERR_SA_INVALID: {
    status: 401,
    detail: 'Invalid or expired service account token',
    reason: 'service_account_invalid',
    challenge: 'invalid_token',
  },
  SG_ERR_SA_THROTTLED: {
    status: 429,
    detail: 'Too many failed service account look-ups from this address; try again later',
    reason: 'service_account_throttled',
  },
  SG_ERR_SA_STORE_UNAVAILABLE: {
    status: 503,
    detail: 'Service account store unavailable',
    reason: 'service_account_store_unavailable',
  },
  SG_ERR_SA_ANONYMOUS: {
    status: 401,
    detail: 'Not authenticated: service accounts are never managed anonymously',
    reason: 'service_account_anonymous',
    challenge: 'bearer',
  },
  SG_ERR_SA_REQUEST_INVALID: {
    status: 422,
    detail: (p) =>
      `Request validation failed: ${(p.validation ?? []).map((issue) => issue.msg).join('; ')}`,
    reason: 'service_account_request_invalid',
  },
  SG_ERR_SA_BODY_TOO_LARGE: {
    status: 413,
    detail: `Request body too large: a /service-accounts request body may be at most ${MAX_SERVICE_ACCOUNT_BODY_BYTES} bytes`,
    reason: 'service_account_body_too_large',
  },
  SG_ERR_SA_SCOPE_MALFORMED: {
    status: 400,
    detail: (p) =>
      `Malformed scope(s): ${(p.problems ?? []).join('; ')}. A scope is the admin scope, or two ` +
      'or three non-empty ":"-separated parts without whitespace where "*" may only be the whole ' +
      'middle part',
    reason: 'service_account_scope_malformed',
  },
  SG_ERR_SA_SCOPE_UNKNOWN: {
    status: 400,
    detail: (p) => `Unknown scope(s): ${(p.problems ?? []).join('; ')}`,
    reason: 'service_account_scope_unknown',
  },
  SG_ERR_SA_SCOPE_PRIVILEGED: {
    status: 400,
    detail: (p) =>
      `${p.field ?? 'scopes'}: privileged scope(s) ${(p.scopes ?? []).join(', ')} need ` +
      '"allow_privileged_scopes": true (write and delete actions, the admin scope and every ' +
      'service_accounts scope are privileged)',
    reason: 'service_account_scope_privileged',
  },
  SG_ERR_SA_SCOPE_NOT_HELD: {
    status: 403,
    detail: (p) =>
      `${p.field ?? 'scopes'}: a caller may grant only scopes it holds; not held: ` +
      (p.scopes ?? []).join(', '),
    reason: 'service_account_scope_not_held',
  },
  SG_ERR_SA_NAME_TAKEN: {
    status: 409,
    detail: (p) =>
      `name: an active service account named "${p.name ?? ''}" already exists ` +
      '(revoke it first, or choose another name)',
    reason: 'service_account_name_taken',
  },
  SG_ERR_SA_NOT_FOUND: {
    status: 404,
    detail: (p) => `id: no service account has the id ${JSON.stringify(p.id ?? '')}`,
    reason: 'service_account_not_found',
  },
  SG_ERR_SA_ROUTE_UNKNOWN: {
    status: 404,
    detail:
      'Not found: the gateway serves GET /service-accounts, POST /service-accounts and ' +
      'DELETE /service-accounts/{id}',
    reason: 'service_account_route_unknown',
  },
  SG_ERR_SA_METHOD_NOT_ALLOWED: {
    status: 405,
    detail: (p) =>
      `Method not allowed: ${p.route ?? 'this route'} supports ${(p.allow ?? []).join(', ')}`,
    reason: 'service_account_method_not_allowed',
  },
  SG_ERR_CORS_ORIGIN_NOT_ALLOWED: {
    status: 403,
    detail: 'CORS preflight refused: the origin is not allowed',
    reason: 'cors_origin_not_allowed',
  },
  SG_ERR_DISPATCH_BODY_ENCODED: {
    status: 415,
    detail:
      'Unsupported media type: a dynamic-dispatch body must not carry a Content-Encoding (the ' +
      'gateway reads it to find the target)',
    reason: 'dispatch_body_encoded',
  },
  SG_ERR_DISPATCH_BODY_TOO_LARGE: {
    status: 413,
    detail: (p) =>
      `Request body too large: a dynamic-dispatch body may be at most ${p.limit ?? 0} bytes ` +
      '(a2a.max_dispatch_body_bytes)',
    reason: 'dispatch_body_too_large',
  },
  SG_ERR_DISPATCH_BODY_NOT_JSON: {
    status: 400,
    detail: 'Invalid dynamic-dispatch request: the body is not JSON',
    reason: 'dispatch_body_not_json',
  },
  SG_ERR_DISPATCH_TARGET_MISSING: {
    status: 400,
    detail:
      "Entity ID required. Provide it via 'agentId' in params.message or 'X-Agent-ID' header.",
    reason: 'dispatch_target_missing',
  },
  SG_ERR_DISPATCH_TARGET_NOT_STRING: {
    status: 400,
    detail: 'Invalid dynamic-dispatch request: params.message.agentId must be a string',
    reason: 'dispatch_target_not_string',
  },
  SG_ERR_DISPATCH_TARGET_CONFLICT: {
    status: 400,
    detail:
      'Invalid dynamic-dispatch request: params.message.agentId and X-Agent-ID name different ' +
      'targets (or X-Agent-ID is repeated)',
    reason: 'dispatch_target_conflict',
  },
  SG_ERR_DISPATCH_TARGET_UNKNOWN: {
    status: 404,
    detail: (p) => `Agent, Team, or Workflow with ID '${p.target ?? ''}' not found`,
    reason: 'dispatch_target_unknown',
  },
  SG_ERR_DISPATCH_CATALOGUE_UNAVAILABLE: {
    status: 502,
    detail:
      "Bad gateway: the upstream's agents/teams/workflows catalogue could not be read to " +
      'resolve the dispatch target',
    reason: 'dispatch_catalogue_unavailable',
  },
  SG_ERR_JSONRPC_BODY_ENCODED: {
    status: 415,
    detail:
      'Unsupported media type: an A2A JSON-RPC body must not carry a Content-Encoding (the ' +
      'gateway reads it to find the method)',
    reason: 'jsonrpc_body_encoded',
  },
  SG_ERR_JSONRPC_BODY_TOO_LARGE: {
    status: 413,
    detail: (p) =>
      `Request body too large: an A2A JSON-RPC body may be at most ${p.limit ?? 0} bytes ` +
      '(a2a.max_dispatch_body_bytes)',
    reason: 'jsonrpc_body_too_large',
  },
  SG_ERR_JSONRPC_BODY_NOT_JSON: {
    status: 400,
    detail: 'Invalid A2A JSON-RPC request: the body is not UTF-8 JSON',
    reason: 'jsonrpc_body_not_json',
  },
  SG_ERR_JSONRPC_BATCH: {
    status: 400,
    detail: 'Invalid A2A JSON-RPC request: batch requests (a JSON array) are not supported',
    reason: 'jsonrpc_batch',
  },
  SG_ERR_JSONRPC_NOT_OBJECT: {
    status: 400,
    detail: 'Invalid A2A JSON-RPC request: the body must be a JSON object',
    reason: 'jsonrpc_not_object',
  },
  SG_ERR_JSONRPC_DUPLICATE_MEMBER: {
    status: 400,
    detail: (p) =>
      `Invalid A2A JSON-RPC request: the member "${p.field ?? ''}" appears more than once`,
    reason: 'jsonrpc_duplicate_member',
  },
  SG_ERR_JSONRPC_VERSION: {
    status: 400,
    detail: 'Invalid A2A JSON-RPC request: "jsonrpc" must be "2.0"',
    reason: 'jsonrpc_version',
  },
  SG_ERR_JSONRPC_METHOD_NOT_STRING: {
    status: 400,
    detail: 'Invalid A2A JSON-RPC request: "method" must be a string',
    reason: 'jsonrpc_method_not_string',
  },
  SG_ERR_JSONRPC_ID_INVALID: {
    status: 400,
    detail: 'Invalid A2A JSON-RPC request: "id" must be a string, an integer or null',
    reason: 'jsonrpc_id_invalid',
  },
  SG_ERR_JSONRPC_PARAMS_NOT_OBJECT: {
    status: 400,
    detail: 'Invalid A2A JSON-RPC request: "params" must be a JSON object',
    reason: 'jsonrpc_params_not_object',
  },
  SG_ERR_JSONRPC_TENANT: {
    status: 400,
    detail:
      'Invalid A2A JSON-RPC request: "params.tenant" is not supported (the entity is chosen by ' +
      'the path)',
    reason: 'jsonrpc_tenant',
  },
  SG_ERR_JSONRPC_METHOD_UNKNOWN: {
    status: 400,
    detail: 'Invalid A2A JSON-RPC request: the method is not an A2A method the gateway knows',
    reason: 'jsonrpc_method_unknown',
  },
  SG_ERR_JSONRPC_METHOD_PATH_MISMATCH: {
    status: 400,
    detail: (p) =>
      `Invalid A2A JSON-RPC request: the method does not match the path (${p.route ?? ''} ` +
      `serves ${(p.methods ?? []).join(' or ')})`,
    reason: 'jsonrpc_method_path_mismatch',
  },
  SG_ERR_UPGRADE_REFUSED: {
    status: 400,
    detail:
      'This request cannot switch protocols: only GET requests to forwarded routes are ' +
      'upgraded (WebSocket)',
    reason: 'upgrade_refused',
  },
  SG_ERR_SCOPE_INSUFFICIENT: {
    status: 403,
    detail: (p) => `Insufficient permissions. Required scope(s): ${(p.scopes ?? []).join(', ')}`,
    reason: 'insufficient_scope',
    challenge: 'insufficient_scope',
  },
  SG_ERR_ROUTE_UNMAPPED: {
    status: 403,
    detail: (p) =>
      `Forbidden: no scope mapping covers ${p.route ?? 'this route'} and unmapped_routes is deny`,
    reason: 'route_unmapped',
  },
  SG_ERR_BODY_IDLE_TIMEOUT: {
    status: 408,
    detail:
      'Request timeout: no bytes of the request body arrived for longer than the gateway waits ' +
      '(listen.body_idle_timeout_ms)',
    reason: 'body_idle_timeout',
    closeConnection: true,
    limit: true,
  },
  SG_ERR_BODY_TIMEOUT: {
    status: 408,
    detail:
      'Request timeout: the request body was not complete within the time the gateway allows ' +
      '(listen.body_timeout_ms)',
    reason: 'body_timeout',
    closeConnection: true,
    limit: true,
  },
  SG_ERR_IN_FLIGHT_LIMIT: {
    status: 429,
    detail:
      'Too many requests: this caller already has as many requests in flight as it may have ' +
      '(upstream.max_in_flight_per_principal); retry when one has finished',
    reason: 'in_flight_limit',
    retryAfterSeconds: 1,
    limit: true,
  },
  SG_ERR_UPSTREAM_BUSY: {
    status: 503,
    detail:
      'Service unavailable: every upstream connection is busy and none came free within ' +
      'upstream.queue_timeout_ms; retry later',
    reason: 'upstream_busy',
    retryAfterSeconds: 5,
    limit: true,
  },
  SG_ERR_UPSTREAM_UNREACHABLE: {
    status: 502,
    detail: 'Bad gateway: the upstream could not be reached',
    reason: 'upstream_unreachable',
  },
  SG_ERR_UPSTREAM_TIMEOUT: {
    status: 504,
    detail: 'Gateway time-out: the upstream did not answer in time',
    reason: 'upstream_timeout',
  },
  SG_ERR_INTERNAL: {
    status: 500,
    detail: 'Internal gateway error',
    reason: 'internal_error',
  },
} as const satisfies Record<string, Rejection>;

export type RejectionCode = keyof typeof REJECTIONS;

/** A stage's refusal: a catalogue code and the values its detail is built from. */
export interface Refusal {
  readonly ok: false;
  readonly code: RejectionCode;
  readonly params?: RejectionParams;
}

/** A stage's outcome: continue with a value, or stop with a catalogue code. */
export type Verdict<T> = { readonly ok: true; readonly value: T } | Refusal;

/** Builds a rejecting verdict. */
export function reject(code: RejectionCode, params?: RejectionParams): Refusal {
  return params === undefined ? { ok: false, code } : { ok: false, code, params };
}

/** The status, detail and reason a refusal is answered with. */
export function describeRefusal(refusal: Refusal): {
  status: number;
  detail: string;
  reason: string;
  challenge: Challenge | undefined;
  retryAfterSeconds: number | undefined;
  closeConnection: true | undefined;
} {
  const entry: Rejection = REJECTIONS[refusal.code];
  const detail =
    typeof entry.detail === 'function' ? entry.detail(refusal.params ?? {}) : entry.detail;
  return {
    status: entry.status,
    detail,
    reason: entry.reason,
    challenge: entry.challenge,
    retryAfterSeconds: entry.retryAfterSeconds,
    closeConnection: entry.closeConnection,
  };
}

/** Whether a refusal comes from a limit protecting other callers (recorded as a deny). */
export function isLimitRefusal(refusal: Refusal): boolean {
  const entry: Rejection = REJECTIONS[refusal.code];
  return entry.limit === true;
}
