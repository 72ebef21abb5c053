import t from 'tap';
import { DEFAULT_EXCLUDED_ROUTE_PATHS, type CompiledPolicy } from '../../src/policy/compile.js';
import {
  decide,
  isExcluded,
  lookupRoute,
  resourceOf,
  type DecideOptions,
  type DecisionReason,
} from '../../src/policy/decide.js';
import type { ResourceRef } from '../../src/policy/scopes.js';
import {
  compileFrom,
  grantsOf,
  layer,
  segmentsOf,
  SPEC_DEFAULTS,
  type PolicyOptions,
} from '../fixtures/policy.js';

const RBAC: DecideOptions = { enforce: true, strictListing: false };
const STRICT: DecideOptions = { enforce: true, strictListing: true };
const OFF: DecideOptions = { enforce: false, strictListing: false };

interface Expect {
  readonly allow: boolean;
  readonly reason: DecisionReason;
  readonly required?: readonly string[];
  readonly missing?: readonly string[];
  readonly resource?: ResourceRef | null;
  readonly accessible?: readonly string[] | null;
  /** The matched pattern's text, or null for no match. */
  readonly pattern?: string | null;
}

interface Row {
  readonly name: string;
  /** `METHOD /path`, path already normalized. */
  readonly request: string;
  readonly scopes: readonly string[];
  readonly options?: DecideOptions;
  readonly expect: Expect;
}

/** The assertions `run` needs (any tap test satisfies it). */
interface Asserts {
  same(found: unknown, wanted: unknown, message: string): boolean;
  ok(value: unknown, message: string): boolean;
}

function run(t: Asserts, policy: CompiledPolicy, rows: readonly Row[], adminScope?: string): void {
  for (const row of rows) {
    const [method, path] = row.request.split(' ') as [string, string];
    const d = decide(
      policy,
      method,
      segmentsOf(path),
      grantsOf(row.scopes, adminScope),
      row.options ?? RBAC,
    );
    const actual: Record<string, unknown> = { allow: d.allow, reason: d.reason };
    const e = row.expect;
    if (e.required !== undefined) actual.required = d.required.map((r) => r.raw);
    if (e.missing !== undefined) actual.missing = d.missing.map((r) => r.raw);
    if (e.resource !== undefined) actual.resource = d.resource;
    if (e.accessible !== undefined) actual.accessible = d.accessibleResourceIds;
    if (e.pattern !== undefined) actual.pattern = d.route === null ? null : d.route.pattern.text;
    t.same(actual, e, row.name);
    if (!d.allow)
      t.ok(
        d.missing.length > 0 || d.reason === 'route_unmapped',
        `${row.name}: a deny says what is missing`,
      );
    if (d.allow) t.same(d.missing, [], `${row.name}: an allow has nothing missing`);
  }
}

const defaults = compileFrom([layer('policies/defaults.yaml', SPEC_DEFAULTS)]);

t.test('resourceOf: the resource context a path carries', async (t) => {
  const rows: { name: string; path: string; prefix?: string[]; expected: ResourceRef | null }[] = [
    { name: '/agents/<id>', path: '/agents/a1', expected: { family: 'agents', id: 'a1' } },
    {
      name: '/teams/<id>/runs/<run>',
      path: '/teams/t1/runs/r1',
      expected: { family: 'teams', id: 't1' },
    },
    { name: '/workflows/<id>', path: '/workflows/w1', expected: { family: 'workflows', id: 'w1' } },
    { name: 'the listing /agents carries no id', path: '/agents', expected: null },
    { name: 'the root carries no id', path: '/', expected: null },
    { name: '/sessions/<id> is no resource family', path: '/sessions/s1', expected: null },
    { name: 'family names are case-sensitive', path: '/Agents/a1', expected: null },
    {
      name: '<a2a>/agents/<id>/…',
      path: '/a2a/agents/a1/v1/message:send',
      expected: { family: 'agents', id: 'a1' },
    },
    { name: '<a2a>/teams/<id>', path: '/a2a/teams/t1', expected: { family: 'teams', id: 't1' } },
    { name: '<a2a>/agents carries no id', path: '/a2a/agents', expected: null },
    { name: '<a2a>/message/send is no family path', path: '/a2a/message/send', expected: null },
    {
      name: 'a family under another first segment is no resource',
      path: '/other/agents/a1',
      expected: null,
    },
    {
      name: 'multi-segment prefix /api/a2a',
      path: '/api/a2a/workflows/w1/v1/message:send',
      prefix: ['api', 'a2a'],
      expected: { family: 'workflows', id: 'w1' },
    },
    {
      name: 'a partial multi-segment prefix is no prefix',
      path: '/api/agents/a1',
      prefix: ['api', 'a2a'],
      expected: null,
    },
    {
      name: 'a wrong second prefix segment is no prefix',
      path: '/api/x/agents/a1',
      prefix: ['api', 'a2a'],
      expected: null,
    },
    {
      name: 'the default prefix is not used when another is configured',
      path: '/a2a/agents/a1',
      prefix: ['api', 'a2a'],
      expected: null,
    },
    {
      name: 'with no prefix, REST families still count',
      path: '/agents/a1',
      prefix: [],
      expected: { family: 'agents', id: 'a1' },
    },
    { name: 'with no prefix, other paths carry nothing', path: '/x/y', prefix: [], expected: null },
  ];
  for (const row of rows)
    t.same(resourceOf(segmentsOf(row.path), row.prefix ?? ['a2a']), row.expected, row.name);
});

