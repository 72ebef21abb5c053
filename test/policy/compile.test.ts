import t from 'tap';
import {
  DEFAULT_EXCLUDED_ROUTE_PATHS,
  type CompiledPolicy,
  type RouteEntry,
} from '../../src/policy/compile.js';
import { lookupRoute } from '../../src/policy/decide.js';
import { compileFrom, compileLayers, layer, segmentsOf } from '../fixtures/policy.js';

const SCOPE_RULE =
  '"resource:action" / "resource:<id>:action" (no spaces; "*" only as the whole middle part)';

function route(policy: CompiledPolicy | null, request: string): RouteEntry | null {
  if (policy === null) throw new Error('policy did not compile');
  const [method, path] = request.split(' ') as [string, string];
  return lookupRoute(policy, method, segmentsOf(path));
}

const raws = (entry: RouteEntry | null): string[] | undefined =>
  entry === null ? undefined : entry.required.map((r) => r.raw);

t.test('DEFAULT_EXCLUDED_ROUTE_PATHS is the list of built-in excluded routes', async (t) => {
  t.same(
    [...DEFAULT_EXCLUDED_ROUTE_PATHS],
    ['/', '/health', '/info', '/docs', '/redoc', '/openapi.json', '/docs/oauth2-redirect'],
  );
  t.ok(Object.isFrozen(DEFAULT_EXCLUDED_ROUTE_PATHS));
});

t.test('a compiled policy is frozen, one trie per method', async (t) => {
  const result = compileLayers(
    [layer('policies/test.yaml', { 'GET /config': ['config:read'], 'POST /x': [] })],
    {
      unmappedRoutes: 'deny',
      adminScope: 'root:all',
    },
  );
  t.same(result.problems, []);
  t.same(result.warnings, []);
  t.same(result.notes, []);
  const policy = result.policy;
  t.ok(policy !== null && Object.isFrozen(policy));
  if (policy === null) return;
  t.same([...policy.routes.keys()].sort(), ['GET', 'POST']);
  t.equal(policy.unmappedRoutes, 'deny');
  t.equal(policy.adminScope, 'root:all');
  t.same(policy.a2aPrefix, ['a2a']);
  t.equal(policy.entries.length, 2);
  t.ok(Object.isFrozen(policy.entries) && Object.isFrozen(policy.entries[0]), 'entries frozen');
  t.ok(Object.isFrozen(policy.entries[0]?.required), 'requirements frozen');
  t.same(policy.floor.agents.read.raw, 'agents:read');
  t.same(policy.floor.teams.run.raw, 'teams:run');
  t.same(policy.floor.workflows.read.raw, 'workflows:read');
  const entry = route(policy, 'GET /config');
  t.same(
    entry?.origin,
    { file: 'policies/test.yaml', key: 'scope_mappings."GET /config"', line: 2 },
    'the entry keeps its origin',
  );
  t.equal(entry?.pattern.text, 'GET /config');
  t.equal(entry?.family, null, '/config is no family namespace');
});

t.test('merge order: a later layer replaces an earlier entry of the same pattern', async (t) => {
  const result = compileLayers([
    layer('policies/defaults.yaml', {
      'GET /config': ['config:read'],
      'GET /models': ['config:read'],
    }),
    layer('gateway.yaml', { 'GET /models': ['models:read'] }),
  ]);
  t.same(result.problems, []);
  t.same(raws(route(result.policy, 'GET /models')), ['models:read'], 'the override wins');
  t.same(raws(route(result.policy, 'GET /config')), ['config:read'], 'other defaults stay');
  t.same(result.notes, [
    {
      file: 'gateway.yaml',
      key: 'scope_mappings."GET /models"',
      line: 2,
      message: 'overrides policies/defaults.yaml:3',
      code: undefined,
    },
  ]);
  t.same(result.warnings, [], 'an override of a non-family route is no warning');
  t.equal(result.policy?.entries.length, 2, 'one entry per pattern');
});

