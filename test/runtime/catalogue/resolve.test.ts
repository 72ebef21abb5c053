import t from 'tap';
import { buildCatalogue } from '../../../src/runtime/catalogue/resolve.js';
import { BUILTIN_TOOLS } from '../../../src/runtime/engine/tools.js';

t.test('an empty section is an empty catalogue with defaults', async (t) => {
  for (const raw of [undefined, null, {}]) {
    const r = buildCatalogue(raw);
    t.same(r.problems, []);
    t.equal(r.catalogue?.agents.size, 0);
    t.equal(r.settings?.db, 'data/runtime.db');
    t.equal(r.settings?.os_id, 'scopegate-runtime');
    t.equal(r.settings?.a2a_prefix, '/a2a');
  }
});

t.test('a2a_prefix follows the gateway rule for a2a.prefix', async (t) => {
  for (const prefix of ['/a2a', '/api/a2a', '/x.y']) {
    t.equal(buildCatalogue({ a2a_prefix: prefix }).settings?.a2a_prefix, prefix, prefix);
  }
  for (const prefix of ['', 'a2a', '/a2a/', '/a b', '/..', '/a%2F', 5]) {
    const r = buildCatalogue({ a2a_prefix: prefix });
    t.same(
      r.problems,
      [
        'runtime.a2a_prefix: must be a path of one or more /segments (like /a2a): no trailing ' +
          'slash, no whitespace, no ?#%*{};\\ characters, no . or .. segments',
      ],
      JSON.stringify(prefix),
    );
  }
});

t.test('agents, teams and workflows are resolved', async (t) => {
  const r = buildCatalogue({
    agents: [
      {
        id: 'a1',
        name: 'A',
        tools: ['echo', 'add', { name: 'pick', description: 'client', external_execution: true }],
      },
      {
        id: 'a2',
        name: 'B',
        description: 'd',
        instructions: 'be brief',
        model: { id: 'm', provider: 'offline' },
      },
    ],
    teams: [{ id: 't1', name: 'T', members: ['a1', 'a2'] }],
    workflows: [
      {
        id: 'w1',
        name: 'W',
        steps: [
          { name: 's1', agent: 'a1' },
          { name: 's2', team: 't1' },
        ],
      },
    ],
  });
  t.same(r.problems, []);
  const a1 = r.catalogue?.agents.get('a1');
  t.same(
    a1?.tools.map((tool) => tool.name),
    ['echo', 'add', 'pick'],
  );
  t.equal(a1?.tools[0]?.description, BUILTIN_TOOLS.find((b) => b.name === 'echo')?.description);
  t.equal(a1?.tools[2]?.external_execution, true);
  t.same(a1?.model, { id: 'offline-echo', provider: 'offline' });
  t.equal(a1?.description, null);
  t.equal(r.catalogue?.agents.get('a2')?.instructions, 'be brief');
  t.same(r.catalogue?.agents.get('a2')?.model, { id: 'm', provider: 'offline' });
  t.same(
    r.catalogue?.teams.get('t1')?.members.map((m) => m.id),
    ['a1', 'a2'],
  );
  t.equal(r.catalogue?.teams.get('t1')?.mode, 'coordinate');
  const w1 = r.catalogue?.workflows.get('w1');
  t.same(
    w1?.steps.map((s) => [s.name, s.executor.kind, s.executor.id]),
    [
      ['s1', 'agent', 'a1'],
      ['s2', 'team', 't1'],
    ],
  );
});

t.test('every dangling reference and duplicate is reported', async (t) => {
  const r = buildCatalogue({
    agents: [
      { id: 'a1', name: 'A', tools: ['nope'] },
      { id: 'a1', name: 'again' },
    ],
    teams: [
      { id: 't1', name: 'T', members: ['ghost'] },
      { id: 't1', name: 'T2', members: ['a1'] },
    ],
    workflows: [
      {
        id: 'w1',
        name: 'W',
        steps: [
          { name: 's', agent: 'ghost' },
          { name: 'u', team: 'nobody' },
        ],
      },
      { id: 'w1', name: 'W2', steps: [{ name: 's', agent: 'a1' }] },
    ],
  });
  t.equal(r.catalogue, null);
  t.same(r.problems, [
    'runtime.agents.0.tools.0: unknown built-in tool "nope" (known: echo, add, get_state, set_state, fail)',
    'runtime.agents.1.id: duplicate agent id "a1"',
    'runtime.teams.0.members.0: no agent "ghost"',
    'runtime.teams.1.id: duplicate team id "t1"',
    'runtime.workflows.0.steps.0: no agent "ghost"',
    'runtime.workflows.0.steps.1: no team "nobody"',
    'runtime.workflows.1.id: duplicate workflow id "w1"',
  ]);
});

t.test('a malformed section names each key', async (t) => {
  const r = buildCatalogue({ agents: [{ id: '_bad', name: '' }], colour: 'red' });
  t.equal(r.catalogue, null);
  t.equal(r.settings, null);
  t.match(r.problems.join('\n'), /runtime\.agents\.0\.id: ids are/);
  t.match(r.problems.join('\n'), /runtime\.agents\.0\.name: /);
  t.match(r.problems.join('\n'), /^runtime: Unrecognized key.*colour/m);
});

const MODEL = {
  id: 'main',
  provider: 'openai-compatible',
  base_url: 'https://llm.example/v1',
  api_key: 'sk-secret-key-123',
  model: 'gpt-4o-mini',
};

