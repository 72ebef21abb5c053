/**
 * Summary statistics of an eval's samples (scores, run times, memory), computed as Python's
 * `statistics` module does, so the numbers match Agno's: sample standard deviation, the middle
 * value (or mean of the two) as median, and the "exclusive" 95th percentile. Pure.
 */

/** The summary of a list of samples; every field is 0 for no samples. */
export interface Summary {
  readonly avg: number;
  readonly min: number;
  readonly max: number;
  /** Sample standard deviation (n - 1); 0 for fewer than two samples. */
  readonly stdDev: number;
  readonly median: number;
  /** 95th percentile (`statistics.quantiles(n=100)[94]`); 0 for fewer than two samples. */
  readonly p95: number;
}

/** The arithmetic mean; 0 for no samples. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** The sample standard deviation (`statistics.stdev`); 0 for fewer than two samples. */
export function sampleStdDev(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  const squares = values.reduce((sum, v) => sum + (v - m) ** 2, 0);
  return Math.sqrt(squares / (values.length - 1));
}

/** Summarises `values` (in any order). */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { avg: 0, min: 0, max: 0, stdDev: 0, median: 0, p95: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const middle = Math.floor(n / 2);
  return {
    avg: mean(sorted),
    min: sorted[0] as number,
    max: sorted[n - 1] as number,
    stdDev: sampleStdDev(sorted),
    median: n % 2 === 1 ? (sorted[middle] as number) : mean(sorted.slice(middle - 1, middle + 1)),
    p95: n < 2 ? 0 : percentile95(sorted),
  };
}

/**
 * `statistics.quantiles(sorted, n=100)[94]` with the default "exclusive" method: the point at
 * 95/100 of the way through n + 1 slots, clamped to the inner samples, linearly interpolated.
 */
function percentile95(sorted: readonly number[]): number {
  const n = sorted.length;
  const scaled = 95 * (n + 1);
  const j = Math.min(Math.max(Math.floor(scaled / 100), 1), n - 1);
  const delta = scaled - j * 100;
  return ((sorted[j - 1] as number) * (100 - delta) + (sorted[j] as number) * delta) / 100;
}
