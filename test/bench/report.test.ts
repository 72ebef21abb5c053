/**
 * The bench's report from given figures: the CPU table with scopegate's ratios, the latency
 * rows, the requests/s table, and every target met or MISSED against HAProxy when it ran, against
 * plain Node otherwise.
 */
import t from 'tap';
import { formatReport, formatVariants, proxiesOf, type ResultRow } from '../../bench/report.js';
import type { Measurement, ProxyName } from '../../bench/scenarios.js';

function m(cpuPerRequest: number, p99 = 1, hitRatio: number | null = null): Measurement {
  return { requests: 1000, rps: 5000, cpuPerRequest, p50: p99 / 2, p99, hitRatio };
}

function rows(haproxy: boolean): ResultRow[] {
  const h = <T>(value: T): { haproxy?: T } => (haproxy ? { haproxy: value } : {});
  return [
    {
      key: 'cached',
      label: 'one cached',
      cells: { ...h(m(40, 3)), floor: m(32, 2), plain: m(50, 5), scopegate: m(40, 7) },
    },
    {
      key: 'many',
      label: 'many',
      cells: { ...h(m(40)), floor: m(36), plain: m(40), scopegate: m(46, 1, 0.85) },
    },
    {
      key: 'sse',
      label: 'sse',
      cells: { ...h(m(100)), floor: m(110), plain: m(100), scopegate: m(116) },
    },
    { key: 'forged', label: 'forged', cells: { ...h(m(20)), floor: m(24), scopegate: m(30) } },
    {
      key: 'openLoop',
      label: 'open',
      cells: { ...h(m(100)), floor: m(120), plain: m(100), scopegate: m(131) },
    },
    { key: 'serviceAccount', label: 'sa', cells: { scopegate: m(60) } },
    { key: 'firstUse', label: 'first', cells: { scopegate: m(900) } },
  ];
}

t.test('proxiesOf: HAProxy first when it ran', async (t) => {
  t.same(proxiesOf(true), ['haproxy', 'floor', 'plain', 'scopegate']);
  t.same(proxiesOf(false), ['floor', 'plain', 'scopegate']);
});

t.test('with HAProxy: four columns, ratios to each, targets against HAProxy', async (t) => {
  const lines = formatReport({ proxies: proxiesOf(true), rows: rows(true), directRps: 9000 });
  const text = lines.join('\n');
  t.match(
    text,
    /scenario +HAProxy +Node floor +plain Node +scopegate +vs HAProxy +vs floor +vs plain\n/,
  );
  t.match(text, /one cached +40\.0 +32\.0 +50\.0 +40\.0 +1\.00× +1\.25× +0\.80×\n/);
  t.match(text, /many \(measured 85\.0 %\) +40\.0 +36\.0 +40\.0 +46\.0 +1\.15× +1\.28× +1\.15×\n/);
  t.match(text, /forged +20\.0 +24\.0 +— +30\.0 +1\.50× +1\.25×\n/);
  t.match(text, /sa +— +— +— +60\.0\n/);
  t.match(
    text,
    /p99 latency, one cached +3\.00 ms +2\.00 ms +5\.00 ms +7\.00 ms +2\.33× +3\.50× +1\.40×\n/,
  );
  t.match(text, /p50 latency, one cached +1\.50 ms/);
  t.match(text, /upstream, direct +9000\n/);
  t.match(text, /\n {2}one cached +5000 +5000 +5000 +5000\n/, 'requests/s without ratios');
  const targets = lines.filter((line) => line.startsWith('  target: '));
  t.same(targets, [
    "  target: CPU/request, one cached token ≤ 1.00× HAProxy's: 1.00× met (Node floor: 0.80× HAProxy's)",
    "  target: CPU/request, many tokens ≤ 1.15× HAProxy's: 1.15× met (Node floor: 0.90× HAProxy's)",
    "  target: CPU/request, SSE ≤ 1.15× HAProxy's: 1.16× MISSED (Node floor: 1.10× HAProxy's)",
    "  target: CPU/request, open loop ≤ 1.30× HAProxy's: 1.31× MISSED (Node floor: 1.20× HAProxy's)",
    "  target: CPU/request, forged tokens ≤ 1.50× HAProxy's: 1.50× met (Node floor: 1.20× HAProxy's)",
    "  target: p99 latency, one cached token ≤ 2.00× HAProxy's: 2.33× MISSED (Node floor: 0.67× HAProxy's)",
    "  target: CPU/request with a cached token ≤ 1.30× plain Node's: 0.80× met",
    "  target: CPU/request with a cached service-account token ≤ 1.30× plain Node's: 1.20× met",
  ]);
});

t.test('without HAProxy: three columns, targets against plain Node', async (t) => {
  const without = rows(false).map((row) =>
    row.key === 'many'
      ? { ...row, cells: { ...row.cells, scopegate: m(46) } }
      : row.key === 'serviceAccount'
        ? { ...row, cells: { scopegate: m(70) } }
        : row,
  );
  const lines = formatReport({ proxies: proxiesOf(false), rows: without, directRps: 9000 });
  const text = lines.join('\n');
  t.notMatch(text, 'HAProxy');
  t.match(text, /scenario +Node floor +plain Node +scopegate +vs floor +vs plain\n/);
  t.match(
    text,
    /\n {2}many +36\.0 +40\.0 +46\.0 +1\.28× +1\.15×\n/,
    'no hit ratio measured: none printed',
  );
  t.match(text, /forged +24\.0 +— +30\.0 +1\.25×\n/);
  const targets = lines.filter((line) => line.startsWith('  target: '));
  t.same(targets.slice(0, 6), [
    "  target: CPU/request, one cached token ≤ 1.00× plain Node's: 0.80× met",
    "  target: CPU/request, many tokens ≤ 1.15× plain Node's: 1.15× met",
    "  target: CPU/request, SSE ≤ 1.15× plain Node's: 1.16× MISSED",
    "  target: CPU/request, open loop ≤ 1.30× plain Node's: 1.31× MISSED",
    "  target: CPU/request, forged tokens ≤ 1.50× plain Node's: no plain Node figure (it does no authentication)",
    "  target: p99 latency, one cached token ≤ 2.00× plain Node's: 1.40× met",
  ]);
  t.equal(
    targets.at(-1),
    "  target: CPU/request with a cached service-account token ≤ 1.30× plain Node's: 1.40× MISSED",
  );
});

t.test('every proxy name has a heading', async (t) => {
  const all: ProxyName[] = proxiesOf(true);
  const lines = formatReport({ proxies: all, rows: rows(true), directRps: 1 });
  for (const heading of ['HAProxy', 'Node floor', 'plain Node', 'scopegate'])
    t.match(lines[1], heading);
});

t.test(
  'the optional features: CPU per request and the ratio to scopegate with them off',
  async (t) => {
    t.same(
      formatVariants(m(40), [
        { label: 'identity token', measured: m(42) },
        { label: 'tracing', measured: m(60) },
      ]).map((line) => line.replace(/ +/g, ' ')),
      [
        '',
        'scopegate with an optional feature on, or from the baseline checkout (one cached RS256 token, each a fresh process, in rounds of their own; CPU µs per request, ÷ this scopegate with every feature off in the same rounds)',
        ' this scopegate, every feature off 40.0',
        ' identity token 42.0 1.05×',
        ' tracing 60.0 1.50×',
      ],
    );
  },
);
