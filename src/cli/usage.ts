/**
 * One description per command: the `parseArgs` options it takes, each with a one-line help text,
 * from which both the parsing and the `--help` text come (no second, hand-written list of
 * options to drift), and the package version for `--version`.
 */
import type { ParseArgsConfig } from 'node:util';

/** The `options` of a `parseArgs` call. */
type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** What `--help` says of one option: the value's placeholder (string options) and what it does. */
export interface OptionHelp {
  /** The placeholder of a string option's value (`F`, `N`); absent for a flag. */
  readonly value?: string;
  readonly text: string;
}

/** A command's options as `parseArgs` takes them, and what `--help` prints for them. */
export interface CommandSpec<O extends ParseArgsOptionsConfig> {
  /** `scopegate <usage>`, e.g. `explain [options] METHOD PATH`. */
  readonly usage: string;
  /** One line on what the command does. */
  readonly summary: string;
  readonly options: O;
  /** One entry for every option: the compiler refuses an option left undescribed. */
  readonly help: { readonly [K in keyof O]: OptionHelp };
}

/** Defines a command's spec (an identity function that keeps the option types exact). */
export function defineCommand<const O extends ParseArgsOptionsConfig>(spec: {
  readonly usage: string;
  readonly summary: string;
  readonly options: O;
  readonly help: NoInfer<{ readonly [K in keyof O]: OptionHelp }>;
}): CommandSpec<O> {
  return spec;
}

/** Whether the arguments ask for help: `--help` or `-h` before any `--`. */
export function helpRequested(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/** A default worth printing: a non-empty string (flags default to off, lists to empty). */
function defaultOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The `--help` text of a command, derived from its options. */
export function usageOf<O extends ParseArgsOptionsConfig>(spec: CommandSpec<O>): string {
  const rows: [string, string][] = Object.entries(spec.options).map(([name, option]) => {
    const help = spec.help[name] as OptionHelp;
    const flag =
      (option.short === undefined ? '    ' : `-${option.short}, `) +
      `--${name}` +
      (help.value === undefined ? '' : ` ${help.value}`);
    const fallback = defaultOf(option.default);
    const repeat = option.multiple === true ? ' (repeatable)' : '';
    return [flag, help.text + repeat + (fallback === null ? '' : ` (default: ${fallback})`)];
  });
  rows.push(['-h, --help', 'print this help and exit']);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    `usage: scopegate ${spec.usage}`,
    '',
    spec.summary,
    '',
    'options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
  ].join('\n');
}

export { packageVersion } from '../shared/package-root.js';

/** The help of `--config`, which every command takes. */
export const CONFIG_HELP: OptionHelp = { value: 'F', text: 'the gateway config file' };