t.test('the override note names the file alone when the earlier entry has no line', async (t) => {
  const defaults = {
    file: 'defaults.yaml',
    mappings: [
      { pattern: 'GET /x', scopes: ['x:read'], origin: { file: 'defaults.yaml', key: 'k' } },
    ],
  };
  const result = compileLayers([defaults, layer('gateway.yaml', { 'GET /x': ['y:read'] })]);
  t.same(
    result.notes.map((n) => n.message),
    ['overrides defaults.yaml'],
  );
});

t.test('`[]` means no scopes required', async (t) => {
  const policy = compileFrom([
    layer('policies/defaults.yaml', { 'GET /config': ['config:read'] }),
    layer('gateway.yaml', { 'GET /config': [], 'GET /public-info': [] }),
  ]);
  t.same(raws(route(policy, 'GET /config')), [], 'an override to [] drops the default');
  t.same(raws(route(policy, 'GET /public-info')), [], 'a new route with [] requires nothing');
});

t.test(
  '`{id}` and `*` are one pattern: the later replaces, SGWRN002 names both spellings',
  async (t) => {
    const rows: {
      name: string;
      layers: ReturnType<typeof layer>[];
      winner: string[];
      message: string;
      line: number;
    }[] = [
      {
        name: 'across layers',
        layers: [
          layer('policies/defaults.yaml', { 'GET /sessions/*': ['sessions:read'] }),
          layer('gateway.yaml', { 'GET /sessions/{session_id}': ['sessions:write'] }),
        ],
        winner: ['sessions:write'],
        message:
          '"GET /sessions/{session_id}" and "GET /sessions/*" (policies/defaults.yaml:2) are two spellings of one pattern; the later one wins',
        line: 2,
      },
      {
        name: 'in one file',
        layers: [
          layer('policies/defaults.yaml', {
            'GET /sessions/{id}': ['sessions:read'],
            'GET /sessions/*': ['sessions:write'],
          }),
        ],
        winner: ['sessions:write'],
        message:
          '"GET /sessions/*" is the same pattern as "GET /sessions/{id}" (policies/defaults.yaml:2) in the same file; the later one wins',
        line: 3,
      },
    ];
    for (const row of rows) {
      const result = compileLayers(row.layers);
      t.same(
        raws(route(result.policy, 'GET /sessions/s1')),
        row.winner,
        `${row.name}: the later wins`,
      );
      const file = row.layers[row.layers.length - 1]?.file;
      t.same(
        result.warnings,
        [
          {
            file,
            key:
              row.layers.length === 1
                ? 'scope_mappings."GET /sessions/*"'
                : 'scope_mappings."GET /sessions/{session_id}"',
            line: row.line,
            message: row.message,
            code: 'SGWRN002',
          },
        ],
        `${row.name}: SGWRN002`,
      );
      t.same(result.notes, [], `${row.name}: no override note on top of the warning`);
    }
  },
);

t.test(
  '`{prefix}` and the literal prefix spell one pattern too (same text after substitution)',
  async (t) => {
    const result = compileLayers([
      layer('policies/a2a.yaml', {
        'GET {prefix}/agents/*/.well-known/agent-card.json': ['agents:read'],
      }),
      layer('gateway.yaml', {
        'GET /a2a/agents/*/.well-known/agent-card.json': ['agents:read', 'cards:read'],
      }),
    ]);
    t.same(
      result.notes.map((n) => n.message),
      ['overrides policies/a2a.yaml:2'],
    );
    t.same(raws(route(result.policy, 'GET /a2a/agents/a1/.well-known/agent-card.json')), [
      'agents:read',
      'cards:read',
    ]);
  },
);

t.test('a repeated pattern in one layer: the later entry wins', async (t) => {
  // Only reachable with two keys that read as one pattern text (extra spaces, or `{prefix}` next
  // to the literal prefix), since YAML and object keys are unique.
  const rows: [string, Record<string, unknown>, string][] = [
    ['extra spaces', { 'GET /x': ['a:read'], 'GET  /x': ['b:read'] }, 'GET /x'],
    [
      '`{prefix}` and /a2a',
      { 'GET {prefix}/x': ['a:read'], 'GET /a2a/x': ['b:read'] },
      'GET /a2a/x',
    ],
  ];
  for (const [name, mappings, request] of rows) {
    const result = compileLayers([layer('policies/test.yaml', mappings)]);
    t.same(result.problems, [], `${name}: no problem`);
    t.same(raws(route(result.policy, request)), ['b:read'], `${name}: the later wins`);
    t.equal(result.policy?.entries.length, 1, `${name}: one entry`);
    t.same(
      result.warnings.map((w) => w.code),
      ['SGWRN002'],
      `${name}: the repeat is warned about, not silent`,
    );
  }
});

