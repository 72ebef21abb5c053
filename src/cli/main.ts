#!/usr/bin/env node
/**
 * The `scopegate` executable: argv → command. No business logic lives here.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { accounts } from './accounts.js';
import { check } from './check.js';
import { explain } from './explain.js';
import { processIo, type Command, type CommandIo } from './io.js';
import { runtime } from './runtime.js';
import { serve } from './serve.js';
import { testPolicies } from './test-policies.js';
import { token } from './token.js';

const COMMANDS: Readonly<Record<string, Command>> = {
  serve,
  runtime,
  check,
  explain,
  token,
  'test-policies': testPolicies,
  accounts,
};

const USAGE = `usage: scopegate <command> [options]

commands:
  serve [--config F]                                start the gateway (and the bundled runtime)
  runtime [--config F] [--port N] [--host H]        start the bundled runtime alone
  check [--config F] [--routes] [--strict]          validate config and policies, report conflicts
  explain [--config F] METHOD PATH [--scopes a,b]  show how a request is decided
  token [--config F] --sub S --scopes a,b [--ttl 1h] [--aud X] [--claim k=v]
                                                   mint a development JWT
  test-policies [--config F] FILE...               run policy decision tests
  accounts create --name N [--scopes a,b] [--expires-in-days D | --never-expires]
                  [--allow-privileged-scopes] [--config F]
                                                   mint a service-account token (printed once)
  accounts list [--json] [--config F]              list service accounts
  accounts revoke ID [--config F]                  revoke a service account`;

/** Runs one command line; returns the exit code. Argument errors are exit 2. */
export async function main(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
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
