/**
 * Executes one eval: runs the subject through the engine as the eval type
 * needs — accuracy and agent-as-judge once per iteration, performance after its warm-ups,
 * reliability once — and computes the `eval_data` with the pure modules beside it. Never touches
 * HTTP or the store.
 */
import type { EngineDeps } from '../../engine/run.js';
import { accuracyData, type EvalSample } from './accuracy.js';
import { agentAsJudgeData, type JudgeScoring } from './agent-as-judge.js';
import { measurePerformance, type EvalProbes } from './performance.js';
import { reliabilityData, toolCallsOf, type ToolCallExpectation } from './reliability.js';
import { runSubject, type EvalSubject, type SubjectRun } from './subject-run.js';

/** What to evaluate, by eval type; `input` is the message the subject is run on. */
export type EvalPlan = { readonly input: string } & (
  | { readonly evalType: 'accuracy'; readonly iterations: number; readonly expectedOutput: string }
  | {
      readonly evalType: 'agent_as_judge';
      readonly iterations: number;
      readonly criteria: string;
      readonly scoring: JudgeScoring;
    }
  | { readonly evalType: 'performance'; readonly iterations: number; readonly warmups: number }
  | { readonly evalType: 'reliability'; readonly expectation: ToolCallExpectation }
);

/** An executed eval: its `eval_data` and the model the subject ran on. */
export interface EvalOutcome {
  readonly evalData: Record<string, unknown>;
  readonly model: string | null;
  readonly modelProvider: string | null;
}

/** What an eval runs with: the engine's deps and, for performance, the probes. */
export interface EvaluateDeps {
  readonly engine: EngineDeps;
  readonly probes: EvalProbes;
}

/** Runs the subject `iterations` times; one sample per run, and the last run. */
async function sampleRuns(
  subject: EvalSubject,
  input: string,
  iterations: number,
  deps: EngineDeps,
): Promise<{ samples: EvalSample[]; last: SubjectRun }> {
  const samples: EvalSample[] = [];
  let last = await runSubject(subject, input, deps);
  samples.push({ input, output: last.content });
  for (let i = 1; i < iterations; i++) {
    last = await runSubject(subject, input, deps);
    samples.push({ input, output: last.content });
  }
  return { samples, last };
}

/** Executes `plan` against `subject`. */
export async function evaluate(
  subject: EvalSubject,
  plan: EvalPlan,
  deps: EvaluateDeps,
): Promise<EvalOutcome> {
  const outcome = (evalData: Record<string, unknown>, run: SubjectRun): EvalOutcome => ({
    evalData,
    model: run.model,
    modelProvider: run.modelProvider,
  });
  switch (plan.evalType) {
    case 'accuracy': {
      const { samples, last } = await sampleRuns(subject, plan.input, plan.iterations, deps.engine);
      return outcome(accuracyData(samples, plan.expectedOutput), last);
    }
    case 'agent_as_judge': {
      const { samples, last } = await sampleRuns(subject, plan.input, plan.iterations, deps.engine);
      const runId = deps.engine.newId();
      return outcome(agentAsJudgeData(runId, samples, plan.criteria, plan.scoring), last);
    }
    case 'performance': {
      const runs: SubjectRun[] = [];
      const evalData = await measurePerformance(
        async () => {
          runs.push(await runSubject(subject, plan.input, deps.engine));
        },
        { iterations: plan.iterations, warmups: plan.warmups },
        deps.probes,
      );
      return outcome(evalData, runs.at(-1) as SubjectRun);
    }
    case 'reliability': {
      const run = await runSubject(subject, plan.input, deps.engine);
      return outcome(reliabilityData(toolCallsOf(run.events), plan.expectation), run);
    }
  }
}
