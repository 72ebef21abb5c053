/**
 * The component store on the query layer, on a real SQLite file and on PostgreSQL: configs keyed
 * by component and version, a replace keeping `created_at`, a transaction on the tables it is
 * given rolled back by a throw, the live catalogue reading the stored components again after a
 * failed read, and a closed store answering the component routes with a 500, never a 200.
 */
import t from 'tap';
import type {
  ComponentConfigRecord,
  ComponentRecord,
} from '../../../../src/runtime/api/components/table.js';
import { liveCatalogueOf } from '../../../../src/runtime/catalogue/live.js';
import { buildCatalogue } from '../../../../src/runtime/catalogue/resolve.js';
import type { RuntimeSettings } from '../../../../src/runtime/catalogue/definitions.js';
import { call, runtimeApp, SETTINGS } from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';

const component = (id: string, fields: Partial<ComponentRecord> = {}): ComponentRecord => ({
  component_id: id,
  component_type: 'agent',
  name: id,
  description: null,
  current_version: null,
  metadata: { tag: id },
  created_at: 100,
  updated_at: 100,
  ...fields,
});

const config = (id: string, version: number, fields: Partial<ComponentConfigRecord> = {}) => ({
  component_id: id,
  version,
  label: null,
  stage: 'draft' as const,
  config: { instructions: `v${version}` },
  notes: null,
  created_at: 100,
  updated_at: 100,
  ...fields,
});

eachStore(
  t,
  'components and configs: keys, order, replace keeps created_at, rollback',
  async (t, stores) => {
    const store = await stores.open();
    const { components } = store;
    await components.put(component('b', { created_at: 100 }));
    await components.put(component('a', { created_at: 100, component_type: 'team' }));
    await components.put(component('c', { created_at: 300 }));
    await components.put(component('c', { created_at: 999, name: 'renamed', updated_at: 400 }));
    t.same(
      await components.get('c'),
      component('c', { created_at: 300, name: 'renamed', updated_at: 400 }),
    );
    t.same(
      (await components.all()).map((c) => c.component_id),
      ['a', 'b', 'c'],
      'oldest first',
    );
    const page = await components.list(null, 1, 10);
    t.same(
      [page.rows.map((c) => c.component_id), page.total],
      [['c', 'a', 'b'], 3],
      'newest first',
    );
    const teams = await components.list('team', 1, 10);
    t.same([teams.rows.map((c) => c.component_id), teams.total], [['a'], 1], 'of one type');

    await components.putConfig(config('b', 2));
    await components.putConfig(config('b', 1));
    await components.putConfig(
      config('b', 2, { created_at: 999, notes: 'again', updated_at: 500 }),
    );
    t.same(
      (await components.configs('b')).map((c) => c.version),
      [1, 2],
      'by version',
    );
    t.same(await components.config('b', 2), config('b', 2, { notes: 'again', updated_at: 500 }));
    t.equal(await components.config('b', 3), null);
    t.equal(await components.deleteConfig('b', 1), true);
    t.equal(await components.deleteConfig('b', 1), false);

    await t.rejects(
      components.transaction(async (tables) => {
        await tables.put(component('d'));
        t.same(await tables.get('d'), component('d'), 'seen inside');
        throw new Error('abort');
      }),
      new Error('abort'),
    );
    t.equal(await components.get('d'), null, 'rolled back');
    t.equal(await components.delete('b'), true);
    t.same(await components.configs('b'), [], 'its configs went with it');
  },
);

eachStore(
  t,
  'the live catalogue reads the stored components again after a failed read',
  async (t, stores) => {
    const store = await stores.open();
    const settings = buildCatalogue(SETTINGS).settings as RuntimeSettings;
    let fail = true;
    const live = liveCatalogueOf(settings, {
      ...store.components,
      all: async () => {
        if (fail) throw new Error('unreadable');
        return store.components.all();
      },
    });
    await t.rejects(live.load(), new Error('unreadable'));
    fail = false;
    await live.load();
    await live.load();
    t.same(live.skipped, [], 'loaded once it could be read');
  },
);

eachStore(t, 'a closed store: the component routes answer 500, never a 200', async (t, stores) => {
  const rt = runtimeApp(t, { store: await stores.open() });
  await rt.store.close();
  const rows: [name: string, url: string][] = [
    ['GET /components', '/components'],
    ['GET /components/{id}', '/components/c1'],
    ['GET /components/{id}/configs', '/components/c1/configs'],
    ['GET /components/{id}/configs/current', '/components/c1/configs/current'],
    ['GET /components/{id}/configs/{version}', '/components/c1/configs/1'],
    ['GET /agents', '/agents'],
  ];
  for (const [name, url] of rows) {
    t.same(
      await call(rt, 'GET', url),
      { status: 500, body: { detail: 'Internal runtime error' } },
      name,
    );
  }
});
