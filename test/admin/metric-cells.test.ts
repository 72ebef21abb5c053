/**
 * Cell metrics against prom-client's own: the same events give the same exposition text, line for
 * line, and a reset zeroes every series.
 */
import t from 'tap';
import { Counter, Histogram, Registry } from 'prom-client';
import { cellCounter, cellHistogram } from '../../src/admin/metric-cells.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const SHAPE = { help: 'A test metric.', labelNames: ['method', 'route'] as const };

/** Label sets and values: below, on and between bounds, above every bound, zero. */
const EVENTS: readonly (readonly [string, string, number])[] = [
  ['GET', '/agents/*', 0.0005],
  ['GET', '/agents/*', 0.001],
  ['GET', '/agents/*', 0.05],
  ['POST', '/agents/*/runs', 3],
  ['GET', '/agents/*', 0],
  ['POST', '/agents/*/runs', 0.1],
  ['GET', 'unmatched', 1],
];

t.test("the same events give prom-client's exposition text exactly", async (t) => {
  const reference = new Registry();
  const counter = new Counter({
    name: 'c_total',
    ...SHAPE,
    labelNames: [...SHAPE.labelNames],
    registers: [reference],
  });
  const histogram = new Histogram({
    name: 'h_seconds',
    ...SHAPE,
    labelNames: [...SHAPE.labelNames],
    buckets: BUCKETS,
    registers: [reference],
  });
  const cells = new Registry();
  const cellsCounter = cellCounter(cells, { name: 'c_total', ...SHAPE });
  const cellsHistogram = cellHistogram(cells, { name: 'h_seconds', ...SHAPE, buckets: BUCKETS });
  for (const [method, route, value] of EVENTS) {
    counter.inc({ method, route });
    histogram.observe({ method, route }, value);
    cellsCounter.cell([method, route]).inc();
    cellsHistogram.cell([method, route]).observe(value);
  }
  t.equal(await cells.metrics(), await reference.metrics());
  t.equal(
    cellsCounter.cell(['GET', '/agents/*']),
    cellsCounter.cell(['GET', '/agents/*']),
    'one cell a label set',
  );
  // As JSON (prom-client spells out some absent exemplars as `undefined`).
  const asJson = async (registry: Registry) =>
    JSON.parse(JSON.stringify(await registry.getMetricsAsJSON())) as unknown;
  t.same(await asJson(cells), await asJson(reference), 'the JSON exposition too');
});

t.test('a reset zeroes every series and keeps it', async (t) => {
  const registry = new Registry();
  const counter = cellCounter(registry, { name: 'c_total', ...SHAPE });
  const histogram = cellHistogram(registry, { name: 'h_seconds', ...SHAPE, buckets: BUCKETS });
  const counted = counter.cell(['GET', '/a']);
  const timed = histogram.cell(['GET', '/a']);
  counted.inc();
  timed.observe(0.5);
  registry.resetMetrics();
  const text = await registry.metrics();
  t.match(text, /^c_total\{method="GET",route="\/a"\} 0$/m);
  t.match(text, /^h_seconds_count\{method="GET",route="\/a"\} 0$/m);
  t.match(text, /^h_seconds_sum\{method="GET",route="\/a"\} 0$/m);
  counted.inc();
  t.match(
    await registry.metrics(),
    /^c_total\{method="GET",route="\/a"\} 1$/m,
    'the kept cell counts on',
  );
});
