/**
 * `scopegate check [--config F] [--routes] [--strict]`: validate the config and policies,
 * compile the tries, list problems, conflicts and shadowed patterns. Exit 0 valid, 1 invalid.
 */
import { parseArgs } from 'node:util';
import { assembleGateway } from '../gateway/assemble.js';
import { printRoutes } from '../policy/print.js';
import { systemClock } from '../shared/clock.js';
import { formatProblem } from '../shared/problem.js';
import { plural } from '../shared/text.js';
import type { Command } from './io.js';
import { DEFAULT_CONFIG, loadOrReport, reportProblems } from './load.js';
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
  },
  help: {
    config: CONFIG_HELP,
    routes: { text: 'also print the compiled route table' },
    strict: { text: 'exit 1 when there is any warning (for CI)' },
  },
});

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
  const loaded = loadOrReport(values.config, io);
  if (loaded === null) return 1;
  // The whole gateway is assembled in check-only mode: keys and JWKS files are read (never
  // created), so `check` refuses exactly what `serve` would refuse.
  const assembly = await assembleGateway(loaded, { clock: systemClock, checkOnly: true });
  const assembled = assembly.policy;
  if (assembly.problems.length > 0 || assembled.state === null) {
    reportProblems(values.config, assembly.problems, io);
    return 1;
  }
  const policy = assembled.state.policy;
  const warnings = assembly.warnings;
  const byMethod = [...policy.routes.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([method]) => `${method} ${policy.entries.filter((e) => e.pattern.method === method).length}`,
    );
  io.out(`config     ${loaded.file}`);
  io.out(
    `policies   ${assembled.policyFiles.map((f) => f.file).join(', ')}` +
      (loaded.config.auth.scope_mappings === undefined
        ? ''
        : ` + ${loaded.file} auth.scope_mappings`),
  );
  io.out(`routes     ${policy.entries.length} patterns (${byMethod.join(', ')})`);
  io.out(`excluded   ${policy.excludedEntries.map((e) => e.pattern.canonical).join(' ')}`);
  io.out(
    `rbac       ${assembled.state.rbacEnabled ? 'on' : 'off'} for JWT callers; unmapped routes: ${policy.unmappedRoutes}`,
  );
  io.out(`api        ${loaded.config.upstream.api}`);
  for (const note of assembled.notes) io.out(`note: ${formatProblem(note)}`);
  for (const warning of warnings) io.out(`warning: ${formatProblem(warning)}`);
  if (values.routes) io.out('\n' + printRoutes(policy).trimEnd());
  if (values.strict && warnings.length > 0) {
    io.err(`${loaded.file}: ${warnings.length} warning(s) and --strict`);
    return 1;
  }
  io.out(
    `${loaded.file}: valid${warnings.length > 0 ? ` (${plural(warnings.length, 'warning')})` : ''}`,
  );
  return 0;
};
