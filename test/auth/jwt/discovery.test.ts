/**
 * OpenID discovery, pure half: the configuration URL below an issuer however the issuer ends,
 * and the checks a fetched configuration must pass before its jwks_uri is followed.
 */
import t from 'tap';
import { discoveryUrlOf, readDiscovery } from '../../../src/auth/jwt/discovery.js';

t.test('the configuration lives below the issuer, a terminating slash removed', async (t) => {
  const rows: { name: string; issuer: string; want: string }[] = [
    {
      name: 'Auth0 (trailing slash)',
      issuer: 'https://tenant.auth0.com/',
      want: 'https://tenant.auth0.com/.well-known/openid-configuration',
    },
    {
      name: 'Okta custom authorization server',
      issuer: 'https://org.okta.com/oauth2/default',
      want: 'https://org.okta.com/oauth2/default/.well-known/openid-configuration',
    },
    {
      name: 'Keycloak realm',
      issuer: 'https://host/realms/demo',
      want: 'https://host/realms/demo/.well-known/openid-configuration',
    },
    {
      name: 'Entra ID v2',
      issuer: 'https://login.microsoftonline.com/tenant-id/v2.0',
      want: 'https://login.microsoftonline.com/tenant-id/v2.0/.well-known/openid-configuration',
    },
    {
      name: 'a path with a trailing slash',
      issuer: 'https://host/realms/demo/',
      want: 'https://host/realms/demo/.well-known/openid-configuration',
    },
  ];
  for (const row of rows) t.equal(discoveryUrlOf(row.issuer), row.want, row.name);
});

const ISSUER = 'https://idp.example/realms/demo';

t.test('a configuration for this issuer with a usable jwks_uri is followed', async (t) => {
  const rows: { name: string; jwksUri: string }[] = [
    { name: 'https', jwksUri: 'https://idp.example/realms/demo/protocol/openid-connect/certs' },
    { name: 'another https host', jwksUri: 'https://keys.idp.example/jwks' },
    { name: 'http on loopback', jwksUri: 'http://127.0.0.1:8080/jwks' },
  ];
  for (const row of rows) {
    const text = JSON.stringify({ issuer: ISSUER, jwks_uri: row.jwksUri, other: [1, 2] });
    t.same(readDiscovery(text, ISSUER), { ok: true, jwksUri: row.jwksUri }, row.name);
  }
});

t.test('a configuration that fails a check is refused, with the reason', async (t) => {
  const long = `https://evil.example/${'x'.repeat(300)}`;
  const rows: { name: string; text: string; reason: string }[] = [
    { name: 'not JSON', text: '<html>', reason: 'not JSON' },
    { name: 'a list', text: '[]', reason: 'not a JSON object' },
    { name: 'null', text: 'null', reason: 'not a JSON object' },
    { name: 'a string', text: '"x"', reason: 'not a JSON object' },
    {
      name: 'another issuer',
      text: JSON.stringify({ issuer: 'https://evil.example/', jwks_uri: 'https://e/k' }),
      reason: `its issuer "https://evil.example/" is not auth.issuer "${ISSUER}"`,
    },
    {
      name: 'the issuer with a trailing slash added',
      text: JSON.stringify({ issuer: `${ISSUER}/`, jwks_uri: 'https://e/k' }),
      reason: `its issuer "${ISSUER}/" is not auth.issuer "${ISSUER}"`,
    },
    {
      name: 'the issuer in another case',
      text: JSON.stringify({ issuer: ISSUER.toUpperCase(), jwks_uri: 'https://e/k' }),
      reason: `its issuer "${ISSUER.toUpperCase()}" is not auth.issuer "${ISSUER}"`,
    },
    {
      name: 'no issuer',
      text: JSON.stringify({ jwks_uri: 'https://e/k' }),
      reason: `its issuer (missing) is not auth.issuer "${ISSUER}"`,
    },
    {
      name: 'an issuer that is not a string',
      text: JSON.stringify({ issuer: [ISSUER], jwks_uri: 'https://e/k' }),
      reason: `its issuer (not a string) is not auth.issuer "${ISSUER}"`,
    },
    {
      name: 'a very long issuer is cut in the reason',
      text: JSON.stringify({ issuer: long, jwks_uri: 'https://e/k' }),
      reason: `its issuer "${long.slice(0, 200)}…" is not auth.issuer "${ISSUER}"`,
    },
    { name: 'no jwks_uri', text: JSON.stringify({ issuer: ISSUER }), reason: 'no jwks_uri' },
    {
      name: 'an empty jwks_uri',
      text: JSON.stringify({ issuer: ISSUER, jwks_uri: '' }),
      reason: 'no jwks_uri',
    },
    {
      name: 'a jwks_uri that is not a string',
      text: JSON.stringify({ issuer: ISSUER, jwks_uri: 5 }),
      reason: 'no jwks_uri',
    },
    {
      name: 'a clear-text jwks_uri off this machine',
      text: JSON.stringify({ issuer: ISSUER, jwks_uri: 'http://idp.example/jwks' }),
      reason:
        'jwks_uri "http://idp.example/jwks" is not an https:// URL (http:// only for a loopback host)',
    },
    {
      name: 'a relative jwks_uri',
      text: JSON.stringify({ issuer: ISSUER, jwks_uri: '/jwks' }),
      reason: 'jwks_uri "/jwks" is not an https:// URL (http:// only for a loopback host)',
    },
  ];
  for (const row of rows) {
    t.same(readDiscovery(row.text, ISSUER), { ok: false, reason: row.reason }, row.name);
  }
});