t.test('agents name a runtime.models entry by id, or the offline model', async (t) => {
  const r = buildCatalogue({
    models: [MODEL, { ...MODEL, id: 'local', base_url: 'http://localhost:11434/v1', api_key: '' }],
    agents: [
      { id: 'none', name: 'N' },
      { id: 'offline', name: 'O', model: 'offline-echo' },
      { id: 'empty', name: 'E', model: {} },
      { id: 'by-id', name: 'I', model: 'main' },
      { id: 'by-object', name: 'J', model: { id: 'local' } },
      { id: 'by-pair', name: 'K', model: { id: 'main', provider: 'openai-compatible' } },
    ],
  });
  t.same(r.problems, []);
  const model = (id: string) => r.catalogue?.agents.get(id)?.model;
  const offline = { id: 'offline-echo', provider: 'offline' };
  t.same([model('none'), model('offline'), model('empty')], [offline, offline, offline]);
  t.match(model('by-id'), {
    id: 'gpt-4o-mini',
    provider: 'openai-compatible',
    settings: { ...MODEL, headers: {}, timeout_ms: 120_000 },
  });
  t.equal(model('by-pair')?.settings, model('by-id')?.settings, 'one settings object per model');
  t.match(model('by-object'), { id: 'gpt-4o-mini', settings: { id: 'local', api_key: '' } });
  t.ok(Object.isFrozen(model('by-id')?.settings));
  t.ok(Object.isFrozen(model('by-id')?.settings?.headers));
});

t.test('an unknown model, a wrong provider or a clashing model id is a problem', async (t) => {
  const r = buildCatalogue({
    models: [MODEL, { ...MODEL }, { ...MODEL, id: 'offline-echo' }],
    agents: [
      { id: 'a', name: 'A', model: 'gpt-5' },
      { id: 'b', name: 'B', model: { id: 'main', provider: 'anthropic' } },
      { id: 'c', name: 'C', model: { id: 'nope', provider: 'openai-compatible' } },
      { id: 'd', name: 'D', model: { id: 'offline-echo', provider: 'openai-compatible' } },
    ],
  });
  t.equal(r.catalogue, null);
  t.same(r.problems, [
    'runtime.models.1.id: duplicate model id "main"',
    'runtime.models.2.id: "offline-echo" is the built-in offline model',
    'runtime.agents.0.model: agent "a" names unknown model "gpt-5" (known: offline-echo, main)',
    'runtime.agents.1.model: agent "b" names unknown model "main" of provider "anthropic" (known: offline-echo, main)',
    'runtime.agents.2.model: agent "c" names unknown model "nope" of provider "openai-compatible" (known: offline-echo, main)',
    'runtime.agents.3.model: agent "d" names unknown model "offline-echo" of provider "openai-compatible" (known: offline-echo, main)',
  ]);
  t.notMatch(r.problems.join('\n'), /sk-secret/, 'no problem shows the key');
});

t.test(
  'runtime.agui binds POST /agui: the named agent or team, else the first agent',
  async (t) => {
    const agents = [
      { id: 'a1', name: 'A' },
      { id: 'a2', name: 'B' },
    ];
    const teams = [{ id: 't1', name: 'T', members: ['a2'] }];
    const rows: [string, unknown, string | null][] = [
      ['default: the first agent', { agents, teams }, 'agent:a1'],
      ['an agent', { agents, teams, agui: { agent: 'a2' } }, 'agent:a2'],
      ['a team', { agents, teams, agui: { team: 't1' } }, 'team:t1'],
      ['no agents: none', { teams: [] }, null],
    ];
    for (const [name, raw, bound] of rows) {
      const r = buildCatalogue(raw);
      t.same(r.problems, [], name);
      const agui = r.catalogue?.agui ?? null;
      t.equal(agui === null ? null : `${agui.kind}:${agui.id}`, bound, name);
    }
  },
);

t.test('runtime.agui naming an unknown id, or not one entity, is a problem', async (t) => {
  const agents = [{ id: 'a1', name: 'A' }];
  t.same(buildCatalogue({ agents, agui: { agent: 'ghost' } }).problems, [
    'runtime.agui.agent: no agent "ghost"',
  ]);
  t.same(buildCatalogue({ agents, agui: { team: 'a1' } }).problems, [
    'runtime.agui.team: no team "a1"',
  ]);
  const both = buildCatalogue({ agents, agui: { agent: 'a1', team: 't1' } });
  t.equal(both.catalogue, null);
  t.match(both.problems.join('\n'), /^runtime\.agui: /m);
});

t.test(
  'runtime.db: a path, sqlite:<path> or a postgres:// URL; a malformed URL is named',
  async (t) => {
    for (const db of [
      'data/runtime.db',
      ':memory:',
      'sqlite:x.db',
      'postgres://u:p@db.internal:5432/rt',
    ]) {
      t.same(buildCatalogue({ db }).problems, [], db);
    }
    const rows: [db: string, problem: string][] = [
      [
        'postgres://u:secret@/rt',
        'runtime.db: must be sqlite:<path> or a postgres://user:password@host:port/database URL',
      ],
      ['postgresql://u:secret@db', 'runtime.db: postgresql://u:***@db: the URL names no database'],
      [
        'mysql://db/rt',
        "runtime.db: unknown scheme 'mysql:': must be sqlite:<path>, postgres:// or postgresql://",
      ],
      ['sqlite:', 'runtime.db: sqlite: needs a path, as in sqlite:data/gateway.db'],
    ];
    for (const [db, problem] of rows) t.same(buildCatalogue({ db }).problems, [problem], db);
  },
);
