import t from 'tap';
import {
  accessibleIds,
  compileGrants,
  DEFAULT_ADMIN_SCOPE,
  findSatisfyingScope,
  isResourceFamily,
  parseScope,
  RESOURCE_FAMILIES,
  satisfies,
  type ParsedScope,
  type ResourceRef,
} from '../../src/policy/scopes.js';

const ADMIN = DEFAULT_ADMIN_SCOPE;

/** A requirement as compile.ts builds it; a malformed one is a bug in the test. */
function req(raw: string, adminScope = ADMIN): ParsedScope | 'admin' {
  const parsed = parseScope(raw, adminScope);
  if (parsed === null) throw new Error(`test requirement ${raw} is malformed`);
  return parsed;
}

const agent = (id: string): ResourceRef => ({ family: 'agents', id });
const team = (id: string): ResourceRef => ({ family: 'teams', id });

t.test('the resource families and the default admin scope', async (t) => {
  t.same([...RESOURCE_FAMILIES], ['agents', 'teams', 'workflows']);
  t.equal(DEFAULT_ADMIN_SCOPE, 'agent_os:admin');
  for (const name of RESOURCE_FAMILIES)
    t.equal(isResourceFamily(name), true, `${name} is a family`);
  for (const name of ['sessions', 'config', 'Agents', 'agent', '', 'a2a']) {
    t.equal(isResourceFamily(name), false, `${JSON.stringify(name)} is not a family`);
  }
});

t.test('parseScope reads every form of the scope grammar', async (t) => {
  const rows: {
    name: string;
    raw: string;
    adminScope?: string;
    expected: ParsedScope | 'admin';
  }[] = [
    {
      name: '`resource:action` is global',
      raw: 'agents:read',
      expected: {
        raw: 'agents:read',
        resource: 'agents',
        id: null,
        action: 'read',
        key: 'agents:read',
      },
    },
    {
      name: '`resource:<id>:action` is per-resource',
      raw: 'agents:abc-1:run',
      expected: {
        raw: 'agents:abc-1:run',
        resource: 'agents',
        id: 'abc-1',
        action: 'run',
        key: 'agents:run',
      },
    },
    {
      name: '`resource:*:action` is the global form',
      raw: 'teams:*:run',
      expected: {
        raw: 'teams:*:run',
        resource: 'teams',
        id: null,
        action: 'run',
        key: 'teams:run',
      },
    },
    {
      name: '`system:` is read as `config:` (raw kept)',
      raw: 'system:read',
      expected: {
        raw: 'system:read',
        resource: 'config',
        id: null,
        action: 'read',
        key: 'config:read',
      },
    },
    {
      name: '`system:*:write` is `config:write`',
      raw: 'system:*:write',
      expected: {
        raw: 'system:*:write',
        resource: 'config',
        id: null,
        action: 'write',
        key: 'config:write',
      },
    },
    {
      name: 'a per-resource scope of another family parses (it grants nothing later)',
      raw: 'sessions:abc:read',
      expected: {
        raw: 'sessions:abc:read',
        resource: 'sessions',
        id: 'abc',
        action: 'read',
        key: 'sessions:read',
      },
    },
    {
      name: 'control-plane scopes parse as ordinary scopes',
      raw: 'org:members:read',
      expected: {
        raw: 'org:members:read',
        resource: 'org',
        id: 'members',
        action: 'read',
        key: 'org:read',
      },
    },
    { name: 'the default admin scope', raw: 'agent_os:admin', expected: 'admin' },
    { name: 'a custom admin scope', raw: 'root:all', adminScope: 'root:all', expected: 'admin' },
    {
      name: 'a custom admin scope need not look like a scope',
      raw: 'superuser',
      adminScope: 'superuser',
      expected: 'admin',
    },
    {
      name: '`agent_os:admin` is an ordinary scope when the admin scope is custom',
      raw: 'agent_os:admin',
      adminScope: 'root:all',
      expected: {
        raw: 'agent_os:admin',
        resource: 'agent_os',
        id: null,
        action: 'admin',
        key: 'agent_os:admin',
      },
    },
  ];
  for (const row of rows)
    t.same(parseScope(row.raw, row.adminScope ?? ADMIN), row.expected, row.name);
});

