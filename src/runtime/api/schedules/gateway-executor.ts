/**
 * The schedule executor of the bundled runtime: calls THE GATEWAY (never the runtime directly)
 * with the internal service token, so a scheduled run is authenticated, authorized and measured
 * like any other request. Run endpoints are started in the background and
 * polled to a terminal status; other endpoints are called once. Never logs, and never puts the
 * token into an outcome.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { systemClock, type Clock } from '../../../shared/clock.js';
import type { ScheduleRecord } from './table.js';
import { failedOutcome, type ExecutionOutcome, type ScheduleExecutor } from './executor.js';

/** What the gateway executor needs. */
export interface GatewayExecutorOptions {
  /** The gateway's own base URL, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** `auth.internal_service_token`. */
  readonly token: string;
  readonly clock: Clock;
  /** Waits between two polls of a background run. */
  readonly sleep: (ms: number) => Promise<void>;
  /** Milliseconds between two polls (default 1000). */
  readonly pollIntervalMs?: number;
}

/** `POST /{agents|teams|workflows}/{id}/runs`: started in the background and polled. */
const RUN_ENDPOINT = /^\/(agents|teams|workflows)\/[^/?#]+\/runs$/;

/** The longest error text kept from a response. */
export const MAX_ERROR_CHARS = 1000;

/** A response, read whole. */
interface Answer {
  readonly status: number;
  /** The parsed JSON body, or null when it is not JSON. */
  readonly json: unknown;
}

const ok = (status: number): boolean => status >= 200 && status < 300;

/** The error of a refused call: the body's `detail` (as text), else the status. */
function errorOf(answer: Answer): string {
  const detail = (answer.json as { detail?: unknown } | null)?.detail;
  const text =
    detail === undefined
      ? `HTTP ${answer.status}`
      : typeof detail === 'string'
        ? detail
        : JSON.stringify(detail);
  return text.slice(0, MAX_ERROR_CHARS);
}

/** A payload as form fields: strings as they are, other values as JSON. */
function formOf(payload: Record<string, unknown> | null): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(payload ?? {})) {
    form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  form.set('stream', 'false');
  form.set('background', 'true');
  return form;
}

/** Builds the executor for one gateway and token. */
export function createGatewayExecutor(options: GatewayExecutorOptions): ScheduleExecutor {
  const base = options.url.replace(/\/+$/, '');
  const pollMs = options.pollIntervalMs ?? 1000;

  async function call(
    method: string,
    path: string,
    signal: AbortSignal,
    body?: { type: string; text: string },
  ): Promise<Answer> {
    const res = await request(base + path, {
      method,
      signal,
      headers: {
        authorization: `Bearer ${options.token}`,
        ...(body === undefined ? {} : { 'content-type': body.type }),
      },
      ...(body === undefined ? {} : { body: body.text }),
    });
    const text = await res.body.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON: kept as null; the status still decides.
    }
    return { status: res.statusCode, json };
  }

  /** Starts a background run and polls it until it is no longer PENDING or RUNNING. */
  async function runAndPoll(
    schedule: ScheduleRecord,
    signal: AbortSignal,
    deadline: number,
  ): Promise<ExecutionOutcome> {
    const text = formOf(schedule.payload).toString();
    let answer = await call('POST', schedule.endpoint, signal, {
      type: 'application/x-www-form-urlencoded',
      text,
    });
    if (!ok(answer.status)) return failedOutcome(errorOf(answer), { statusCode: answer.status });
    const started = answer.json as { run_id?: unknown; session_id?: unknown; status?: unknown };
    if (typeof started.run_id !== 'string' || typeof started.session_id !== 'string') {
      return failedOutcome('The run route answered without run_id and session_id', {
        statusCode: answer.status,
      });
    }
    const ids = { runId: started.run_id, sessionId: started.session_id };
    const poll =
      `${schedule.endpoint}/${encodeURIComponent(ids.runId)}` +
      `?session_id=${encodeURIComponent(ids.sessionId)}`;
    let run = started;
    while (run.status === 'PENDING' || run.status === 'RUNNING') {
      if (options.clock.now() >= deadline) {
        return failedOutcome(
          `Run ${ids.runId} did not finish within ${schedule.timeout_seconds} seconds`,
          { statusCode: answer.status, ...ids },
        );
      }
      await options.sleep(pollMs);
      answer = await call('GET', poll, signal);
      if (!ok(answer.status)) {
        return failedOutcome(errorOf(answer), { statusCode: answer.status, ...ids });
      }
      run = answer.json as typeof run;
    }
    const final = run as { status?: unknown; content?: unknown; requirements?: unknown };
    const output = { status: final.status ?? null, content: final.content ?? null };
    const fields = { statusCode: answer.status, ...ids, output };
    if (final.status === 'COMPLETED') {
      return { status: 'success', error: null, requirements: null, ...fields };
    }
    if (final.status === 'PAUSED') {
      return { status: 'paused', error: null, requirements: final.requirements ?? null, ...fields };
    }
    return failedOutcome(`Run ended with status ${String(final.status)}`, fields);
  }

  /** Calls a non-run endpoint once with the payload as JSON. */
  async function callOnce(
    schedule: ScheduleRecord,
    signal: AbortSignal,
  ): Promise<ExecutionOutcome> {
    const body =
      schedule.payload === null
        ? undefined
        : { type: 'application/json', text: JSON.stringify(schedule.payload) };
    const answer = await call(schedule.method, schedule.endpoint, signal, body);
    if (!ok(answer.status)) return failedOutcome(errorOf(answer), { statusCode: answer.status });
    return {
      status: 'success',
      statusCode: answer.status,
      runId: null,
      sessionId: null,
      error: null,
      output: answer.json,
      requirements: null,
    };
  }

  return async (schedule, signal) => {
    const deadline = options.clock.now() + schedule.timeout_seconds * 1000;
    // Each call is also bounded in real time, so a gateway that never answers cannot hold a
    // schedule past its timeout.
    const bounded = AbortSignal.any([signal, AbortSignal.timeout(schedule.timeout_seconds * 1000)]);
    try {
      return schedule.method === 'POST' && RUN_ENDPOINT.test(schedule.endpoint)
        ? await runAndPoll(schedule, bounded, deadline)
        : await callOnce(schedule, bounded);
    } catch (error) {
      return failedOutcome(`Gateway request failed: ${(error as Error).message}`);
    }
  };
}

/**
 * The executor a running process attaches: the gateway at `url` with the internal service
 * token, on the system clock and real waits between polls.
 */
export function systemGatewayExecutor(url: string, token: string): ScheduleExecutor {
  return createGatewayExecutor({
    url,
    token,
    clock: systemClock,
    sleep: delay,
  });
}
