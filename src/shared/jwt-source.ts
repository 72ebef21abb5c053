/**
 * The one rule for "a JWT source is configured", shared by config validation and the auth
 * chain: with one, a token the other authenticators do not claim is a JWT, and the security key
 * is ignored. Pure.
 */

/** The settings the rule reads (the `auth:` keys of the same names). */
export interface JwtSourceSettings {
  readonly verification_keys: readonly string[];
  readonly jwks_file: string | null;
  readonly jwks_url: string | null;
  readonly secret_key?: string | null | undefined;
  readonly dev_keys: string | null;
  readonly validate: boolean;
}

/**
 * Whether a JWT source is configured: verification keys, a JWKS file or URL, the deprecated
 * `secret_key`, development keys, or `validate: false`. An empty string counts as unset.
 */
export function hasJwtSource(settings: JwtSourceSettings): boolean {
  return (
    settings.verification_keys.length > 0 ||
    nonEmpty(settings.jwks_file) ||
    nonEmpty(settings.jwks_url) ||
    nonEmpty(settings.secret_key ?? null) ||
    nonEmpty(settings.dev_keys) ||
    !settings.validate
  );
}

function nonEmpty(value: string | null): boolean {
  return value !== null && value !== '';
}
