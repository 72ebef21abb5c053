/**
 * `scopegate check --format json`: one JSON document on stdout (nothing else, nothing on stderr)
 * with the documented fields, for a valid, a warned, a strict and an invalid config.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { CheckReport } from '../../src/cli/check.js';
import { runCli } from '../fixtures/cli.js';

/** Runs `check --format json` and parses stdout: it must be one JSON document. */
async function checkJson(t: Test, ...args: string[]) {
  const r = await runCli(['check', '--format', 'json', ...args]);
  t.equal(r.err, '', 'nothing on stderr');
  return { code: r.code, report: JSON.parse(r.out) as CheckReport };
}

/** The documented top-level fields, in order. */
const FIELDS = [
  'valid',
  'passed',
  'strict',
  'config',
  'policies',
  'routes',
  'excluded',
  'rbac',
  'unmapped_routes',
  'api',
  'notes',
  'warnings',
  'problems',
  'route_table',
];

t.test('the committed gateway.yaml: valid, every field present', async (t) => {
  const { code, report } = await checkJson(t, '--config', 'gateway.yaml');
  t.equal(code, 0);
  t.same(Object.keys(report), FIELDS);
  t.equal(report.valid, true);
  t.equal(report.passed, true);
  t.equal(report.config, 'gateway.yaml');
  t.equal(report.api, 'agent_os', 'the upstream mode');
  t.match(report.policies, ['policies/defaults.yaml']);
  t.ok(report.routes !== null && report.routes.count > 0);
  t.equal(
    report.routes?.count,
    Object.values(report.routes?.by_method ?? {}).reduce((a, b) => a + b, 0),
    'by_method adds up to count',
  );
  t.ok(report.excluded.length > 0);
  t.same(report.problems, []);
  t.equal(report.route_table, null);
});

t.test('warnings and notes carry code, file, key, line and message; --strict fails', async (t) => {
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
      '',
    ].join('\n'),
  });
  const config = join(dir, 'g.yaml');
  const { code, report } = await checkJson(t, '--config', config, '--routes');
  t.equal(code, 0);
  t.same(report.policies, [`${config} auth.scope_mappings`]);
  t.same(report.routes?.by_method, { GET: 3 });
  const warning = report.warnings.find((w) => w.code === 'SGWRN003');
  t.same(warning && Object.keys(warning), ['file', 'key', 'line', 'message', 'code']);
  t.match(warning, {
    file: config,
    key: 'auth.scope_mappings."GET /a/**"',
    line: 8,
    message: /never matches/,
  });
  t.match(report.route_table, /^GET$/m);
  const strict = await checkJson(t, '--config', config, '--strict');
  t.equal(strict.code, 1);
  t.equal(strict.report.valid, true);
  t.equal(strict.report.passed, false);
  t.equal(strict.report.strict, true);
});

t.test('an invalid config lists its problems; nothing is compiled', async (t) => {
  const dir = t.testdir({
    'g.yaml': [
      'policies: [missing.yaml]',
      'auth:',
      '  dev_keys: k.json',
      '  algorithm: ES256',
      '  algoritm: RS256',
      '',
    ].join('\n'),
    'p.yaml': 'policies: [p2.yaml]\nauth:\n  dev_keys: k.json\n  algorithm: ES256\n',
    'p2.yaml': 'scope_mappings:\n  GET /x: [bad scope]\n',
  });
  const rows = [
    {
      name: 'a config that does not validate',
      file: 'g.yaml',
      problems: [
        { key: 'auth.algoritm', line: 5, message: /unknown key/, code: null },
        {
          file: join(dir, 'g.yaml'),
          key: 'policies[0]',
          line: 1,
          message: `cannot read policy file ${join(dir, 'missing.yaml')} (ENOENT); "missing.yaml" is resolved against the config's folder ${dir}`,
        },
      ],
    },
    {
      name: 'a policy that does not compile',
      file: 'p.yaml',
      problems: [{ key: 'scope_mappings."GET /x"[0]', line: 2, message: /malformed scope/ }],
    },
  ];
  for (const row of rows) {
    const { code, report } = await checkJson(t, '--config', join(dir, row.file));
    t.equal(code, 1, row.name);
    t.same(Object.keys(report), FIELDS, row.name);
    t.match(
      report,
      { valid: false, passed: false, routes: null, rbac: null, unmapped_routes: null, api: null },
      row.name,
    );
    t.match(report.problems, row.problems, row.name);
  }
});

t.test('a config file that is not there: one problem with no line', async (t) => {
  const { code, report } = await checkJson(t, '--config', 'no-such.yaml');
  t.equal(code, 1);
  t.match(report.problems, [
    { file: 'no-such.yaml', key: '', line: null, message: /cannot read the config file/ },
  ]);
});

t.test('--format takes text or json only', async (t) => {
  const r = await runCli(['check', '--format', 'yaml']);
  t.equal(r.code, 2);
  t.match(r.err, /^scopegate check: --format must be text or json, not "yaml"$/m);
  t.equal(r.out, '');
  t.match((await runCli(['check', '--help'])).out, /--format text\|json/);
});

t.test(
  'a misspelt namespace and a regex-looking segment are warned, and fail --strict',
  async (t) => {
    const dir = t.testdir({
      'g.yaml': [
        'auth:',
        '  dev_keys: k.json',
        '  algorithm: ES256',
        '  scope_mappings:',
        '    GET /reports/*: [agnets:raed]',
        '    GET /reports/[0-9]+: [agents:read]',
        '',
      ].join('\n'),
    });
    const config = join(dir, 'g.yaml');
    const { code, report } = await checkJson(t, '--config', config);
    t.equal(code, 0);
    t.match(report.warnings, [
      {
        file: config,
        key: 'auth.scope_mappings."GET /reports/*"',
        line: 5,
        code: 'SGWRN012',
        message: /scope "agnets:raed": .* \(did you mean "agents:read"\?\)$/,
      },
      {
        file: config,
        key: 'auth.scope_mappings."GET /reports/[0-9]+"',
        line: 6,
        code: 'SGWRN013',
        message: /segment "\[0-9\]\+" looks like a regular expression/,
      },
    ]);
    t.equal((await runCli(['check', '--config', config, '--strict'])).code, 1);
  },
);
