/**
 * Stage: the credential → a principal, through the auth chain. Maps the
 * chain's failure reasons to catalogue codes; it never chooses a status or writes a response.
 */
import type { AuthChain, AuthFailure, AuthResult, CredentialRequest } from '../../auth/chain.js';
import type { Principal } from '../../auth/principal.js';
import { reject, type RejectionCode, type Verdict } from '../rejections.js';

const CODES: Readonly<Record<Exclude<AuthFailure, 'credential_missing'>, RejectionCode>> = {
  token_malformed: 'SG_ERR_AUTH_TOKEN_MALFORMED',
  signature_invalid: 'SG_ERR_AUTH_SIGNATURE_INVALID',
  algorithm_not_allowed: 'SG_ERR_AUTH_ALGORITHM_NOT_ALLOWED',
  key_unknown: 'SG_ERR_AUTH_KEY_UNKNOWN',
  token_expired: 'SG_ERR_AUTH_TOKEN_EXPIRED',
  token_not_yet_valid: 'SG_ERR_AUTH_TOKEN_NOT_YET_VALID',
  audience_mismatch: 'SG_ERR_AUTH_AUDIENCE_MISMATCH',
  issuer_mismatch: 'SG_ERR_AUTH_ISSUER_MISMATCH',
  subject_invalid: 'SG_ERR_AUTH_SUBJECT_INVALID',
  service_account_invalid: 'SG_ERR_SA_INVALID',
  service_account_throttled: 'SG_ERR_SA_THROTTLED',
  service_account_store_unavailable: 'SG_ERR_SA_STORE_UNAVAILABLE',
};

/** Where credentials are read from, for the missing-credential detail. */
export interface CredentialNames {
  readonly header: string;
  readonly cookie: string;
}

/** Turns a chain result into a verdict. */
export function verdictOf(result: AuthResult, names: CredentialNames): Verdict<Principal> {
  if (result.ok) return { ok: true, value: result.principal };
  if (result.failure === 'credential_missing') {
    const expected = result.expected ?? 'header';
    return reject('SG_ERR_AUTH_MISSING', {
      expected: {
        ...(expected === 'cookie' ? {} : { header: names.header }),
        ...(expected === 'header' ? {} : { cookie: names.cookie }),
      },
    });
  }
  return reject(CODES[result.failure]);
}

/**
 * Authenticates a request. Synchronous when the chain answers synchronously (a cached token),
 * so the hot path takes no extra turn of the event loop.
 */
export function authenticateRequest(
  chain: AuthChain,
  names: CredentialNames,
  request: CredentialRequest,
): Verdict<Principal> | Promise<Verdict<Principal>> {
  const result = chain.authenticate(request);
  return result instanceof Promise
    ? result.then((r) => verdictOf(r, names))
    : verdictOf(result, names);
}
