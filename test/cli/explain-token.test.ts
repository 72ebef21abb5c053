/**
 * `scopegate explain --token`: the token is verified by the auth chain `serve` builds from the
 * same config (a static JWKS file, a remote JWKS, the development key), its claims, scopes and
 * principal are printed (never the token), then the decision; exit 0 allow, 1 deny, 2 usage.
 */
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { runCli } from '../fixtures/cli.js';
import { startJwksServer } from '../fixtures/jwks-server.js';
import { RSA_KEY, RSA_KEY_2 } from '../fixtures/keys.js';
import {
  expiredToken,
  goodToken,
  malformedToken,
  noKidToken,
  notYetValidToken,
  unknownKidToken,
  wrongAudienceToken,
  wrongKeyToken,
  type TokenOptions,
} from '../fixtures/tokens.js';

/** The CLI verifies on the real clock: tokens are minted around the real now. */
const now = (): TokenOptions => ({ now: Math.floor(Date.now() / 1000) });

/** A config verifying RS256 tokens for `scopegate-test` with keys from `jwks.json`. */
function jwksFileConfig(t: Test, extra = ''): string {
  const dir = t.testdir({
    'gateway.yaml': [
      'service_id: scopegate-test',
      'auth:',
      '  algorithm: RS256',
      '  jwks_file: jwks.json',
      '  authorization: true',
      '  verify_audience: true',
      '  scopes_claim: scope',
      '  scopes_claim_delimiter: " "',
      extra,
    ].join('\n'),
    'jwks.json': JSON.stringify({ keys: [RSA_KEY.publicJwk] }),
  });
  return join(dir, 'gateway.yaml');
}

/** `scope` as Auth0 or Keycloak send it: one space-delimited string. */
const idpScopes = (scope: string): TokenOptions => ({ ...now(), claims: { scope }, scopes: null });

t.test('each token is verified, then decided', async (t) => {
  const config = jwksFileConfig(t);
  const rows: {
    name: string;
    token: () => Promise<string> | string;
    request: [string, string];
    code: number;
    out: RegExp[];
    absent?: RegExp[];
  }[] = [
    {
      name: 'a valid token with a space-delimited scope claim is allowed',
      token: () => goodToken(idpScopes('config:read agents:read')),
      request: ['GET', '/config'],
      code: 0,
      out: [
        /^token {6}valid$/m,
        /^header {5}alg RS256, kid rsa-1$/m,
        /^claims {5}\{.*"scope":"config:read agents:read".*"aud":"scopegate-test".*\}$/m,
        /^scopes {5}config:read agents:read$/m,
        /^principal {2}jwt user-1$/m,
        /^required {3}config:read$/m,
        /^decision {3}allow \(scopes_satisfied\)$/m,
        /✓ config:read satisfied by config:read \(global scope\)/,
      ],
      absent: [/^caller/m],
    },
    {
      name: 'a valid token without the scope is denied 403, exit 1',
      token: () => goodToken(idpScopes('agents:read')),
      request: ['GET', '/config'],
      code: 1,
      out: [
        /^token {6}valid$/m,
        /^decision {3}deny 403 \(insufficient_scope\): .*config:read$/m,
        /✗ config:read not satisfied/,
      ],
    },
    {
      name: 'an expired token is 401 with the reason',
      token: () => expiredToken(idpScopes('config:read')),
      request: ['GET', '/config'],
      code: 1,
      out: [
        /^token {6}invalid: token_expired \(SG_ERR_AUTH_TOKEN_EXPIRED\): /m,
        /^claims {5}\{.*"exp":\d+.*\}$/m,
        /^decision {3}deny 401 \(token_expired\): /m,
      ],
      absent: [/^scopes/m, /^principal/m, /^required/m],
    },
    {
      name: 'a token for another audience is 401 with the reason',
      token: () => wrongAudienceToken(idpScopes('config:read')),
      request: ['GET', '/config'],
      code: 1,
      out: [
        /^token {6}invalid: audience_mismatch \(SG_ERR_AUTH_AUDIENCE_MISMATCH\): /m,
        /^claims {5}\{.*"aud":"someone-else".*\}$/m,
        /^decision {3}deny 401 \(audience_mismatch\): /m,
      ],
    },
    {
      name: 'a token not valid yet is 401',
      token: () => notYetValidToken(idpScopes('config:read')),
      request: ['GET', '/config'],
      code: 1,
      out: [/^token {6}invalid: token_not_yet_valid /m, /^decision {3}deny 401 /m],
    },
    {
      name: 'a token signed by another key is a bad signature',
      token: () => wrongKeyToken(idpScopes('config:read')),
      request: ['GET', '/config'],
      code: 1,
      out: [/^token {6}invalid: signature_invalid /m, /^decision {3}deny 401 /m],
    },
    {
      name: 'a token without kid, where keys are chosen by kid, is an unknown key',
      token: () => noKidToken(idpScopes('config:read')),
      request: ['GET', '/config'],
      code: 1,
      out: [
        /^token {6}invalid: key_unknown /m,
        /^header {5}alg RS256, no kid$/m,
        /^decision {3}deny 401 /m,
      ],
    },
    {
      name: 'a token that is no JWT has no claims to show',
      token: () => malformedToken(),
      request: ['GET', '/config'],
      code: 1,
      out: [/^token {6}invalid: token_malformed /m, /^decision {3}deny 401 /m],
      absent: [/^claims/m, /^header/m],
    },
    {
      name: 'an excluded route needs no credential, whatever the token',
      token: () => expiredToken(now()),
      request: ['GET', '/health'],
      code: 0,
      out: [/^token {6}invalid: token_expired /m, /^decision {3}allow \(excluded_route\)$/m],
    },
  ];
  for (const row of rows) {
    const token = await row.token();
    const r = await runCli(['explain', '--config', config, ...row.request, '--token', token]);
    t.equal(r.code, row.code, `${row.name}: exit code`);
    for (const expected of row.out) t.match(r.out, expected, row.name);
    for (const unexpected of row.absent ?? []) t.notMatch(r.out, unexpected, row.name);
    t.notOk(r.out.includes(token) || r.err.includes(token), `${row.name}: token never printed`);
    const signature = token.split('.')[2];
    if (signature !== undefined && signature.length > 8)
      t.notOk(r.out.includes(signature), `${row.name}: signature never printed`);
  }
});

