/**
 * The one API the gateway serves itself: mint, list and revoke
 * service accounts, after the normal pipeline authenticated and authorized the caller. Answers
 * with replies and refusals that respond.ts writes; never forwards, never writes to the socket,
 * and reads a request body only for `POST /service-accounts`.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Principal } from '../auth/principal.js';
import type { ChangeFeed } from '../auth/service-accounts/change-feed.js';
import {
  isServiceAccountStoreError,
  type ServiceAccountRecord,
  type ServiceAccountStore,
} from '../auth/service-accounts/store.js';
import {
  hashServiceAccountToken,
  mintServiceAccountToken,
  tokenPrefixOf,
  type RandomSource,
} from '../auth/service-accounts/token.js';
import type { ScopeCatalogue } from '../policy/grantable.js';
import { satisfies, type Grants } from '../policy/scopes.js';
import type { Clock } from '../shared/clock.js';
import type { BodyRead } from './body.js';
import { reject, type Refusal, type ValidationIssue, type Verdict } from './rejections.js';
import type { Reply } from './respond.js';

/** The first path segment of every service-account route. */
export const SERVICE_ACCOUNTS_SEGMENT = 'service-accounts';

/** The scopes an account gets when the request names none. */
export const DEFAULT_SERVICE_ACCOUNT_SCOPES: readonly string[] = Object.freeze([
  'agents:run',
  'teams:run',
  'workflows:run',
  'sessions:read',
  'config:read',
]);

/** A name: a lower-case slug of 1 to 63 characters. */
export const SERVICE_ACCOUNT_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** `expires_in_days` bounds and default. */
export const MIN_EXPIRES_IN_DAYS = 1;
export const MAX_EXPIRES_IN_DAYS = 3650;
export const DEFAULT_EXPIRES_IN_DAYS = 90;

/** Most scopes one account may carry (they travel in a header on every request). */
export const MAX_SCOPES = 100;

/** Listing page size: default and bound. */
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
const MAX_PAGE = 1_000_000_000;

const DAY_SECONDS = 86_400;

/**
 * The pauses between attempts of a mint or revoke that met another connection's write lock
 * (about 2 s in all). The store never waits for a lock itself, as that wait would block the
 * event loop; these pauses are timers, so every other request is served meanwhile. After the
 * last one the answer is 503.
 */
export const WRITE_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  10, 20, 40, 80, 150, 300, 500, 500, 500,
]);

/** What the API needs; built once per gateway state. */
export interface ServiceAccountsApiDeps {
  readonly store: ServiceAccountStore;
  /** Evicts a revoked token from the verification cache (null: no verifier, e.g. the CLI). */
  readonly verifier: { forget(tokenHash: string): void } | null;
  /** The store's change feed (null: none, e.g. the CLI): its lag is reported on /metrics. */
  readonly feed?: Pick<ChangeFeed, 'lagSeconds' | 'close'> | null;
  /** The verifier's subscription to the feed, closed once no state uses the verifier. */
  readonly feedSubscription?: { close(): void } | null;
  readonly clock: Clock;
  readonly catalogue: ScopeCatalogue;
  /** Token randomness (tests only). */
  readonly random?: RandomSource;
}

/** The built API. */
export interface ServiceAccountsApi extends ServiceAccountsApiDeps {
  /** Closes the feed, then the store. */
  close(): Promise<void>;
}

/** Builds the API over an open store. */
export function createServiceAccountsApi(deps: ServiceAccountsApiDeps): ServiceAccountsApi {
  return Object.freeze({
    ...deps,
    async close() {
      deps.feedSubscription?.close();
      await deps.feed?.close();
      await deps.store.close();
    },
  });
}

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

/** Who mints: their grants for the subset rule (`null`: holds everything), and `created_by`. */
export interface Granter {
  readonly grants: Grants | null;
  readonly createdBy: string;
}

/** A scope as the API renders it. */
export interface RenderedScope {
  readonly raw: string;
  readonly namespace: string;
  readonly sub_namespace: string | null;
  readonly permission: string | null;
  readonly value: 'allow';
}

/** An account as listed: never its token or digest. */
export interface ListedAccount {
  readonly id: string;
  readonly name: string;
  readonly principal: string;
  readonly token_prefix: string;
  readonly scopes: readonly RenderedScope[];
  readonly created_at: number;
  readonly expires_at: number | null;
  readonly last_used_at: number | null;
  readonly revoked_at: number | null;
  readonly created_by: string;
}

/** The 201 body: the plaintext token, shown this once. */
export interface MintedAccount {
  readonly id: string;
  readonly name: string;
  readonly principal: string;
  readonly token_prefix: string;
  readonly scopes: readonly RenderedScope[];
  readonly created_at: number;
  readonly expires_at: number | null;
  readonly token: string;
}

