/**
 * Model resolution: provider `offline` is the offline model; any other provider is unknown.
 */
import t from 'tap';
import { offlineModel } from '../../../src/runtime/model/offline.js';
import { resolveModel } from '../../../src/runtime/model/resolve.js';

t.test('provider offline resolves to the offline model, whatever the id', async (t) => {
  t.equal(resolveModel({ id: 'offline-echo', provider: 'offline' }), offlineModel);
  t.equal(resolveModel({ id: 'custom', provider: 'offline' }), offlineModel);
});

t.test('an unknown provider resolves to null', async (t) => {
  t.equal(resolveModel({ id: 'gpt', provider: 'openai-compatible' }), null);
});
