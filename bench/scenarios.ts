/**
 * The proxy benchmark's scenarios: what each sends, to which proxies, and how one measurement
 * is taken (a warm-up, then a CPU window around the measured load; for scopegate, its token-cache
 * counters read from /metrics on either side of the window).
 */
import { closedLoop, openLoop, percentile, type LoadResult, type RequestSpec } from './load.js';
import type { Target } from './processes.js';
import { forgedTokens } from './tokens.js';

/** The proxies compared, in table order. */
export const PROXIES = ['haproxy', 'floor', 'plain', 'scopegate'] as const;

/** One of {@link PROXIES}. */
export type ProxyName = (typeof PROXIES)[number];

/** How much each scenario sends. */
export interface Sizes {
  /** Interleaved rounds; each row reports the median. */
  readonly rounds: number;
  /** Warm-up requests before each measurement (JIT, connections). */
  readonly warmup: number;
  readonly cached: number;
  readonly manyTokens: number;
  readonly sse: number;
  readonly forged: number;
  readonly serviceAccount: number;
  /** Distinct tokens of the first-use row; the first {@link hotTokens} are the mix's hot set. */
  readonly firstUse: number;
  readonly hotTokens: number;
  readonly openLoopRate: number;
  readonly openLoopSeconds: number;
}

/** `npm run bench`'s sizes (a few minutes on a 2-core machine). */
export const FULL_SIZES: Sizes = {
  rounds: 3,
  warmup: 1_500,
  cached: 15_000,
  manyTokens: 10_000,
  sse: 4_000,
  forged: 10_000,
  serviceAccount: 10_000,
  firstUse: 10_000,
  hotTokens: 1_000,
  openLoopRate: 1_000,
  openLoopSeconds: 3,
};

/** Closed-loop connections of every scenario but the open loop. */
export const CONNECTIONS = 50;
/** Connections of the open loop. */
export const OPEN_LOOP_CONNECTIONS = 16;

/** One measurement of one proxy in one scenario. */
export interface Measurement {
  readonly requests: number;
  readonly rps: number;
  /** CPU microseconds per request of the proxy process. */
  readonly cpuPerRequest: number;
  /** Client-side latency percentiles, ms. */
  readonly p50: number;
  readonly p99: number;
  /** scopegate: token-cache hits / look-ups during the window (null: none, or not scopegate). */
  readonly hitRatio: number | null;
}

/** The credentials the scenarios send. */
export interface Credentials {
  /** One RS256 token (scopes agents:read, agents:run). */
  readonly one: string;
  readonly serviceAccount: string;
  /** The many-tokens mix of a proxy (each proxy has its own cold-stream position). */
  readonly mixOf: (proxy: ProxyName) => (i: number) => string;
}

/** A scenario: its table label, the proxies it runs on, and one load run. */
export interface Scenario {
  readonly key: 'cached' | 'many' | 'sse' | 'forged' | 'openLoop' | 'serviceAccount';
  readonly label: string;
  readonly proxies: readonly ProxyName[];
  /** Sends the scenario's load (`warmup`: a shorter one, same requests) to `port`. */
  readonly load: (port: number, proxy: ProxyName, warmup: boolean) => Promise<LoadResult>;
}

const AGENT = '/agents/a1';
const AGUI_BODY = JSON.stringify({ threadId: 't1', runId: 'r1', messages: [], tools: [] });

function get(token: string): RequestSpec {
  return { method: 'GET', path: AGENT, headers: { authorization: `Bearer ${token}` } };
}

function agui(token: string): RequestSpec {
  return {
    method: 'POST',
    path: '/agui',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: AGUI_BODY,
  };
}

