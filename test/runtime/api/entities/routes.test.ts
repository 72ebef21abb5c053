/**
 * `GET /agents|teams|workflows[/{id}]`: the response shapes (null fields
 * dropped), the 404s, and the listing filter of the gateway's `accessible_resource_ids`.
 */
import t from 'tap';
import { BUILTIN_TOOLS } from '../../../../src/runtime/engine/tools.js';
import { contextHeader, DB_ID, runtimeApp } from '../../fixtures/runtime.js';

const MODEL = { name: 'OfflineModel', model: 'offline-echo', provider: 'offline' };

/** A built-in tool as the engine describes it (no `external_execution` key). */
const builtIn = (name: string) => {
  const tool = BUILTIN_TOOLS.find((b) => b.name === name);
  if (tool === undefined) throw new Error(`no built-in tool ${name}`);
  return { name, description: tool.description, parameters: tool.parameters };
};

const A1 = {
  id: 'a1',
  name: 'Agent One',
  db_id: DB_ID,
  description: 'Adds and remembers.',
  is_factory: false,
  is_component: false,
  model: MODEL,
  tools: {
    tools: [
      builtIn('add'),
      builtIn('get_state'),
      builtIn('set_state'),
      {
        name: 'pick_color',
        description: 'Asks the user for a color.',
        parameters: { type: 'object', properties: {} },
        external_execution: true,
      },
    ],
  },
  system_message: { instructions: 'Be brief.' },
};

/** No description, tools or instructions: those keys are absent, not null. */
const A2 = {
  id: 'a2',
  name: 'Agent Two',
  db_id: DB_ID,
  is_factory: false,
  is_component: false,
  model: MODEL,
};

const T1 = {
  id: 't1',
  name: 'Team One',
  db_id: DB_ID,
  description: 'Both agents.',
  is_factory: false,
  is_component: false,
  mode: 'coordinate',
  members: [A1, A2],
};

const T2 = {
  id: 't2',
  name: 'Team Two',
  db_id: DB_ID,
  is_factory: false,
  is_component: false,
  mode: 'broadcast',
  members: [A2],
};

const W1 = {
  id: 'w1',
  name: 'Flow One',
  db_id: DB_ID,
  description: 'Agent then team.',
  is_factory: false,
  is_component: false,
  workflow_agent: false,
  steps: [
    { name: 'first', step_type: 'step', agent: 'a1' },
    { name: 'second', step_type: 'step', team: 't1' },
  ],
};

const W2 = {
  id: 'w2',
  name: 'Flow Two',
  db_id: DB_ID,
  is_factory: false,
  is_component: false,
  workflow_agent: false,
  steps: [{ name: 'only', step_type: 'step', agent: 'a2' }],
};

const FAMILIES = [
  { path: 'agents', label: 'Agent', items: [A1, A2] },
  { path: 'teams', label: 'Team', items: [T1, T2] },
  { path: 'workflows', label: 'Workflow', items: [W1, W2] },
] as const;

t.test('each family lists every entity in configuration order, in full', async (t) => {
  const { app } = runtimeApp(t);
  for (const family of FAMILIES) {
    const res = await app.inject({ url: `/${family.path}` });
    t.equal(res.statusCode, 200, `${family.path}: 200`);
    t.same(res.json(), family.items, `${family.path}: shapes`);
  }
});

t.test('each entity by id, and 404 for an unknown id', async (t) => {
  const { app } = runtimeApp(t);
  for (const family of FAMILIES) {
    for (const item of family.items) {
      const res = await app.inject({ url: `/${family.path}/${item.id}` });
      t.equal(res.statusCode, 200, `${family.path}/${item.id}: 200`);
      t.same(res.json(), item, `${family.path}/${item.id}: shape`);
    }
    for (const id of ['zz', 'A1', 'a1%20']) {
      const res = await app.inject({ url: `/${family.path}/${id}` });
      t.equal(res.statusCode, 404, `${family.path}/${id}: 404`);
      t.same(res.json(), { detail: `${family.label} not found` }, `${family.path}/${id}: detail`);
    }
  }
  const crossed = await app.inject({ url: '/teams/a1' });
  t.same(crossed.json(), { detail: 'Team not found' }, 'an agent id is not a team');
});

t.test('an agent on a configured model shows its model name and provider', async (t) => {
  const { app } = runtimeApp(t, {
    settings: {
      models: [
        {
          id: 'main',
          provider: 'openai-compatible',
          base_url: 'https://llm.example/v1',
          api_key: 'sk-secret-key-123',
          model: 'gpt-4o-mini',
        },
      ],
      agents: [{ id: 'gpt', name: 'GPT', model: 'main' }],
    },
  });
  const res = await app.inject({ url: '/agents/gpt' });
  t.same(res.json()['model'], {
    name: 'OpenAILike',
    model: 'gpt-4o-mini',
    provider: 'openai-compatible',
  });
  t.notMatch(res.body, /sk-secret/, 'the key is not in the response');
});

t.test('an empty catalogue lists nothing', async (t) => {
  const { app } = runtimeApp(t, { settings: {} });
  for (const family of FAMILIES) {
    const res = await app.inject({ url: `/${family.path}` });
    t.equal(res.statusCode, 200);
    t.same(res.json(), [], `${family.path}: []`);
  }
});

t.test('listings keep only accessible_resource_ids; reads by id are not filtered', async (t) => {
  const { app } = runtimeApp(t);
  const rows = [
    {
      name: 'no context header: everything',
      headers: {},
      ids: ['a1', 'a2', 't1', 't2', 'w1', 'w2'],
    },
    {
      name: 'null: everything',
      headers: contextHeader({ accessible_resource_ids: null }),
      ids: ['a1', 'a2', 't1', 't2', 'w1', 'w2'],
    },
    {
      name: 'a list: only those, in catalogue order',
      headers: contextHeader({ accessible_resource_ids: ['w2', 'a2', 't1', 'ghost'] }),
      ids: ['a2', 't1', 'w2'],
    },
    {
      name: 'an empty list: nothing (a listing is filtered, not 403)',
      headers: contextHeader({ accessible_resource_ids: [] }),
      ids: [],
    },
  ];
  for (const row of rows) {
    const ids: string[] = [];
    for (const family of FAMILIES) {
      const res = await app.inject({ url: `/${family.path}`, headers: row.headers });
      t.equal(res.statusCode, 200, `${row.name}: ${family.path} 200`);
      ids.push(...(res.json() as { id: string }[]).map((e) => e.id));
    }
    t.same(ids, row.ids, row.name);
  }
  const one = await app.inject({
    url: '/agents/a1',
    headers: contextHeader({ accessible_resource_ids: [] }),
  });
  t.equal(one.statusCode, 200, 'GET /agents/{id} is the gateway’s to refuse, not filtered here');
  t.same(one.json(), A1);
});