t.test(
  'lookupRoute: HEAD is looked up as GET; a method without patterns finds nothing',
  async (t) => {
    t.equal(lookupRoute(defaults, 'HEAD', ['agents', 'a1'])?.pattern.text, 'GET /agents/*');
    t.equal(lookupRoute(defaults, 'GET', ['agents', 'a1'])?.pattern.text, 'GET /agents/*');
    t.equal(lookupRoute(defaults, 'PUT', ['agents', 'a1']), null, 'no PUT patterns at all');
    t.equal(lookupRoute(defaults, 'GET', ['nowhere']), null, 'no match');
    t.equal(lookupRoute(defaults, 'get', ['config']), null, 'methods are case-sensitive');
  },
);

t.test('isExcluded: exact paths, `*`, `**` and the root, whatever the method', async (t) => {
  const byDefault = compileFrom({}, { excluded: DEFAULT_EXCLUDED_ROUTE_PATHS });
  const rows: [string, boolean][] = [
    ['/', true],
    ['/health', true],
    ['/info', true],
    ['/docs', true],
    ['/redoc', true],
    ['/openapi.json', true],
    ['/docs/oauth2-redirect', true],
    ['/health/deep', false],
    ['/docs/other', false],
    ['/Health', false],
    ['/agents', false],
  ];
  for (const [path, expected] of rows)
    t.equal(isExcluded(byDefault, segmentsOf(path)), expected, `default list: ${path}`);

  const custom = compileFrom(
    {},
    {
      excluded: [
        '/public/*',
        '/static/**',
        '/exact',
        '{prefix}/agents/*/.well-known/agent-card.json',
      ],
    },
  );
  const customRows: [string, boolean][] = [
    ['/public/a', true],
    ['/public/a/b', false],
    ['/public', false],
    ['/static/a', true],
    ['/static/a/b/c', true],
    ['/static', false],
    ['/exact', true],
    ['/exact/x', false],
    ['/a2a/agents/a1/.well-known/agent-card.json', true],
    ['/', false],
    ['/health', false],
  ];
  for (const [path, expected] of customRows)
    t.equal(isExcluded(custom, segmentsOf(path)), expected, `custom list: ${path}`);
  t.equal(
    isExcluded(compileFrom({}), []),
    false,
    'an empty list excludes nothing, not even the root',
  );
});

