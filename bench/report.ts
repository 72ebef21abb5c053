/**
 * The proxy benchmark's printed report: one table of CPU µs per request (scenario × proxy, the
 * latency rows in ms), one of requests/s, then each target of the performance work as met or
 * MISSED with its ratio. Ratios are against HAProxy when it ran, against the plain Node proxy
 * otherwise; beside each HAProxy target, the Node floor's own ratio (the least any Node proxy
 * pays there). Pure: figures in, lines out.
 */
import { PROXIES, type Measurement, type ProxyName, type Scenario } from './scenarios.js';

/** One row of measurements: the median of each proxy that ran it. */
export interface ResultRow {
  readonly key: Scenario['key'] | 'firstUse';
  readonly label: string;
  readonly cells: Partial<Record<ProxyName, Measurement>>;
}

/** What {@link formatReport} prints. */
export interface BenchResults {
  /** The proxies that ran (HAProxy only when installed). */
  readonly proxies: readonly ProxyName[];
  readonly rows: readonly ResultRow[];
  /** Requests/s of the upstream reached directly. */
  readonly directRps: number;
}

const HEADINGS: Record<ProxyName, string> = {
  haproxy: 'HAProxy',
  floor: 'Node floor',
  plain: 'plain Node',
  scopegate: 'scopegate',
};

const SHORT: Record<ProxyName, string> = {
  haproxy: 'HAProxy',
  floor: 'floor',
  plain: 'plain',
  scopegate: '',
};

/** Each target: the row, the figure compared, the largest ratio that meets it. */
const TARGETS: ReadonlyArray<{
  readonly key: ResultRow['key'];
  readonly figure: 'cpuPerRequest' | 'p99';
  readonly max: number;
  readonly text: string;
}> = [
  { key: 'cached', figure: 'cpuPerRequest', max: 1, text: 'CPU/request, one cached token' },
  { key: 'many', figure: 'cpuPerRequest', max: 1.15, text: 'CPU/request, many tokens' },
  { key: 'sse', figure: 'cpuPerRequest', max: 1.15, text: 'CPU/request, SSE' },
  { key: 'openLoop', figure: 'cpuPerRequest', max: 1.3, text: 'CPU/request, open loop' },
  { key: 'forged', figure: 'cpuPerRequest', max: 1.5, text: 'CPU/request, forged tokens' },
  { key: 'cached', figure: 'p99', max: 2, text: 'p99 latency, one cached token' },
];

/** Kept from before HAProxy was in the bench: against plain Node whatever ran. */
const PLAIN_TARGETS: ReadonlyArray<{ readonly key: ResultRow['key']; readonly text: string }> = [
  { key: 'cached', text: 'CPU/request with a cached token' },
  { key: 'serviceAccount', text: 'CPU/request with a cached service-account token' },
];

const LABEL_WIDTH = 52;
const COLUMN = 12;

function cell(text: string): string {
  return text.padStart(COLUMN);
}

function ratioText(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}

/** A table row: label, one cell per proxy, then scopegate's ratios to the other proxies. */
function line(
  label: string,
  proxies: readonly ProxyName[],
  value: (proxy: ProxyName) => number | undefined,
  digits: number,
  unit: string,
  ratios: boolean,
): string {
  const values = proxies.map(value);
  const cells = values.map((v) => cell(v === undefined ? '—' : v.toFixed(digits) + unit));
  const ours = value('scopegate') as number;
  const divided = proxies
    .filter((proxy) => ratios && proxy !== 'scopegate')
    .map((proxy) => {
      const theirs = value(proxy);
      return cell(theirs === undefined ? '' : ratioText(ours / theirs));
    });
  return `  ${label.padEnd(LABEL_WIDTH)}${cells.join('')}${divided.join('')}`.trimEnd();
}

