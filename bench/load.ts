/**
 * Load generators of the proxy benchmark, run in the bench's own process: a closed loop (every
 * connection sends its next request when the previous answer is read) and an open loop (requests
 * sent on a fixed schedule, whatever the answers do). Both time every request, so latency
 * percentiles come from the client side, as a caller sees them.
 */
import { Pool } from 'undici';

/** One request to send. */
export interface RequestSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What a load run measured. */
export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  /** Each request's latency in milliseconds, in completion order. */
  readonly latencies: Float64Array;
}

/** Options common to both loops. */
export interface LoadOptions {
  readonly port: number;
  readonly connections: number;
  /** The i-th request (0-based). */
  readonly request: (i: number) => RequestSpec;
  /** The status every answer must have; any other fails the run after it completes. */
  readonly expect: number;
}

/** Sends one request, reads its whole answer; its status and latency in ms. */
async function send(pool: Pool, spec: RequestSpec, since: bigint): Promise<[number, number]> {
  const { statusCode, body } = await pool.request(spec);
  await body.dump({ limit: Number.MAX_SAFE_INTEGER });
  return [statusCode, Number(process.hrtime.bigint() - since) / 1e6];
}

/** Throws when any answer had another status than expected. */
function check(statuses: Map<number, number>, expect: number, total: number): void {
  const wrong = [...statuses].filter(([status]) => status !== expect);
  if (wrong.length === 0) return;
  const listed = wrong.map(([status, n]) => `${n} × ${status}`).join(', ');
  throw new Error(`of ${total} benchmark requests, ${listed} (expected ${expect} every time)`);
}

/** `total` requests over `connections` keep-alive connections, each sent when one is free. */
export async function closedLoop(
  options: LoadOptions & { readonly total: number },
): Promise<LoadResult> {
  const { port, connections, request, expect, total } = options;
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1 });
  const latencies = new Float64Array(total);
  const statuses = new Map<number, number>();
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < total; i = next++) {
      const [status, ms] = await send(pool, request(i), process.hrtime.bigint());
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      latencies[done++] = ms;
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await pool.close();
  check(statuses, expect, total);
  return { requests: total, seconds, latencies };
}

/**
 * `rate` requests a second for `seconds`, each sent at its scheduled time (checked every
 * millisecond) over at most `connections` connections; a request whose turn comes while all are
 * busy waits for one. Latency counts from the scheduled time, so a stall is not hidden.
 */
export async function openLoop(
  options: LoadOptions & { readonly rate: number; readonly seconds: number },
): Promise<LoadResult> {
  const { port, connections, request, expect, rate } = options;
  const total = Math.round(rate * options.seconds);
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1 });
  const latencies = new Float64Array(total);
  const statuses = new Map<number, number>();
  const inFlight: Promise<void>[] = [];
  let done = 0;
  const started = process.hrtime.bigint();
  const nanosApart = BigInt(Math.round(1e9 / rate));
  await new Promise<void>((resolve) => {
    let sent = 0;
    const tick = (): void => {
      const due = Math.min(total, Number((process.hrtime.bigint() - started) / nanosApart) + 1);
      for (; sent < due; sent++) {
        const scheduled = started + BigInt(sent) * nanosApart;
        inFlight.push(
          send(pool, request(sent), scheduled).then(([status, ms]) => {
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            latencies[done++] = ms;
          }),
        );
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await pool.close();
  check(statuses, expect, total);
  return { requests: total, seconds, latencies };
}

/** The p-th percentile (0 < p ≤ 100, nearest rank) of `values`. */
export function percentile(values: Float64Array, p: number): number {
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
