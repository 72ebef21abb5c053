/**
 * `scopegate check [--config F] [--routes] [--strict] [--format text|json]`: validate the config
 * and policies, compile the tries, list problems, conflicts and shadowed patterns. Exit 0 valid,
 * 1 invalid (or any warning with --strict), 2 usage.
 */
import { parseArgs } from 'node:util';
import { assembleGateway } from '../gateway/assemble.js';
import { printRoutes } from '../policy/print.js';
import { systemClock } from '../shared/clock.js';
import { formatProblem, type Problem } from '../shared/problem.js';
import { plural } from '../shared/text.js';
import type { Command } from './io.js';
import { DEFAULT_CONFIG, loadOrProblems, reportProblems } from './load.js';
import { CONFIG_HELP, defineCommand, helpRequested, usageOf } from './usage.js';

/** `scopegate check`'s options. */
export const CHECK = defineCommand({
  usage: 'check [options]',
  summary:
    'Validate the config and the policies as `serve` would (reading, never creating, key files)\n' +
    'and report notes, warnings and conflicts. Exit 0 valid, 1 invalid (or warnings with --strict).',
  options: {
    config: { type: 'string', short: 'c', default: DEFAULT_CONFIG },
    routes: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    format: { type: 'string', default: 'text' },
  },
  help: {
    config: CONFIG_HELP,
    routes: { text: 'also print the compiled route table' },
    strict: { text: 'exit 1 when there is any warning (for CI)' },
    format: {
      value: 'text|json',
      text: 'json: one JSON document on stdout (schema in docs/policy.md), nothing on stderr',
    },
  },
});

/** A problem, warning or note in the JSON report: every field always present. */
export interface CheckFinding {
  readonly file: string;
  readonly key: string;
  readonly line: number | null;
  readonly message: string;
  /** `SGWRN…` / `SGDEP…` for a warning; null otherwise. */
  readonly code: string | null;
}

/** What `check --format json` prints: stable fields, documented in docs/policy.md. */
export interface CheckReport {
  /** The config and its policies can be served (no problem). */
  readonly valid: boolean;
  /** The exit status is 0: valid, and no warning under `--strict`. */
  readonly passed: boolean;
  readonly strict: boolean;
  readonly config: string;
  /** Policy files in load order, then `<config> auth.scope_mappings` when present. */
  readonly policies: readonly string[];
  readonly routes: { readonly count: number; readonly by_method: Record<string, number> } | null;
  readonly excluded: readonly string[];
  readonly rbac: boolean | null;
  readonly unmapped_routes: string | null;
  /** `upstream.api`: `agent_os` or `generic`; null when invalid. */
  readonly api: string | null;
  readonly notes: readonly CheckFinding[];
  readonly warnings: readonly CheckFinding[];
  readonly problems: readonly CheckFinding[];
  /** The compiled route table as `--routes` prints it; null without `--routes`. */
  readonly route_table: string | null;
}

function finding(problem: Problem): CheckFinding {
  return {
    file: problem.file,
    key: problem.key,
    line: problem.line ?? null,
    message: problem.message,
    code: problem.code ?? null,
  };
}

/** The report of a config that cannot be served. */
function invalidReport(
  config: string,
  strict: boolean,
  problems: readonly Problem[],
  warnings: readonly Problem[],
): CheckReport {
  return {
    valid: false,
    passed: false,
    strict,
    config,
    policies: [],
    routes: null,
    excluded: [],
    rbac: null,
    unmapped_routes: null,
    api: null,
    notes: [],
    warnings: warnings.map(finding),
    problems: problems.map(finding),
    route_table: null,
  };
}

export const check: Command = async (args, io) => {
  if (helpRequested(args)) {
    io.out(usageOf(CHECK));
    return 0;
  }
  const { values } = parseArgs({
    args: [...args],
    options: CHECK.options,
    strict: true,
    allowPositionals: false,
  });
  const json = values.format === 'json';
  if (!json && values.format !== 'text') {
    io.err(`scopegate check: --format must be text or json, not "${values.format}"`);
    io.err(usageOf(CHECK));
    return 2;
  }
  const emit = (report: CheckReport): number => {
    io.out(JSON.stringify(report, null, 2));
    return report.passed ? 0 : 1;
  };
  const { loaded, problems: loadProblems } = loadOrProblems(values.config, io.env);
  if (loaded === null) {
    if (json) return emit(invalidReport(values.config, values.strict, loadProblems, []));
    reportProblems(values.config, loadProblems, io);
    return 1;
  }
  // The whole gateway is assembled in check-only mode: keys and JWKS files are read (never
  // created), so `check` refuses exactly what `serve` would refuse.
  const assembly = await assembleGateway(loaded, { clock: systemClock, checkOnly: true });
  const assembled = assembly.policy;
  const warnings = assembly.warnings;
  if (assembly.problems.length > 0 || assembled.state === null) {
    if (json) return emit(invalidReport(loaded.file, values.strict, assembly.problems, warnings));
    reportProblems(values.config, assembly.problems, io);
    return 1;
  }
  const policy = assembled.state.policy;
  const byMethod: Record<string, number> = {};
  for (const method of [...policy.routes.keys()].sort((a, b) => a.localeCompare(b)))
    byMethod[method] = policy.entries.filter((e) => e.pattern.method === method).length;
  const files = assembled.policyFiles.map((f) => f.file);
  const inline =
    loaded.config.auth.scope_mappings === undefined ? null : `${loaded.file} auth.scope_mappings`;
  const report: CheckReport = {
    valid: true,
    passed: !(values.strict && warnings.length > 0),
    strict: values.strict,
    config: loaded.file,
    policies: inline === null ? files : [...files, inline],
    routes: { count: policy.entries.length, by_method: byMethod },
    excluded: policy.excludedEntries.map((e) => e.pattern.canonical),
    rbac: assembled.state.rbacEnabled,
    unmapped_routes: policy.unmappedRoutes,
    api: loaded.config.upstream.api,
    notes: assembled.notes.map(finding),
    warnings: warnings.map(finding),
    problems: [],
    route_table: values.routes ? printRoutes(policy).trimEnd() : null,
  };
  if (json) return emit(report);
  io.out(`config     ${report.config}`);
  io.out(`policies   ${files.join(', ')}${inline === null ? '' : ` + ${inline}`}`);
  io.out(
    `routes     ${policy.entries.length} patterns (${Object.entries(byMethod)
      .map(([method, count]) => `${method} ${count}`)
      .join(', ')})`,
  );
  io.out(`excluded   ${report.excluded.join(' ')}`);
  io.out(
    `rbac       ${report.rbac === true ? 'on' : 'off'} for JWT callers; unmapped routes: ${policy.unmappedRoutes}`,
  );
  io.out(`api        ${loaded.config.upstream.api}`);
  for (const note of assembled.notes) io.out(`note: ${formatProblem(note)}`);
  for (const warning of warnings) io.out(`warning: ${formatProblem(warning)}`);
  if (report.route_table !== null) io.out('\n' + report.route_table);
  if (!report.passed) {
    io.err(`${loaded.file}: ${warnings.length} warning(s) and --strict`);
    return 1;
  }
  io.out(
    `${loaded.file}: valid${warnings.length > 0 ? ` (${plural(warnings.length, 'warning')})` : ''}`,
  );
  return 0;
};