t.test(
  'per-resource scopes are honoured for agents, teams and workflows on paths carrying the id',
  async (t) => {
    run(t, defaults, [
      {
        name: '`agents:<id>:run` satisfies `POST /agents/{id}/runs`',
        request: 'POST /agents/a1/runs',
        scopes: ['agents:a1:run'],
        expect: {
          allow: true,
          reason: 'scopes_satisfied',
          required: ['agents:run'],
          resource: { family: 'agents', id: 'a1' },
          pattern: 'POST /agents/*/runs',
        },
      },
      {
        name: '`agents:*:run` ≡ `agents:run` on /agents/<id>/runs',
        request: 'POST /agents/a1/runs',
        scopes: ['agents:*:run'],
        expect: { allow: true, reason: 'scopes_satisfied' },
      },
      {
        name: '`agents:run` satisfies `POST /agents/{id}/runs`',
        request: 'POST /agents/a1/runs',
        scopes: ['agents:run'],
        expect: { allow: true, reason: 'scopes_satisfied' },
      },
      {
        name: '`agents:<other>:run` does not satisfy `POST /agents/{id}/runs`',
        request: 'POST /agents/a1/runs',
        scopes: ['agents:a2:run'],
        expect: { allow: false, reason: 'insufficient_scope', missing: ['agents:run'] },
      },
      {
        name: '`agents:<id>:read` does not satisfy a run',
        request: 'POST /agents/a1/runs/r1/cancel',
        scopes: ['agents:a1:read'],
        expect: { allow: false, reason: 'insufficient_scope', missing: ['agents:run'] },
      },
      {
        name: '`agents:<id>:delete` satisfies `DELETE /agents/{id}`',
        request: 'DELETE /agents/a1',
        scopes: ['agents:a1:delete'],
        expect: { allow: true, reason: 'scopes_satisfied', required: ['agents:delete'] },
      },
      {
        name: '`agents:<id>:write` does not satisfy `POST /agents` (no id in the path)',
        request: 'POST /agents',
        scopes: ['agents:a1:write'],
        expect: {
          allow: false,
          reason: 'insufficient_scope',
          missing: ['agents:write'],
          resource: null,
        },
      },
      {
        name: '`teams:<id>:run` satisfies `POST /teams/{id}/runs`',
        request: 'POST /teams/t1/runs',
        scopes: ['teams:t1:run'],
        expect: { allow: true, reason: 'scopes_satisfied' },
      },
      {
        name: '`workflows:<id>:read` satisfies `GET /workflows/{id}`',
        request: 'GET /workflows/w1',
        scopes: ['workflows:w1:read'],
        expect: { allow: true, reason: 'scopes_satisfied' },
      },
      {
        name: '`agents:<id>:run` does not satisfy `POST /teams/{same id}/runs`',
        request: 'POST /teams/a1/runs',
        scopes: ['agents:a1:run'],
        expect: { allow: false, reason: 'insufficient_scope', missing: ['teams:run'] },
      },
      {
        name: '`agents:<id>:run` satisfies the A2A `message:send` of that agent',
        request: 'POST /a2a/agents/a1/v1/message:send',
        scopes: ['agents:a1:run'],
        expect: {
          allow: true,
          reason: 'scopes_satisfied',
          resource: { family: 'agents', id: 'a1' },
        },
      },
      {
        name: '`agents:<other>:run` does not satisfy the A2A `message:send`',
        request: 'POST /a2a/agents/a1/v1/message:send',
        scopes: ['agents:a2:run'],
        expect: { allow: false, reason: 'insufficient_scope', missing: ['agents:run'] },
      },
      {
        name: 'a per-resource scope does not pass the dynamic-dispatch gate (no id on the route)',
        request: 'POST /a2a/message/send',
        scopes: ['agents:a1:run'],
        expect: {
          allow: false,
          reason: 'insufficient_scope',
          missing: ['agents:run'],
          resource: null,
        },
      },
    ]);
  },
);

t.test(
  'per-resource scopes of other families grant nothing; the system: alias works both ways',
  async (t) => {
    const withSystem = compileFrom([
      layer('policies/defaults.yaml', SPEC_DEFAULTS),
      layer('gateway.yaml', { 'POST /config/reload': ['system:write'] }),
    ]);
    run(t, withSystem, [
      {
        name: 'a `sessions:abc:read` scope grants nothing on `GET /sessions/abc`',
        request: 'GET /sessions/abc',
        scopes: ['sessions:abc:read'],
        expect: {
          allow: false,
          reason: 'insufficient_scope',
          missing: ['sessions:read'],
          resource: null,
        },
      },
      {
        name: '`sessions:*:read` is the global form',
        request: 'GET /sessions/abc',
        scopes: ['sessions:*:read'],
        expect: { allow: true, reason: 'scopes_satisfied' },
      },
      {
        name: 'a caller`s `system:read` satisfies `GET /config`',
        request: 'GET /config',
        scopes: ['system:read'],
        expect: { allow: true, reason: 'scopes_satisfied', required: ['config:read'] },
      },
      {
        name: 'a required `system:write` is satisfied by `config:write`',
        request: 'POST /config/reload',
        scopes: ['config:write'],
        expect: { allow: true, reason: 'scopes_satisfied', required: ['system:write'] },
      },
      {
        name: 'a required `system:write` is satisfied by `system:write`',
        request: 'POST /config/reload',
        scopes: ['system:write'],
        expect: { allow: true, reason: 'scopes_satisfied' },
      },
      {
        name: 'a required `system:write` is not satisfied by `config:read`',
        request: 'POST /config/reload',
        scopes: ['config:read'],
        expect: { allow: false, reason: 'insufficient_scope', missing: ['system:write'] },
      },
    ]);
  },
);

