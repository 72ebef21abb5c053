/**
 * `scopegate explain [--config F] METHOD PATH [--scopes a,b,...] [--body JSON]`: print the matched
 * pattern and its source, the required scopes, the resource context, the A2A method a body names
 * and the decision with its reason.
 */
import { parseArgs } from 'node:util';
import { createPrincipal } from '../auth/principal.js';
import { evaluateRequest } from '../gateway/pipeline.js';
import { describeRefusal, reject } from '../gateway/rejections.js';
import { INVALID_A2A_METHOD } from '../gateway/stages/a2a-method.js';
import { A2A_METHODS } from '../policy/a2a-methods.js';
import { formatOrigin } from '../policy/compile.js';
import { explainRequirements } from '../policy/explain.js';
import type { Command } from './io.js';
import { DEFAULT_CONFIG, loadAndAssemble } from './load.js';
import { CONFIG_HELP, defineCommand, helpRequested, usageOf } from './usage.js';

/** `scopegate explain`'s options. */
export const EXPLAIN = defineCommand({
  usage: 'explain [options] METHOD PATH',
  summary:
    'Show how a request is decided: the matched pattern and where it comes from, the required\n' +
    'scopes, the resource context and the decision with its reason.',
  options: {
    config: { type: 'string', short: 'c', default: DEFAULT_CONFIG },
    scopes: { type: 'string' },
    body: { type: 'string' },
  },
  help: {
    config: CONFIG_HELP,
    scopes: { value: 'a,b', text: 'the caller holds these scopes (without it: no credential)' },
    body: {
      value: 'JSON',
      text: 'the request body: an A2A JSON-RPC call is decided by its method (without it: none)',
    },
  },
});

export const explain: Command = async (args, io) => {
  if (helpRequested(args)) {
    io.out(usageOf(EXPLAIN));
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: [...args],
    options: EXPLAIN.options,
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length !== 2) {
    io.err(usageOf(EXPLAIN));
    return 2;
  }
  const method = (positionals[0] as string).toUpperCase();
  const target = positionals[1] as string;
  const result = loadAndAssemble(values.config, io);
  if (result === null) return 1;
  const state = result.assembled.state!;
  const adminScope = result.loaded.config.auth.admin_scope;
  const scopes =
    values.scopes === undefined
      ? undefined
      : values.scopes
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
  const principal =
    scopes === undefined ? null : createPrincipal({ type: 'jwt', userId: 'explain', scopes });
  const evaluation = evaluateRequest(
    state,
    method,
    target,
    () => (principal === null ? reject('SG_ERR_AUTH_MISSING') : { ok: true, value: principal }),
    values.body === undefined ? null : Buffer.from(values.body, 'utf8'),
  );

  io.out(`request    ${method} ${target}`);
  if (evaluation.normalized === null) {
    const refusal = describeRefusal(evaluation.refusal!);
    io.out(`decision   deny ${refusal.status} (${refusal.reason}): ${refusal.detail}`);
    return 0;
  }
  const { path, segments, query } = evaluation.normalized;
  io.out(
    `path       ${path}${query}  (segments: ${segments.length === 0 ? '(root)' : segments.map((s) => JSON.stringify(s)).join(' ')})`,
  );
  if (evaluation.exempt) {
    io.out('route      excluded route (excluded_route_paths): no credential is checked');
    io.out('decision   allow (excluded_route)');
    return 0;
  }
  io.out(
    `caller     ${scopes === undefined ? 'no credential' : `scopes ${scopes.length === 0 ? '(none)' : scopes.join(' ')}`}`,
  );
  const a2aMethod = evaluation.a2aMethod;
  if (a2aMethod !== null) {
    const known = A2A_METHODS.get(a2aMethod);
    io.out(
      known === undefined
        ? 'a2a call   the body was refused before a known method was found'
        : `a2a call   ${known.name} (A2A ${known.version}), needs the family's ${known.action} scope for the path's id`,
    );
  }
  const decision = evaluation.decision;
  if (decision === null || a2aMethod === INVALID_A2A_METHOD) {
    const refusal = describeRefusal(evaluation.refusal!);
    io.out(`decision   deny ${refusal.status} (${refusal.reason}): ${refusal.detail}`);
    return 0;
  }
  const route = decision.route;
  io.out(
    route === null
      ? 'route      no pattern matches'
      : `route      ${route.pattern.text}  from ${formatOrigin(route.origin)} (${route.origin.key})`,
  );
  io.out(
    `required   ${decision.required.length === 0 ? '(none)' : decision.required.map((r) => r.raw).join(' AND ')}`,
  );
  io.out(
    `resource   ${decision.resource === null ? '(none)' : `${decision.resource.family} ${decision.resource.id}`}`,
  );
  if (decision.accessibleResourceIds !== null)
    io.out(`listing    filtered to ids: ${JSON.stringify(decision.accessibleResourceIds)}`);
  if (decision.allow) io.out(`decision   allow (${decision.reason})`);
  else {
    const refusal = describeRefusal(evaluation.refusal!);
    io.out(`decision   deny ${refusal.status} (${refusal.reason}): ${refusal.detail}`);
  }
  if (decision.reason === 'rbac_disabled')
    io.out('  RBAC is off for JWT callers (auth.authorization); scopes are not checked');
  if (decision.reason === 'unmapped_allowed')
    io.out('  no pattern matches and unmapped_routes is allow');
  if (decision.reason === 'route_unmapped')
    io.out('  no pattern matches and unmapped_routes is deny');
  if (principal !== null && decision.reason !== 'rbac_disabled') {
    for (const line of explainRequirements(decision, state.grantsOf(principal), adminScope)) {
      if (line.satisfiedBy !== null)
        io.out(`  ✓ ${line.required} satisfied by ${line.satisfiedBy} (${line.how})`);
      else if (line.relaxedByListing)
        io.out(
          `  ~ ${line.required} not held: the listing is filtered to the ids the caller may read`,
        );
      else io.out(`  ✗ ${line.required} not satisfied: needs one of ${line.accepted.join(', ')}`);
    }
  }
  return 0;
};
