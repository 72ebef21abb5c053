import t from 'tap';
import { buildCatalogue } from '../../src/runtime/catalogue.js';
import { BUILTIN_TOOLS } from '../../src/runtime/engine/tools.js';

t.test('an empty section is an empty catalogue with defaults', async (t) => {
  for (const raw of [undefined, null, {}]) {
    const r = buildCatalogue(raw);
    t.same(r.problems, []);
    t.equal(r.catalogue?.agents.size, 0);
    t.equal(r.settings?.db, 'data/runtime.db');
    t.equal(r.settings?.os_id, 'scopegate-runtime');
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
        model: { id: 'm', provider: 'p' },
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
