/**
 * The two time formats run data uses: epoch seconds and ISO-8601 UTC seconds.
 * Pure; the engine reads the clock it was given and converts here.
 */

/** Epoch milliseconds → whole epoch seconds. */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** Epoch milliseconds → `2025-07-31T12:38:52Z`. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Epoch seconds → `2025-07-31T12:38:52Z`. */
export function isoOfSeconds(seconds: number): string {
  return isoSeconds(seconds * 1000);
}