t.test('parseScope returns null for every malformed scope', async (t) => {
  const bad = [
    '',
    'agents',
    'agents:',
    ':read',
    'agents::run',
    'a:b:c:d',
    'agents: read',
    ' agents:read',
    'agents:read ',
    'agents:a b:read',
    'agents:\tread',
    'agents:read\n',
    '*:read',
    'agents:*',
    'agents:re*d',
    '*:*:*',
    'agents:x*:run',
    'agents:**:run',
    'agents:*x:run',
    'AGENT_OS:ADMIN x',
  ];
  for (const raw of bad)
    t.equal(parseScope(raw, ADMIN), null, `${JSON.stringify(raw)} is malformed`);
});

t.test('compileGrants keeps what grants something and drops the rest', async (t) => {
  const grants = compileGrants(
    [
      'agents:read',
      'agents:*:run',
      'agents:a1:write',
      'teams:t1:run',
      'system:read',
      'sessions:abc:read',
      'bad scope',
      'x',
    ],
    ADMIN,
  );
  t.equal(grants.admin, false);
  t.same([...grants.global].sort(), ['agents:read', 'agents:run', 'config:read']);
  t.same(
    [...grants.perResource].map(([key, ids]) => [key, [...ids]]),
    [
      ['agents:write', ['a1']],
      ['teams:run', ['t1']],
    ],
    'per-resource grants only for agents, teams, workflows',
  );
  t.same(grants.raw, [
    'agents:read',
    'agents:*:run',
    'agents:a1:write',
    'teams:t1:run',
    'system:read',
    'sessions:abc:read',
    'bad scope',
    'x',
  ]);
  t.ok(Object.isFrozen(grants.raw), 'raw scopes are frozen');

  const input = ['agents:read'];
  const copy = compileGrants(input, ADMIN);
  input.push('agents:write');
  t.same(copy.raw, ['agents:read'], 'raw is a copy, not the caller array');

  t.equal(compileGrants(['agent_os:admin'], ADMIN).admin, true, 'the admin scope sets admin');
  t.equal(
    compileGrants(['agent_os:admin'], 'root:all').admin,
    false,
    'agent_os:admin is not admin when the admin scope is custom',
  );
  t.equal(compileGrants(['root:all'], 'root:all').admin, true, 'the custom admin scope sets admin');
  const ids = compileGrants(['workflows:w2:run', 'workflows:w1:run', 'workflows:w2:run'], ADMIN);
  t.same(
    [...(ids.perResource.get('workflows:run') ?? [])],
    ['w2', 'w1'],
    'ids collect under one key',
  );
});