t.test('duplicate scopes in one mapping are listed once (system: counts as config:)', async (t) => {
  const policy = compileFrom({
    'GET /config': ['config:read', 'system:read', 'config:read', 'config:*:read', 'registry:read'],
  });
  t.same(raws(route(policy, 'GET /config')), ['config:read', 'registry:read']);
  const admin = compileFrom({ 'GET /x': ['agent_os:admin', 'agent_os:admin', 'x:read'] });
  t.same(raws(route(admin, 'GET /x')), ['agent_os:admin', 'x:read']);
});

t.test(
  'a custom admin scope is the admin requirement; agent_os:admin is then an ordinary scope',
  async (t) => {
    const policy = compileFrom(
      { 'GET /x': ['root:all'], 'GET /y': ['agent_os:admin'] },
      { adminScope: 'root:all' },
    );
    t.equal(route(policy, 'GET /x')?.required[0]?.scope, 'admin');
    t.match(route(policy, 'GET /y')?.required[0]?.scope, {
      resource: 'agent_os',
      action: 'admin',
      id: null,
    });
  },
);

t.test(
  'native namespaces: remapping adds requirements, never removes the native one',
  async (t) => {
    const defaults = layer('policies/defaults.yaml', {
      'GET /agents': ['agents:read'],
      'GET /agents/*': ['agents:read'],
      'POST /agents': ['agents:write'],
      'DELETE /agents/*': ['agents:delete'],
      'POST /agents/*/runs': ['agents:run'],
      'POST {prefix}/teams/*/v1/message:send': ['teams:run'],
    });
    const rows: {
      name: string;
      overrides: Record<string, unknown>;
      request: string;
      required: string[];
      mapped: string[];
      warning?: string;
      prefix?: string;
    }[] = [
      {
        name: 'remapping `GET /agents/*` to another scope still requires `agents:read`, after the override',
        overrides: { 'GET /agents/*': ['custom:read'] },
        request: 'GET /agents/a1',
        required: ['custom:read', 'agents:read'],
        mapped: ['custom:read'],
        warning:
          'GET /agents/* lies in the native "agents" namespace: agents:read is required too (a mapping adds scopes to a family route, never removes its own)',
      },
      {
        name: 'remapping with the `{id}` spelling still requires `agents:read`',
        overrides: { 'GET /agents/{agent_id}': ['custom:read'] },
        request: 'GET /agents/a1',
        required: ['custom:read', 'agents:read'],
        mapped: ['custom:read'],
        warning:
          'GET /agents/{agent_id} lies in the native "agents" namespace: agents:read is required too (a mapping adds scopes to a family route, never removes its own)',
      },
      {
        name: 'remapping to `[]` keeps the native scope',
        overrides: { 'DELETE /agents/*': [] },
        request: 'DELETE /agents/a1',
        required: ['agents:delete'],
        mapped: [],
        warning:
          'DELETE /agents/* lies in the native "agents" namespace: agents:delete is required too (a mapping adds scopes to a family route, never removes its own)',
      },
      {
        name: 'the native scope of a route without an id (`POST /agents`) comes from the defaults',
        overrides: { 'POST /agents': ['custom:write'] },
        request: 'POST /agents',
        required: ['custom:write', 'agents:write'],
        mapped: ['custom:write'],
        warning:
          'POST /agents lies in the native "agents" namespace: agents:write is required too (a mapping adds scopes to a family route, never removes its own)',
      },
      {
        name: 'an override that keeps the native scope adds nothing',
        overrides: { 'POST /agents/*/runs': ['agents:run', 'billing:ok'] },
        request: 'POST /agents/a1/runs',
        required: ['agents:run', 'billing:ok'],
        mapped: ['agents:run', 'billing:ok'],
      },
      {
        name: 'a new route under /agents/<id> with no family scope gets the floor for GET (`agents:read`)',
        overrides: { 'GET /agents/*/secrets': ['secrets:read'] },
        request: 'GET /agents/a1/secrets',
        required: ['secrets:read', 'agents:read'],
        mapped: ['secrets:read'],
        warning:
          'GET /agents/*/secrets lies in the native "agents" namespace: agents:read is required too (a mapping adds scopes to a family route, never removes its own)',
      },
      {
        name: 'a new route under /agents/<id> with no family scope gets the floor for other methods (`agents:run`)',
        overrides: { 'PUT /agents/*': [] },
        request: 'PUT /agents/a1',
        required: ['agents:run'],
        mapped: [],
        warning:
          'PUT /agents/* lies in the native "agents" namespace: agents:run is required too (a mapping adds scopes to a family route, never removes its own)',
      },
      {
        name: 'a new `GET /workflows/**` route gets `workflows:read`',
        overrides: { 'GET /workflows/**': [] },
        request: 'GET /workflows/w1/steps/3',
        required: ['workflows:read'],
        mapped: [],
        warning:
          'GET /workflows/** lies in the native "workflows" namespace: workflows:read is required too (a mapping adds scopes to a family route, never removes its own)',
      },
      {
        name: 'a new family route that names a family scope itself gets nothing more',
        overrides: { 'POST /teams/*/export': ['teams:read'] },
        request: 'POST /teams/t1/export',
        required: ['teams:read'],
        mapped: ['teams:read'],
      },
      {
        name: 'a new listing-like route without an id gets `read` for GET',
        overrides: { 'GET /teams': ['custom:list'] },
        request: 'GET /teams',
        required: ['custom:list', 'teams:read'],
        mapped: ['custom:list'],
        warning:
          'GET /teams lies in the native "teams" namespace: teams:read is required too (a mapping adds scopes to a family route, never removes its own)',
      },
      {
        name: 'a new non-GET route without an id gets no floor',
        overrides: { 'POST /workflows': ['custom:create'] },
        request: 'POST /workflows',
        required: ['custom:create'],
        mapped: ['custom:create'],
      },
      {
        name: 'an A2A route under `{prefix}` keeps its native scope',
        overrides: { 'POST {prefix}/teams/*/v1/message:send': ['custom:run'] },
        request: 'POST /a2a/teams/t1/v1/message:send',
        required: ['custom:run', 'teams:run'],
        mapped: ['custom:run'],
        warning:
          'POST /a2a/teams/*/v1/message:send lies in the native "teams" namespace: teams:run is required too (a mapping adds scopes to a family route, never removes its own)',
      },
      {
        name: 'a new A2A route under a multi-segment prefix gets the floor',
        overrides: { 'POST {prefix}/agents/*/v1/extra': ['custom:run'] },
        request: 'POST /api/a2a/agents/a1/v1/extra',
        required: ['custom:run', 'agents:run'],
        mapped: ['custom:run'],
        warning:
          'POST /api/a2a/agents/*/v1/extra lies in the native "agents" namespace: agents:run is required too (a mapping adds scopes to a family route, never removes its own)',
        prefix: '/api/a2a',
      },
      {
        name: 'a family name below another literal is no family namespace',
        overrides: { 'POST /other/agents/*': [] },
        request: 'POST /other/agents/a1',
        required: [],
        mapped: [],
      },
      {
        name: 'a family name after a wrong prefix is no family namespace',
        overrides: { 'POST /api/x/agents/*': [] },
        request: 'POST /api/x/agents/a1',
        required: [],
        mapped: [],
        prefix: '/api/a2a',
      },
    ];
    for (const row of rows) {
      const overrides = layer('gateway.yaml', row.overrides);
      const result = compileLayers([defaults, overrides], { a2aPrefix: row.prefix ?? '/a2a' });
      t.same(result.problems, [], `${row.name}: compiles`);
      const entry = route(result.policy, row.request);
      t.same(raws(entry), row.required, `${row.name}: required`);
      t.same(
        entry?.mapped.map((m) => m.raw),
        row.mapped,
        `${row.name}: mapped`,
      );
      const sgwrn004 = result.warnings.filter((w) => w.code === 'SGWRN004');
      const pattern = Object.keys(row.overrides)[0] as string;
      t.same(
        sgwrn004,
        row.warning === undefined
          ? []
          : [
              {
                file: 'gateway.yaml',
                key: `scope_mappings.${JSON.stringify(pattern)}`,
                line: 2,
                message: row.warning,
                code: 'SGWRN004',
              },
            ],
        `${row.name}: SGWRN004`,
      );
    }
  },
);

