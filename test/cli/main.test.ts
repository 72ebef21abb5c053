import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

t.test('the bin runs as a real process and sets the exit code', async (t) => {
  const ok = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'check', '--config', 'gateway.yaml'], { cwd: ROOT });
  t.match(ok.stdout, /gateway\.yaml: valid/);
  const bad = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'check', '--config', 'missing.yaml'], { cwd: ROOT }).catch((e: { code: number; stderr: string }) => e);
  t.equal((bad as { code: number }).code, 1);
  t.match((bad as { stderr: string }).stderr, /missing\.yaml/);
});
