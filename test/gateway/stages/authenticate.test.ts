/**
 * The authenticate stage: every chain failure maps to its catalogue code; a missing credential
 * names where one was expected; a synchronous chain answer stays synchronous.
 */
import t from 'tap';
import type {
  AuthChain,
  AuthFailure,
  AuthResult,
  CredentialRequest,
  ExpectedSource,
} from '../../../src/auth/chain.js';
import { createPrincipal } from '../../../src/auth/principal.js';
import { describeRefusal, type RejectionCode } from '../../../src/gateway/rejections.js';
import { authenticateRequest, verdictOf } from '../../../src/gateway/stages/authenticate.js';

const NAMES = { header: 'X-Api-Token', cookie: 'sg_session' };
const PRINCIPAL = createPrincipal({ type: 'jwt', userId: 'user-1', scopes: ['agents:read'] });
const REQUEST: CredentialRequest = { headers: {}, clientAddress: '127.0.0.1' };

t.test('verdictOf maps every presented-credential failure to its code', async (t) => {
  const rows: {
    failure: Exclude<AuthFailure, 'credential_missing'>;
    code: RejectionCode;
    status: number;
    detail: string;
  }[] = [
    {
      failure: 'token_malformed',
      code: 'SG_ERR_AUTH_TOKEN_MALFORMED',
      status: 401,
      detail: 'Invalid token',
    },
    {
      failure: 'signature_invalid',
      code: 'SG_ERR_AUTH_SIGNATURE_INVALID',
      status: 401,
      detail: 'Invalid token',
    },
    {
      failure: 'algorithm_not_allowed',
      code: 'SG_ERR_AUTH_ALGORITHM_NOT_ALLOWED',
      status: 401,
      detail: 'Invalid token',
    },
    {
      failure: 'key_unknown',
      code: 'SG_ERR_AUTH_KEY_UNKNOWN',
      status: 401,
      detail: 'Invalid token',
    },
    {
      failure: 'token_expired',
      code: 'SG_ERR_AUTH_TOKEN_EXPIRED',
      status: 401,
      detail: 'Token has expired',
    },
    {
      failure: 'token_not_yet_valid',
      code: 'SG_ERR_AUTH_TOKEN_NOT_YET_VALID',
      status: 401,
      detail: 'Token is not yet valid',
    },
    {
      failure: 'audience_mismatch',
      code: 'SG_ERR_AUTH_AUDIENCE_MISMATCH',
      status: 401,
      detail: 'Invalid audience: the token is not for this service',
    },
    {
      failure: 'issuer_mismatch',
      code: 'SG_ERR_AUTH_ISSUER_MISMATCH',
      status: 401,
      detail: 'Invalid issuer',
    },
    {
      failure: 'subject_invalid',
      code: 'SG_ERR_AUTH_SUBJECT_INVALID',
      status: 401,
      detail: 'Invalid token subject',
    },
    {
      failure: 'service_account_invalid',
      code: 'SG_ERR_SA_INVALID',
      status: 401,
      detail: 'Invalid or expired service account token',
    },
    {
      failure: 'service_account_throttled',
      code: 'SG_ERR_SA_THROTTLED',
      status: 429,
      detail: 'Too many failed service account look-ups from this address; try again later',
    },
    {
      failure: 'service_account_store_unavailable',
      code: 'SG_ERR_SA_STORE_UNAVAILABLE',
      status: 503,
      detail: 'Service account store unavailable',
    },
  ];
  for (const row of rows) {
    const verdict = verdictOf({ ok: false, failure: row.failure, presented: true }, NAMES);
    t.same(verdict, { ok: false, code: row.code }, `${row.failure} → ${row.code}`);
    if (verdict.ok) continue;
    const described = describeRefusal(verdict);
    t.equal(described.status, row.status, `${row.failure}: status`);
    t.equal(described.detail, row.detail, `${row.failure}: detail`);
  }
});