t.test('satisfies: an exact scope, a wildcard or a resource-level scope', async (t) => {
  const rows: {
    name: string;
    required: string;
    scopes: string[];
    resource: ResourceRef | null;
    adminScope?: string;
    expected: boolean;
  }[] = [
    // Per-resource grants on the family's own paths.
    {
      name: '`agents:<id>:run` satisfies `agents:run` on /agents/<id>/runs',
      required: 'agents:run',
      scopes: ['agents:a1:run'],
      resource: agent('a1'),
      expected: true,
    },
    {
      name: '`agents:*:run` satisfies `agents:run` like the global form',
      required: 'agents:run',
      scopes: ['agents:*:run'],
      resource: agent('a1'),
      expected: true,
    },
    {
      name: '`agents:*:run` satisfies `agents:run` on a path without an id',
      required: 'agents:run',
      scopes: ['agents:*:run'],
      resource: null,
      expected: true,
    },
    {
      name: '`agents:run` satisfies `agents:run` on /agents/<id>',
      required: 'agents:run',
      scopes: ['agents:run'],
      resource: agent('a1'),
      expected: true,
    },
    {
      name: '`agents:<other>:run` does not satisfy `agents:run` on /agents/<id>',
      required: 'agents:run',
      scopes: ['agents:a2:run'],
      resource: agent('a1'),
      expected: false,
    },
    {
      name: '`agents:<id>:read` does not satisfy `agents:run` (other action)',
      required: 'agents:run',
      scopes: ['agents:a1:read'],
      resource: agent('a1'),
      expected: false,
    },
    {
      name: '`agents:<id>:run` does not satisfy `agents:run` on a path without an id',
      required: 'agents:run',
      scopes: ['agents:a1:run'],
      resource: null,
      expected: false,
    },
    {
      name: '`agents:<id>:run` does not satisfy `agents:run` on a team path with the same id',
      required: 'agents:run',
      scopes: ['agents:a1:run'],
      resource: team('a1'),
      expected: false,
    },
    {
      name: '`teams:<id>:run` satisfies `teams:run` on /teams/<id>',
      required: 'teams:run',
      scopes: ['teams:t1:run'],
      resource: team('t1'),
      expected: true,
    },
    {
      name: 'ids are case-sensitive',
      required: 'agents:run',
      scopes: ['agents:A1:run'],
      resource: agent('a1'),
      expected: false,
    },
    // Per-resource requirements.
    {
      name: 'a requirement `agents:<id>:run` is met by that id',
      required: 'agents:a1:run',
      scopes: ['agents:a1:run'],
      resource: null,
      expected: true,
    },
    {
      name: 'a requirement `agents:<id>:run` is met by `agents:run`',
      required: 'agents:a1:run',
      scopes: ['agents:run'],
      resource: null,
      expected: true,
    },
    {
      name: 'a requirement `agents:<id>:run` is met by `agents:*:run`',
      required: 'agents:a1:run',
      scopes: ['agents:*:run'],
      resource: null,
      expected: true,
    },
    {
      name: 'a requirement `agents:<id>:run` names its id, whatever the path carries',
      required: 'agents:a1:run',
      scopes: ['agents:a2:run'],
      resource: agent('a2'),
      expected: false,
    },
    // Families without per-resource scopes.
    {
      name: '`sessions:abc:read` grants nothing for `sessions:read`',
      required: 'sessions:read',
      scopes: ['sessions:abc:read'],
      resource: null,
      expected: false,
    },
    {
      name: '`sessions:abc:read` grants nothing for `sessions:abc:read`',
      required: 'sessions:abc:read',
      scopes: ['sessions:abc:read'],
      resource: null,
      expected: false,
    },
    {
      name: '`sessions:read` meets `sessions:abc:read`',
      required: 'sessions:abc:read',
      scopes: ['sessions:read'],
      resource: null,
      expected: true,
    },
    {
      name: '`sessions:*:read` counts as the global form',
      required: 'sessions:read',
      scopes: ['sessions:*:read'],
      resource: null,
      expected: true,
    },
    {
      name: '`config:a1:read` grants nothing on an agent path',
      required: 'config:read',
      scopes: ['config:a1:read'],
      resource: agent('a1'),
      expected: false,
    },
    // The system: alias, on both sides.
    {
      name: 'a caller`s `system:read` satisfies `config:read`',
      required: 'config:read',
      scopes: ['system:read'],
      resource: null,
      expected: true,
    },
    {
      name: 'a required `system:read` is satisfied by `config:read`',
      required: 'system:read',
      scopes: ['config:read'],
      resource: null,
      expected: true,
    },
    {
      name: 'a required `system:write` is satisfied by `system:*:write`',
      required: 'system:write',
      scopes: ['system:*:write'],
      resource: null,
      expected: true,
    },
    {
      name: '`system:read` does not satisfy `config:write`',
      required: 'config:write',
      scopes: ['system:read'],
      resource: null,
      expected: false,
    },
    // The admin scope.
    {
      name: 'the admin scope satisfies any scope',
      required: 'sessions:delete',
      scopes: ['agent_os:admin'],
      resource: null,
      expected: true,
    },
    {
      name: 'the admin scope satisfies a per-resource requirement',
      required: 'agents:a1:run',
      scopes: ['agent_os:admin'],
      resource: agent('a2'),
      expected: true,
    },
    {
      name: 'a required admin scope is satisfied by the admin scope',
      required: 'agent_os:admin',
      scopes: ['agent_os:admin'],
      resource: null,
      expected: true,
    },
    {
      name: 'a required admin scope is satisfied by nothing else',
      required: 'agent_os:admin',
      scopes: ['agents:read', 'config:write'],
      resource: null,
      expected: false,
    },
    {
      name: 'a custom admin scope satisfies everything',
      required: 'config:write',
      scopes: ['root:all'],
      resource: null,
      adminScope: 'root:all',
      expected: true,
    },
    {
      name: '`agent_os:admin` grants nothing when the admin scope is custom',
      required: 'config:read',
      scopes: ['agent_os:admin'],
      resource: null,
      adminScope: 'root:all',
      expected: false,
    },
    // Malformed and empty.
    {
      name: 'no scopes satisfy nothing',
      required: 'config:read',
      scopes: [],
      resource: null,
      expected: false,
    },
    {
      name: 'a malformed caller scope grants nothing',
      required: 'agents:run',
      scopes: ['agents: run', 'agents:run:'],
      resource: agent('a1'),
      expected: false,
    },
  ];
  for (const row of rows) {
    const adminScope = row.adminScope ?? ADMIN;
    t.equal(
      satisfies(req(row.required, adminScope), compileGrants(row.scopes, adminScope), row.resource),
      row.expected,
      row.name,
    );
  }
});

