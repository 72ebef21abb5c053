/**
 * The scheduler's heartbeat, injectable: production ticks on a real interval, tests fire ticks
 * by hand. Never decides what a tick does.
 */

/** Calls `tick` on some rhythm from `start` until the returned stop function is called. */
export interface SchedulerTimer {
  start(tick: () => void): () => void;
}

/**
 * A timer on `setInterval`, every `ms` (the runtime's `runtime.schedules.tick_seconds`), that
 * never keeps the process alive on its own.
 */
export function createIntervalTimer(ms: number): SchedulerTimer {
  return {
    start(tick) {
      const handle = setInterval(tick, ms);
      handle.unref();
      return () => clearInterval(handle);
    },
  };
}