/**
 * Renders a stored scope: `namespace:action` or `namespace:sub:action`, with `system` shown
 * under `config` and `raw` unchanged. Total: a string of any other shape still renders.
 */
export function renderScope(raw: string): RenderedScope {
  const parts = raw.split(':');
  const first = parts[0] as string;
  return {
    raw,
    namespace: first === 'system' ? 'config' : first,
    sub_namespace: parts.length === 3 ? (parts[1] as string) : null,
    permission: parts.length >= 2 ? (parts[parts.length - 1] as string) : null,
    value: 'allow',
  };
}

/** The principal an account name authenticates as. */
export function principalOfName(name: string): string {
  return `sa:${name}`;
}

/** The listing shape of a stored account. */
export function listedAccount(record: ServiceAccountRecord): ListedAccount {
  return {
    id: record.id,
    name: record.name,
    principal: principalOfName(record.name),
    token_prefix: record.token_prefix,
    scopes: record.scopes.map(renderScope),
    created_at: record.created_at,
    expires_at: record.expires_at,
    last_used_at: record.last_used_at,
    revoked_at: record.revoked_at,
    created_by: record.created_by,
  };
}

/** `created_by` for a caller: its user id, else its kind (`security_key`). */
export function createdByOf(principal: Principal): string {
  return principal.userId ?? principal.type;
}

// ---- the body's shape (422) ----------------------------------------------------------------

const BODY_KEYS = new Set([
  'name',
  'scopes',
  'expires_in_days',
  'never_expires',
  'allow_privileged_scopes',
]);
const SCOPE_ITEM_KEYS = new Set(['scope', 'effect']);

function issue(
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
  issues.push(issue('bool_type', [key], `${key} must be true or false`, value));
  return false;
}

