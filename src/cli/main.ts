#!/usr/bin/env node
/**
 * The `scopegate` executable: argv → command. No business logic lives here.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { accounts, ACCOUNTS_CREATE, ACCOUNTS_LIST, ACCOUNTS_REVOKE } from './accounts.js';
import { check, CHECK } from './check.js';
import { explain, EXPLAIN } from './explain.js';
import { processIo, type Command, type CommandIo } from './io.js';
import { runtime, RUNTIME } from './runtime.js';
import { serve, SERVE } from './serve.js';
import { testPolicies, TEST_POLICIES } from './test-policies.js';
import { token, TOKEN } from './token.js';
import { packageVersion } from './usage.js';

const COMMANDS: Readonly<Record<string, Command>> = {
  serve,
  runtime,
  check,
  explain,
  token,
  'test-policies': testPolicies,
  accounts,
};

/** Each command line's usage (from its spec) and what it does, in the order shown. */
const SUMMARIES: readonly (readonly [string, string])[] = [
  [SERVE.usage, 'start the gateway (and the bundled runtime)'],
  [RUNTIME.usage, 'start the bundled runtime alone'],
  [CHECK.usage, 'validate config and policies, report conflicts'],
  [EXPLAIN.usage, 'show how a request is decided'],
  [TOKEN.usage, 'mint a development JWT'],
  [TEST_POLICIES.usage, 'run policy decision tests'],
  [ACCOUNTS_CREATE.usage, 'mint a service-account token (printed once)'],
  [ACCOUNTS_LIST.usage, 'list service accounts'],
  [ACCOUNTS_REVOKE.usage, 'revoke a service account'],
];

const WIDTH = Math.max(...SUMMARIES.map(([usage]) => usage.length));

const USAGE = [
  'usage: scopegate <command> [options]',
  '       scopegate --version',
  '',
  'commands:',
  ...SUMMARIES.map(([usage, text]) => `  ${usage.padEnd(WIDTH)}  ${text}`),
  '',
  '`scopegate <command> --help` lists the options of a command.',
].join('\n');

/** Runs one command line; returns the exit code. Argument errors are exit 2. */
export async function main(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(packageVersion());
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.err(`scopegate: unknown command "${name}"\n${USAGE}`);
    return 2;
  }
  try {
    return await command(rest, io);
  } catch (err) {
    /* c8 ignore next - commands report failures as exit codes; any other throw is a bug: crash */
    if (!(err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')) throw err;
    io.err(`scopegate ${name}: ${(err as Error).message}`);
    return 2;
  }
}

/** Whether this module is the process entry (also through npm's `bin` symlink). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  /* c8 ignore next - node always passes the script path when it runs a file */
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
    /* c8 ignore next 3 - only when argv[1] names no file (node -e, stdin): not the entry then */
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    /* c8 ignore start - only on an unexpected throw, which would be a bug */
    (err: unknown) => {
      process.stderr.write(`scopegate: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    },
    /* c8 ignore stop */
  );
}
