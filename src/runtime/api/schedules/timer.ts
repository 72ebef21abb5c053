/**
 * The scheduler's heartbeat, injectable: production ticks on a real interval, tests fire ticks
 * by hand. Never decides what a tick does.
 */

/** Calls `tick` on some rhythm from `start` until the returned stop function is called. */
export interface SchedulerTimer {
  start(tick: () => void): () => void;
}

/** How often the bundled runtime's scheduler looks for due schedules (cron has minutes). */
export const TICK_INTERVAL_MS = 10_000;

/** A timer on `setInterval` that never keeps the process alive on its own. */
export function createIntervalTimer(ms: number = TICK_INTERVAL_MS): SchedulerTimer {
  return {
    start(tick) {
      const handle = setInterval(tick, ms);
      handle.unref();
      return () => clearInterval(handle);
    },
  };
}
