/**
 * The one API the gateway serves itself: mint, list and revoke service accounts, after the
 * normal pipeline authenticated and authorized the caller. Answers with replies and refusals
 * that respond.ts writes; never forwards, never writes to the socket, and reads a request body
 * only for `POST /service-accounts`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Principal } from '../../auth/principal.js';
import { isServiceAccountStoreError } from '../../auth/service-accounts/store.js';
import type { Grants } from '../../policy/scopes.js';
import type { BodyRead } from '../body.js';
import type { ValidationIssue } from '../../shared/validation-issue.js';
import { reject, type Refusal, type Verdict } from '../rejections.js';
import type { Reply } from '../respond.js';
import { mintServiceAccount, revokeServiceAccount, type ServiceAccountsApi } from './accounts.js';
import { bodyIssue, parseMintBody } from './mint-body.js';
import { createdByOf, listedAccount } from './render.js';

/** The first path segment of every service-account route. */
export const SERVICE_ACCOUNTS_SEGMENT = 'service-accounts';

/** Listing page size: default and bound. */
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
const MAX_PAGE = 1_000_000_000;

/**
 * The pauses between attempts of a mint or revoke that met another connection's write lock
 * (about 2 s in all). The store never waits for a lock itself, as that wait would block the
 * event loop; these pauses are timers, so every other request is served meanwhile. After the
 * last one the answer is 503.
 */
export const WRITE_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  10, 20, 40, 80, 150, 300, 500, 500, 500,
]);

function invalid(validation: readonly ValidationIssue[]): Refusal {
  return reject('SG_ERR_SA_REQUEST_INVALID', { validation });
}

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
  if (text.trim() === '')
    return invalid([bodyIssue('missing', [], 'a JSON body is required', null)]);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return invalid([
      bodyIssue('json_invalid', [], `the body must be valid JSON: ${(err as Error).message}`, null),
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
