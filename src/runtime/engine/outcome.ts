/**
 * What a nested run hands its parent: the public result plus the answer text, tokens and events
 * the team or workflow around it needs without re-reading the output dict. Types only.
 */
import type { RunEvent } from './events.js';
import type { TokenCounts } from './metrics.js';
import type { RunResult } from './request.js';
import type { ToolExecution } from './tool-execution.js';

/** Tool calls a paused run waits on. */
export interface PendingTools {
  readonly tools: readonly ToolExecution[];
  readonly requirements: readonly Record<string, unknown>[];
}

/** A finished run, as seen by its parent. */
export interface RunOutcome extends RunResult {
  /** The answer (the error message when ERROR). */
  readonly text: string;
  readonly tokens: TokenCounts;
  /** Every event the run emitted, its nested runs' included, in order. */
  readonly events: readonly RunEvent[];
  /** Set when PAUSED. */
  readonly pending: PendingTools | null;
}
