import t from 'tap';
import { runCli } from '../fixtures/cli.js';

const explain = (...args: string[]) => runCli(['explain', '--config', 'gateway.yaml', ...args]);

t.test('a per-resource scope allows its own id, with the reason', async (t) => {
  const r = await explain('GET', '/agents/a1', '--scopes', 'agents:a1:read');
  t.equal(r.code, 0);
  t.match(
    r.out,
    /^route {6}GET \/agents\/\*  from policies\/defaults\.yaml:\d+ \(scope_mappings\."GET \/agents\/\*"\)$/m,
  );
  t.match(r.out, /^required {3}agents:read$/m);
  t.match(r.out, /^resource {3}agents a1$/m);
  t.match(r.out, /^decision {3}allow \(scopes_satisfied\)$/m);
  t.match(r.out, /✓ agents:read satisfied by agents:a1:read \(per-resource scope for agents a1\)/);
});

t.test('another id is denied, naming what would have satisfied it', async (t) => {
  const r = await explain('GET', '/agents/a1', '--scopes', 'agents:a2:read');
  t.match(
    r.out,
    /^decision {3}deny 403 \(insufficient_scope\): Insufficient permissions\. Required scope\(s\): agents:read$/m,
  );
  t.match(
    r.out,
    /✗ agents:read not satisfied: needs one of agents:read, agents:\*:read, agents:a1:read, agent_os:admin/,
  );
});

t.test('each way of satisfying a scope is named', async (t) => {
  const rows: Array<[string, string, RegExp]> = [
    ['/config', 'system:read', /satisfied by system:read \(legacy alias of config:\)/],
    ['/config', 'config:*:read', /satisfied by config:\*:read \(wildcard scope/],
    ['/config', 'config:read', /satisfied by config:read \(global scope\)/],
    ['/config', 'agent_os:admin', /^decision {3}allow \(admin\)$/m],
  ];
  for (const [path, scope, expected] of rows) {
    t.match((await explain('GET', path, '--scopes', scope)).out, expected, `${scope} on ${path}`);
  }
});

t.test('a listing shows its filter', async (t) => {
  const r = await explain('GET', '/agents', '--scopes', 'agents:b:read, agents:a:read');
  t.match(r.out, /^listing {4}filtered to ids: \["a","b"\]$/m);
  t.match(r.out, /~ agents:read not held: the listing is filtered/);
});

t.test('no credential, a bad path and an excluded route', async (t) => {
  t.match(
    (await explain('GET', '/config')).out,
    /^caller {5}no credential\ndecision {3}deny 401 \(credential_missing\): Not authenticated/m,
  );
  t.match((await explain('GET', '/a/..')).out, /^decision {3}deny 400 \(path_dot_segment\)/m);
  const health = await explain('head', '/health');
  t.match(health.out, /^request {4}HEAD \/health$/m);
  t.match(health.out, /^decision {3}allow \(excluded_route\)$/m);
  t.match((await explain('GET', '/', '--scopes', '')).out, /segments: \(root\)/);
});

t.test('unmapped routes and RBAC off say so', async (t) => {
  t.match(
    (await explain('GET', '/nothing?x=1', '--scopes', '')).out,
    /^path {7}\/nothing\?x=1 [\s\S]*route {6}no pattern matches[\s\S]*unmapped_routes is allow/m,
  );
  const dir = t.testdir({
    'off.yaml': 'auth:\n  dev_keys: k.json\n  algorithm: ES256\n  authorization: false\n',
    'deny.yaml': 'auth:\n  dev_keys: k.json\n  algorithm: ES256\n  unmapped_routes: deny\n',
  });
  const off = await runCli([
    'explain',
    '--config',
    `${dir}/off.yaml`,
    'GET',
    '/config',
    '--scopes',
    '',
  ]);
  t.match(off.out, /decision {3}allow \(rbac_disabled\)\n {2}RBAC is off/);
  const deny = await runCli([
    'explain',
    '--config',
    `${dir}/deny.yaml`,
    'GET',
    '/nothing',
    '--scopes',
    '',
  ]);
  t.match(
    deny.out,
    /deny 403 \(route_unmapped\): Forbidden: no scope mapping covers GET \/nothing[\s\S]*unmapped_routes is deny/,
  );
});

t.test('argument and config errors', async (t) => {
  const missing = await runCli(['explain', '--config', 'gateway.yaml', 'GET']);
  t.equal(missing.code, 2);
  t.match(missing.err, /usage: scopegate explain/);
  t.equal((await runCli(['explain', '--config', 'nope.yaml', 'GET', '/x'])).code, 1);
});

t.test('an admin-only route names the admin scope', async (t) => {
  const dir = t.testdir({
    'g.yaml':
      'auth:\n  dev_keys: k.json\n  algorithm: ES256\n  scope_mappings:\n    POST /danger: [agent_os:admin]\n',
  });
  const r = await runCli([
    'explain',
    '--config',
    `${dir}/g.yaml`,
    'POST',
    '/danger',
    '--scopes',
    'config:read',
  ]);
  t.match(r.out, /✗ agent_os:admin not satisfied: needs one of agent_os:admin$/m);
});

t.test('a config whose policy does not compile is exit 1 with every problem', async (t) => {
  const dir = t.testdir({
    'g.yaml': 'policies: [p.yaml]\nauth:\n  dev_keys: k.json\n  algorithm: ES256\n',
    'p.yaml': 'scope_mappings:\n  GET /x/**/y: [a:read]\n',
  });
  const r = await runCli(['explain', '--config', `${dir}/g.yaml`, 'GET', '/x']);
  t.equal(r.code, 1);
  t.match(r.err, /p\.yaml:2 scope_mappings\."GET \/x\/\*\*\/y": malformed pattern/);
  t.match(r.err, /invalid \(1 problem\)$/m);
});
