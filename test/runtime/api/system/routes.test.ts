/**
 * The runtime's own description: /info, /config, /models, /registry and the
 * database migrations.
 */
import t from 'tap';
import { MIGRATIONS } from '../../../../src/runtime/store/migrations.js';
import { DB_ID, runtimeApp, SETTINGS } from '../../fixtures/runtime.js';

const OFFLINE = { id: 'offline-echo', provider: 'offline' };

t.test('GET /info counts the configured entities and says how callers authenticate', async (t) => {
  const rt = runtimeApp(t, { settings: { ...SETTINGS, name: 'Demo OS', auth_mode: 'jwt' } });
  const res = await rt.app.inject({ url: '/info' });
  t.equal(res.statusCode, 200);
  t.same(res.json(), {
    os_id: 'route-tests',
    name: 'Demo OS',
    agno_version: '2.7.2',
    agent_count: 2,
    team_count: 2,
    workflow_count: 2,
    mcp: { enabled: false, path: null, oauth: null },
    auth_mode: 'jwt',
  });
  const plain = runtimeApp(t, { settings: { agents: [] } });
  t.match((await plain.app.inject({ url: '/info' })).json(), {
    name: null,
    agent_count: 0,
    auth_mode: 'none',
  });
});

t.test('GET /models: the unique models of agents and team members', async (t) => {
  const rt = runtimeApp(t);
  t.same((await rt.app.inject({ url: '/models' })).json(), [OFFLINE]);
});

t.test('GET /config: databases, domains, entities and interfaces', async (t) => {
  const rt = runtimeApp(t, { settings: { ...SETTINGS, name: 'Demo OS' } });
  await rt.app.inject({
    method: 'POST',
    url: '/workflows',
    payload: { name: 'made', config: { steps: [{ name: 's', agent: 'a2' }] } },
  });
  const config = (await rt.app.inject({ url: '/config' })).json() as Record<string, unknown>;
  t.match(config, {
    os_id: 'route-tests',
    description: 'Demo OS',
    available_models: ['offline-echo'],
    os_database: DB_ID,
    databases: [DB_ID],
    session: {
      dbs: [{ db_id: DB_ID, domain_config: { display_name: DB_ID }, tables: ['agno_sessions'] }],
    },
    knowledge: {
      dbs: [{ db_id: DB_ID, tables: ['agno_knowledge'] }],
      knowledge_instances: [{ name: 'knowledge', db_id: DB_ID, table: 'agno_knowledge' }],
    },
    agents: [
      { id: 'a1', name: 'Agent One', description: 'Adds and remembers.', model: OFFLINE },
      { id: 'a2', name: 'Agent Two', db_id: DB_ID },
    ],
    teams: [
      { id: 't1', mode: 'coordinate', model: OFFLINE },
      { id: 't2', mode: 'broadcast' },
    ],
    workflows: [
      { id: 'w1', description: 'Agent then team.', is_component: false },
      { id: 'w2', is_component: false },
      { id: 'made', is_component: true },
    ],
    interfaces: [
      { type: 'agui', version: '1.0', route: '' },
      { type: 'a2a', version: '1.0', route: '/a2a' },
    ],
  });
  t.notOk('description' in ((config['agents'] as object[])[1] as object), 'null fields dropped');
  const bare = runtimeApp(t, { settings: { agents: [] } });
  const empty = (await bare.app.inject({ url: '/config' })).json() as Record<string, unknown>;
  t.notOk('description' in empty);
  t.same(empty['interfaces'], [{ type: 'a2a', version: '1.0', route: '/a2a' }], 'no AG-UI');
  t.same(empty['available_models'], []);
});

t.test('GET /registry: tools, models, the database, agents and teams, paginated', async (t) => {
  const rt = runtimeApp(t);
  const all = (await rt.app.inject({ url: '/registry?limit=100' })).json() as {
    data: { name: string; type: string }[];
    meta: Record<string, number>;
  };
  t.same([...new Set(all.data.map((e) => e.type))], ['tool', 'model', 'db', 'agent', 'team']);
  t.equal(all.meta['total_count'], all.data.length);
  const tools = (await rt.app.inject({ url: '/registry?resource_type=tool&name=STATE' })).json();
  t.match(tools, {
    data: [
      { name: 'get_state', type: 'tool' },
      { name: 'set_state', type: 'tool' },
    ],
    meta: { page: 1, limit: 20, total_pages: 1, total_count: 2, search_time_ms: 0 },
  });
  const page = (await rt.app.inject({ url: '/registry?limit=2&page=2' })).json() as {
    data: unknown[];
  };
  t.equal(page.data.length, 2);
  t.equal((await rt.app.inject({ url: '/registry?limit=0' })).statusCode, 422);
});

t.test(
  'database migrations: to the latest version; other targets and databases refused',
  async (t) => {
    const rt = runtimeApp(t);
    const latest = MIGRATIONS.length;
    const rows = [
      {
        url: '/databases/all/migrate',
        status: 200,
        body: { message: 'All databases migrated successfully to latest version' },
      },
      {
        url: `/databases/all/migrate?target_version=${latest}`,
        status: 200,
        body: { message: `All databases migrated successfully to version ${latest}` },
      },
      {
        url: `/databases/${DB_ID}/migrate`,
        status: 200,
        body: { message: 'Database migrated successfully to latest version' },
      },
      {
        url: '/databases/all/migrate?target_version=1',
        status: 400,
        body: {
          detail: `Unsupported target_version '1': this runtime migrates to version ${latest} only`,
        },
      },
      {
        url: '/databases/other/migrate',
        status: 404,
        body: { detail: "No database found with id 'other'" },
      },
    ];
    for (const row of rows) {
      const res = await rt.app.inject({ method: 'POST', url: row.url });
      t.equal(res.statusCode, row.status, row.url);
      t.same(res.json(), row.body, row.url);
    }
    const form = await rt.app.inject({
      method: 'POST',
      url: `/databases/${DB_ID}/migrate`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `target_version=${latest}`,
    });
    t.same(form.json(), { message: `Database migrated successfully to version ${latest}` });
    const emptyTarget = await rt.app.inject({
      method: 'POST',
      url: '/databases/all/migrate?target_version=',
    });
    t.equal(emptyTarget.statusCode, 200);
    const numeric = await rt.app.inject({
      method: 'POST',
      url: '/databases/all/migrate',
      headers: { 'content-type': 'application/json' },
      payload: { target_version: 3 },
    });
    t.equal(numeric.statusCode, 200, 'a non-string field is not a target');
  },
);
