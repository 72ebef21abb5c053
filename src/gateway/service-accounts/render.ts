/**
 * How service accounts read in the API and the CLI: scopes split into their parts, the principal
 * an account authenticates as, the listing and the one-time mint shapes. Never renders a token's
 * digest; the plaintext token appears only in the mint answer.
 */
import type { Principal } from '../../auth/principal.js';
import type { ServiceAccountRecord } from '../../auth/service-accounts/store.js';

/** A scope as the API renders it. */
export interface RenderedScope {
  readonly raw: string;
  readonly namespace: string;
  readonly sub_namespace: string | null;
  readonly permission: string | null;
  readonly value: 'allow';
}

/** What both shapes of an account show, in this order. */
export interface AccountHead {
  readonly id: string;
  readonly name: string;
  readonly principal: string;
  readonly token_prefix: string;
  readonly scopes: readonly RenderedScope[];
  readonly created_at: number;
  readonly expires_at: number | null;
}

/** An account as listed: never its token or digest. */
export interface ListedAccount extends AccountHead {
  readonly last_used_at: number | null;
  readonly revoked_at: number | null;
  readonly created_by: string;
}

/** The 201 body: the plaintext token, shown this once. */
export interface MintedAccount extends AccountHead {
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

/** The fields both shapes share. */
function headOf(record: ServiceAccountRecord): AccountHead {
  return {
    id: record.id,
    name: record.name,
    principal: principalOfName(record.name),
    token_prefix: record.token_prefix,
    scopes: record.scopes.map(renderScope),
    created_at: record.created_at,
    expires_at: record.expires_at,
  };
}

/** The listing shape of a stored account. */
export function listedAccount(record: ServiceAccountRecord): ListedAccount {
  return {
    ...headOf(record),
    last_used_at: record.last_used_at,
    revoked_at: record.revoked_at,
    created_by: record.created_by,
  };
}

/** The mint answer for a just-stored account and its plaintext token. */
export function mintedAccount(record: ServiceAccountRecord, token: string): MintedAccount {
  return { ...headOf(record), token };
}

/** `created_by` for a caller: its user id, else its kind (`security_key`). */
export function createdByOf(principal: Principal): string {
  return principal.userId ?? principal.type;
}
