/**
 * An accuracy eval's `eval_data`: one judged result per iteration and the score statistics.
 */
import t from 'tap';
import { accuracyData } from '../../../../src/runtime/api/evals/accuracy.js';
import { JUDGE_REASONS } from '../../../../src/runtime/api/evals/judge.js';

t.test('every iteration judged; statistics over the scores', async (t) => {
  const data = accuracyData(
    [
      { input: 'q', output: 'Echo: 4' },
      { input: 'q', output: 'Echo: 5' },
    ],
    '4',
  );
  t.same(data, {
    results: [
      {
        input: 'q',
        output: 'Echo: 4',
        expected_output: '4',
        score: 10,
        reason: JUDGE_REASONS.matched,
      },
      {
        input: 'q',
        output: 'Echo: 5',
        expected_output: '4',
        score: 1,
        reason: JUDGE_REASONS.missed,
      },
    ],
    avg_score: 5.5,
    mean_score: 5.5,
    min_score: 1,
    max_score: 10,
    // statistics.stdev([10, 1])
    std_dev_score: 6.363961030678928,
  });
});

t.test('one iteration: no spread', async (t) => {
  t.match(accuracyData([{ input: 'q', output: 'yes' }], 'YES'), {
    avg_score: 10,
    min_score: 10,
    max_score: 10,
    std_dev_score: 0,
  });
});