t.test(
  'findSatisfyingScope names the first caller scope that satisfies a requirement',
  async (t) => {
    const grants = compileGrants(
      ['config:read', 'agents:a2:run', 'agents:a1:run', 'agents:run'],
      ADMIN,
    );
    t.equal(findSatisfyingScope(req('agents:run'), grants, agent('a1'), ADMIN), 'agents:a1:run');
    t.equal(findSatisfyingScope(req('agents:run'), grants, null, ADMIN), 'agents:run');
    t.equal(findSatisfyingScope(req('config:read'), grants, null, ADMIN), 'config:read');
    t.equal(findSatisfyingScope(req('teams:run'), grants, team('t1'), ADMIN), null);
    t.equal(
      findSatisfyingScope(
        req('teams:run'),
        compileGrants(['x:y', 'agent_os:admin'], ADMIN),
        null,
        ADMIN,
      ),
      'agent_os:admin',
    );
    t.equal(
      findSatisfyingScope(
        req('root:all', 'root:all'),
        compileGrants(['root:all'], 'root:all'),
        null,
        'root:all',
      ),
      'root:all',
    );
    t.equal(findSatisfyingScope(req('config:read'), compileGrants([], ADMIN), null, ADMIN), null);
  },
);

t.test('accessibleIds lists the ids of one key, sorted', async (t) => {
  const grants = compileGrants(
    ['agents:b:read', 'agents:a:read', 'agents:c:run', 'teams:t:read', 'agents:B:read'],
    ADMIN,
  );
  t.same(accessibleIds(grants, 'agents:read'), ['B', 'a', 'b']);
  t.same(accessibleIds(grants, 'teams:read'), ['t']);
  t.same(accessibleIds(grants, 'workflows:read'), []);
  t.same(
    accessibleIds(compileGrants(['agents:read'], ADMIN), 'agents:read'),
    [],
    'a global grant lists no ids',
  );
});
