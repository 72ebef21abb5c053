/**
 * Model resolution: provider `offline` is the offline model; a configured `openai-compatible`
 * model is built once per settings object; any other provider is unknown.
 */
import t from 'tap';
import { offlineModel } from '../../../src/runtime/model/offline.js';
import { OPENAI_COMPATIBLE_NAME } from '../../../src/runtime/model/openai-compatible.js';
import { resolveModel } from '../../../src/runtime/model/resolve.js';
import { chatSettings } from './fixtures/chat-server.js';

t.test('provider offline resolves to the offline model, whatever the id', async (t) => {
  t.equal(resolveModel({ id: 'offline-echo', provider: 'offline' }), offlineModel);
  t.equal(resolveModel({ id: 'custom', provider: 'offline' }), offlineModel);
});

t.test('a configured openai-compatible model is built once per settings object', async (t) => {
  const settings = chatSettings('http://127.0.0.1:9');
  const ref = { id: settings.model, provider: settings.provider, settings };
  const model = resolveModel(ref);
  t.match(model, { id: 'gpt-test', provider: 'openai-compatible', name: OPENAI_COMPATIBLE_NAME });
  t.equal(resolveModel({ ...ref }), model, 'the same settings, the same model (and pool)');
  t.not(resolveModel({ ...ref, settings: { ...settings } }), model, 'other settings, another');
});

t.test(
  'an unknown provider, or openai-compatible without settings, resolves to null',
  async (t) => {
    t.equal(resolveModel({ id: 'gpt', provider: 'openai-compatible' }), null);
    t.equal(resolveModel({ id: 'claude', provider: 'anthropic' }), null);
    t.equal(
      resolveModel({ id: 'gpt', provider: 'other', settings: chatSettings('http://x') }),
      null,
    );
  },
);
