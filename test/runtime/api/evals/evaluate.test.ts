/**
 * Executing each eval type against the real engine (offline model): how many runs each makes,
 * and the `eval_data` and model it reports.
 */
import t from 'tap';
import { buildCatalogue } from '../../../../src/runtime/catalogue/resolve.js';
import type {
  AgentDefinition,
  TeamDefinition,
} from '../../../../src/runtime/catalogue/definitions.js';
import type { EngineDeps } from '../../../../src/runtime/engine/run.js';
import { evaluate } from '../../../../src/runtime/api/evals/evaluate.js';
import type { EvalProbes } from '../../../../src/runtime/api/evals/performance.js';
import { createTestClock } from '../../../fixtures/tokens.js';
import { SETTINGS } from '../../fixtures/runtime.js';

const catalogue = buildCatalogue(SETTINGS).catalogue!;
const a1 = catalogue.agents.get('a1') as AgentDefinition;
const t1 = catalogue.teams.get('t1') as TeamDefinition;

/**
 * Engine deps counting the ids handed out (a run of one input always takes as many), and probes
 * whose time moves 5 ms per read.
 */
function deps(): { engine: EngineDeps; probes: EvalProbes; ids: () => number } {
  let n = 0;
  let time = 0;
  return {
    engine: { clock: createTestClock(), newId: () => `id-${++n}`, sleep: async () => {} },
    probes: { now: () => (time += 5), heapUsed: () => 0 },
    ids: () => n,
  };
}

t.test('accuracy: one judged run per iteration', async (t) => {
  const d = deps();
  const outcome = await evaluate(
    a1,
    { evalType: 'accuracy', input: 'say 42', iterations: 3, expectedOutput: '42' },
    d,
  );
  t.equal(outcome.model, 'offline-echo');
  t.equal(outcome.modelProvider, 'offline');
  t.match(outcome.evalData, { avg_score: 10, min_score: 10, max_score: 10 });
  t.equal((outcome.evalData['results'] as unknown[]).length, 3);
});

t.test('agent_as_judge: runs per iteration, then its own run id', async (t) => {
  const d = deps();
  const outcome = await evaluate(
    t1,
    {
      evalType: 'agent_as_judge',
      input: 'hi',
      iterations: 2,
      criteria: 'goodbye',
      scoring: { strategy: 'binary', threshold: 7 },
    },
    d,
  );
  t.match(outcome.evalData, { run_id: `id-${d.ids()}`, pass_rate: 0, avg_score: null });
  t.equal((outcome.evalData['results'] as unknown[]).length, 2);
});

t.test('performance: warm-ups and iterations all run; timed by the probes', async (t) => {
  const one = deps();
  await evaluate(a1, { evalType: 'performance', input: 'hi', iterations: 1, warmups: 0 }, one);
  const d = deps();
  const outcome = await evaluate(
    a1,
    { evalType: 'performance', input: 'hi', iterations: 2, warmups: 1 },
    d,
  );
  t.equal(d.ids(), 3 * one.ids(), 'three runs: one warm-up, two measured');
  t.same(outcome.evalData['run_times'], [0.005, 0.005]);
  t.equal(outcome.model, 'offline-echo');
});

t.test('reliability: one run, its tool calls compared', async (t) => {
  const one = deps();
  await evaluate(
    a1,
    { evalType: 'performance', input: '/tool add {"a":1,"b":1}', iterations: 1, warmups: 0 },
    one,
  );
  const d = deps();
  const outcome = await evaluate(
    a1,
    {
      evalType: 'reliability',
      input: '/tool add {"a":1,"b":1}',
      expectation: { toolCalls: ['add'], allowAdditional: false, arguments: { add: { b: 1 } } },
    },
    d,
  );
  t.equal(d.ids(), one.ids(), 'one run');
  t.match(outcome.evalData, {
    eval_status: 'PASSED',
    passed_tool_calls: ['add'],
    passed_argument_checks: ['add'],
  });
});