/** "12,000" */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** The scenarios, in table order. */
export function scenarios(sizes: Sizes, credentials: Credentials): Scenario[] {
  const closed =
    (total: number, request: (proxy: ProxyName) => (i: number) => RequestSpec, expect = 200) =>
    (port: number, proxy: ProxyName, warmup: boolean): Promise<LoadResult> =>
      closedLoop({
        port,
        connections: CONNECTIONS,
        total: warmup ? Math.min(sizes.warmup, total) : total,
        request: request(proxy),
        expect,
      });
  const one = get(credentials.one);
  return [
    {
      key: 'cached',
      label: `one cached RS256 token, ${CONNECTIONS} connections`,
      proxies: PROXIES,
      load: closed(sizes.cached, () => () => one),
    },
    {
      key: 'many',
      label: 'many tokens, cache hit 85 %',
      proxies: PROXIES,
      load: closed(sizes.manyTokens, (proxy) => {
        const pick = credentials.mixOf(proxy);
        return (i) => get(pick(i));
      }),
    },
    {
      key: 'sse',
      label: 'SSE stream of 10 events (POST /agui)',
      proxies: PROXIES,
      load: closed(sizes.sse, () => {
        const request = agui(credentials.one);
        return () => request;
      }),
    },
    {
      key: 'forged',
      label: 'forged tokens (bad signature) → 401',
      proxies: ['haproxy', 'floor', 'scopegate'],
      load: async (port, proxy, warmup) => {
        // New tokens for every run: each one is never seen before.
        const tokens = forgedTokens(warmup ? Math.min(sizes.warmup, sizes.forged) : sizes.forged);
        return closed(tokens.length, () => (i) => get(tokens[i] as string), 401)(
          port,
          proxy,
          false,
        );
      },
    },
    {
      key: 'openLoop',
      label: `open loop, ${count(sizes.openLoopRate)} req/s, ${OPEN_LOOP_CONNECTIONS} connections`,
      proxies: PROXIES,
      load: (port, proxy, warmup) =>
        warmup
          ? closed(sizes.warmup, () => () => one)(port, proxy, true)
          : openLoop({
              port,
              connections: OPEN_LOOP_CONNECTIONS,
              rate: sizes.openLoopRate,
              seconds: sizes.openLoopSeconds,
              request: () => one,
              expect: 200,
            }),
    },
    {
      key: 'serviceAccount',
      label: 'one service-account token (cached)',
      proxies: ['scopegate'],
      load: closed(sizes.serviceAccount, () => () => get(credentials.serviceAccount)),
    },
  ];
}

/** scopegate's token-cache counters, read from its /metrics. */
async function cacheCounters(adminPort: number): Promise<{ hits: number; misses: number }> {
  const text = await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
  // Both counters exist from the start (0), so a missing line is a broken registry.
  const read = (name: string): number =>
    Number((new RegExp(`^${name} (\\S+)$`, 'm').exec(text) as RegExpExecArray)[1]);
  return {
    hits: read('scopegate_token_cache_hits_total'),
    misses: read('scopegate_token_cache_misses_total'),
  };
}

/** The hit ratio between two counter readings (null when there was no look-up). */
export function hitRatioOf(
  before: { hits: number; misses: number },
  after: { hits: number; misses: number },
): number | null {
  const hits = after.hits - before.hits;
  const lookups = hits + after.misses - before.misses;
  return lookups === 0 ? null : hits / lookups;
}

/** Measures `target` under `load`: warm-up, then CPU and counters around the measured run. */
export async function measure(
  target: Target,
  load: (warmup: boolean) => Promise<LoadResult>,
): Promise<Measurement> {
  await load(true);
  const before = target.adminPort === undefined ? null : await cacheCounters(target.adminPort);
  await target.start();
  const result = await load(false);
  const micros = await target.stop();
  const after = before === null ? null : await cacheCounters(target.adminPort as number);
  return {
    requests: result.requests,
    rps: result.requests / result.seconds,
    cpuPerRequest: micros / result.requests,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    hitRatio: before === null ? null : hitRatioOf(before, after as typeof before),
  };
}