t.test('the admin scope satisfies everything; a custom admin scope replaces it', async (t) => {
  run(t, defaults, [
    {
      name: '`agent_os:admin` passes a mapped route',
      request: 'DELETE /sessions/s1',
      scopes: ['agent_os:admin'],
      expect: { allow: true, reason: 'admin', required: ['sessions:delete'], missing: [] },
    },
    {
      name: '`agent_os:admin` passes the family floor',
      request: 'PUT /agents/a1',
      scopes: ['agent_os:admin'],
      expect: { allow: true, reason: 'admin', required: ['agents:run'] },
    },
    {
      name: '`agent_os:admin` sees the whole listing',
      request: 'GET /agents',
      scopes: ['agent_os:admin'],
      expect: { allow: true, reason: 'admin', accessible: null },
    },
  ]);
  const custom = compileFrom(
    [
      layer('policies/defaults.yaml', SPEC_DEFAULTS),
      layer('gateway.yaml', { 'POST /admin/reset': ['root:all'] }),
    ],
    { adminScope: 'root:all' },
  );
  run(
    t,
    custom,
    [
      {
        name: '`root:all` satisfies a family route',
        request: 'POST /agents/a1/runs',
        scopes: ['root:all'],
        expect: { allow: true, reason: 'admin' },
      },
      {
        name: '`root:all` satisfies `GET /config`',
        request: 'GET /config',
        scopes: ['root:all'],
        expect: { allow: true, reason: 'admin' },
      },
      {
        name: '`root:all` satisfies a route requiring the admin scope',
        request: 'POST /admin/reset',
        scopes: ['root:all'],
        expect: { allow: true, reason: 'admin', required: ['root:all'] },
      },
      {
        name: '`root:all` sees the whole listing',
        request: 'GET /teams',
        scopes: ['root:all'],
        expect: { allow: true, reason: 'admin', accessible: null },
      },
      {
        name: '`agent_os:admin` then grants nothing on `GET /config`',
        request: 'GET /config',
        scopes: ['agent_os:admin'],
        expect: { allow: false, reason: 'insufficient_scope', missing: ['config:read'] },
      },
      {
        name: '`agent_os:admin` then grants nothing on a family route',
        request: 'POST /agents/a1/runs',
        scopes: ['agent_os:admin'],
        expect: { allow: false, reason: 'insufficient_scope', missing: ['agents:run'] },
      },
      {
        name: '`agent_os:admin` then does not pass a route requiring the admin scope',
        request: 'POST /admin/reset',
        scopes: ['agent_os:admin', 'config:write'],
        expect: { allow: false, reason: 'insufficient_scope', missing: ['root:all'] },
      },
      {
        name: '`agent_os:admin` then gets a filtered, empty listing',
        request: 'GET /agents',
        scopes: ['agent_os:admin'],
        expect: { allow: true, reason: 'listing_filtered', accessible: [] },
      },
    ],
    'root:all',
  );
});

t.test('required scopes are ANDed; `[]` requires nothing', async (t) => {
  const policy = compileFrom({
    'POST /reports': ['reports:write', 'config:read'],
    'GET /status': [],
  });
  run(t, policy, [
    {
      name: 'both scopes pass',
      request: 'POST /reports',
      scopes: ['config:read', 'reports:write'],
      expect: {
        allow: true,
        reason: 'scopes_satisfied',
        required: ['reports:write', 'config:read'],
      },
    },
    {
      name: 'one of two is 403 with the other missing',
      request: 'POST /reports',
      scopes: ['config:read'],
      expect: { allow: false, reason: 'insufficient_scope', missing: ['reports:write'] },
    },
    {
      name: 'none of two is 403 with both missing, in the configured order',
      request: 'POST /reports',
      scopes: [],
      expect: {
        allow: false,
        reason: 'insufficient_scope',
        missing: ['reports:write', 'config:read'],
      },
    },
    {
      name: '`[]` requires nothing: no scopes pass',
      request: 'GET /status',
      scopes: [],
      expect: { allow: true, reason: 'no_scopes_required', required: [], pattern: 'GET /status' },
    },
  ]);
});

t.test(
  'remapping `GET /agents/*` to another scope still requires `agents:read` (override scopes, then native)',
  async (t) => {
    const policy = compileFrom([
      layer('policies/defaults.yaml', SPEC_DEFAULTS),
      layer('gateway.yaml', { 'GET /agents/*': ['custom:read'] }),
    ]);
    run(t, policy, [
      {
        name: 'the override scope alone is 403: `agents:read` is missing',
        request: 'GET /agents/a1',
        scopes: ['custom:read'],
        expect: {
          allow: false,
          reason: 'insufficient_scope',
          required: ['custom:read', 'agents:read'],
          missing: ['agents:read'],
        },
      },
      {
        name: 'the native scope alone is 403: the override scope is missing',
        request: 'GET /agents/a1',
        scopes: ['agents:read'],
        expect: { allow: false, reason: 'insufficient_scope', missing: ['custom:read'] },
      },
      {
        name: 'no scopes: both missing, override first then native',
        request: 'GET /agents/a1',
        scopes: [],
        expect: {
          allow: false,
          reason: 'insufficient_scope',
          missing: ['custom:read', 'agents:read'],
        },
      },
      {
        name: 'both pass',
        request: 'GET /agents/a1',
        scopes: ['custom:read', 'agents:read'],
        expect: { allow: true, reason: 'scopes_satisfied' },
      },
      {
        name: 'the per-resource native scope counts',
        request: 'GET /agents/a1',
        scopes: ['custom:read', 'agents:a1:read'],
        expect: { allow: true, reason: 'scopes_satisfied' },
      },
      {
        name: 'HEAD follows the remapped GET',
        request: 'HEAD /agents/a1',
        scopes: ['agents:read'],
        expect: { allow: false, reason: 'insufficient_scope', missing: ['custom:read'] },
      },
    ]);
  },
);

