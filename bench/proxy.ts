/**
 * Proxy benchmark, one process tree: the same upstream reached directly, through a plain Node
 * keep-alive proxy (no auth), through the least a Node JWT proxy pays (the "Node floor": node:http,
 * node:crypto RS256, undici, nothing else), through HAProxy verifying every JWT (when installed) and through
 * scopegate run as `scopegate serve` runs it (access log to a file, metrics registry, admin
 * listener). The scenarios (bench/scenarios.ts) run in interleaved rounds; each figure is a
 * median. With `taskset`, the proxies run on CPU 0, this process (the load generator) and the
 * upstream on CPU 1. Prints the table and the targets; measures, never asserts.
 */
import { generateKeyPairSync } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startHaproxy } from './haproxy.js';
import { closedLoop, median } from './load.js';
import { affinityOf, setAffinity, startNodeChild, type Pin, type Target } from './processes.js';
import {
  formatReport,
  formatVariants,
  proxiesOf,
  type ResultRow,
  type VariantRow,
} from './report.js';
import {
  CONNECTIONS,
  count,
  measure,
  scenarios,
  type Measurement,
  type ProxyName,
  type Sizes,
} from './scenarios.js';
import { coldRequestsOf, mintServiceAccount, mintTokens, tokenMix } from './tokens.js';

/** Options of {@link runProxyBench}. */
export interface ProxyBenchOptions {
  readonly sizes: Sizes;
  /** The haproxy program, or null when it is not installed (its column is left out). */
  readonly haproxy: string | null;
  /** The taskset program, or null: no pinning. */
  readonly taskset: string | null;
  /** BENCH_PROFILE: write a V8 CPU profile of the scopegate process into this folder. */
  readonly profileDir: string | null;
  /** BENCH_TRACE_GC: run both Node proxies with --trace-gc, their GC lines into this folder. */
  readonly traceGcDir: string | null;
  /**
   * BENCH_BASELINE: another checkout of scopegate (its dependencies installed or linked), run
   * with the same config as one more variant, so a change is measured against the code before it
   * in one process tree.
   */
  readonly baseline: string | null;
}

/** The CPU the proxies under test run on; the load generator and the upstream get the other. */
const PROXY_CPU = 0;
const LOAD_CPU = 1;

/**
 * Per-request features off by default, each measured on a scopegate of its own; and the
 * baseline checkout, with none of them.
 */
interface Variant {
  readonly name: string;
  readonly label: string;
  /** The checkout folder this scopegate runs from; this one when absent. */
  readonly tree?: string;
  /** Keys added inside `upstream: { … }`. */
  readonly upstream: string;
  /** Lines added at the end of the config. */
  readonly lines: readonly string[];
}

function variantsOf(spanSinkUrl: string, baseline: string | null): Variant[] {
  return [
    ...(baseline === null
      ? []
      : [
          {
            name: 'scopegate-baseline',
            label: 'baseline checkout',
            tree: baseline,
            upstream: '',
            lines: [],
          },
        ]),
    {
      name: 'scopegate-identity-token',
      label: 'upstream.identity_token on',
      upstream: ', identity_token: { enabled: true }',
      lines: [],
    },
    {
      name: 'scopegate-tracing',
      label: 'telemetry.tracing on, sample ratio 1',
      upstream: '',
      lines: [`telemetry: { tracing: true, otlp_endpoint: "${spanSinkUrl}", sample_ratio: 1 }`],
    },
  ];
}

