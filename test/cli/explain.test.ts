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

t.test('an A2A JSON-RPC call is decided by the method its body names', async (t) => {
  const send = '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}';
  const get = '{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":"t9"}}';
  const denied = await explain(
    'POST',
    '/a2a/agents/a1/v1',
    '--scopes',
    'agents:a1:read',
    '--body',
    send,
  );
  t.match(
    denied.out,
    /^a2a call {3}SendMessage \(A2A 1\.0\), needs the family's run scope for the path's id$/m,
  );
  t.match(denied.out, /^required {3}agents:run$/m);
  t.match(denied.out, /^resource {3}agents a1$/m);
  t.match(
    denied.out,
    /^decision {3}deny 403 \(insufficient_scope\): Insufficient permissions\. Required scope\(s\): agents:run$/m,
  );
  const allowed = await explain(
    'POST',
    '/a2a/agents/a1/v1',
    '--scopes',
    'agents:a1:read',
    '--body',
    get,
  );
  t.match(allowed.out, /^a2a call {3}tasks\/get \(A2A 0\.3\), needs the family's read scope/m);
  t.match(allowed.out, /^decision {3}allow \(scopes_satisfied\)$/m);
  t.match(
    allowed.out,
    /✓ agents:read satisfied by agents:a1:read \(per-resource scope for agents a1\)/,
  );
});

t.test('an A2A body refused before a method is found, or no body at all', async (t) => {
  const unknown = await explain(
    'POST',
    '/a2a/teams/t1/v1',
    '--scopes',
    'teams:run',
    '--body',
    '{"jsonrpc":"2.0","method":"Nope"}',
  );
  t.match(unknown.out, /^a2a call {3}the body was refused before a known method was found$/m);
  t.match(
    unknown.out,
    /^decision {3}deny 400 \(jsonrpc_method_unknown\): Invalid A2A JSON-RPC request: the method is not an A2A method the gateway knows$/m,
  );
  t.notMatch(unknown.out, /^required/m);
  const none = await explain('POST', '/a2a/teams/t1/v1', '--scopes', 'teams:run');
  t.match(none.out, /^decision {3}deny 400 \(jsonrpc_body_not_json\)/m, 'no body is an empty body');
  // A per-operation path without a body is decided by its path alone; with one, the method must match.
  const path = await explain('POST', '/a2a/agents/a1/v1/tasks:get', '--scopes', 'agents:read');
  t.match(path.out, /^decision {3}allow \(scopes_satisfied\)$/m);
  t.notMatch(path.out, /^a2a call/m);
  const mismatch = await explain(
    'POST',
    '/a2a/agents/a1/v1/tasks:get',
    '--scopes',
    'agents:read',
    '--body',
    '{"jsonrpc":"2.0","method":"CancelTask"}',
  );
  t.match(mismatch.out, /^decision {3}deny 400 \(jsonrpc_method_path_mismatch\)/m);
  const rest = await explain(
    'POST',
    '/a2a/agents/a1/v1/message:send',
    '--scopes',
    'agents:run',
    '--body',
    '{"message":{}}',
  );
  t.match(rest.out, /^decision {3}allow \(scopes_satisfied\)$/m);
  t.notMatch(rest.out, /^a2a call/m, 'an HTTP+JSON body is not a JSON-RPC call');
});
