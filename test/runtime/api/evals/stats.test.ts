/**
 * Summary statistics as Python's `statistics` computes them (the numbers Agno reports).
 */
import t from 'tap';
import { mean, sampleStdDev, summarize } from '../../../../src/runtime/api/evals/stats.js';

t.test('mean and sample standard deviation', async (t) => {
  t.equal(mean([]), 0, 'no samples: 0');
  t.equal(mean([1, 2, 3, 6]), 3);
  t.equal(sampleStdDev([]), 0, 'no samples: 0');
  t.equal(sampleStdDev([5]), 0, 'one sample: 0 (statistics.stdev needs two)');
  // statistics.stdev([2, 4, 4, 4, 5, 5, 7, 9]) == 2.138089935299395 (n - 1, not n)
  t.equal(sampleStdDev([2, 4, 4, 4, 5, 5, 7, 9]), 2.138089935299395);
});

t.test('summarize: named rows', async (t) => {
  const rows: [name: string, values: number[], expected: ReturnType<typeof summarize>][] = [
    ['no samples: every field 0', [], { avg: 0, min: 0, max: 0, stdDev: 0, median: 0, p95: 0 }],
    [
      'one sample: no spread, no p95',
      [3],
      { avg: 3, min: 3, max: 3, stdDev: 0, median: 3, p95: 0 },
    ],
    [
      // statistics.quantiles([1, 2, 3], n=100)[94] == 3.8 (exclusive method extrapolates)
      'odd count, unsorted: the middle value; p95 extrapolated past the max',
      [3, 1, 2],
      { avg: 2, min: 1, max: 3, stdDev: 1, median: 2, p95: 3.8 },
    ],
    [
      // statistics.median([1, 2, 3, 4]) == 2.5; quantiles(..., n=100)[94] == 4.75
      'even count: the mean of the two middle values',
      [4, 3, 2, 1],
      { avg: 2.5, min: 1, max: 4, stdDev: 1.2909944487358056, median: 2.5, p95: 4.75 },
    ],
  ];
  for (const [name, values, expected] of rows) t.same(summarize(values), expected, name);
});

t.test('p95 of twenty samples interpolates between the 19th and 20th', async (t) => {
  const values = Array.from({ length: 20 }, (_, i) => i + 1);
  // statistics.quantiles(range(1, 21), n=100)[94] == 19.95
  t.equal(summarize(values).p95, 19.95);
});
