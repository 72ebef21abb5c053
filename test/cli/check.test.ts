import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from '../fixtures/cli.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { startOpenIdServer } from '../fixtures/openid-server.js';

t.test('the committed gateway.yaml is valid', async (t) => {
  const r = await runCli(['check', '--config', 'gateway.yaml']);
  t.equal(r.code, 0, r.err);
  t.match(r.out, /^routes {5}\d+ patterns \(DELETE \d+, GET \d+, PATCH \d+, POST \d+\)$/m);
  t.match(r.out, /^gateway\.yaml: valid/m);
  t.equal(r.err, '');
});

t.test('unknown key, malformed pattern and malformed scope are each named, exit 1', async (t) => {
  const dir = t.testdir({
    'gateway.yaml': [
      'auth:',
      '  dev_keys: keys.json',
      '  algorithm: ES256',
      '  algoritm: RS256',
      '',
    ].join('\n'),
    'bad-pattern.yaml': [
      'policies: [p.yaml]',
      'auth:',
      '  dev_keys: keys.json',
      '  algorithm: ES256',
      '  scope_mappings:',
      '    GET /agents/*x: [agents:read]',
      '    GET /ok: ["agents read"]',
      '',
    ].join('\n'),
    'p.yaml': 'scope_mappings:\n  GET /config: [config:read]\n  FETCH /x: [a:b]\n',
  });
  const unknown = await runCli(['check', '--config', `${dir}/gateway.yaml`]);
  t.equal(unknown.code, 1);
  t.match(
    unknown.err,
    /gateway\.yaml:4 auth\.algoritm: unknown key \(did you mean "algorithm"\?\)/,
  );

  const bad = await runCli(['check', '--config', `${dir}/bad-pattern.yaml`]);
  t.equal(bad.code, 1);
  t.match(
    bad.err,
    /p\.yaml:3 scope_mappings\."FETCH \/x": malformed pattern: method must be one of/,
  );
  t.match(
    bad.err,
    /bad-pattern\.yaml:6 auth\.scope_mappings\."GET \/agents\/\*x": malformed pattern: segment "\*x" contains "\*"/,
  );
  t.match(
    bad.err,
    /bad-pattern\.yaml:7 auth\.scope_mappings\."GET \/ok"\[0\]: malformed scope "agents read"/,
  );
  t.match(bad.err, /invalid \(3 problems\)/);
});

t.test('warnings are printed; --strict makes them fail', async (t) => {
  const dir = t.testdir({
    'g.yaml': [
      'policies: []',
      'auth:',
      '  dev_keys: keys.json',
      '  algorithm: ES256',
      '  scope_mappings:',
      '    GET /a/*: [x:read]',
      '    GET /a/*/**: [x:read]',
      '    GET /a/**: [x:read]',
      '    GET /agents/{id}: [custom:read]',
      '',
    ].join('\n'),
  });
  const plain = await runCli(['check', '--config', `${dir}/g.yaml`]);
  t.equal(plain.code, 0);
  t.match(
    plain.out,
    /warning: .*g\.yaml:8 auth\.scope_mappings\."GET \/a\/\*\*": GET \/a\/\*\* never matches.* \[SGWRN003\]/,
  );
  t.match(
    plain.out,
    /warning: .*g\.yaml:9 .*agents:read is required too \(a mapping adds scopes to a family route, never removes its own\) \[SGWRN004\]/,
  );
  t.match(plain.out, /valid \(2 warnings\)/);
  const strict = await runCli(['check', '--config', `${dir}/g.yaml`, '--strict']);
  t.equal(strict.code, 1);
  t.match(strict.err, /2 warning\(s\) and --strict/);
});

t.test('overrides are noted, and --routes prints the tries', async (t) => {
  const dir = t.testdir({
    'g.yaml':
      'auth:\n  dev_keys: k.json\n  algorithm: ES256\n  scope_mappings:\n    GET /config: [config:write]\n',
  });
  const r = await runCli(['check', '--config', `${dir}/g.yaml`, '--routes']);
  t.equal(r.code, 0);
  t.match(
    r.out,
    /note: .*g\.yaml:5 auth\.scope_mappings\."GET \/config": overrides policies\/defaults\.yaml:\d+/,
  );
  t.match(
    r.out,
    /policies {3}policies\/defaults\.yaml, policies\/a2a\.yaml, policies\/agui\.yaml \+ .*g\.yaml auth\.scope_mappings/,
  );
  t.match(r.out, /^GET$/m);
  t.match(r.out, /├── \/config {2}→ config:write {2}\(.*g\.yaml:5\)/);
  t.match(r.out, /\/\*\* {2}→ /);
});

