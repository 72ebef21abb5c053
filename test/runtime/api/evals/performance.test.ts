/**
 * Performance evals: warm-ups unmeasured, each iteration timed and its heap growth measured with
 * injected probes (so the numbers are exact), and the process's own probes read real values.
 */
import t from 'tap';
import {
  measurePerformance,
  systemProbes,
  type EvalProbes,
} from '../../../../src/runtime/api/evals/performance.js';

const MIB = 1024 * 1024;

/** Probes whose time and heap move only when a run moves them. */
function scriptedProbes(): EvalProbes & { time: number; heap: number } {
  const probes = {
    time: 1000,
    heap: 50 * MIB,
    now: () => probes.time,
    heapUsed: () => probes.heap,
  };
  return probes;
}

t.test(
  'warm-ups run unmeasured; each iteration timed (s) and heap growth measured (MiB)',
  async (t) => {
    const probes = scriptedProbes();
    // Each call: [ms it takes, MiB the heap moves by]; the first two are warm-ups.
    const script: [number, number][] = [
      [999, 99],
      [999, 99],
      [100, 1],
      [300, -2],
      [200, 3],
    ];
    let calls = 0;
    const data = await measurePerformance(
      async () => {
        const [ms, mib] = script[calls++] as [number, number];
        probes.time += ms;
        probes.heap += mib * MIB;
      },
      { iterations: 3, warmups: 2 },
      probes,
    );
    t.equal(calls, 5);
    t.same(data, {
      run_times: [0.1, 0.3, 0.2],
      avg_run_time: 0.20000000000000004,
      min_run_time: 0.1,
      max_run_time: 0.3,
      std_dev_run_time: 0.09999999999999999,
      median_run_time: 0.2,
      // statistics.quantiles([0.1, 0.2, 0.3], n=100)[94]
      p95_run_time: 0.38,
      // A shrinking heap (a collection during the run) counts as 0, not negative.
      memory_usages: [1, 0, 3],
      avg_memory_usage: 1.3333333333333333,
      min_memory_usage: 0,
      max_memory_usage: 3,
      std_dev_memory_usage: 1.5275252316519468,
      median_memory_usage: 1,
      // statistics.quantiles([1, 0, 3], n=100)[94]
      p95_memory_usage: 4.6,
    });
  },
);

t.test('no warm-ups: every run is measured', async (t) => {
  const probes = scriptedProbes();
  let calls = 0;
  const data = await measurePerformance(
    async () => {
      calls++;
      probes.time += 5;
    },
    { iterations: 1, warmups: 0 },
    probes,
  );
  t.equal(calls, 1);
  t.match(data, {
    run_times: [0.005],
    median_run_time: 0.005,
    p95_run_time: 0,
    memory_usages: [0],
  });
});

t.test('the system probes read a monotonic time and the heap in use', async (t) => {
  const before = systemProbes.now();
  t.ok(systemProbes.now() >= before);
  t.ok(systemProbes.heapUsed() > 0);
});
