/**
 * `npm run bench`: every benchmark, each printing its figures as ratios against a baseline run
 * in the same process tree. Measures only: it never fails on a missed target.
 */
import { runDecisionBench } from './decision.js';
import { runProxyBench } from './proxy.js';

const out = (line: string): void => {
  process.stdout.write(line + '\n');
};
const config = process.argv[2] ?? 'gateway.yaml';
runDecisionBench(config, out);
out('');
await runProxyBench(out);
