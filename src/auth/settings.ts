/**
 * The `auth:` settings the authenticators read, as a structural type whose field names are the
 * gateway.yaml keys, so the gateway passes `config.auth` as is. Never imports the config layer.
 */

/** Where a token is read from. */
export type TokenSource = 'HEADER' | 'COOKIE' | 'BOTH';

/** One value or a list of them, as `audience`, `issuer` and `algorithm` accept. */
export type OneOrMany<T> = T | readonly T[];

/** `auth.token_cache`: the bounds of the verified-JWT and refused-JWT caches. */
export interface TokenCacheSettings {
  /** Most verified tokens cached (config default 10000). */
  readonly max_entries: number;
  /** Most estimated bytes the verified-token cache holds (16777216). */
  readonly max_bytes: number;
  /** Most refused tokens remembered; 0: none (10000). */
  readonly rejected_max_entries: number;
  /** How long a refused token is remembered (60). */
  readonly rejected_ttl_seconds: number;
}

/**
 * The parts of the validated `auth:` section that authentication uses. Every
 * key has its config default applied before it gets here.
 */
export interface AuthSettings {
  /** PEM public keys, HS shared secrets, or `file:<path>`; tried in order. */
  readonly verification_keys: readonly string[];
  readonly jwks_file: string | null;
  /** Remote JWK set (jwt/remote-jwks.ts), its keys chosen by `kid` like the `jwks_file`'s. */
  readonly jwks_url: string | null;
  /** Background refresh interval of `jwks_url` (config default 300). */
  readonly jwks_refresh_seconds?: number;
  /** Least time between two `jwks_url` fetches on an unknown `kid` or after a failure (30). */
  readonly jwks_cooldown_seconds?: number;
  /** How long the last good `jwks_url` keys are used after the last success (3600). */
  readonly jwks_max_stale_seconds?: number;
  /** Deprecated spelling of one more verification key; the config already appends it. */
  readonly secret_key?: string | null;
  readonly issuer: OneOrMany<string> | null;
  readonly algorithm: OneOrMany<string>;
  readonly validate: boolean;
  readonly token_source: TokenSource;
  readonly token_header_key: string;
  readonly cookie_name: string;
  readonly scopes_claim: string;
  /**
   * Splits a string scopes claim (`"a b"`, as RFC 9068's `scope` is sent); null (the config
   * default, also when absent) keeps a string claim as one scope. A list is never split.
   */
  readonly scopes_claim_delimiter?: string | null;
  readonly user_id_claim: string;
  readonly session_id_claim: string;
  readonly audience_claim: string;
  readonly audience: OneOrMany<string> | null;
  readonly verify_audience: boolean;
  readonly leeway_seconds: number;
  readonly dependencies_claims: readonly string[];
  readonly session_state_claims: readonly string[];
  readonly allow_anonymous: boolean;
  readonly security_key: string | null;
  readonly internal_service_token: string | null;
  readonly dev_keys: string | null;
  /** The token caches' bounds; absent: the config defaults. */
  readonly token_cache?: TokenCacheSettings;
}

/** A one-or-many setting as a list (`null` → empty). */
export function listOf<T>(value: OneOrMany<T> | null): readonly T[] {
  if (value === null) return [];
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}
