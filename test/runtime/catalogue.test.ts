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
    t.equal(r.settings?.a2a_prefix, '/a2a');
  }
});

t.test('a2a_prefix follows the gateway rule for a2a.prefix (CONTRACT §9.14)', async (t) => {
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
