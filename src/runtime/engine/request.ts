/**
 * What a run takes and gives back: the request, the result and the injected clock, ids and sleep.
 * Types only; the routes build requests and persist results, the engine itself does no I/O.
 */

/** A run's final status (RUNTIME_API §4.3). */
export type RunStatus = 'COMPLETED' | 'PAUSED' | 'CANCELLED' | 'ERROR';

/** One run of an agent, team or workflow. */
export interface RunRequest {
  readonly runId: string;
  readonly sessionId: string;
  readonly userId: string | null;
  readonly message: string;
  /** Session state going in (tools get_state/set_state read and change it). */
  readonly sessionState: Record<string, unknown>;
  /** Set `cancelled = true` from outside to stop the run between deltas. */
  readonly cancel: { cancelled: boolean };
}

/** How a run ended. */
export interface RunResult {
  readonly status: RunStatus;
  /** The run output dict of RUNTIME_API §4.3 (agent RunOutput / TeamRunOutput / workflow run), with `events` included. */
  readonly output: Record<string, unknown>;
  readonly sessionState: Record<string, unknown>;
}

/** Time, ids and waiting, injected so tests control them. */
export interface EngineDeps {
  /** `now()` in epoch milliseconds. */
  readonly clock: { now(): number };
  readonly newId: () => string;
  readonly sleep: (ms: number) => Promise<void>;
}