t.test('entries know the family namespace they lie in', async (t) => {
  const policy = compileFrom(
    {
      'GET /agents/*': ['agents:read'],
      'POST {prefix}/workflows/*/v1/message:send': ['workflows:run'],
      'GET /sessions/*': ['sessions:read'],
      'GET /*/x': [],
    },
    { a2aPrefix: '/api/a2a' },
  );
  t.equal(route(policy, 'GET /agents/a1')?.family, 'agents');
  t.equal(route(policy, 'POST /api/a2a/workflows/w1/v1/message:send')?.family, 'workflows');
  t.equal(route(policy, 'GET /sessions/s1')?.family, null);
  t.equal(route(policy, 'GET /agents/x')?.family, 'agents');
  t.equal(route(policy, 'GET /teams/x')?.family, null, 'a wildcard first segment is no namespace');
});

t.test(
  'a new, more specific pattern cannot lower the native scope of the route it shadows',
  async (t) => {
    // The native scope of a family route always applies in addition to any override (docs/policy.md,
    // Native namespaces). `DELETE /agents/special` is served by the DELETE-agent handler,
    // which re-checks `agents:delete`; a more specific override must not reduce that to the floor.
    const result = compileLayers([
      layer('policies/defaults.yaml', {
        'DELETE /agents/*': ['agents:delete'],
        'PATCH /agents/*': ['agents:write'],
      }),
      layer('gateway.yaml', {
        'DELETE /agents/special': ['custom:x'],
        'PATCH /agents/special': [],
      }),
    ]);
    t.same(
      raws(route(result.policy, 'DELETE /agents/special')),
      ['custom:x', 'agents:delete'],
      'DELETE keeps agents:delete',
    );
    t.same(
      raws(route(result.policy, 'PATCH /agents/special')),
      ['agents:write'],
      'PATCH keeps agents:write',
    );
  },
);