/** An OTLP/HTTP receiver that reads and drops every export (the tracing variant's collector). */
async function startSpanSink(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function configOf(upstreamUrl: string, variant?: Variant): string {
  return [
    'service_id: bench',
    'listen: { host: 127.0.0.1, port: 0, shutdown_grace_ms: 2000 }',
    'admin: { host: 127.0.0.1, port: 0 }',
    'log: { level: info, access: true }',
    `upstream: { url: "${upstreamUrl}", embedded: false, timeout_ms: 30000${variant?.upstream ?? ''} }`,
    'auth:',
    '  authorization: true',
    '  algorithm: RS256',
    '  verification_keys: ["file:rs256.pem"]',
    '  dev_keys: null',
    // Cache hot: one verification, then every request a cache hit (last_used_at once a minute).
    '  service_accounts: { enabled: true, store: "sqlite:sa.db", cache_ttl_seconds: 3600 }',
    ...(variant?.lines ?? []),
    '',
  ].join('\n');
}

/** How many times `needle` occurs in `text`. */
function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Copies the lines of `from` that are not JSON (the --trace-gc ones) into `to`. */
async function gcLines(from: string, to: string): Promise<void> {
  const output = createWriteStream(to);
  for await (const text of createInterface({ input: createReadStream(from) })) {
    if (!text.startsWith('{')) output.write(text + '\n');
  }
  await new Promise((r) => output.end(r));
}

/** Runs the proxy benchmark and prints its report; returns the rows printed. */
export async function runProxyBench(
  out: (line: string) => void,
  options: ProxyBenchOptions,
): Promise<ResultRow[]> {
  const { sizes } = options;
  const dir = mkdtempSync(join(tmpdir(), 'scopegate-bench-'));
  const targets: Target[] = [];
  let sink: Awaited<ReturnType<typeof startSpanSink>> | null = null;
  const pinned = options.taskset === null ? null : affinityOf(options.taskset, process.pid);
  try {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicKeyFile = join(dir, 'rs256.pem');
    writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
    // The cold stream lasts for every scopegate run of the many-tokens scenario.
    const cold = Math.max(1, coldRequestsOf(sizes.warmup + sizes.manyTokens) * sizes.rounds);
    out(`proxy benchmark: signing ${count(sizes.firstUse + cold)} RS256 tokens …`);
    const firstUse = await mintTokens(privateKey, sizes.firstUse, 'user');
    const coldTokens = await mintTokens(privateKey, cold, 'cold');
    const hot = firstUse.slice(0, sizes.hotTokens);
    const mixes = new Map<ProxyName, (i: number) => string>();
    const credentials = {
      one: firstUse[0] as string,
      serviceAccount: await mintServiceAccount(join(dir, 'sa.db')),
      mixOf: (proxy: ProxyName) => {
        if (!mixes.has(proxy)) mixes.set(proxy, tokenMix(hot, coldTokens).pick);
        return mixes.get(proxy) as (i: number) => string;
      },
    };

    const pin = (cpu: number): Pin =>
      options.taskset === null ? null : { taskset: options.taskset, cpu };
    if (options.taskset !== null) setAffinity(options.taskset, process.pid, String(LOAD_CPU));
    out(
      options.taskset === null
        ? 'pinning: not applied (needs taskset and 2 CPUs): every process shares every CPU'
        : `pinning: applied (taskset): proxies on CPU ${PROXY_CPU}, load generator and upstream on CPU ${LOAD_CPU}`,
    );
    const traceGc = options.traceGcDir === null ? [] : ['--trace-gc'];
    const node = async (name: string, args: string[], flags: string[], cpu: number) => {
      const target = await startNodeChild(name, {
        args,
        pin: pin(cpu),
        flags,
        stdout: join(dir, `${name}.stdout`),
      });
      targets.push(target);
      return target;
    };
    const upstream = await node('upstream', ['upstream'], [], LOAD_CPU);
    const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
    writeFileSync(join(dir, 'gateway.yaml'), configOf(upstreamUrl));
    const profile =
      options.profileDir === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`];
    const proxies = new Map<ProxyName, Target>();
    if (options.haproxy === null) out('haproxy not installed: HAProxy columns skipped');
    else {
      const haproxy = await startHaproxy(
        options.haproxy,
        dir,
        { upstreamPort: upstream.port, publicKeyFile },
        pin(PROXY_CPU),
      );
      targets.push(haproxy);
      proxies.set('haproxy', haproxy);
    }
    proxies.set('floor', await node('floor', ['floor', upstreamUrl, publicKeyFile], [], PROXY_CPU));
    proxies.set('plain', await node('plain', ['plain', upstreamUrl], traceGc, PROXY_CPU));
    proxies.set(
      'scopegate',
      await node(
        'scopegate',
        ['gateway', join(dir, 'gateway.yaml')],
        [...profile, ...traceGc],
        PROXY_CPU,
      ),
    );
    const scopegate = proxies.get('scopegate') as Target;

    const direct = await closedLoop({
      port: upstream.port,
      connections: CONNECTIONS,
      total: sizes.cached,
      request: () => ({ method: 'GET', path: '/agents/a1', headers: {} }),
      expect: 200,
    });
    // First use of each token: every request verifies an RS256 signature (then caches it).
    const firstUseRow: ResultRow = {
      key: 'firstUse',
      label: `${count(sizes.firstUse)} tokens, first use`,
      cells: {
        scopegate: await measure(scopegate, (warmup) =>
          closedLoop({
            port: scopegate.port,
            connections: CONNECTIONS,
            total: warmup ? 0 : firstUse.length,
            request: (i) => ({
              method: 'GET',
              path: '/agents/a1',
              headers: { authorization: `Bearer ${firstUse[i] as string}` },
            }),
            expect: 200,
          }),
        ),
      },
    };

    // The box is shared and noisy: each round measures every scenario on every proxy back to
    // back, and each row reports its medians, so a burst of load elsewhere lands on one round
    // of every row, not on one row.
    const list = scenarios(sizes, credentials);
    const rounds = list.map(() => new Map<ProxyName, Measurement[]>());
    for (let round = 0; round < sizes.rounds; round++) {
      for (const [index, scenario] of list.entries()) {
        for (const name of proxiesOf(proxies.has('haproxy'))) {
          if (!scenario.proxies.includes(name)) continue;
          const target = proxies.get(name) as Target;
          const measured = await measure(target, (warmup) =>
            scenario.load(target.port, name, warmup),
          );
          const runs = rounds[index] as Map<ProxyName, Measurement[]>;
          runs.set(name, [...(runs.get(name) ?? []), measured]);
        }
      }
    }
    const rows: ResultRow[] = list.map((scenario, index) => ({
      key: scenario.key,
      label: scenario.label,
      cells: Object.fromEntries(
        [...(rounds[index] as Map<ProxyName, Measurement[]>)].map(([name, runs]) => [
          name,
          medianOf(runs),
        ]),
      ),
    }));
    rows.push(firstUseRow);
    // The optional per-request features, each on a scopegate of its own, with one cached token,
    // measured in rounds of their own that start with a fresh scopegate with every feature off:
    // each ratio compares processes that served the same requests only (the first scopegate ran
    // every scenario before, so its caches, heap and optimized code differ), with figures taken
    // minutes apart at most, whatever the machine did in between.
    sink = await startSpanSink();
    const cached = list.find((scenario) => scenario.key === 'cached') as (typeof list)[number];
    const variants: Array<{ label: string; target: Target; runs: Measurement[] }> = [];
    for (const variant of variantsOf(sink.url, options.baseline)) {
      const file = join(dir, `${variant.name}.yaml`);
      writeFileSync(file, configOf(upstreamUrl, variant));
      const tree = variant.tree === undefined ? [] : [variant.tree];
      const target = await node(variant.name, ['gateway', file, ...tree], [], PROXY_CPU);
      variants.push({ label: variant.label, target, runs: [] });
    }
    const fresh = await node(
      'scopegate-off',
      ['gateway', join(dir, 'gateway.yaml')],
      [],
      PROXY_CPU,
    );
    const baseRuns: Measurement[] = [];
    for (let round = 0; round < sizes.rounds; round++) {
      for (const { target, runs } of [{ target: fresh, runs: baseRuns }, ...variants]) {
        runs.push(await measure(target, (warmup) => cached.load(target.port, 'scopegate', warmup)));
      }
    }
    const variantRows: VariantRow[] = variants.map(({ label, runs }) => ({
      label,
      measured: medianOf(runs),
    }));
    out(
      `proxy benchmark (GET /agents/a1 unless said, ${CONNECTIONS} keep-alive connections, ` +
        `each figure the median of ${sizes.rounds} interleaved rounds)`,
    );
    for (const text of formatReport({
      proxies: proxiesOf(proxies.has('haproxy')),
      rows,
      directRps: direct.requests / direct.seconds,
    }))
      out(text);
    for (const text of formatVariants(medianOf(baseRuns), variantRows)) out(text);
    // Stopped first, so that every line is written and a --cpu-prof profile too.
    for (const target of targets) await target.close();
    const log = readFileSync(join(dir, 'scopegate.stdout'), 'latin1');
    out(
      `scopegate's access log (its stdout, to a file): ${count(occurrences(log, '"req_id":'))} lines, ` +
        `${(log.length / 1e6).toFixed(1)} MB`,
    );
    if (options.traceGcDir !== null) {
      for (const name of ['plain', 'scopegate']) {
        const to = join(options.traceGcDir, `${name}.trace-gc.log`);
        await gcLines(join(dir, `${name}.stdout`), to);
      }
      out(`--trace-gc output of both Node proxies: ${options.traceGcDir}/*.trace-gc.log`);
    }
    return rows;
  } finally {
    for (const target of targets) await target.close();
    // After the scopegates: the tracing one exports its last spans as it stops.
    await sink?.close();
    if (pinned !== null) setAffinity(options.taskset as string, process.pid, pinned);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each figure of `runs` replaced by its median. */
function medianOf(runs: readonly Measurement[]): Measurement {
  const of = (pick: (m: Measurement) => number): number => median(runs.map(pick));
  const ratios = runs.map((m) => m.hitRatio).filter((r): r is number => r !== null);
  return {
    requests: of((m) => m.requests),
    rps: of((m) => m.rps),
    cpuPerRequest: of((m) => m.cpuPerRequest),
    p50: of((m) => m.p50),
    p99: of((m) => m.p99),
    hitRatio: ratios.length === 0 ? null : median(ratios),
  };
}
