/**
 * Shared start of every command that reads a config: load it and assemble the policy, printing
 * every problem by file and key. Argv handling only; the work is in config/ and gateway/.
 */
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { assemblePolicy, draftPolicyProblems, type AssembleResult } from '../gateway/assemble.js';
import { ConfigError, formatProblem } from '../shared/problem.js';
import { plural } from '../shared/text.js';
import type { CommandIo } from './io.js';

/** The config file used when `--config` is not given. */
export const DEFAULT_CONFIG = 'gateway.yaml';

/** Loads and assembles, or prints every problem to stderr and returns null. */
export function loadAndAssemble(
  file: string,
  io: CommandIo,
): { loaded: LoadedConfig; assembled: AssembleResult } | null {
  let loaded: LoadedConfig;
  try {
    loaded = loadConfig(file, { env: io.env });
  } catch (err) {
    /* c8 ignore next - loadConfig throws only ConfigError; anything else is a bug and must crash */
    if (!(err instanceof ConfigError)) throw err;
    const problems = [
      ...err.problems,
      ...(err.draft === undefined ? [] : draftPolicyProblems(err.draft)),
    ];
    for (const problem of problems) io.err(`error: ${formatProblem(problem)}`);
    io.err(`${file}: invalid (${plural(problems.length, 'problem')})`);
    return null;
  }
  const assembled = assemblePolicy(loaded);
  if (assembled.state === null) {
    for (const problem of assembled.problems) io.err(`error: ${formatProblem(problem)}`);
    io.err(`${file}: invalid (${plural(assembled.problems.length, 'problem')})`);
    return null;
  }
  return { loaded, assembled };
}