t.test(
  'a missing credential names where one was expected, with the configured names',
  async (t) => {
    const rows: {
      name: string;
      expected: ExpectedSource | undefined;
      params: object;
      detail: string;
    }[] = [
      {
        name: 'header',
        expected: 'header',
        params: { expected: { header: 'X-Api-Token' } },
        detail: 'Not authenticated: expected a bearer token in the X-Api-Token header',
      },
      {
        name: 'cookie',
        expected: 'cookie',
        params: { expected: { cookie: 'sg_session' } },
        detail: 'Not authenticated: expected the sg_session cookie',
      },
      {
        name: 'header_or_cookie',
        expected: 'header_or_cookie',
        params: { expected: { header: 'X-Api-Token', cookie: 'sg_session' } },
        detail:
          'Not authenticated: expected a bearer token in the X-Api-Token header or the sg_session cookie',
      },
      {
        name: 'expected absent: the header is assumed',
        expected: undefined,
        params: { expected: { header: 'X-Api-Token' } },
        detail: 'Not authenticated: expected a bearer token in the X-Api-Token header',
      },
    ];
    for (const row of rows) {
      const result: AuthResult =
        row.expected === undefined
          ? { ok: false, failure: 'credential_missing', presented: false }
          : { ok: false, failure: 'credential_missing', presented: false, expected: row.expected };
      const verdict = verdictOf(result, NAMES);
      t.same(verdict, { ok: false, code: 'SG_ERR_AUTH_MISSING', params: row.params }, row.name);
      if (verdict.ok) continue;
      t.same(
        describeRefusal(verdict),
        { status: 401, detail: row.detail, reason: 'credential_missing', challenge: 'bearer' },
        `${row.name}: answer`,
      );
    }
  },
);

t.test('a principal passes through as the verdict value', async (t) => {
  t.same(verdictOf({ ok: true, principal: PRINCIPAL }, NAMES), { ok: true, value: PRINCIPAL });
  t.equal(
    (verdictOf({ ok: true, principal: PRINCIPAL }, NAMES) as { value: unknown }).value,
    PRINCIPAL,
  );
});

function chainOf(answer: (r: CredentialRequest) => AuthResult | Promise<AuthResult>): AuthChain & {
  seen: CredentialRequest[];
} {
  const seen: CredentialRequest[] = [];
  return {
    tokenCache: null,
    seen,
    authenticate: (r) => {
      seen.push(r);
      return answer(r);
    },
  };
}

t.test('authenticateRequest is synchronous for a synchronous chain', async (t) => {
  const chain = chainOf(() => ({ ok: true, principal: PRINCIPAL }));
  const verdict = authenticateRequest(chain, NAMES, REQUEST);
  t.notOk(verdict instanceof Promise, 'no Promise, no extra turn of the event loop');
  t.same(verdict, { ok: true, value: PRINCIPAL });
  t.equal(chain.seen[0], REQUEST, 'the request is handed to the chain as is');

  const refused = authenticateRequest(
    chainOf(() => ({ ok: false, failure: 'token_expired', presented: true })),
    NAMES,
    REQUEST,
  );
  t.notOk(refused instanceof Promise);
  t.same(refused, { ok: false, code: 'SG_ERR_AUTH_TOKEN_EXPIRED' });
});

t.test('authenticateRequest returns a Promise for an asynchronous chain', async (t) => {
  const ok = authenticateRequest(
    chainOf(async () => ({ ok: true, principal: PRINCIPAL })),
    NAMES,
    REQUEST,
  );
  t.ok(ok instanceof Promise);
  t.same(await ok, { ok: true, value: PRINCIPAL });

  const missing = authenticateRequest(
    chainOf(async () => ({
      ok: false,
      failure: 'credential_missing',
      presented: false,
      expected: 'cookie',
    })),
    NAMES,
    REQUEST,
  );
  t.ok(missing instanceof Promise);
  t.same(await missing, {
    ok: false,
    code: 'SG_ERR_AUTH_MISSING',
    params: { expected: { cookie: 'sg_session' } },
  });
});
