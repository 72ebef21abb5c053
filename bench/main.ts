/**
 * `npm run bench`: every benchmark, each printing its figures as ratios against a baseline run
 * in the same process tree. Measures only: it never fails on a missed target.
 *
 * Environment: BENCH_PROFILE=<dir> writes a V8 CPU profile of the scopegate process there;
 * BENCH_TRACE_GC=<dir> runs the Node proxies with --trace-gc and writes their GC lines there;
 * BENCH_BASELINE=<checkout folder> also runs the scopegate of that checkout (say, main before a
 * change, with node_modules installed or linked) and prints its cost beside this one's.
 */
import { availableParallelism } from 'node:os';
import { runDecisionBench } from './decision.js';
import { onPath } from './processes.js';
import { runProxyBench } from './proxy.js';
import { FULL_SIZES } from './scenarios.js';

const out = (line: string): void => {
  process.stdout.write(line + '\n');
};
const started = Date.now();
const config = process.argv[2] ?? 'gateway.yaml';
runDecisionBench(config, out);
out('');
await runProxyBench(out, {
  sizes: FULL_SIZES,
  haproxy: onPath('haproxy'),
  taskset: availableParallelism() >= 2 ? onPath('taskset') : null,
  profileDir: process.env.BENCH_PROFILE || null,
  traceGcDir: process.env.BENCH_TRACE_GC || null,
  baseline: process.env.BENCH_BASELINE || null,
});
out(`bench: ${((Date.now() - started) / 1000).toFixed(0)} s`);