t.test('a literal beats a wildcard whatever the file order', async (t) => {
  const literal = { 'GET /components/*/configs/current': ['current:read'] };
  const wildcard = { 'GET /components/*/configs/*': ['configs:read'] };
  const orders: [string, CompiledPolicy][] = [
    ['literal first in one file', compileFrom({ ...literal, ...wildcard })],
    ['wildcard first in one file', compileFrom({ ...wildcard, ...literal })],
    [
      'literal in the earlier file',
      compileFrom([layer('a.yaml', literal), layer('b.yaml', wildcard)]),
    ],
    [
      'wildcard in the earlier file',
      compileFrom([layer('a.yaml', wildcard), layer('b.yaml', literal)]),
    ],
  ];
  for (const [name, policy] of orders) {
    run(t, policy, [
      {
        name: `[${name}] the literal takes /configs/current`,
        request: 'GET /components/c1/configs/current',
        scopes: [],
        expect: {
          allow: false,
          reason: 'insufficient_scope',
          missing: ['current:read'],
          pattern: 'GET /components/*/configs/current',
        },
      },
      {
        name: `[${name}] \`*\` takes any other config`,
        request: 'GET /components/c1/configs/v2',
        scopes: ['configs:read'],
        expect: { allow: true, reason: 'scopes_satisfied', pattern: 'GET /components/*/configs/*' },
      },
    ]);
  }
});

t.test(
  'wildcards: `*` never crosses "/", `**` needs one or more segments, fallbacks',
  async (t) => {
    const policy = compileFrom(
      {
        'GET /files/*': ['files:read'],
        'GET /blobs/**': ['blobs:read'],
        'GET /docs/b/c': ['c:read'],
        'GET /docs/*/d': ['d:read'],
        'GET /docs/**': ['docs:read'],
      },
      { unmappedRoutes: 'deny' },
    );
    run(t, policy, [
      {
        name: '`*` matches one segment',
        request: 'GET /files/f1',
        scopes: ['files:read'],
        expect: { allow: true, reason: 'scopes_satisfied', pattern: 'GET /files/*' },
      },
      {
        name: '`*` never matches across "/"',
        request: 'GET /files/f1/raw',
        scopes: ['files:read'],
        expect: { allow: false, reason: 'route_unmapped', pattern: null },
      },
      {
        name: '`*` does not match zero segments',
        request: 'GET /files',
        scopes: ['files:read'],
        expect: { allow: false, reason: 'route_unmapped' },
      },
      {
        name: '`**` matches one segment',
        request: 'GET /blobs/b1',
        scopes: ['blobs:read'],
        expect: { allow: true, reason: 'scopes_satisfied', pattern: 'GET /blobs/**' },
      },
      {
        name: '`**` matches several segments',
        request: 'GET /blobs/b1/x/y',
        scopes: ['blobs:read'],
        expect: { allow: true, reason: 'scopes_satisfied', pattern: 'GET /blobs/**' },
      },
      {
        name: '`**` does not match zero segments',
        request: 'GET /blobs',
        scopes: ['blobs:read'],
        expect: { allow: false, reason: 'route_unmapped' },
      },
      {
        name: 'a literal branch leading nowhere falls back to its `*` sibling',
        request: 'GET /docs/b/d',
        scopes: ['d:read'],
        expect: { allow: true, reason: 'scopes_satisfied', pattern: 'GET /docs/*/d' },
      },
      {
        name: 'a `*` branch leading nowhere falls back to `**`',
        request: 'GET /docs/x/e',
        scopes: ['docs:read'],
        expect: { allow: true, reason: 'scopes_satisfied', pattern: 'GET /docs/**' },
      },
      {
        name: 'the literal branch wins where it leads somewhere',
        request: 'GET /docs/b/c',
        scopes: ['d:read', 'docs:read'],
        expect: {
          allow: false,
          reason: 'insufficient_scope',
          missing: ['c:read'],
          pattern: 'GET /docs/b/c',
        },
      },
    ]);
  },
);

