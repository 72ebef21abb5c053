import t from 'tap';
import { runCli } from '../fixtures/cli.js';

t.test('the shipped decision tests pass against the committed config', async (t) => {
  const r = await runCli(['test-policies', '--config', 'gateway.yaml', 'policies/tests.yaml']);
  t.equal(
    r.code,
    0,
    r.out
      .split('\n')
      .filter((l) => !l.startsWith('ok'))
      .join('\n'),
  );
  t.match(r.out, /^\d{3,} passed, 0 failed$/m);
  t.notMatch(r.out, /^FAIL/m);
});

t.test('a failing row is reported with file, line and each unmet expectation', async (t) => {
  const dir = t.testdir({
    'cases.yaml': [
      'tests:',
      '  - name: wrong status',
      '    request: GET /config',
      '    scopes: [config:read]',
      '    expect: 403',
      '    required: [config:write]',
      '    accessible_resource_ids: []',
      '  - name: right',
      '    request: GET /agents',
      '    scopes: [agents:a1:read]',
      '    expect: 200',
      '    required: [agents:read]',
      '    accessible_resource_ids: [a1]',
      '  - name: internal token gets no listing fallback',
      '    request: GET /agents',
      '    principal: internal',
      '    scopes: [agents:a1:read]',
      '    expect: 403',
      '  - name: anonymous is 403 on a mapped route',
      '    request: GET /config',
      '    principal: anonymous',
      '    expect: 403',
      '  - name: security key root passes',
      '    request: DELETE /sessions',
      '    principal: security_key',
      '    expect: 200',
      '  - name: no credential has no requirements to show',
      '    request: GET /config',
      '    expect: 401',
      '    required: []',
      '  - name: service account without scopes',
      '    request: GET /service-accounts',
      '    principal: service_account',
      '    expect: 403',
      '',
    ].join('\n'),
  });
  const r = await runCli(['test-policies', '--config', 'gateway.yaml', `${dir}/cases.yaml`]);
  t.equal(r.code, 1);
  t.match(r.out, /^FAIL {2}wrong status {2}\(.*cases\.yaml:2: GET \/config\)$/m);
  t.match(r.out, /expected 403, got 200/);
  t.match(r.out, /expected required \[config:write\], got \[config:read\]/);
  t.match(r.out, /expected accessible_resource_ids \[\], got null/);
  t.match(r.out, /matched GET \/config from policies\/defaults\.yaml:\d+/);
  t.match(r.out, /^ok {4}right$/m);
  t.match(r.out, /^6 passed, 1 failed$/m);
});

t.test('invalid test files name the file, key and line', async (t) => {
  const dir = t.testdir({
    'bad.yaml': 'tests:\n  - name: x\n    request: GET /x\n    expect: 201\n    colour: red\n',
    'missing-key.yaml': 'tests:\n  - name: x\n    request: GET /x\n',
    'syntax.yaml': 'tests: [\n',
  });
  const r = await runCli([
    'test-policies',
    '--config',
    'gateway.yaml',
    `${dir}/bad.yaml`,
    `${dir}/syntax.yaml`,
    `${dir}/missing.yaml`,
  ]);
  t.equal(r.code, 1);
  t.match(r.err, /bad\.yaml:2 tests\[0\]\.colour: unknown key\(s\): colour/);
  t.match(r.err, /bad\.yaml:\d+ tests\[0\]\.expect: /);
  t.match(r.err, /syntax\.yaml:\d+: YAML: /);
  t.match(r.err, /missing\.yaml: cannot read test file \(ENOENT\)/);
  t.match(r.out, /^0 passed, 0 failed$/m);
  const missing = await runCli([
    'test-policies',
    '--config',
    'gateway.yaml',
    `${dir}/missing-key.yaml`,
  ]);
  t.match(
    missing.err,
    /missing-key\.yaml tests\[0\]\.expect: /,
    'a missing key has no line of its own',
  );
});

t.test('usage and config errors', async (t) => {
  t.equal((await runCli(['test-policies'])).code, 2);
  t.equal((await runCli(['test-policies', '--config', 'nope.yaml', 'x.yaml'])).code, 1);
});
