/**
 * Time, injected: code asks a Clock, tests pass one they control. Never read Date.now() deep in
 * a module that makes a time-based decision.
 */

/** A source of the current time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The process's wall clock. */
export const systemClock: Clock = { now: () => Date.now() };