t.test('the family floor: GET → read, other methods → run', async (t) => {
  run(t, defaults, [
    {
      name: '`GET /agents/x/runs` is not matched by `GET /agents/*` and falls to the floor',
      request: 'GET /agents/a1/runs',
      scopes: [],
      expect: {
        allow: false,
        reason: 'insufficient_scope',
        required: ['agents:read'],
        missing: ['agents:read'],
        pattern: null,
        resource: { family: 'agents', id: 'a1' },
      },
    },
    {
      name: 'the floor honours per-resource scopes',
      request: 'GET /agents/a1/runs',
      scopes: ['agents:a1:read'],
      expect: { allow: true, reason: 'scopes_satisfied', required: ['agents:read'] },
    },
    {
      name: 'the floor refuses another id',
      request: 'GET /agents/a1/runs',
      scopes: ['agents:a2:read'],
      expect: { allow: false, reason: 'insufficient_scope', missing: ['agents:read'] },
    },
    {
      name: 'HEAD is floored as GET',
      request: 'HEAD /teams/t1/members',
      scopes: ['teams:t1:read'],
      expect: { allow: true, reason: 'scopes_satisfied', required: ['teams:read'] },
    },
    {
      name: 'POST under /workflows/<id> needs `workflows:run`',
      request: 'POST /workflows/w1/anything',
      scopes: ['workflows:read'],
      expect: { allow: false, reason: 'insufficient_scope', missing: ['workflows:run'] },
    },
    {
      name: 'an unmapped method on `/agents/<id>` itself (PUT) needs `agents:run`',
      request: 'PUT /agents/a1',
      scopes: [],
      expect: {
        allow: false,
        reason: 'insufficient_scope',
        required: ['agents:run'],
        missing: ['agents:run'],
        pattern: null,
      },
    },
    {
      name: 'OPTIONS on `/agents/<id>` needs `agents:run`',
      request: 'OPTIONS /agents/a1',
      scopes: ['agents:a1:run'],
      expect: { allow: true, reason: 'scopes_satisfied', required: ['agents:run'] },
    },
    {
      name: 'the floor applies under the A2A prefix',
      request: 'POST /a2a/teams/t1/v1/tasks:cancel',
      scopes: ['teams:read'],
      expect: { allow: false, reason: 'insufficient_scope', missing: ['teams:run'], pattern: null },
    },
    {
      name: 'the floor under the A2A prefix honours per-resource scopes',
      request: 'GET /a2a/teams/t1/v1/tasks',
      scopes: ['teams:t1:read'],
      expect: { allow: true, reason: 'scopes_satisfied', required: ['teams:read'] },
    },
  ]);

  const glob = compileFrom({ 'GET /**': ['any:read'], 'POST /*/*': [] });
  run(t, glob, [
    {
      name: 'an unrelated `GET /**` match still needs the floor, after its own scopes',
      request: 'GET /agents/a1/runs',
      scopes: ['any:read'],
      expect: {
        allow: false,
        reason: 'insufficient_scope',
        required: ['any:read', 'agents:read'],
        missing: ['agents:read'],
        pattern: 'GET /**',
      },
    },
    {
      name: 'with both, the `GET /**` match passes',
      request: 'GET /agents/a1/runs',
      scopes: ['any:read', 'agents:a1:read'],
      expect: { allow: true, reason: 'scopes_satisfied' },
    },
    {
      name: 'an unrelated `POST /*/*: []` on /agents/<id> still needs `agents:run`',
      request: 'POST /agents/a1',
      scopes: [],
      expect: {
        allow: false,
        reason: 'insufficient_scope',
        required: ['agents:run'],
        pattern: 'POST /*/*',
      },
    },
    {
      name: '`POST /*/*: []` elsewhere needs nothing',
      request: 'POST /sessions/s1',
      scopes: [],
      expect: { allow: true, reason: 'no_scopes_required', required: [] },
    },
  ]);

  const deny = compileFrom([layer('policies/defaults.yaml', SPEC_DEFAULTS)], {
    unmappedRoutes: 'deny',
  });
  run(t, deny, [
    {
      name: 'under `unmapped_routes: deny` the floor still decides an unmapped family path (allowed)',
      request: 'GET /agents/a1/runs',
      scopes: ['agents:read'],
      expect: { allow: true, reason: 'scopes_satisfied', required: ['agents:read'] },
    },
    {
      name: 'under `unmapped_routes: deny` the floor still decides an unmapped family path (denied)',
      request: 'PUT /agents/a1',
      scopes: ['agents:read'],
      expect: { allow: false, reason: 'insufficient_scope', missing: ['agents:run'] },
    },
  ]);
});

