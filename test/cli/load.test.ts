/**
 * The bundled runtime's settings from a loaded config: the gateway's A2A prefix travels with
 * them unless the runtime section names its own, and so does how the gateway authenticates.
 */
import t from 'tap';
import { runtimeSettingsOf } from '../../src/cli/load.js';
import { parseConfig } from '../../src/config/load.js';

const settingsOf = (text: string) =>
  runtimeSettingsOf(
    parseConfig(`auth: { security_key: k }\n${text}`, '/x/gateway.yaml', { env: {} }).config,
  );

t.test('the runtime gets the gateway a2a.prefix unless it sets a2a_prefix', async (t) => {
  t.match(settingsOf(''), { a2a_prefix: '/a2a' }, 'the default prefix');
  t.match(settingsOf('a2a: { prefix: /api/a2a }\nruntime: { os_id: x }'), {
    os_id: 'x',
    a2a_prefix: '/api/a2a',
  });
  t.match(
    settingsOf('a2a: { prefix: /api/a2a }\nruntime: { a2a_prefix: /own }'),
    { a2a_prefix: '/own' },
    "the runtime's own wins",
  );
});

t.test("the runtime's auth_mode says how the gateway authenticates (GET /info)", async (t) => {
  const rows = [
    { yaml: 'auth: { verification_keys: [secret-secret-secret-secret] }', mode: 'jwt' },
    { yaml: 'auth: { dev_keys: keys.json, algorithm: ES256 }', mode: 'jwt' },
    { yaml: 'auth: { security_key: a-static-key-of-some-length }', mode: 'security_key' },
    { yaml: 'auth: { internal_service_token: tok-tok-tok-tok-tok-tok }', mode: 'none' },
    {
      yaml: 'auth: { dev_keys: k.json, algorithm: ES256 }\nruntime: { auth_mode: none }',
      mode: 'none',
    },
  ];
  for (const row of rows) {
    const config = parseConfig(row.yaml, '/x/gateway.yaml', { env: {} }).config;
    t.match(runtimeSettingsOf(config), { auth_mode: row.mode }, row.yaml);
  }
});
