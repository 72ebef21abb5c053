/**
 * An accuracy eval's result (Agno's `AccuracyResult`): each iteration's output
 * judged against the expected output by the offline judge, and the score statistics. Pure.
 */
import { judgeOutput } from './judge.js';
import { mean, summarize } from './stats.js';

/** One iteration: what the entity was asked and what it answered. */
export interface EvalSample {
  readonly input: string;
  readonly output: string;
}

/** The `eval_data` of an accuracy eval over `samples` (at least one). */
export function accuracyData(
  samples: readonly EvalSample[],
  expectedOutput: string,
): Record<string, unknown> {
  const results = samples.map(({ input, output }) => {
    const verdict = judgeOutput(output, expectedOutput);
    return {
      input,
      output,
      expected_output: expectedOutput,
      score: verdict.score,
      reason: verdict.reason,
    };
  });
  const scores = results.map((r) => r.score);
  const stats = summarize(scores);
  return {
    results,
    avg_score: stats.avg,
    mean_score: mean(scores),
    min_score: stats.min,
    max_score: stats.max,
    std_dev_score: stats.stdDev,
  };
}
