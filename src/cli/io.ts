/**
 * The console a command writes to, injected so tests run commands in-process.
 * Never holds business logic.
 */

/** Where a command prints, and the environment it reads. */
export interface CommandIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The process's own console and environment. */
export const processIo: CommandIo = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
  env: process.env,
};

/** A command: argv after its name → exit code. */
export type Command = (args: readonly string[], io: CommandIo) => Promise<number>;
