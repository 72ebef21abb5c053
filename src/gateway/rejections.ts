/**
 * The one catalogue of refusals: every SG_ERR_* code → status, detail, reason id. Stages return
 * codes; only this table chooses the HTTP status. Documented one anchor per code in docs/errors.md.
 */

/** Values a parameterized detail is built from (never token text, claims or keys). */
export interface RejectionParams {
  /** Required scopes, in configured order (403 insufficient scope). */
  readonly scopes?: readonly string[];
  /** `METHOD /path` of the request (403 unmapped route). */
  readonly route?: string;
}

/** Which `WWW-Authenticate` challenge a refusal carries (RFC 6750 §3). */
export type Challenge = 'bearer' | 'insufficient_scope';

/** A refusal's fixed parts. `reason` is the snake_case id used in logs and metric labels. */
export interface Rejection {
  readonly status: number;
  readonly detail: string | ((params: RejectionParams) => string);
  readonly reason: string;
  readonly challenge?: Challenge;
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
    detail: 'Not authenticated: no credential was presented',
    reason: 'credential_missing',
    challenge: 'bearer',
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
} {
  const entry: Rejection = REJECTIONS[refusal.code];
  const detail =
    typeof entry.detail === 'function' ? entry.detail(refusal.params ?? {}) : entry.detail;
  return { status: entry.status, detail, reason: entry.reason, challenge: entry.challenge };
}