t.test('the family floor under a multi-segment A2A prefix', async (t) => {
  const policy = compileFrom([layer('policies/defaults.yaml', SPEC_DEFAULTS)], {
    a2aPrefix: '/api/a2a',
  });
  run(t, policy, [
    {
      name: '`{prefix}` routes move under /api/a2a',
      request: 'POST /api/a2a/agents/a1/v1/message:send',
      scopes: ['agents:a1:run'],
      expect: {
        allow: true,
        reason: 'scopes_satisfied',
        resource: { family: 'agents', id: 'a1' },
        pattern: 'POST /api/a2a/agents/*/v1/message:send',
      },
    },
    {
      name: 'per-resource scopes are read under /api/a2a',
      request: 'POST /api/a2a/teams/t1/v1/message:send',
      scopes: ['teams:t2:run'],
      expect: { allow: false, reason: 'insufficient_scope', missing: ['teams:run'] },
    },
    {
      name: 'the floor applies under /api/a2a',
      request: 'DELETE /api/a2a/workflows/w1/v1/tasks/x',
      scopes: ['workflows:w1:run'],
      expect: {
        allow: true,
        reason: 'scopes_satisfied',
        required: ['workflows:run'],
        pattern: null,
      },
    },
    {
      name: 'the old /a2a prefix is no longer a family path',
      request: 'POST /a2a/agents/a1/v1/message:send',
      scopes: [],
      expect: { allow: true, reason: 'unmapped_allowed', resource: null, pattern: null },
    },
  ]);
});

t.test('listings: filtered for per-resource callers, whole for global and admin', async (t) => {
  run(t, defaults, [
    {
      name: 'a global scope sees the whole listing (`accessibleResourceIds` null)',
      request: 'GET /agents',
      scopes: ['agents:read'],
      expect: {
        allow: true,
        reason: 'scopes_satisfied',
        accessible: null,
        required: ['agents:read'],
      },
    },
    {
      name: 'the wildcard form sees the whole listing',
      request: 'GET /agents',
      scopes: ['agents:*:read'],
      expect: { allow: true, reason: 'scopes_satisfied', accessible: null },
    },
    {
      name: 'per-resource scopes filter to their ids, sorted',
      request: 'GET /agents',
      scopes: ['agents:b:read', 'agents:a:read', 'agents:c:run', 'teams:t:read'],
      expect: { allow: true, reason: 'listing_filtered', accessible: ['a', 'b'] },
    },
    {
      name: 'no scopes of the family: allowed, filtered to nothing',
      request: 'GET /workflows',
      scopes: ['config:read'],
      expect: { allow: true, reason: 'listing_filtered', accessible: [] },
    },
    {
      name: 'no scopes at all: allowed, filtered to nothing',
      request: 'GET /teams',
      scopes: [],
      expect: { allow: true, reason: 'listing_filtered', accessible: [], missing: [] },
    },
    {
      name: 'the admin sees the whole listing',
      request: 'GET /workflows',
      scopes: ['agent_os:admin'],
      expect: { allow: true, reason: 'admin', accessible: null },
    },
    {
      name: 'HEAD is a listing too',
      request: 'HEAD /teams',
      scopes: ['teams:t1:read'],
      expect: { allow: true, reason: 'listing_filtered', accessible: ['t1'] },
    },
    {
      name: '`strictListing` refuses a caller without the global scope',
      request: 'GET /agents',
      scopes: ['agents:a:read'],
      options: STRICT,
      expect: {
        allow: false,
        reason: 'insufficient_scope',
        missing: ['agents:read'],
        accessible: null,
      },
    },
    {
      name: '`strictListing` passes the global scope',
      request: 'GET /agents',
      scopes: ['agents:read'],
      options: STRICT,
      expect: { allow: true, reason: 'scopes_satisfied', accessible: null },
    },
    {
      name: 'POST /agents is no listing',
      request: 'POST /agents',
      scopes: [],
      expect: { allow: false, reason: 'insufficient_scope', missing: ['agents:write'] },
    },
    {
      name: '/sessions is no filtered listing',
      request: 'GET /sessions',
      scopes: [],
      expect: { allow: false, reason: 'insufficient_scope', missing: ['sessions:read'] },
    },
  ]);

  const unmapped = compileFrom({ 'GET /config': ['config:read'] });
  run(t, unmapped, [
    {
      name: 'a listing with no mapping still requires the family read scope',
      request: 'GET /agents',
      scopes: ['agents:a1:read'],
      expect: {
        allow: true,
        reason: 'listing_filtered',
        required: ['agents:read'],
        accessible: ['a1'],
        pattern: null,
      },
    },
    {
      name: 'a listing with no mapping passes the global scope',
      request: 'GET /agents',
      scopes: ['agents:read'],
      expect: { allow: true, reason: 'scopes_satisfied', accessible: null },
    },
  ]);

  const glob = compileFrom({ 'GET /**': [] });
  run(t, glob, [
    {
      name: 'a listing matched by `GET /**: []` still requires the family read scope',
      request: 'GET /teams',
      scopes: [],
      expect: {
        allow: true,
        reason: 'listing_filtered',
        required: ['teams:read'],
        accessible: [],
        pattern: 'GET /**',
      },
    },
  ]);

  const remapped = compileFrom([
    layer('policies/defaults.yaml', SPEC_DEFAULTS),
    layer('gateway.yaml', { 'GET /agents': ['custom:list'] }),
  ]);
  run(t, remapped, [
    {
      name: 'a remapped listing needs the override scope',
      request: 'GET /agents',
      scopes: ['agents:read'],
      expect: {
        allow: false,
        reason: 'insufficient_scope',
        required: ['custom:list', 'agents:read'],
        missing: ['custom:list'],
      },
    },
    {
      name: 'a remapped listing with the override scope is filtered',
      request: 'GET /agents',
      scopes: ['custom:list', 'agents:a9:read'],
      expect: { allow: true, reason: 'listing_filtered', accessible: ['a9'] },
    },
  ]);
});

