/**
 * `scopegate explain [--config F] METHOD PATH [--scopes a,b,... | --token JWT] [--body JSON]`: print
 * the matched pattern and its source, the required scopes, the resource context, the A2A method a
 * body names and the decision with its reason. With `--token` the token is first verified by the
 * auth chain `serve` builds from the same config. Exit 0 allow, 1 deny (or an unusable config),
 * 2 usage.
 */
import { parseArgs } from 'node:util';
import { createPrincipal, type Principal } from '../auth/principal.js';
import { assembleGateway, closeGatewayState } from '../gateway/assemble.js';
import { evaluateRequest, type DecisionState } from '../gateway/pipeline.js';
import { describeRefusal, reject, type Verdict } from '../gateway/rejections.js';
import { verdictOf } from '../gateway/stages/authenticate.js';
import { INVALID_A2A_METHOD } from '../gateway/stages/a2a-method.js';
import { A2A_METHODS } from '../policy/a2a-methods.js';
import { formatOrigin } from '../policy/compile.js';
import { explainRequirements } from '../policy/explain.js';
import type { Command, CommandIo } from './io.js';
import { systemClock } from '../shared/clock.js';
import { formatProblem } from '../shared/problem.js';
import { DEFAULT_CONFIG, loadAndAssemble, loadOrReport, reportProblems } from './load.js';
import { CONFIG_HELP, defineCommand, helpRequested, usageOf } from './usage.js';

/** `scopegate explain`'s options. */
export const EXPLAIN = defineCommand({
  usage: 'explain [options] METHOD PATH',
  summary:
    'Show how a request is decided: the matched pattern and where it comes from, the required\n' +
    'scopes, the resource context and the decision with its reason. With --token, the token is\n' +
    'verified as the gateway would (keys, iss, aud, exp, nbf, kid, algorithm) and its claims,\n' +
    'scopes and principal are shown first. Exit 0 allow, 1 deny, 2 usage error.',
  options: {
    config: { type: 'string', short: 'c', default: DEFAULT_CONFIG },
    scopes: { type: 'string' },
    token: { type: 'string' },
    body: { type: 'string' },
  },
  help: {
    config: CONFIG_HELP,
    scopes: { value: 'a,b', text: 'the caller holds these scopes (without it: no credential)' },
    token: {
      value: 'JWT',
      text: 'the caller sends this token: verified against the config, never printed (not with --scopes)',
    },
    body: {
      value: 'JSON',
      text: 'the request body: an A2A JSON-RPC call is decided by its method (without it: none)',
    },
  },
});