t.test('a config that is not there is exit 1 naming the file', async (t) => {
  const r = await runCli(['check', '--config', 'no-such.yaml']);
  t.equal(r.code, 1);
  t.match(r.err, /no-such\.yaml/);
});

t.test('usage errors are exit 2', async (t) => {
  t.equal((await runCli(['check', '--bogus'])).code, 2);
  const none = await runCli([]);
  t.equal(none.code, 2);
  t.match(none.out, /usage: scopegate <command>/);
  const help = await runCli(['--help']);
  t.equal(help.code, 0);
  const unknown = await runCli(['frobnicate']);
  t.equal(unknown.code, 2);
  t.match(unknown.err, /unknown command "frobnicate"/);
});

t.test('RBAC off, one warning, an explicit excluded list and a root route', async (t) => {
  const dir = t.testdir({
    'g.yaml': [
      'policies: []',
      'auth:',
      '  dev_keys: k.json',
      '  algorithm: ES256',
      '  authorization: false',
      '  excluded_route_paths: [/status, /public/**]',
      '  scope_mappings:',
      '    GET /: []',
      '    GET /agents/*/stats: [metrics:read]',
      '',
    ].join('\n'),
  });
  const r = await runCli(['check', '--config', `${dir}/g.yaml`, '--routes']);
  t.equal(r.code, 0, r.err);
  t.match(r.out, /^rbac {7}off for JWT callers; unmapped routes: allow$/m);
  t.match(r.out, /^excluded {3}\/status \/public\/\*\*$/m);
  t.match(r.out, /^GET {2}→ \(no scopes\) {2}\(.*g\.yaml:8\)$/m);
  t.match(r.out, /valid \(1 warning\)$/m);
});

t.test('a single policy problem is counted in the singular', async (t) => {
  const dir = t.testdir({
    'g.yaml': 'policies: [p.yaml]\nauth:\n  dev_keys: k.json\n  algorithm: ES256\n',
    'p.yaml': 'scope_mappings:\n  GET /x: [bad scope]\n',
  });
  const r = await runCli(['check', '--config', `${dir}/g.yaml`]);
  t.equal(r.code, 1);
  t.match(r.err, /invalid \(1 problem\)$/m);
});

