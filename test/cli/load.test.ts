/**
 * The bundled runtime's settings from a loaded config: the gateway's A2A prefix travels with
 * them unless the runtime section names its own.
 */
import t from 'tap';
import { runtimeSettingsOf } from '../../src/cli/load.js';
import { parseConfig } from '../../src/config/load.js';

const settingsOf = (text: string) =>
  runtimeSettingsOf(
    parseConfig(`auth: { security_key: k }\n${text}`, '/x/gateway.yaml', { env: {} }).config,
  );

t.test('the runtime gets the gateway a2a.prefix unless it sets a2a_prefix', async (t) => {
  t.same(settingsOf(''), { a2a_prefix: '/a2a' }, 'the default prefix');
  t.same(settingsOf('a2a: { prefix: /api/a2a }\nruntime: { os_id: x }'), {
    os_id: 'x',
    a2a_prefix: '/api/a2a',
  });
  t.same(
    settingsOf('a2a: { prefix: /api/a2a }\nruntime: { a2a_prefix: /own }'),
    { a2a_prefix: '/own' },
    "the runtime's own wins",
  );
});
