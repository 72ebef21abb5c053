/**
 * Why a presented (or missing) credential did not authenticate: snake_case reason ids that the
 * gateway maps to catalogue codes. Pure data; never a status, a message or token text.
 */

/** Every reason an authenticator can refuse a request with. */
export type AuthFailure =
  | 'credential_missing'
  | 'token_malformed'
  | 'token_expired'
  | 'token_not_yet_valid'
  | 'audience_mismatch'
  | 'issuer_mismatch'
  | 'subject_invalid'
  | 'algorithm_not_allowed'
  | 'signature_invalid'
  | 'key_unknown'
  | 'service_account_invalid'
  | 'service_account_throttled'
  | 'service_account_store_unavailable';
