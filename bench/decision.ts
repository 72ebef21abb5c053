/**
 * Decision micro-benchmark: decisions per second for a cached caller (normalize → exempt →
 * authorize, no socket) on the default policy set, and on the same set plus 10,000 extra
 * mappings. Prints both side by side with their ratio. Measures; never asserts.
 */
import { createPrincipal } from '../src/auth/principal.js';
import { loadConfig } from '../src/config/load.js';
import { assemblePolicy } from '../src/gateway/assemble.js';
import { evaluateRequest, type DecisionState } from '../src/gateway/pipeline.js';
import { createGrantsCache } from '../src/gateway/stages/authorize.js';
import { compilePolicy, type PolicyLayer } from '../src/policy/compile.js';

/** A realistic request mix over the gateway's route surface (agents, sessions, A2A, AG-UI, …). */
const REQUESTS: ReadonlyArray<readonly [string, string]> = [
  ['GET', '/config'],
  ['GET', '/agents'],
  ['GET', '/agents/a1'],
  ['POST', '/agents/a1/runs'],
  ['POST', '/agents/a1/runs/r-42/continue'],
  ['GET', '/sessions?limit=20&page=1'],
  ['GET', '/sessions/s-1'],
  ['PATCH', '/memories/m-1'],
  ['POST', '/knowledge/search'],
  ['GET', '/traces/t-9'],
  ['POST', '/a2a/agents/a1/v1/message:stream'],
  ['GET', '/a2a/teams/t1/.well-known/agent-card.json'],
  ['POST', '/agui'],
  ['GET', '/components/c1/configs/current'],
  ['POST', '/workflows/w1/runs/r1/cancel'],
  ['GET', '/health'],
];

const SCOPES = [
  'config:read',
  'agents:read',
  'agents:run',
  'sessions:read',
  'memories:write',
  'knowledge:read',
  'traces:read',
  'teams:read',
  'components:read',
  'workflows:run',
];

/** 10,000 extra mappings spread over many literals, wildcards and globs. */
function extraLayer(count: number): PolicyLayer {
  const mappings = [];
  for (let i = 0; i < count; i++) {
    const shape = i % 4;
    const pattern =
      shape === 0
        ? `GET /ext${i}/items/*`
        : shape === 1
          ? `POST /ext${i % 500}/jobs/job${i}/run`
          : shape === 2
            ? `PATCH /tenants/*/res${i}`
            : `DELETE /bulk${i}/**`;
    mappings.push({
      pattern,
      scopes: [`ext${i % 97}:write`],
      origin: { file: 'bench', key: pattern },
    });
  }
  return { file: 'bench', mappings };
}

function measure(state: DecisionState, millis: number): number {
  const principal = createPrincipal({ type: 'jwt', userId: 'bench', scopes: SCOPES });
  const auth = () => ({ ok: true as const, value: principal });
  let allowed = 0;
  // Warm-up, so both sets are measured with optimized code.
  for (let i = 0; i < 200_000; i++) {
    const [m, p] = REQUESTS[i % REQUESTS.length] as readonly [string, string];
    if (evaluateRequest(state, m, p, auth).status === 200) allowed++;
  }
  let n = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(millis) * 1_000_000n;
  for (;;) {
    for (let i = 0; i < 10_000; i++, n++) {
      const [m, p] = REQUESTS[n % REQUESTS.length] as readonly [string, string];
      if (evaluateRequest(state, m, p, auth).status === 200) allowed++;
    }
    if (process.hrtime.bigint() >= deadline) break;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (allowed === 0) throw new Error('benchmark workload allowed nothing: check the scopes');
  return n / seconds;
}

/** Runs the decision benchmark and prints its table. */
export function runDecisionBench(configFile: string, out: (line: string) => void): void {
  const loaded = loadConfig(configFile);
  const base = assemblePolicy(loaded);
  if (base.state === null || base.compiled?.policy === null)
    throw new Error('config does not assemble');
  const policy = base.state.policy;
  // Rebuild the default policy with the extra layer appended, through the same compiler.
  const big = compilePolicy({
    layers: [...rawLayers(base), extraLayer(10_000)],
    adminScope: policy.adminScope,
    a2aPrefix: '/' + policy.a2aPrefix.join('/'),
    unmappedRoutes: policy.unmappedRoutes,
    excluded: policy.excludedEntries.map((e) => ({ path: e.pattern.canonical, origin: e.origin })),
  });
  if (big.policy === null)
    throw new Error('extra mappings do not compile: ' + JSON.stringify(big.problems[0]));
  const bigState: DecisionState = {
    ...base.state,
    policy: big.policy,
    grantsOf: createGrantsCache(policy.adminScope),
  };

  // Alternate the two sets three times and keep each one's best, to damp scheduler noise.
  let defaultRate = 0;
  let bigRate = 0;
  for (let round = 0; round < 3; round++) {
    defaultRate = Math.max(defaultRate, measure(base.state, 700));
    bigRate = Math.max(bigRate, measure(bigState, 700));
  }
  const ratio = bigRate / defaultRate;
  out('decision benchmark (normalize + exempt + authorize, cached caller, no socket)');
  out(
    `  default policy set (${policy.entries.length} patterns)     ${fmt(defaultRate)} decisions/s   target ≥ 1,000,000  ${defaultRate >= 1e6 ? 'met' : 'MISSED'}`,
  );
  out(`  + 10,000 mappings (${big.policy.entries.length} patterns)  ${fmt(bigRate)} decisions/s`);
  out(
    `  ratio 10k/default                      ${ratio.toFixed(3)}×              target ≥ 0.9       ${ratio >= 0.9 ? 'met' : 'MISSED'}`,
  );
}

function rawLayers(base: ReturnType<typeof assemblePolicy>): PolicyLayer[] {
  // Re-express the compiled default entries as one layer: same patterns, same mapped scopes.
  const policy = base.state!.policy;
  return [
    {
      file: 'defaults',
      mappings: policy.entries.map((e) => ({
        pattern: e.pattern.text,
        scopes: e.mapped.map((r) => r.raw),
        origin: e.origin,
      })),
    },
  ];
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US').padStart(11);
}