/** The report's lines. */
export function formatReport(results: BenchResults): string[] {
  const { proxies, rows } = results;
  const others = proxies.filter((proxy) => proxy !== 'scopegate');
  const heading = (label: string, ratios: boolean): string =>
    `  ${label.padEnd(LABEL_WIDTH)}` +
    proxies.map((proxy) => cell(HEADINGS[proxy])).join('') +
    others.map((proxy) => (ratios ? cell(`vs ${SHORT[proxy]}`) : '')).join('');
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const out: string[] = [];
  out.push('CPU µs per request of the proxy process (at the right: scopegate ÷ each other proxy)');
  out.push(heading('scenario', true));
  for (const row of rows) {
    const hit = row.cells.scopegate?.hitRatio;
    const label =
      row.key === 'many' && typeof hit === 'number'
        ? `${row.label} (measured ${(hit * 100).toFixed(1)} %)`
        : row.label;
    out.push(line(label, proxies, (proxy) => row.cells[proxy]?.cpuPerRequest, 1, '', true));
  }
  const cached = byKey.get('cached') as ResultRow;
  for (const p of ['p50', 'p99'] as const) {
    out.push(
      line(
        `${p} latency, ${cached.label}`,
        proxies,
        (proxy) => cached.cells[proxy]?.[p],
        2,
        ' ms',
        true,
      ),
    );
  }
  out.push('');
  out.push('requests/s (load generator: this process, one CPU when pinned)');
  out.push(heading('scenario', false));
  out.push(`  ${'upstream, direct'.padEnd(LABEL_WIDTH)}${cell(results.directRps.toFixed(0))}`);
  for (const row of rows) {
    out.push(line(row.label, proxies, (proxy) => row.cells[proxy]?.rps, 0, '', false));
  }
  out.push('');
  const baseline: ProxyName = proxies.includes('haproxy') ? 'haproxy' : 'plain';
  const against = HEADINGS[baseline];
  for (const target of TARGETS) {
    const row = byKey.get(target.key) as ResultRow;
    const ours = (row.cells.scopegate as Measurement)[target.figure];
    const theirs = row.cells[baseline]?.[target.figure];
    const what = `  target: ${target.text} ≤ ${ratioText(target.max)} ${against}'s: `;
    if (theirs === undefined) {
      out.push(`${what}no ${against} figure (it does no authentication)`);
      continue;
    }
    const ratio = ours / theirs;
    // Where the least a Node proxy pays is already above the target, say so: that part of the
    // gap is node:http's, undici's and OpenSSL's, not scopegate's.
    const floor = baseline === 'haproxy' ? row.cells.floor?.[target.figure] : undefined;
    const below =
      floor === undefined ? '' : ` (Node floor: ${ratioText(floor / theirs)} ${against}'s)`;
    out.push(`${what}${ratioText(ratio)} ${ratio <= target.max ? 'met' : 'MISSED'}${below}`);
  }
  const plain = cached.cells.plain as Measurement;
  for (const target of PLAIN_TARGETS) {
    const ours = ((byKey.get(target.key) as ResultRow).cells.scopegate as Measurement)
      .cpuPerRequest;
    const ratio = ours / plain.cpuPerRequest;
    out.push(
      `  target: ${target.text} ≤ 1.30× plain Node's: ${ratioText(ratio)} ${ratio <= 1.3 ? 'met' : 'MISSED'}`,
    );
  }
  return out;
}

/** scopegate with one optional per-request feature on, measured like the cached-token row. */
export interface VariantRow {
  readonly label: string;
  readonly measured: Measurement;
}

/**
 * The cost of each optional feature: its CPU per request with one cached token, and that over
 * scopegate's own in the main table (the same scenario, features off).
 */
export function formatVariants(base: Measurement, variants: readonly VariantRow[]): string[] {
  const out = [
    '',
    'scopegate with an optional feature on, or from the baseline checkout (one cached RS256 token, each a fresh process, in rounds of their own; CPU µs per request, ÷ this scopegate with every feature off in the same rounds)',
    `  ${'this scopegate, every feature off'.padEnd(LABEL_WIDTH)}${cell(base.cpuPerRequest.toFixed(1))}`,
  ];
  for (const { label, measured } of variants) {
    out.push(
      `  ${label.padEnd(LABEL_WIDTH)}${cell(measured.cpuPerRequest.toFixed(1))}${cell(ratioText(measured.cpuPerRequest / base.cpuPerRequest))}`,
    );
  }
  return out;
}

/** The proxies of a run, in table order. */
export function proxiesOf(haproxy: boolean): ProxyName[] {
  return PROXIES.filter((proxy) => haproxy || proxy !== 'haproxy');
}
