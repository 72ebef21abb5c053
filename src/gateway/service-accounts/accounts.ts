/**
 * The service-account rules shared by the API and the CLI: minting (scopes well-formed, known,
 * privileged only when asked, held by the granter; one active account per name) and revoking
 * (evicted from this gateway's cache at once, from other replicas through the change feed).
 */
import { randomUUID } from 'node:crypto';
import type { ChangeFeed } from '../../auth/service-accounts/change-feed.js';
import type {
  ServiceAccountRecord,
  ServiceAccountStore,
} from '../../auth/service-accounts/store.js';
import {
  hashServiceAccountToken,
  mintServiceAccountToken,
  tokenPrefixOf,
  type RandomSource,
} from '../../auth/service-accounts/token.js';
import type { ScopeCatalogue } from '../../policy/grantable.js';
import { satisfies, type Grants } from '../../policy/scopes.js';
import type { Clock } from '../../shared/clock.js';
import { reject, type Verdict } from '../rejections.js';
import type { MintRequest } from './mint-body.js';
import { mintedAccount, type MintedAccount } from './render.js';

/** The scopes an account gets when the request names none. */
export const DEFAULT_SERVICE_ACCOUNT_SCOPES: readonly string[] = Object.freeze([
  'agents:run',
  'teams:run',
  'workflows:run',
  'sessions:read',
  'config:read',
]);

const DAY_SECONDS = 86_400;

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

/** Who mints: their grants for the subset rule (`null`: holds everything), and `created_by`. */
export interface Granter {
  readonly grants: Grants | null;
  readonly createdBy: string;
}

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
  return { ok: true, value: mintedAccount(record, token) };
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
