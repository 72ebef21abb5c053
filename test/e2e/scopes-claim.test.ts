/**
 * End to end: a token from an identity provider that sends its scopes as one space-delimited
 * string (`"scope": "config:read agents:read"`, as Auth0 and Keycloak do) through a real gateway
 * to the recording upstream. With `scopes_claim_delimiter: " "` the string is split and
 * `GET /config` (which needs `config:read`) is forwarded; without it the whole string is one
 * scope and the request is refused before the upstream.
 */
import t from 'tap';
import { assertForwarded, assertRefused, bearer, startPair, yamlOf } from '../fixtures/e2e.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { mintTestToken, TEST_SERVICE_ID } from '../fixtures/tokens.js';

/** A gateway reading scopes from `scope`, with the given delimiter (absent when undefined). */
function config(delimiter?: string | null): string {
  return yamlOf({
    service_id: TEST_SERVICE_ID,
    auth: {
      verification_keys: [RSA_KEY.publicPem],
      algorithm: 'RS256',
      authorization: true,
      scopes_claim: 'scope',
      ...(delimiter === undefined ? {} : { scopes_claim_delimiter: delimiter }),
      service_accounts: { enabled: false },
    },
  });
}

/** An RFC 9068-style access token: `scope` is one space-delimited string. */
function providerToken(): Promise<string> {
  return mintTestToken({ scopes: null, claims: { scope: 'config:read agents:read' } });
}

t.test('" ": a space-delimited scope claim is split, GET /config is forwarded', async (t) => {
  const pair = await startPair(t, { yaml: config(' ') });
  const { context } = await assertForwarded(t, pair, {
    path: '/config',
    headers: bearer(await providerToken()),
  });
  t.same(context.scopes, ['config:read', 'agents:read'], 'the upstream sees the split scopes');
});

const REFUSED = {
  status: 403,
  detail: 'Insufficient permissions. Required scope(s): config:read',
  challenge: 'Bearer realm="scopegate", error="insufficient_scope", scope="config:read"',
};

for (const [name, delimiter] of [
  ['no delimiter (the default)', undefined],
  ['delimiter null', null],
] as const) {
  t.test(`${name}: the string is one scope, GET /config is 403`, async (t) => {
    const pair = await startPair(t, { yaml: config(delimiter) });
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: bearer(await providerToken()) },
      REFUSED,
    );
  });
}
