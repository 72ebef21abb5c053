/**
 * What a run takes and gives back: the request, the result and the injected clock, ids and sleep.
 * Types only; the routes build requests and persist results, the engine itself does no I/O.
 */
import type { ToolDefinition } from '../catalogue/definitions.js';

/** A run's final status. */
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
  /**
   * Tools the client executes for this run only (AG-UI `tools[]`): offered to every agent of the
   * run after its own tools; a call to one pauses the run.
   */
  readonly clientTools?: readonly ToolDefinition[] | undefined;
  /**
   * The run's dependencies (AG-UI `context[]` as `{description: value}`): shown to every agent of
   * the run in its system prompt, never in the user message.
   */
  readonly dependencies?: Readonly<Record<string, unknown>> | null | undefined;
}

/** A client's answer to one paused tool call. */
export interface ToolResult {
  readonly toolCallId: string;
  /** The tool's result, or the error text when `error`. */
  readonly content: string;
  readonly error: boolean;
}

/** A client's decision on a call that waits for confirmation: `false` rejects it. */
export interface ToolConfirmation {
  readonly toolCallId: string;
  readonly confirmed: boolean;
  /** Why (`confirmation_note`); null when none was given. */
  readonly note: string | null;
}

/** A client's values for a call that waits for user input, by `user_input_schema` field name. */
export interface ToolUserInput {
  readonly toolCallId: string;
  readonly values: Readonly<Record<string, unknown>>;
}

/**
 * Any answer to a paused call: a result (external execution), a confirmation, or user input. A
 * rejection (`confirmed: false`) answers a call of any kind.
 */
export type ToolAnswer = ToolResult | ToolConfirmation | ToolUserInput;

/** Continuing a paused run: the run's identity, its checkpoint, and the answers to its calls. */
export interface ContinueRequest extends Omit<RunRequest, 'message'> {
  /** The `checkpoint` of the paused run's result, as stored. */
  readonly checkpoint: unknown;
  /** One answer per pending tool call, of the kind the call waits for (the caller checked). */
  readonly results: readonly ToolAnswer[];
}

/** How a run ended. */
export interface RunResult {
  readonly status: RunStatus;
  /** The run output dict (agent RunOutput / TeamRunOutput / workflow run), with `events` included. */
  readonly output: Record<string, unknown>;
  readonly sessionState: Record<string, unknown>;
  /**
   * What a PAUSED run needs to be continued (JSON-serializable, opaque outside the engine);
   * null for every other status.
   */
  readonly checkpoint: unknown;
}

/** Time, ids and waiting, injected so tests control them. */
export interface EngineDeps {
  /** `now()` in epoch milliseconds. */
  readonly clock: { now(): number };
  readonly newId: () => string;
  readonly sleep: (ms: number) => Promise<void>;
}
