/**
 * Counters and histograms for the request path, exported through a prom-client Registry.
 *
 * prom-client hashes the label set of every `inc()` and `observe()`, a bound child included
 * (its child only remembers the labels object). Here a label set is resolved once into a cell —
 * a number, or a histogram's bucket counts — and a request adds to it: no hashing, no labels
 * object, no validation. The Registry reads the cells at scrape time through the same `get()`
 * shape prom-client's own metrics give it, so the exposition text is prom-client's, line for line.
 */
import type { Metric, Registry } from 'prom-client';

/** One exported value in prom-client's shape (what `Registry` formats). */
interface ExportedValue {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly sharedLabels?: Readonly<Record<string, string>>;
  readonly value: number;
  readonly metricName?: string;
  /** Buckets carry one (always null here: no exemplars), as prom-client's do. */
  readonly exemplar?: null;
}

/** What prom-client's Registry reads from a metric at each scrape. */
interface Exported {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly values: readonly ExportedValue[];
  readonly aggregator: 'sum';
}

/** The name, help text and label names of a metric. */
export interface CellMetricSpec<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
}

/** A counter whose label sets are resolved once: `cell(values)` then `inc()` per event. */
export interface CellCounter {
  /**
   * The cell of one label set, values in `labelNames` order (created at 0 on first use; the same
   * cell for the same values). Resolve once and keep it: this call itself is not the fast part.
   */
  cell(values: readonly string[]): { inc(): void };
}

/** A histogram whose label sets are resolved once: `cell(values)` then `observe(v)` per event. */
export interface CellHistogram {
  /**
   * The cell of one label set, values in `labelNames` order (created empty on first use; the
   * same cell for the same values). Resolve once and keep it.
   */
  cell(values: readonly string[]): { observe(value: number): void };
}

function labelsOf(names: readonly string[], values: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  names.forEach((name, i) => {
    labels[name] = values[i] as string;
  });
  return labels;
}

/** Memoizes `create` by the label values (joined with a character no label value holds). */
function memo<C>(create: (values: readonly string[]) => C): (values: readonly string[]) => C {
  const made = new Map<string, C>();
  return (values) => {
    const key = values.join('\u0000');
    let cell = made.get(key);
    if (cell === undefined) {
      cell = create(values);
      made.set(key, cell);
    }
    return cell;
  };
}

/** A value with its shared labels merged into its own (what prom-client's `get()` answers). */
function splayed({ labels, sharedLabels, ...rest }: ExportedValue): ExportedValue {
  return { ...rest, labels: { ...labels, ...sharedLabels } };
}

/**
 * Registers a metric in `registry` as prom-client would one of its own: the text exposition
 * reads `getForPromString` at each scrape, the JSON one `get`; `reset` (Registry.resetMetrics)
 * zeroes every cell, keeping the series.
 */
function register(
  registry: Registry,
  name: string,
  getForPromString: () => Exported,
  reset: () => void,
): void {
  const get = (): Exported => {
    const exported = getForPromString();
    return { ...exported, values: exported.values.map(splayed) };
  };
  const metric = { name, get, getForPromString, reset };
  registry.registerMetric(metric as unknown as Metric);
}

/** Creates a counter in `registry`. */
export function cellCounter<L extends string>(
  registry: Registry,
  spec: CellMetricSpec<L>,
): CellCounter {
  const cells: { labels: Record<string, string>; value: number }[] = [];
  register(
    registry,
    spec.name,
    () => ({
      name: spec.name,
      help: spec.help,
      type: 'counter',
      values: cells.map(({ labels, value }) => ({ labels, value })),
      aggregator: 'sum',
    }),
    () => {
      for (const cell of cells) cell.value = 0;
    },
  );
  return {
    cell: memo((values) => {
      const cell = { labels: labelsOf(spec.labelNames, values), value: 0 };
      cells.push(cell);
      return {
        inc() {
          cell.value += 1;
        },
      };
    }),
  };
}

/** Creates a histogram with upper bounds `buckets` (ascending) in `registry`. */
export function cellHistogram<L extends string>(
  registry: Registry,
  spec: CellMetricSpec<L> & { readonly buckets: readonly number[] },
): CellHistogram {
  const bounds = Float64Array.from(spec.buckets);
  const cells: { labels: Record<string, string>; counts: Float64Array; sum: number }[] = [];
  const bucketName = `${spec.name}_bucket`;
  const exportCell = (cell: (typeof cells)[number]): ExportedValue[] => {
    const shared = cell.labels;
    const out: ExportedValue[] = [];
    let cumulative = 0;
    bounds.forEach((le, i) => {
      cumulative += cell.counts[i] as number;
      out.push({
        labels: { le },
        sharedLabels: shared,
        value: cumulative,
        metricName: bucketName,
        exemplar: null,
      });
    });
    const count = cumulative + (cell.counts[bounds.length] as number);
    out.push(
      {
        labels: { le: '+Inf' },
        sharedLabels: shared,
        value: count,
        metricName: bucketName,
        exemplar: null,
      },
      { labels: {}, sharedLabels: shared, value: cell.sum, metricName: `${spec.name}_sum` },
      { labels: {}, sharedLabels: shared, value: count, metricName: `${spec.name}_count` },
    );
    return out;
  };
  register(
    registry,
    spec.name,
    () => ({
      name: spec.name,
      help: spec.help,
      type: 'histogram',
      values: cells.flatMap(exportCell),
      aggregator: 'sum',
    }),
    () => {
      for (const cell of cells) {
        cell.counts.fill(0);
        cell.sum = 0;
      }
    },
  );
  return {
    cell: memo((values) => {
      // One slot per bound, plus the last for values above every bound.
      const cell = {
        labels: labelsOf(spec.labelNames, values),
        counts: new Float64Array(bounds.length + 1),
        sum: 0,
      };
      cells.push(cell);
      return {
        observe(value) {
          let i = 0;
          while (i < bounds.length && value > (bounds[i] as number)) i++;
          cell.counts[i] = (cell.counts[i] as number) + 1;
          cell.sum += value;
        },
      };
    }),
  };
}