function scopesOf(value: unknown, issues: ValidationIssue[]): RequestedScope[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    issues.push(
      issue(
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
      issue('too_long', ['scopes'], `scopes may list at most ${MAX_SCOPES} scopes`, value.length),
    );
    return null;
  }
  const scopes: RequestedScope[] = [];
  const seen = new Set<string>();
  value.forEach((item: unknown, i) => {
    const at = `scopes[${i}]`;
    if (!isObject(item)) {
      issues.push(
        issue(
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
          issue(
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
        issue('literal_error', ['scopes', i, 'effect'], `${at}.effect must be "allow"`, effect),
      );
    }
    const scope = item['scope'];
    if (scope === undefined) {
      issues.push(issue('missing', ['scopes', i, 'scope'], `${at}.scope is required`, null));
    } else if (typeof scope !== 'string') {
      issues.push(
        issue('string_type', ['scopes', i, 'scope'], `${at}.scope must be a string`, scope),
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
      issue('int_type', ['expires_in_days'], 'expires_in_days must be an integer', value),
    );
    return null;
  }
  if (value < MIN_EXPIRES_IN_DAYS) {
    issues.push(
      issue(
        'greater_than_equal',
        ['expires_in_days'],
        `expires_in_days must be at least ${MIN_EXPIRES_IN_DAYS}`,
        value,
      ),
    );
  } else if (value > MAX_EXPIRES_IN_DAYS) {
    issues.push(
      issue(
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
      issues: [issue('model_attributes_type', [], 'the body must be a JSON object', body)],
    };
  }
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(body)) {
    if (!BODY_KEYS.has(key)) {
      issues.push(issue('extra_forbidden', [key], `${key} is not a known field`, body[key]));
    }
  }
  const name = body['name'];
  if (name === undefined || name === null) {
    issues.push(issue('missing', ['name'], 'name is required', null));
  } else if (typeof name !== 'string') {
    issues.push(issue('string_type', ['name'], 'name must be a string', name));
  } else if (!SERVICE_ACCOUNT_NAME.test(name)) {
    issues.push(
      issue(
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
        issue(
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

function invalid(validation: readonly ValidationIssue[]): Refusal {
  return reject('SG_ERR_SA_REQUEST_INVALID', { validation });
}

// ---- the rules (400, 403, 409) and the insert ----------------------------------------------

/**
 * Mints an account, checking after the shape: malformed and unknown
 * scopes (400), privileged scopes without `allow_privileged_scopes` (400), scopes the granter
 * does not hold (403), a name an active account has (409). Shared by the API and the CLI.
 *
 * @throws {ServiceAccountStoreError} when the store fails (the caller answers 503)
 */
export async function mintServiceAccount(
  api: ServiceAccountsApiDeps,
  request: MintRequest,
  granter: Granter,
): Promise<Verdict<MintedAccount>> {
  const requested =
    request.scopes ??
    DEFAULT_SERVICE_ACCOUNT_SCOPES.map((raw) => ({ raw, field: 'scopes (default)' }));
  const malformed: string[] = [];
  const unknown: string[] = [];
  const privileged: string[] = [];
  const notHeld: string[] = [];
  for (const { raw, field } of requested) {
    const grantable = api.catalogue.classify(raw);
    if (grantable.kind === 'malformed') malformed.push(`${field} ${JSON.stringify(raw)}`);
    else if (grantable.kind === 'unknown')
      unknown.push(`${field} ${JSON.stringify(raw)}: ${grantable.why}`);
    else {
      if (grantable.privileged) privileged.push(raw);
      if (granter.grants !== null && !satisfies(grantable.scope, granter.grants, null)) {
        notHeld.push(raw);
      }
    }
  }
  const field = request.scopes === null ? 'scopes (default)' : 'scopes';
  if (malformed.length > 0) return reject('SG_ERR_SA_SCOPE_MALFORMED', { problems: malformed });
  if (unknown.length > 0) return reject('SG_ERR_SA_SCOPE_UNKNOWN', { problems: unknown });
  if (privileged.length > 0 && !request.allowPrivilegedScopes) {
    return reject('SG_ERR_SA_SCOPE_PRIVILEGED', { scopes: privileged, field });
  }
  if (notHeld.length > 0) return reject('SG_ERR_SA_SCOPE_NOT_HELD', { scopes: notHeld, field });

  const token = mintServiceAccountToken(api.random);
  const now = Math.floor(api.clock.now() / 1000);
  const record: ServiceAccountRecord = {
    id: randomUUID(),
    name: request.name,
    token_hash: hashServiceAccountToken(token),
    token_prefix: tokenPrefixOf(token),
    scopes: requested.map((s) => s.raw),
    created_at: now,
    expires_at: request.expiresInDays === null ? null : now + request.expiresInDays * DAY_SECONDS,
    last_used_at: null,
    revoked_at: null,
    created_by: granter.createdBy,
  };
  if ((await api.store.insert(record, now)) === 'name_taken') {
    return reject('SG_ERR_SA_NAME_TAKEN', { name: request.name });
  }
  return {
    ok: true,
    value: {
      id: record.id,
      name: record.name,
      principal: principalOfName(record.name),
      token_prefix: record.token_prefix,
      scopes: record.scopes.map(renderScope),
      created_at: record.created_at,
      expires_at: record.expires_at,
      token,
    },
  };
}

/** The outcome of revoking an id. */
export type RevokeResult = 'revoked' | 'already_revoked' | 'not_found';

/**
 * Revokes `id` and evicts its token from this gateway's cache at once; other replicas learn of it
 * through the change feed, and refuse it within their staleness bound.
 *
 * @throws {ServiceAccountStoreError} when the store fails (the caller answers 503)
 */
export async function revokeServiceAccount(
  api: ServiceAccountsApiDeps,
  id: string,
): Promise<RevokeResult> {
  const result = await api.store.revoke(id, Math.floor(api.clock.now() / 1000));
  if (result.outcome !== 'not_found') api.verifier?.forget(result.tokenHash);
  return result.outcome;
}

// ---- the HTTP side ---------------------------------------------------------------------------

/** An authorized request to `/service-accounts…`. */
export interface ApiRequest {
  readonly method: string;
  /** The decoded path segments; the first is {@link SERVICE_ACCOUNTS_SEGMENT}. */
  readonly segments: readonly string[];
  /** The query string with its `?`, or `''`. */
  readonly query: string;
  readonly caller: Principal;
  readonly grants: Grants;
  /** Reads the body (bounded); called only by `POST /service-accounts`. */
  readBody(): Promise<BodyRead>;
}

const UNAVAILABLE = reject('SG_ERR_SA_STORE_UNAVAILABLE');
const COLLECTION_METHODS = ['GET', 'HEAD', 'POST'];
const ITEM_METHODS = ['DELETE'];

/**
 * Serves one request. Resolves with the reply or refusal to write, or `null` when the client
 * went away while its body was being read (nothing left to answer). A store failure is a 503,
 * never a 200 or a 401 (fail closed).
 */
export async function serveServiceAccounts(
  api: ServiceAccountsApi,
  request: ApiRequest,
): Promise<Verdict<Reply> | null> {
  const { method, segments } = request;
  if (segments.length === 1) {
    if (method === 'GET' || method === 'HEAD')
      return guarded(() => listAccounts(api, request.query));
    if (method === 'POST') return mintFromBody(api, request);
    return reject('SG_ERR_SA_METHOD_NOT_ALLOWED', {
      route: `${method} /service-accounts`,
      allow: COLLECTION_METHODS,
    });
  }
  if (segments.length === 2) {
    if (method === 'DELETE') {
      return guardedWrite(async () =>
        (await revokeServiceAccount(api, segments[1] as string)) === 'not_found'
          ? reject('SG_ERR_SA_NOT_FOUND', { id: segments[1] as string })
          : { ok: true, value: { status: 204 } },
      );
    }
    return reject('SG_ERR_SA_METHOD_NOT_ALLOWED', {
      route: `${method} /service-accounts/{id}`,
      allow: ITEM_METHODS,
    });
  }
  return reject('SG_ERR_SA_ROUTE_UNKNOWN');
}

/** A store operation that answers a verdict. */
type StoreOperation = () => Promise<Verdict<Reply>>;

/** Runs a store operation; the store wraps every failure in its own error, answered 503. */
async function guarded(operation: StoreOperation): Promise<Verdict<Reply>> {
  try {
    return await operation();
  } catch {
    return UNAVAILABLE;
  }
}

/** What one attempt of a write came to: a verdict, or "another connection holds the lock". */
const LOCKED = Symbol('locked');

async function attemptWrite(operation: StoreOperation): Promise<Verdict<Reply> | typeof LOCKED> {
  try {
    return await operation();
  } catch (err) {
    return isServiceAccountStoreError(err) && err.busy ? LOCKED : UNAVAILABLE;
  }
}

/**
 * Runs a store write, trying again after each of {@link WRITE_RETRY_DELAYS_MS} while another
 * connection holds the write lock; any other failure, or the lock still held at the last
 * attempt, is answered 503.
 */
async function guardedWrite(operation: StoreOperation): Promise<Verdict<Reply>> {
  for (const delay of WRITE_RETRY_DELAYS_MS) {
    const outcome = await attemptWrite(operation);
    if (outcome !== LOCKED) return outcome;
    await sleep(delay);
  }
  return guarded(operation);
}

async function mintFromBody(
  api: ServiceAccountsApi,
  request: ApiRequest,
): Promise<Verdict<Reply> | null> {
  const read = await request.readBody();
  if (!read.ok) {
    if (read.reason === 'aborted') return null;
    return read.reason === 'timed_out' ? reject(read.code) : reject('SG_ERR_SA_BODY_TOO_LARGE');
  }
  const text = read.body.toString('utf8');
  if (text.trim() === '') return invalid([issue('missing', [], 'a JSON body is required', null)]);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return invalid([
      issue('json_invalid', [], `the body must be valid JSON: ${(err as Error).message}`, null),
    ]);
  }
  const parsed = parseMintBody(json);
  if (!parsed.ok) return invalid(parsed.issues);
  return guardedWrite(async () => {
    const minted = await mintServiceAccount(api, parsed.value, {
      grants: request.grants,
      createdBy: createdByOf(request.caller),
    });
    return minted.ok ? { ok: true, value: { status: 201, body: minted.value } } : minted;
  });
}

/** A query integer, or the issue with it. */
function queryInteger(
  params: URLSearchParams,
  key: string,
  fallback: number,
  min: number,
  max: number,
  issues: ValidationIssue[],
): number {
  const text = params.get(key);
  if (text === null) return fallback;
  const loc = ['query', key];
  if (!/^-?\d+$/.test(text)) {
    issues.push({ type: 'int_parsing', loc, msg: `${key} must be an integer`, input: text });
    return fallback;
  }
  const value = Number(text);
  if (value < min) {
    issues.push({
      type: 'greater_than_equal',
      loc,
      msg: `${key} must be at least ${min}`,
      input: text,
    });
  } else if (value > max) {
    issues.push({
      type: 'less_than_equal',
      loc,
      msg: `${key} must be at most ${max}`,
      input: text,
    });
  }
  return value;
}

async function listAccounts(api: ServiceAccountsApi, query: string): Promise<Verdict<Reply>> {
  const params = new URLSearchParams(query);
  const issues: ValidationIssue[] = [];
  // Page 0 is read as 1, as the runtime's listings do.
  const page = Math.max(1, queryInteger(params, 'page', 1, 0, MAX_PAGE, issues));
  const limit = queryInteger(params, 'limit', DEFAULT_PAGE_LIMIT, 1, MAX_PAGE_LIMIT, issues);
  if (issues.length > 0) return invalid(issues);
  const { rows, total } = await api.store.list((page - 1) * limit, limit);
  return {
    ok: true,
    value: {
      status: 200,
      body: {
        data: rows.map(listedAccount),
        meta: { page, limit, total_pages: Math.ceil(total / limit), total_count: total },
      },
    },
  };
}
