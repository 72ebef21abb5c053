/**
 * A problem found while loading configuration or policies, located by file, key path and line.
 * Pure data: never thrown on its own; collected into a {@link ConfigError}.
 */

import { plural } from './text.js';

/** One thing wrong with a config or policy file, named so an operator can find and fix it. */
export interface Problem {
  /** The file, as the operator wrote or passed it (relative paths stay relative). */
  readonly file: string;
  /** Dotted key path inside the file, e.g. `auth.algorithm` or `scope_mappings."GET /x"`. */
  readonly key: string;
  /** 1-based line of the key in the file, when known. */
  readonly line?: number | undefined;
  readonly message: string;
  /** Stable warning/deprecation code (`SGWRN###`, `SGDEP###`) when the problem is a warning. */
  readonly code?: string | undefined;
}

/** Renders a problem as `file:line key: message` (the form `scopegate check` prints). */
export function formatProblem(problem: Problem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  const code = problem.code === undefined ? '' : ` [${problem.code}]`;
  return problem.key === ''
    ? `${where}: ${problem.message}${code}`
    : `${where} ${problem.key}: ${problem.message}${code}`;
}

/**
 * Thrown at start-up or reload only, never on the request path: the config or a policy is
 * invalid. Carries every problem found, not just the first.
 */
export class ConfigError extends Error {
  readonly code = 'SG_ERR_CONFIG_INVALID';
  readonly problems: readonly Problem[];
  /** The parsed (interpolated) tree of a config that failed validation, when it parsed at all. */
  readonly draft: ConfigDraft | undefined;

  constructor(problems: readonly Problem[], draft?: ConfigDraft) {
    super(
      `invalid configuration (${plural(problems.length, 'problem')}):\n` +
        problems.map((p) => `  ${formatProblem(p)}`).join('\n'),
    );
    this.name = 'ConfigError';
    this.problems = problems;
    this.draft = draft;
  }
}

/**
 * A config that parsed but did not validate: enough for a best-effort look at the rest of it
 * (its policies), so one `scopegate check` lists every problem, not only the config's own.
 */
export interface ConfigDraft {
  readonly file: string;
  /** Absolute folder of the file: the base of relative paths in it. */
  readonly dir: string;
  /** The parsed, interpolated tree; shapes are unchecked. */
  readonly tree: unknown;
  lineOf(keyPath: readonly (string | number)[]): number | undefined;
}

/** Renders a key path the way problems name keys: `a.b[2]."GET /x"`. */
export function formatKeyPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(part)) out += out === '' ? part : `.${part}`;
    else out += `${out === '' ? '' : '.'}${JSON.stringify(part)}`;
  }
  return out;
}
