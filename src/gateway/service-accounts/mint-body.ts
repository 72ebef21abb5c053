/**
 * The shape of a mint request (`POST /service-accounts`, `scopegate accounts create`): every
 * issue with it collected as a 422 entry. Unknown keys are refused: a typo must not change the
 * grant. What the scopes may be is the mint rule's business (accounts.ts), not the shape's.
 */
import type { ValidationIssue } from '../../shared/validation-issue.js';

/** A name: a lower-case slug of 1 to 63 characters. */
export const SERVICE_ACCOUNT_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** `expires_in_days` bounds and default. */
export const MIN_EXPIRES_IN_DAYS = 1;
export const MAX_EXPIRES_IN_DAYS = 3650;
export const DEFAULT_EXPIRES_IN_DAYS = 90;

/** Most scopes one account may carry (they travel in a header on every request). */
export const MAX_SCOPES = 100;

/** One requested scope and the field it came from, for messages. */
export interface RequestedScope {
  readonly raw: string;
  /** `scopes[2].scope`, or `scopes (default)` for the default scopes. */
  readonly field: string;
}

/** A mint request after its shape was checked. */
export interface MintRequest {
  readonly name: string;
  /** `null`: the default scopes. */
  readonly scopes: readonly RequestedScope[] | null;
  /** `null`: never expires. */
  readonly expiresInDays: number | null;
  readonly allowPrivilegedScopes: boolean;
}

const BODY_KEYS = new Set([
  'name',
  'scopes',
  'expires_in_days',
  'never_expires',
  'allow_privileged_scopes',
]);
const SCOPE_ITEM_KEYS = new Set(['scope', 'effect']);

/** One 422 entry about the request body, `loc` starting with `body`. */
export function bodyIssue(
  type: string,
  loc: readonly (string | number)[],
  msg: string,
  input: unknown,
): ValidationIssue {
  return { type, loc: ['body', ...loc], msg, input };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalBoolean(
  body: Record<string, unknown>,
  key: string,
  issues: ValidationIssue[],
): boolean {
  const value = body[key];
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  issues.push(bodyIssue('bool_type', [key], `${key} must be true or false`, value));
  return false;
}

function scopesOf(value: unknown, issues: ValidationIssue[]): RequestedScope[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    issues.push(
      bodyIssue(
        'list_type',
        ['scopes'],
        'scopes must be a list of {"scope": ..., "effect": "allow"}',
        value,
      ),
    );
    return null;
  }
  if (value.length > MAX_SCOPES) {
    issues.push(
      bodyIssue(
        'too_long',
        ['scopes'],
        `scopes may list at most ${MAX_SCOPES} scopes`,
        value.length,
      ),
    );
    return null;
  }
  const scopes: RequestedScope[] = [];
  const seen = new Set<string>();
  value.forEach((item: unknown, i) => {
    const at = `scopes[${i}]`;
    if (!isObject(item)) {
      issues.push(
        bodyIssue(
          'model_attributes_type',
          ['scopes', i],
          `${at} must be an object {"scope": ..., "effect": "allow"}`,
          item,
        ),
      );
      return;
    }
    for (const key of Object.keys(item)) {
      if (!SCOPE_ITEM_KEYS.has(key)) {
        issues.push(
          bodyIssue(
            'extra_forbidden',
            ['scopes', i, key],
            `${at}.${key} is not a known field`,
            item[key],
          ),
        );
      }
    }
    const effect = item['effect'];
    if (effect !== undefined && effect !== 'allow') {
      issues.push(
        bodyIssue('literal_error', ['scopes', i, 'effect'], `${at}.effect must be "allow"`, effect),
      );
    }
    const scope = item['scope'];
    if (scope === undefined) {
      issues.push(bodyIssue('missing', ['scopes', i, 'scope'], `${at}.scope is required`, null));
    } else if (typeof scope !== 'string') {
      issues.push(
        bodyIssue('string_type', ['scopes', i, 'scope'], `${at}.scope must be a string`, scope),
      );
    } else if (!seen.has(scope)) {
      // The same scope twice grants nothing more: keep the first.
      seen.add(scope);
      scopes.push({ raw: scope, field: `${at}.scope` });
    }
  });
  return scopes;
}

function expiresInDaysOf(value: unknown, issues: ValidationIssue[]): number | null {
  if (value === undefined || value === null) return DEFAULT_EXPIRES_IN_DAYS;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    issues.push(
      bodyIssue('int_type', ['expires_in_days'], 'expires_in_days must be an integer', value),
    );
    return null;
  }
  if (value < MIN_EXPIRES_IN_DAYS) {
    issues.push(
      bodyIssue(
        'greater_than_equal',
        ['expires_in_days'],
        `expires_in_days must be at least ${MIN_EXPIRES_IN_DAYS}`,
        value,
      ),
    );
  } else if (value > MAX_EXPIRES_IN_DAYS) {
    issues.push(
      bodyIssue(
        'less_than_equal',
        ['expires_in_days'],
        `expires_in_days must be at most ${MAX_EXPIRES_IN_DAYS}`,
        value,
      ),
    );
  }
  return value;
}

/** A mint body's shape: the request, or every issue with it (answered 422). */
export type MintBodyParse =
  | { readonly ok: true; readonly value: MintRequest }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/**
 * Checks the shape of a mint body (the first check), collecting every issue: a JSON
 * object with a `name` matching the slug pattern, optional `scopes` items `{scope, effect?:
 * "allow"}`, an integer `expires_in_days` in 1..3650 or `never_expires: true` (not both), and a
 * boolean `allow_privileged_scopes`. Unknown keys are refused: a typo must not change the grant.
 */
export function parseMintBody(body: unknown): MintBodyParse {
  if (!isObject(body)) {
    return {
      ok: false,
      issues: [bodyIssue('model_attributes_type', [], 'the body must be a JSON object', body)],
    };
  }
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(body)) {
    if (!BODY_KEYS.has(key)) {
      issues.push(bodyIssue('extra_forbidden', [key], `${key} is not a known field`, body[key]));
    }
  }
  const name = body['name'];
  if (name === undefined || name === null) {
    issues.push(bodyIssue('missing', ['name'], 'name is required', null));
  } else if (typeof name !== 'string') {
    issues.push(bodyIssue('string_type', ['name'], 'name must be a string', name));
  } else if (!SERVICE_ACCOUNT_NAME.test(name)) {
    issues.push(
      bodyIssue(
        'string_pattern_mismatch',
        ['name'],
        `name must match ${SERVICE_ACCOUNT_NAME.source}: 1 to 63 lower-case letters, digits, ` +
          '"_" or "-", starting with a letter or digit',
        name,
      ),
    );
  }
  const scopes = scopesOf(body['scopes'], issues);
  const neverExpires = optionalBoolean(body, 'never_expires', issues);
  const allowPrivilegedScopes = optionalBoolean(body, 'allow_privileged_scopes', issues);
  const given = body['expires_in_days'];
  let expiresInDays = expiresInDaysOf(given, issues);
  if (neverExpires) {
    if (given !== undefined && given !== null) {
      issues.push(
        bodyIssue(
          'value_error',
          ['expires_in_days'],
          'expires_in_days cannot be combined with never_expires: true',
          given,
        ),
      );
    }
    expiresInDays = null;
  }
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: { name: name as string, scopes, expiresInDays, allowPrivilegedScopes },
  };
}
