/**
 * A performance eval (Agno's `PerformanceResult`): runs a function the warm-up
 * number of times unmeasured, then the iteration count measured, timing each run and the heap
 * it grew by, and summarises both. Time and memory come from injected probes, so tests choose
 * the numbers; the probes are the only thing it reads.
 */
import { summarize } from './stats.js';

/** Where a performance eval reads time and memory from. */
export interface EvalProbes {
  /** A monotonic time in milliseconds (only differences are used). */
  now(): number;
  /** The bytes of heap in use now. */
  heapUsed(): number;
}

/** The process's own: `performance.now()` and `process.memoryUsage().heapUsed`. */
export const systemProbes: EvalProbes = Object.freeze({
  now: () => performance.now(),
  heapUsed: () => process.memoryUsage().heapUsed,
});

const MIB = 1024 * 1024;

/** How many times to run. */
export interface PerformancePlan {
  /** Measured runs, at least one. */
  readonly iterations: number;
  /** Unmeasured runs first. */
  readonly warmups: number;
}

/**
 * Runs `run` as planned and returns the `eval_data`: run times in seconds and memory in MiB
 * (heap growth over the run, never below 0: a collection mid-run is not negative use), each with
 * avg, min, max, std_dev, median and p95.
 */
export async function measurePerformance(
  run: () => Promise<void>,
  plan: PerformancePlan,
  probes: EvalProbes,
): Promise<Record<string, unknown>> {
  for (let i = 0; i < plan.warmups; i++) await run();
  const runTimes: number[] = [];
  const memoryUsages: number[] = [];
  for (let i = 0; i < plan.iterations; i++) {
    const heapBefore = probes.heapUsed();
    const start = probes.now();
    await run();
    runTimes.push((probes.now() - start) / 1000);
    memoryUsages.push(Math.max(0, probes.heapUsed() - heapBefore) / MIB);
  }
  const time = summarize(runTimes);
  const memory = summarize(memoryUsages);
  return {
    run_times: runTimes,
    avg_run_time: time.avg,
    min_run_time: time.min,
    max_run_time: time.max,
    std_dev_run_time: time.stdDev,
    median_run_time: time.median,
    p95_run_time: time.p95,
    memory_usages: memoryUsages,
    avg_memory_usage: memory.avg,
    min_memory_usage: memory.min,
    max_memory_usage: memory.max,
    std_dev_memory_usage: memory.stdDev,
    median_memory_usage: memory.median,
    p95_memory_usage: memory.p95,
  };
}
