/**
 * `--help` / `-h` on every command and subcommand prints its usage and options (derived from the
 * options it parses) on stdout and exits 0, before any config is read; `--version` / `-v`
 * prints the version in package.json.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ACCOUNTS_CREATE, ACCOUNTS_LIST, ACCOUNTS_REVOKE } from '../../src/cli/accounts.js';
import { CHECK } from '../../src/cli/check.js';
import { EXPLAIN } from '../../src/cli/explain.js';
import { RUNTIME } from '../../src/cli/runtime.js';
import { SERVE } from '../../src/cli/serve.js';
import { TEST_POLICIES } from '../../src/cli/test-policies.js';
import { TOKEN } from '../../src/cli/token.js';
import { helpRequested, packageVersion, usageOf } from '../../src/cli/usage.js';
import { runCli } from '../fixtures/cli.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/** A command line, and the spec whose options its help must name. */
const COMMANDS = [
  { name: 'serve', argv: ['serve'], spec: SERVE },
  { name: 'runtime', argv: ['runtime'], spec: RUNTIME },
  { name: 'check', argv: ['check'], spec: CHECK },
  { name: 'explain', argv: ['explain'], spec: EXPLAIN },
  { name: 'token', argv: ['token'], spec: TOKEN },
  { name: 'test-policies', argv: ['test-policies'], spec: TEST_POLICIES },
  { name: 'accounts create', argv: ['accounts', 'create'], spec: ACCOUNTS_CREATE },
  { name: 'accounts list', argv: ['accounts', 'list'], spec: ACCOUNTS_LIST },
  { name: 'accounts revoke', argv: ['accounts', 'revoke'], spec: ACCOUNTS_REVOKE },
] as const;

t.test('every subcommand: --help and -h print its usage and every option, exit 0', async (t) => {
  for (const row of COMMANDS) {
    for (const flag of ['--help', '-h']) {
      const r = await runCli([...row.argv, flag]);
      t.equal(r.code, 0, `${row.name} ${flag}: exit 0`);
      t.equal(r.err, '', `${row.name} ${flag}: nothing on stderr`);
      t.equal(r.out, usageOf(row.spec), `${row.name} ${flag}: its usage`);
      t.match(r.out, new RegExp(`^usage: scopegate ${row.name}`), `${row.name}: names itself`);
      for (const option of Object.keys(row.spec.options)) {
        t.match(r.out, new RegExp(`--${option}\\b`), `${row.name}: names --${option}`);
      }
      t.match(r.out, /-h, --help/, `${row.name}: names --help`);
    }
  }
});

t.test('the help text: placeholders, shorts, defaults, repeatable options', async (t) => {
  const check = usageOf(CHECK);
  t.match(check, /\n {2}-c, --config F +the gateway config file \(default: gateway\.yaml\)\n/);
  t.match(check, /\n {6}--strict +exit 1 when there is any warning/);
  const token = usageOf(TOKEN);
  t.match(token, /--ttl T +lifetime: 90s, 15m, 1h or 7d \(default: 1h\)/);
  t.match(token, /--claim k=v +one more string claim \(repeatable\)\n/);
  t.match(token, /--scopes a,b +the scopes the token holds\n/, 'an empty default is not shown');
  t.match(usageOf(RUNTIME), /--insecure-unsigned-identity +development only/);
});

t.test('--help wins over other arguments and reads no config', async (t) => {
  const rows = [
    ['check', '--config', 'no-such.yaml', '--help'],
    ['explain', '-h', 'GET'],
    ['token', '--help', '--sub', ''],
    ['accounts', 'revoke', 'one', 'two', '--help'],
  ];
  for (const argv of rows) {
    const r = await runCli(argv);
    t.equal(r.code, 0, argv.join(' '));
    t.equal(r.err, '', `${argv.join(' ')}: nothing on stderr`);
    t.match(r.out, /^usage: scopegate /, argv.join(' '));
  }
});

t.test('after --, "--help" is an argument, not a request for help', async (t) => {
  t.equal(helpRequested(['--', '--help']), false);
  t.equal(helpRequested(['a', '-h']), true);
  t.equal(helpRequested([]), false);
  const r = await runCli(['explain', '--', '--help']);
  t.equal(r.code, 2, 'one positional: a usage error');
  t.equal(r.out, '');
  t.equal(r.err, usageOf(EXPLAIN));
});

t.test('accounts --help and -h print every subcommand, exit 0', async (t) => {
  for (const flag of ['--help', '-h']) {
    const r = await runCli(['accounts', flag]);
    t.equal(r.code, 0, flag);
    t.equal(r.err, '', flag);
    t.equal(
      r.out,
      [ACCOUNTS_CREATE, ACCOUNTS_LIST, ACCOUNTS_REVOKE].map(usageOf).join('\n\n'),
      `${flag}: each subcommand's help`,
    );
  }
});

t.test('scopegate --help lists every command and points at <command> --help', async (t) => {
  const r = await runCli(['--help']);
  t.equal(r.code, 0);
  for (const row of COMMANDS) t.match(r.out, `\n  ${row.spec.usage} `, row.name);
  t.match(r.out, /scopegate --version/);
  t.match(r.out, /`scopegate <command> --help` lists the options of a command\./);
});

t.test('--version and -v print the version in package.json, exit 0', async (t) => {
  for (const flag of ['--version', '-v']) {
    const r = await runCli([flag]);
    t.same(r, { code: 0, out: VERSION, err: '' }, flag);
  }
  t.equal(packageVersion(), VERSION, 'read once, the same after');
});
