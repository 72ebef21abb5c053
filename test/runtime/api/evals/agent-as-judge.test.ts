/**
 * An agent-as-judge eval's `eval_data`: binary scoring passes on the verdict and keeps no
 * scores; numeric scoring keeps the score and passes at or above the threshold.
 */
import t from 'tap';
import { agentAsJudgeData } from '../../../../src/runtime/api/evals/agent-as-judge.js';
import { JUDGE_REASONS } from '../../../../src/runtime/api/evals/judge.js';

const SAMPLES = [
  { input: 'q', output: 'Echo: polite answer' },
  { input: 'q', output: 'Echo: rude' },
];

t.test('binary: passed is the verdict; no scores, no score statistics', async (t) => {
  t.same(agentAsJudgeData('run-1', SAMPLES, 'polite', { strategy: 'binary', threshold: 7 }), {
    run_id: 'run-1',
    results: [
      {
        input: 'q',
        output: 'Echo: polite answer',
        criteria: 'polite',
        score: null,
        reason: JUDGE_REASONS.matched,
        passed: true,
      },
      {
        input: 'q',
        output: 'Echo: rude',
        criteria: 'polite',
        score: null,
        reason: JUDGE_REASONS.missed,
        passed: false,
      },
    ],
    avg_score: null,
    min_score: null,
    max_score: null,
    std_dev_score: null,
    pass_rate: 50,
  });
});

t.test('numeric: scores kept; the threshold decides', async (t) => {
  const strict = agentAsJudgeData('run-2', SAMPLES, 'polite', {
    strategy: 'numeric',
    threshold: 7,
  });
  t.match(strict, {
    results: [
      { score: 10, passed: true },
      { score: 1, passed: false },
    ],
    avg_score: 5.5,
    min_score: 1,
    max_score: 10,
    std_dev_score: 6.363961030678928,
    pass_rate: 50,
  });
  const lenient = agentAsJudgeData('run-3', SAMPLES, 'polite', {
    strategy: 'numeric',
    threshold: 1,
  });
  t.match(
    lenient,
    { results: [{ passed: true }, { passed: true }], pass_rate: 100 },
    'threshold 1: a 1 passes',
  );
  const none = agentAsJudgeData('run-4', SAMPLES, 'kind', { strategy: 'numeric', threshold: 10 });
  t.match(none, { results: [{ passed: false }, { passed: false }], pass_rate: 0 });
});