t.test('keys from auth.jwks_url are fetched; an unknown kid is named', async (t) => {
  const idp = await startJwksServer(t, [RSA_KEY_2.publicJwk]);
  const dir = t.testdir({
    'gateway.yaml': [
      'service_id: scopegate-test',
      'auth:',
      '  algorithm: RS256',
      `  jwks_url: ${idp.url}`,
      '',
    ].join('\n'),
  });
  const config = join(dir, 'gateway.yaml');
  const valid = await goodToken({ ...now(), key: RSA_KEY_2.privateKey });
  const ok = await runCli(['explain', '--config', config, 'GET', '/agents', '--token', valid]);
  t.equal(ok.code, 0);
  t.match(ok.out, /^token {6}valid$/m);
  t.match(ok.out, /^scopes {5}agents:read teams:run$/m);
  t.ok(idp.requests >= 1, 'the JWKS was fetched');
  const unknown = await unknownKidToken(now());
  const refused = await runCli([
    'explain',
    '--config',
    config,
    'GET',
    '/agents',
    '--token',
    unknown,
  ]);
  t.equal(refused.code, 1);
  t.match(refused.out, /^token {6}invalid: key_unknown \(SG_ERR_AUTH_KEY_UNKNOWN\): /m);
  t.match(refused.out, /^header {5}alg RS256, kid no-such-kid$/m);
  idp.fail(500);
  const down = await runCli(['explain', '--config', config, 'GET', '/agents', '--token', valid]);
  t.equal(down.code, 1);
  t.match(down.err, /^warning: .*auth\.jwks_url/m);
});

t.test('a token minted by `scopegate token` passes with the development key', async (t) => {
  const dir = t.testdir({
    'gateway.yaml': 'auth:\n  algorithm: ES256\n  dev_keys: keys/dev.json\n  authorization: true\n',
  });
  const config = join(dir, 'gateway.yaml');
  const minted = await runCli(['token', '--config', config, '--sub', 'ops', '--scopes', 'x:read']);
  t.equal(minted.code, 0);
  const token = minted.out.trim();
  const r = await runCli(['explain', '--config', config, 'GET', '/config', '--token', token]);
  t.equal(r.code, 1);
  t.match(r.out, /^token {6}valid$/m);
  t.match(r.out, /^principal {2}jwt ops$/m);
  t.match(r.out, /^decision {3}deny 403 /m);
  const bare = 'x.' + Buffer.from('"a string"').toString('base64url') + '.y';
  const odd = await runCli(['explain', '--config', config, 'GET', '/config', '--token', bare]);
  t.equal(odd.code, 1);
  t.notMatch(odd.out, /^claims/m, 'a payload that is no JSON object is not shown');
});

t.test('the security key is a principal without a user id', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': 'auth:\n  security_key: a-long-enough-root-key\n' });
  const config = join(dir, 'gateway.yaml');
  const key = 'a-long-enough-root-key';
  const r = await runCli(['explain', '--config', config, 'GET', '/config', '--token', key]);
  t.match(r.out, /^token {6}valid$/m);
  t.match(r.out, /^scopes {5}\(none\)$/m);
  t.match(r.out, /^principal {2}security_key \(no user id\)$/m);
  t.notMatch(r.out, /^claims/m);
  t.notOk(r.out.includes(key), 'the key is never printed');
});

t.test('usage and config errors', async (t) => {
  const config = jwksFileConfig(t);
  const both = await runCli([
    'explain',
    '--config',
    config,
    'GET',
    '/x',
    '--token',
    'a',
    '--scopes',
    'b',
  ]);
  t.equal(both.code, 2);
  t.match(both.err, /^scopegate explain: give --scopes or --token, not both$/m);
  t.match(both.err, /usage: scopegate explain/);
  t.equal(both.out, '');
  const missing = await runCli([
    'explain',
    '--config',
    join(config, '..', 'nope.yaml'),
    'GET',
    '/x',
    '--token',
    'a',
  ]);
  t.equal(missing.code, 1);
  const brokenDir = t.testdir({
    'gateway.yaml': 'auth:\n  algorithm: RS256\n  jwks_file: missing.json\n',
  });
  const broken = join(brokenDir, 'gateway.yaml');
  const unusable = await runCli(['explain', '--config', broken, 'GET', '/x', '--token', 'a']);
  t.equal(unusable.code, 1);
  t.match(unusable.err, /invalid \(\d+ problems?\)$/m);
  const help = await runCli(['explain', '--help']);
  t.equal(help.code, 0);
  t.match(help.out, /--token JWT/);
  t.match(help.out, /Exit 0 allow, 1 deny, 2 usage error/);
});
