/**
 * An agent-as-judge eval's result (Agno's `AgentAsJudgeResult`): each output
 * judged against the criteria by the offline judge. `binary` scoring passes on the judge's
 * verdict and records no score; `numeric` records the score and passes at or above the
 * threshold. Pure.
 */
import type { EvalSample } from './accuracy.js';
import { judgeOutput } from './judge.js';
import { summarize } from './stats.js';

/** How the judge's verdict becomes pass or fail. */
export interface JudgeScoring {
  readonly strategy: 'binary' | 'numeric';
  /** 1–10; a numeric score at or above it passes. */
  readonly threshold: number;
}

/** The `eval_data` of an agent-as-judge eval over `samples` (at least one). */
export function agentAsJudgeData(
  runId: string,
  samples: readonly EvalSample[],
  criteria: string,
  scoring: JudgeScoring,
): Record<string, unknown> {
  const numeric = scoring.strategy === 'numeric';
  const results = samples.map(({ input, output }) => {
    const verdict = judgeOutput(output, criteria);
    return {
      input,
      output,
      criteria,
      score: numeric ? verdict.score : null,
      reason: verdict.reason,
      passed: numeric ? verdict.score >= scoring.threshold : verdict.matched,
    };
  });
  const passed = results.filter((r) => r.passed).length;
  // Binary scoring has no scores, so no score statistics (null, as Agno reports them).
  const stats = numeric ? summarize(results.map((r) => r.score as number)) : null;
  return {
    run_id: runId,
    results,
    avg_score: stats?.avg ?? null,
    min_score: stats?.min ?? null,
    max_score: stats?.max ?? null,
    std_dev_score: stats?.stdDev ?? null,
    pass_rate: (passed / results.length) * 100,
  };
}