t.test('config and policy problems are listed together in one run', async (t) => {
  const dir = t.testdir({
    'g.yaml': [
      'policies: [missing.yaml]',
      'a2a: { prefix: "no-slash" }',
      'auth:',
      '  dev_keys: k.json',
      '  algorithm: ES256',
      '  algoritm: RS256',
      '  admin_scope: root:all',
      '  excluded_route_paths: [/ok, "bad path"]',
      '  scope_mappings:',
      '    GET /a/**/b: [x:read]',
      '    GET /c: [bad scope]',
      '',
    ].join('\n'),
    'h.yaml': 'auth: [not, a, map]\n',
  });
  const r = await runCli(['check', '--config', `${dir}/g.yaml`]);
  t.equal(r.code, 1);
  t.match(r.err, /g\.yaml:2 a2a\.prefix: /);
  t.match(r.err, /g\.yaml:6 auth\.algoritm: unknown key/);
  // The key that names the file, and the absolute path it was looked for at.
  t.match(
    r.err,
    new RegExp(
      `g\\.yaml:1 policies\\[0\\]: cannot read policy file ${join(dir, 'missing.yaml').replace(/[.\\/]/g, '\\$&')} \\(ENOENT\\); "missing\\.yaml" is resolved against the config's folder `,
    ),
  );
  t.match(r.err, /g\.yaml:8 auth\.excluded_route_paths\[1\]: malformed path pattern/);
  t.match(
    r.err,
    /g\.yaml:10 auth\.scope_mappings\."GET \/a\/\*\*\/b": malformed pattern: "\*\*" is only allowed as the last segment/,
  );
  t.match(
    r.err,
    /g\.yaml:11 auth\.scope_mappings\."GET \/c"\[0\]: malformed scope "bad scope": expected "root:all"/,
  );
  // A section of the wrong shape falls back to defaults for the best-effort policy check.
  const h = await runCli(['check', '--config', `${dir}/h.yaml`]);
  t.equal(h.code, 1);
  t.match(h.err, /h\.yaml:1 auth: /);
  t.notMatch(h.err, /policies\//, 'the shipped policies compile cleanly under the defaults');
});

t.test('check looks at the service-account store without writing anything', async (t) => {
  const dir = t.testdir({
    'fresh.yaml': 'policies: []\nauth:\n  service_accounts: { store: "sqlite:data/sa.db" }\n',
    'broken.yaml': 'policies: []\nauth:\n  service_accounts: { store: "sqlite:junk.db" }\n',
    'junk.db': 'x'.repeat(100),
  });
  const fresh = await runCli(['check', '--config', join(dir, 'fresh.yaml')]);
  t.equal(fresh.code, 0, fresh.err);
  t.notOk(existsSync(join(dir, 'data')), 'no store created, not even its folder');
  const broken = await runCli(['check', '--config', join(dir, 'broken.yaml')]);
  t.equal(broken.code, 1);
  t.match(
    broken.err,
    new RegExp(
      `^error: .*broken\\.yaml:3 auth\\.service_accounts\\.store: service-account store '${join(dir, 'junk.db')}': not a SQLite database$`,
      'm',
    ),
  );
});

t.test('with jwks_url: discover, check shows where the keys are, or why not', async (t) => {
  const idp = await startOpenIdServer(t, [RSA_KEY.publicJwk], '/realms/demo');
  const dir = t.testdir({
    'g.yaml': [
      'auth:',
      '  jwks_url: discover',
      `  issuer: "${idp.issuer}"`,
      '  service_accounts: { enabled: false }',
      '',
    ].join('\n'),
  });
  const found = await runCli(['check', '--config', `${dir}/g.yaml`]);
  t.equal(found.code, 0, found.err);
  t.match(
    found.out,
    `note: ${dir}/g.yaml:2 auth.jwks_url: discovered: the JWK set is at ${idp.jwksUrl} ` +
      `(from ${idp.configurationUrl})`,
  );
  t.match(found.out, /g\.yaml: valid$/m);
  t.same(idp.requests, { configuration: 1, jwks: 1 }, 'one attempt, as serve starts with');

  idp.serveConfiguration({ issuer: 'https://evil.example/', jwks_uri: idp.jwksUrl });
  const refused = await runCli(['check', '--config', `${dir}/g.yaml`, '--strict']);
  t.equal(refused.code, 1, 'a warning: --strict fails');
  t.match(
    refused.out,
    `warning: ${dir}/g.yaml:2 auth.jwks_url: the JWK set cannot be fetched (OpenID ` +
      `configuration at ${idp.configurationUrl}: its issuer "https://evil.example/" is not ` +
      `auth.issuer "${idp.issuer}"): tokens that need its keys are refused (401)`,
  );
  t.equal(idp.requests.jwks, 1, 'the set it named was not fetched');
});

t.test('check says which upstream API it runs in front of', async (t) => {
  const dir = t.testdir({
    'agent.yaml': 'auth:\n  dev_keys: k.json\n  algorithm: ES256\n',
    'generic.yaml': [
      'upstream: { api: generic }',
      'auth:',
      '  dev_keys: k.json',
      '  algorithm: ES256',
      '  scope_mappings:',
      '    GET /reports/*: [reports:read]',
      '',
    ].join('\n'),
  });
  const agent = await runCli(['check', '--config', `${dir}/agent.yaml`]);
  t.equal(agent.code, 0, agent.err);
  t.match(agent.out, /^api {8}agent_os$/m);
  t.match(agent.out, /unmapped routes: allow$/m);
  const generic = await runCli(['check', '--config', `${dir}/generic.yaml`]);
  t.equal(generic.code, 0, generic.err);
  t.match(generic.out, /^api {8}generic$/m);
  t.match(generic.out, /^excluded {3}$/m, 'no built-in exemption');
  t.match(generic.out, /unmapped routes: deny$/m);
  t.match(generic.out, /^policies {3}.*generic\.yaml auth\.scope_mappings$/m);
  t.match(generic.out, /^routes {5}4 patterns \(DELETE 1, GET 2, POST 1\)$/m);
});