/** The JSON of a token segment (header or payload), or null when it is not one. */
function decodeSegment(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A caller: how `authenticate` answers, and what the caller line says. */
interface Caller {
  readonly verdict: Verdict<Principal>;
  readonly principal: Principal | null;
  readonly state: DecisionState;
  readonly adminScope: string;
  /** Releases what was opened for a `--token` check. */
  close(): Promise<void>;
}

/**
 * `--token`: builds the gateway state `serve` would (keys from every configured source, the
 * remote JWK set fetched once) and runs the token through its auth chain. Prints the verdict,
 * the token's header and claims (never the token or its signature), the scopes and principal.
 */
async function tokenCaller(file: string, token: string, io: CommandIo): Promise<Caller | null> {
  const loaded = loadOrReport(file, io);
  if (loaded === null) return null;
  const assembly = await assembleGateway(loaded, { clock: systemClock });
  for (const warning of assembly.warnings) io.err(`warning: ${formatProblem(warning)}`);
  const state = assembly.state;
  if (state === null) {
    reportProblems(file, assembly.problems, io);
    return null;
  }
  const { token_header_key: header, cookie_name: cookie } = loaded.config.auth;
  const result = await state.chain.authenticate({
    headers: { [header.toLowerCase()]: `Bearer ${token}`, cookie: `${cookie}=${token}` },
    clientAddress: '127.0.0.1',
  });
  const verdict = verdictOf(result, state.credentialNames);
  const parts = token.split('.');
  const head = parts.length === 3 ? decodeSegment(parts[0] as string) : null;
  const claims = parts.length === 3 ? decodeSegment(parts[1] as string) : null;
  if (verdict.ok) io.out('token      valid');
  else {
    const refusal = describeRefusal(verdict);
    io.out(`token      invalid: ${refusal.reason} (${verdict.code}): ${refusal.detail}`);
  }
  if (head !== null) {
    const kid = typeof head.kid === 'string' ? `, kid ${head.kid}` : ', no kid';
    io.out(`header     alg ${String(head.alg)}${kid}`);
  }
  if (claims !== null) io.out(`claims     ${JSON.stringify(claims)}`);
  const principal = verdict.ok ? verdict.value : null;
  if (principal !== null) {
    io.out(`scopes     ${principal.scopes.length === 0 ? '(none)' : principal.scopes.join(' ')}`);
    io.out(`principal  ${principal.type} ${principal.userId ?? '(no user id)'}`);
  }
  return {
    verdict,
    principal,
    state,
    adminScope: loaded.config.auth.admin_scope,
    close: () => closeGatewayState(state),
  };
}

/** `--scopes`, or no credential: the policy alone decides, nothing is verified. */
function scopesCaller(file: string, list: string | undefined, io: CommandIo): Caller | null {
  const result = loadAndAssemble(file, io);
  if (result === null) return null;
  const scopes =
    list === undefined
      ? undefined
      : list
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
  const principal =
    scopes === undefined ? null : createPrincipal({ type: 'jwt', userId: 'explain', scopes });
  return {
    verdict: principal === null ? reject('SG_ERR_AUTH_MISSING') : { ok: true, value: principal },
    principal,
    state: result.assembled.state!,
    adminScope: result.loaded.config.auth.admin_scope,
    close: () => Promise.resolve(),
  };
}

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
  if (positionals.length !== 2 || (values.token !== undefined && values.scopes !== undefined)) {
    if (positionals.length === 2) io.err('scopegate explain: give --scopes or --token, not both');
    io.err(usageOf(EXPLAIN));
    return 2;
  }
  const method = (positionals[0] as string).toUpperCase();
  const target = positionals[1] as string;
  io.out(`request    ${method} ${target}`);
  const caller =
    values.token === undefined
      ? scopesCaller(values.config, values.scopes, io)
      : await tokenCaller(values.config, values.token, io);
  if (caller === null) return 1;
  try {
    return report(caller, method, target, values.body, values.token !== undefined, io);
  } finally {
    await caller.close();
  }
};

/** Runs the decision stages for the caller and prints each step; returns the exit code. */
function report(
  caller: Caller,
  method: string,
  target: string,
  body: string | undefined,
  tokenGiven: boolean,
  io: CommandIo,
): number {
  const { state, principal, adminScope } = caller;
  const evaluation = evaluateRequest(
    state,
    method,
    target,
    () => caller.verdict,
    body === undefined ? null : Buffer.from(body, 'utf8'),
  );
  const deny = (): number => {
    const refusal = describeRefusal(evaluation.refusal!);
    io.out(`decision   deny ${refusal.status} (${refusal.reason}): ${refusal.detail}`);
    return 1;
  };
  if (evaluation.normalized === null) return deny();
  const { path, segments, query } = evaluation.normalized;
  io.out(
    `path       ${path}${query}  (segments: ${segments.length === 0 ? '(root)' : segments.map((s) => JSON.stringify(s)).join(' ')})`,
  );
  if (evaluation.exempt) {
    io.out('route      excluded route (excluded_route_paths): no credential is checked');
    io.out('decision   allow (excluded_route)');
    return 0;
  }
  if (!tokenGiven) {
    io.out(
      `caller     ${principal === null ? 'no credential' : `scopes ${principal.scopes.length === 0 ? '(none)' : principal.scopes.join(' ')}`}`,
    );
  }
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
  if (decision === null || a2aMethod === INVALID_A2A_METHOD) return deny();
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
  const code = decision.allow ? 0 : 1;
  if (decision.allow) io.out(`decision   allow (${decision.reason})`);
  else deny();
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
  return code;
}
