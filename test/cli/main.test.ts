import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
// The child loads TypeScript with this process's own loader flags (tap's), so its coverage maps
// onto the same transpiled lines as ours; a different loader (plain tsx) would corrupt the merge.
const node = (args: string[]) => [...process.execArgv, ...args];

t.test('the bin runs as a real process and sets the exit code', async (t) => {
  const ok = await run(
    process.execPath,
    node(['src/cli/main.ts', 'check', '--config', 'gateway.yaml']),
    {
      cwd: ROOT,
    },
  );
  t.match(ok.stdout, /gateway\.yaml: valid/);
  const bad = await run(
    process.execPath,
    node(['src/cli/main.ts', 'check', '--config', 'missing.yaml']),
    {
      cwd: ROOT,
    },
  ).catch((e: { code: number; stderr: string }) => e);
  t.equal((bad as { code: number }).code, 1);
  t.match((bad as { stderr: string }).stderr, /missing\.yaml/);
});

t.test('the bin: check --help and --version exit 0 on stdout', async (t) => {
  const help = await run(process.execPath, node(['src/cli/main.ts', 'check', '--help']), {
    cwd: ROOT,
  });
  t.match(help.stdout, /^usage: scopegate check \[options\]\n/);
  t.match(help.stdout, /--strict/);
  t.equal(help.stderr, '');
  const { version } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  const printed = await run(process.execPath, node(['src/cli/main.ts', '--version']), {
    cwd: ROOT,
  });
  t.equal(printed.stdout, `${version}\n`);
});