t.test(
  'every malformed pattern and scope is reported with file, key and line, all in one compile',
  async (t) => {
    const result = compileLayers(
      [
        {
          file: 'policies/broken.yaml',
          mappings: [
            {
              pattern: 'GET agents',
              scopes: ['agents:read'],
              origin: { file: 'policies/broken.yaml', key: 'scope_mappings."GET agents"', line: 3 },
            },
            {
              pattern: 'HEAD /agents',
              scopes: [],
              origin: {
                file: 'policies/broken.yaml',
                key: 'scope_mappings."HEAD /agents"',
                line: 4,
              },
            },
            {
              pattern: 'GET /ok',
              scopes: ['agents:read'],
              origin: { file: 'policies/broken.yaml', key: 'scope_mappings."GET /ok"', line: 5 },
            },
            {
              pattern: 'GET /a',
              scopes: 'agents:read',
              origin: { file: 'policies/broken.yaml', key: 'scope_mappings."GET /a"', line: 6 },
            },
            {
              pattern: 'GET /b',
              scopes: null,
              origin: { file: 'policies/broken.yaml', key: 'scope_mappings."GET /b"', line: 7 },
            },
          ],
        },
        {
          file: 'gateway.yaml',
          mappings: [
            {
              pattern: 'POST /c',
              scopes: ['config:read', 'agents: read', 7, 'agents:x*:run'],
              origin: { file: 'gateway.yaml', key: 'auth.scope_mappings."POST /c"', line: 40 },
            },
          ],
        },
      ],
      { excluded: ['/public/', 'health'] },
    );
    t.equal(result.policy, null, 'no policy');
    const expected = [
      [
        'policies/broken.yaml',
        'scope_mappings."GET agents"',
        3,
        'malformed pattern: path must start with "/" (got "agents")',
      ],
      [
        'policies/broken.yaml',
        'scope_mappings."HEAD /agents"',
        4,
        'malformed pattern: HEAD is authorized as GET: map "GET" instead',
      ],
      [
        'policies/broken.yaml',
        'scope_mappings."GET /a"',
        6,
        'expected a list of scopes ([] means no scopes required)',
      ],
      [
        'policies/broken.yaml',
        'scope_mappings."GET /b"',
        7,
        'expected a list of scopes ([] means no scopes required)',
      ],
      [
        'gateway.yaml',
        'auth.scope_mappings."POST /c"[1]',
        40,
        `malformed scope "agents: read": expected "agent_os:admin" or ${SCOPE_RULE}`,
      ],
      [
        'gateway.yaml',
        'auth.scope_mappings."POST /c"[2]',
        40,
        `malformed scope 7: expected "agent_os:admin" or ${SCOPE_RULE}`,
      ],
      [
        'gateway.yaml',
        'auth.scope_mappings."POST /c"[3]',
        40,
        `malformed scope "agents:x*:run": expected "agent_os:admin" or ${SCOPE_RULE}`,
      ],
      [
        'gateway.yaml',
        'auth.excluded_route_paths[0]',
        10,
        'malformed path pattern: trailing "/" is not allowed (request paths drop it before matching)',
      ],
      [
        'gateway.yaml',
        'auth.excluded_route_paths[1]',
        11,
        'malformed path pattern: path must start with "/" (got "health")',
      ],
    ].map(([file, key, line, message]) => ({ file, key, line, message, code: undefined }));
    t.same(result.problems, expected);
  },
);

