/**
 * `scopegate test-policies [--config F] FILE...`: run decision tests (request + scopes →
 * expected status) against the config's compiled policy and report each row. Exit 0 all pass.
 */
import { parseArgs } from 'node:util';
import { readPolicyCases, runPolicyCase } from '../gateway/policy-tests.js';
import { formatOrigin } from '../policy/compile.js';
import { formatProblem } from '../shared/problem.js';
import type { Command } from './io.js';
import { DEFAULT_CONFIG, loadAndAssemble } from './load.js';
import { CONFIG_HELP, defineCommand, helpRequested, usageOf } from './usage.js';

/** `scopegate test-policies`'s options. */
export const TEST_POLICIES = defineCommand({
  usage: 'test-policies [options] FILE...',
  summary:
    "Run decision tests (request + scopes -> expected status) against the config's compiled\n" +
    'policy and report each row. Exit 0 when all pass.',
  options: { config: { type: 'string', short: 'c', default: DEFAULT_CONFIG } },
  help: { config: CONFIG_HELP },
});

export const testPolicies: Command = async (args, io) => {
  if (helpRequested(args)) {
    io.out(usageOf(TEST_POLICIES));
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: [...args],
    options: TEST_POLICIES.options,
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length === 0) {
    io.err(usageOf(TEST_POLICIES));
    return 2;
  }
  const result = loadAndAssemble(values.config, io);
  if (result === null) return 1;
  const state = result.assembled.state!;
  let passed = 0;
  let failed = 0;
  let invalid = false;
  for (const file of positionals) {
    const { cases, problems } = readPolicyCases(file);
    for (const problem of problems) io.err(`error: ${formatProblem(problem)}`);
    if (problems.length > 0) {
      invalid = true;
      continue;
    }
    for (const row of cases) {
      const outcome = runPolicyCase(state, row);
      if (outcome.failures.length === 0) {
        passed++;
        io.out(`ok    ${row.name}`);
        continue;
      }
      failed++;
      const route = outcome.evaluation.decision?.route;
      io.out(
        `FAIL  ${row.name}  (${formatOrigin({ file, key: '', line: row.line })}: ${row.request})`,
      );
      for (const failure of outcome.failures) io.out(`        ${failure}`);
      if (route) io.out(`        matched ${route.pattern.text} from ${formatOrigin(route.origin)}`);
    }
  }
  io.out(`${passed} passed, ${failed} failed`);
  return failed > 0 || invalid ? 1 : 0;
};
