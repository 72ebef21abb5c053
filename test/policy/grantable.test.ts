/**
 * Which scopes a service account may be granted: malformed, unknown
 * (outside the built-in namespaces × actions and the merged policy), or known — and then privileged or not.
 */
import t from 'tap';
import { createScopeCatalogue, BUILT_IN_NAMESPACES } from '../../src/policy/grantable.js';
import { compileFrom } from '../fixtures/policy.js';

const catalogue = createScopeCatalogue(
  compileFrom(
    {
      'GET /reports': ['reports:read'],
      'POST /reports/*/export': ['reports:export'],
      'GET /admin-only': ['root:all'],
    },
    { adminScope: 'root:all' },
  ),
);

t.test('the built-in namespaces', async (t) => {
  t.same(BUILT_IN_NAMESPACES, [
    'config',
    'registry',
    'components',
    'agents',
    'teams',
    'workflows',
    'sessions',
    'memories',
    'learnings',
    'knowledge',
    'metrics',
    'evals',
    'traces',
    'service_accounts',
    'schedules',
    'approvals',
  ]);
  t.equal(catalogue.adminScope, 'root:all');
});

t.test('known scopes, and which are privileged', async (t) => {
  const rows: [string, boolean][] = [
    ['agents:run', false],
    ['agents:read', false],
    ['agents:a1:run', false],
    ['agents:*:run', false],
    ['teams:t1:read', false],
    ['workflows:run', false],
    ['sessions:read', false],
    ['config:read', false],
    ['system:read', false],
    ['registry:read', false],
    ['approvals:read', false],
    ['sessions:*:read', false],
    ['reports:read', false],
    ['agents:write', true],
    ['agents:a1:delete', true],
    ['system:write', true],
    ['config:write', true],
    ['memories:delete', true],
    ['service_accounts:read', true],
    ['service_accounts:write', true],
    ['service_accounts:delete', true],
    ['reports:export', true],
    ['root:all', true],
  ];
  for (const [raw, privileged] of rows) {
    const got = catalogue.classify(raw);
    t.equal(got.kind, 'known', `${raw} is known`);
    if (got.kind === 'known')
      t.equal(got.privileged, privileged, `${raw} privileged: ${privileged}`);
  }
  const admin = catalogue.classify('root:all');
  t.equal(admin.kind === 'known' && admin.scope, 'admin', 'the admin scope parses as admin');
});

t.test('unknown scopes say why', async (t) => {
  const rows: [string, string][] = [
    ['foo:read', '"foo" is not a resource namespace this gateway knows'],
    ['os:read', '"os" is not a resource namespace this gateway knows'],
    ['org:members:read', '"org" is not a resource namespace this gateway knows'],
    ['agent_os:admin', '"agent_os" is not a resource namespace this gateway knows'],
    ['config:run', '"run" is not an action of "config" (known: read, write, delete)'],
    ['agents:execute', '"execute" is not an action of "agents" (known: read, write, delete, run)'],
    ['reports:write', '"write" is not an action of "reports" (known: read, export)'],
    [
      'sessions:s1:read',
      'per-resource scopes (resource:<id>:action) exist only for agents, teams and workflows',
    ],
  ];
  for (const [raw, why] of rows) t.same(catalogue.classify(raw), { kind: 'unknown', why }, raw);
});

t.test('malformed scopes', async (t) => {
  for (const raw of [
    '',
    'agents',
    'agents read',
    'a:b:c:d',
    ':read',
    'agents:',
    'agents:x*:run',
    '*:read',
    'agents:*',
  ]) {
    t.same(catalogue.classify(raw), { kind: 'malformed' }, JSON.stringify(raw));
  }
});
