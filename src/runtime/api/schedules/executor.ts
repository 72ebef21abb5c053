/**
 * What runs a schedule: the shape the scheduler calls and the outcome it records. Types only;
 * the implementation that calls the gateway is gateway-executor.ts.
 */
import type { ScheduleRecord } from './table.js';

/** How one execution of a schedule ended. */
export interface ExecutionOutcome {
  readonly status: 'success' | 'failed' | 'paused';
  /** The HTTP status of the last response read; null when none came. */
  readonly statusCode: number | null;
  readonly runId: string | null;
  readonly sessionId: string | null;
  readonly error: string | null;
  readonly output: unknown;
  readonly requirements: unknown;
}

/**
 * Executes a schedule's call once and reports how it ended; resolves (never rejects) for every
 * failure of the call itself. `signal` aborts it when the runtime shuts down.
 */
export type ScheduleExecutor = (
  schedule: ScheduleRecord,
  signal: AbortSignal,
) => Promise<ExecutionOutcome>;

/** A failed outcome with only an error (and the status, when a response came). */
export function failedOutcome(
  error: string,
  fields: Partial<Omit<ExecutionOutcome, 'status' | 'error'>> = {},
): ExecutionOutcome {
  return {
    status: 'failed',
    statusCode: null,
    runId: null,
    sessionId: null,
    output: null,
    requirements: null,
    ...fields,
    error,
  };
}