t.test('unmapped routes: allow or deny', async (t) => {
  const allow = compileFrom({ 'GET /config': ['config:read'] });
  const deny = compileFrom({ 'GET /config': ['config:read'] }, { unmappedRoutes: 'deny' });
  run(t, allow, [
    {
      name: '`allow` passes an unmapped route',
      request: 'GET /unknown',
      scopes: [],
      expect: {
        allow: true,
        reason: 'unmapped_allowed',
        required: [],
        missing: [],
        resource: null,
        accessible: null,
        pattern: null,
      },
    },
    {
      name: '`allow` passes an unmapped method on a mapped path',
      request: 'DELETE /config',
      scopes: [],
      expect: { allow: true, reason: 'unmapped_allowed' },
    },
    {
      name: '`allow` passes an unmapped A2A path that is no family path',
      request: 'POST /a2a/message/send',
      scopes: [],
      expect: { allow: true, reason: 'unmapped_allowed' },
    },
  ]);
  run(t, deny, [
    {
      name: '`deny` refuses an unmapped route',
      request: 'GET /unknown',
      scopes: ['agents:read'],
      expect: {
        allow: false,
        reason: 'route_unmapped',
        required: [],
        missing: [],
        resource: null,
        pattern: null,
      },
    },
    {
      name: '`deny` refuses an unmapped route, even for the admin',
      request: 'GET /unknown',
      scopes: ['agent_os:admin'],
      expect: { allow: false, reason: 'route_unmapped' },
    },
    {
      name: '`deny` still passes a mapped route',
      request: 'GET /config',
      scopes: ['config:read'],
      expect: { allow: true, reason: 'scopes_satisfied' },
    },
  ]);
});

t.test(
  '`enforce: false` allows with reason rbac_disabled, still reporting what would be required',
  async (t) => {
    run(t, defaults, [
      {
        name: 'a mapped route',
        request: 'DELETE /sessions/s1',
        scopes: [],
        options: OFF,
        expect: {
          allow: true,
          reason: 'rbac_disabled',
          required: ['sessions:delete'],
          missing: [],
        },
      },
      {
        name: 'a family floor route',
        request: 'PUT /agents/a1',
        scopes: [],
        options: OFF,
        expect: {
          allow: true,
          reason: 'rbac_disabled',
          required: ['agents:run'],
          resource: { family: 'agents', id: 'a1' },
        },
      },
      {
        name: 'a listing is not filtered',
        request: 'GET /agents',
        scopes: ['agents:a1:read'],
        options: OFF,
        expect: { allow: true, reason: 'rbac_disabled', accessible: null },
      },
      {
        name: 'an unmapped route under `allow`',
        request: 'GET /unknown',
        scopes: [],
        options: OFF,
        expect: { allow: true, reason: 'unmapped_allowed' },
      },
    ]);
  },
);

t.test(
  'decisions depend only on the frozen policy: the same request twice gives the same answer',
  async (t) => {
    const grants = grantsOf(['agents:a1:run']);
    const one = decide(defaults, 'POST', ['agents', 'a1', 'runs'], grants, RBAC);
    const two = decide(defaults, 'POST', ['agents', 'a1', 'runs'], grants, RBAC);
    t.same(one, two);
    t.equal(one.route, two.route, 'the same frozen entry');
  },
);

t.test('policies compiled with other options keep their own prefix', async (t) => {
  const options: PolicyOptions = { a2aPrefix: '/api/a2a' };
  const policy = compileFrom([layer('policies/defaults.yaml', SPEC_DEFAULTS)], options);
  t.same(policy.a2aPrefix, ['api', 'a2a']);
  t.same(resourceOf(['api', 'a2a', 'agents', 'a1'], policy.a2aPrefix), {
    family: 'agents',
    id: 'a1',
  });
});