t.test('a malformed scope message names the configured admin scope', async (t) => {
  const result = compileLayers([layer('gateway.yaml', { 'GET /x': ['bad'] })], {
    adminScope: 'root:all',
  });
  t.same(
    result.problems.map((p) => [p.key, p.message]),
    [['scope_mappings."GET /x"[0]', `malformed scope "bad": expected "root:all" or ${SCOPE_RULE}`]],
  );
});

t.test('a mapping with a bad scope is left out but other problems are still found', async (t) => {
  const result = compileLayers([
    layer('policies/test.yaml', { 'GET /x': ['bad'], 'GET /y//z': [] }),
  ]);
  t.same(
    result.problems.map((p) => p.message),
    [
      `malformed scope "bad": expected "agent_os:admin" or ${SCOPE_RULE}`,
      'malformed pattern: empty segment ("//") is not allowed',
    ],
  );
});

t.test('shadowed `**` patterns are reported (SGWRN003), per method and in any order', async (t) => {
  const rows: { name: string; patterns: string[]; shadowed: string[] }[] = [
    {
      name: '`/a/*` + `/a/*/**` shadow `/a/**`',
      patterns: ['GET /a/*', 'GET /a/*/**', 'GET /a/**'],
      shadowed: ['GET /a/**'],
    },
    {
      name: '`/*` + `/*/**` shadow `/**` at the root',
      patterns: ['GET /*', 'GET /*/**', 'GET /**'],
      shadowed: ['GET /**'],
    },
    {
      name: 'a chain of `*` ending in `**` shadows',
      patterns: ['GET /a/*', 'GET /a/*/*', 'GET /a/*/*/**', 'GET /a/**'],
      shadowed: ['GET /a/**'],
    },
    {
      name: 'shadowing is found below a literal child',
      patterns: ['GET /x/y/*', 'GET /x/y/*/**', 'GET /x/y/**'],
      shadowed: ['GET /x/y/**'],
    },
    {
      name: 'shadowing is found below a `*` child',
      patterns: ['GET /*/y/*', 'GET /*/y/*/**', 'GET /*/y/**'],
      shadowed: ['GET /*/y/**'],
    },
    {
      name: '`/a/*` alone leaves deeper paths to `/a/**`',
      patterns: ['GET /a/*', 'GET /a/**'],
      shadowed: [],
    },
    {
      name: '`/a/*/**` alone leaves `/a/<x>` to `/a/**`',
      patterns: ['GET /a/*/**', 'GET /a/**'],
      shadowed: [],
    },
    {
      name: 'a `*` chain without a final `**` leaves the deepest paths',
      patterns: ['GET /a/*', 'GET /a/*/*', 'GET /a/**'],
      shadowed: [],
    },
    {
      name: 'a `*` chain with a gap leaves a depth uncovered',
      patterns: ['GET /a/*', 'GET /a/*/*/**', 'GET /a/**'],
      shadowed: [],
    },
    {
      name: 'literal siblings never shadow',
      patterns: ['GET /a/b', 'GET /a/b/**', 'GET /a/**'],
      shadowed: [],
    },
    {
      name: 'another method does not shadow',
      patterns: ['GET /a/*', 'GET /a/*/**', 'POST /a/**'],
      shadowed: [],
    },
  ];
  for (const row of rows) {
    for (const order of [row.patterns, [...row.patterns].reverse()]) {
      const mappings = Object.fromEntries(order.map((p) => [p, ['x:read']]));
      const result = compileLayers([layer('policies/test.yaml', mappings)]);
      const warnings = result.warnings.filter((w) => w.code === 'SGWRN003');
      t.same(
        warnings,
        row.shadowed.map((p) => ({
          file: 'policies/test.yaml',
          key: `scope_mappings.${JSON.stringify(p)}`,
          line: order.indexOf(p) + 2,
          message: `${p} never matches: every path it covers is taken by a more specific pattern`,
          code: 'SGWRN003',
        })),
        `${row.name}${order === row.patterns ? '' : ' [reversed]'}`,
      );
    }
  }
});

t.test('a shadowed pattern from an earlier file is reported at its own origin', async (t) => {
  const result = compileLayers([
    layer('policies/defaults.yaml', { 'GET /files/**': ['files:read'] }),
    layer('gateway.yaml', { 'GET /files/*': [], 'GET /files/*/**': [] }),
  ]);
  t.same(
    result.warnings.map((w) => [w.file, w.line, w.code]),
    [['policies/defaults.yaml', 2, 'SGWRN003']],
  );
});

t.test('excluded route paths compile into their own trie', async (t) => {
  const result = compileLayers([], {
    excluded: ['/', '/public/*', '/static/**', '{prefix}/agents/*/.well-known/agent-card.json'],
  });
  t.same(result.problems, []);
  const policy = result.policy;
  if (policy === null) {
    t.fail('no policy');
    return;
  }
  t.same(
    policy.excludedEntries.map((e) => e.pattern.canonical),
    ['/', '/public/*', '/static/**', '/a2a/agents/*/.well-known/agent-card.json'],
  );
  t.same(policy.excludedEntries[1]?.origin, {
    file: 'gateway.yaml',
    key: 'auth.excluded_route_paths[1]',
    line: 11,
  });
  t.equal(policy.excluded.lookup(['public', 'x'])?.pattern.canonical, '/public/*');
  t.same(policy.routes.size, 0, 'no layers, no route tries');
});

t.test(
  'compilePolicy does not validate a2a.prefix itself (config validation refuses a bad one)',
  async (t) => {
    t.same(
      compileFrom({}, { a2aPrefix: 'a2a' }).a2aPrefix,
      [],
      'a prefix without "/" gives no prefix segments',
    );
    t.same(compileFrom({}, { a2aPrefix: '/api/a2a' }).a2aPrefix, ['api', 'a2a']);
    t.same(
      compileFrom({}, { a2aPrefix: '/x/*' }).a2aPrefix,
      ['x', '*'],
      'a wildcard is kept as "*"',
    );
    const policy = compileFrom({ 'POST /agents/*/runs': ['agents:run'] }, { a2aPrefix: 'a2a' });
    t.equal(
      route(policy, 'POST /agents/a1/runs')?.family,
      'agents',
      'REST namespaces still work with no prefix',
    );
  },
);
