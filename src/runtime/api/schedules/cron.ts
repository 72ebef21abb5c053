/**
 * Cron rules of schedules, on croner: checks a five-field expression and an
 * IANA time zone, and finds run times. Pure: no I/O, no clock (times are passed in, epoch
 * seconds).
 */
import { Cron } from 'croner';

/** A cron expression read in a time zone, ready to compute run times. */
function cronOf(expr: string, timezone: string): Cron {
  return new Cron(expr, { timezone, paused: true, mode: '5-part' });
}

/**
 * The 422 detail for an expression that is not five valid cron fields (minute hour day-of-month
 * month day-of-week), or null when it is one. Nicknames such as `@daily` are refused: the API
 * promises five fields.
 */
export function cronProblem(expr: string): string | null {
  const problem = `Invalid cron expression: ${expr}`;
  if (expr.trim().split(/\s+/).length !== 5) return problem;
  try {
    cronOf(expr, 'UTC');
    return null;
  } catch {
    return problem;
  }
}

// A UTC offset such as `+01:00`: Intl takes it as a time zone from Node 22 on, IANA names never
// start with a sign.
const UTC_OFFSET = /^[+-]/;

/** The 422 detail for a name that is not an IANA time zone, or null when it is one. */
export function timezoneProblem(timezone: string): string | null {
  if (UTC_OFFSET.test(timezone)) return `Invalid timezone: ${timezone}`;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return null;
  } catch {
    return `Invalid timezone: ${timezone}`;
  }
}

/**
 * The first run time strictly after `after` (epoch seconds), or null when the expression never
 * fires again (a 30th of February). The expression and zone must have passed the checks above.
 */
export function nextRunAfter(expr: string, timezone: string, after: number): number | null {
  const next = cronOf(expr, timezone).nextRun(new Date(after * 1000));
  return next === null ? null : Math.floor(next.getTime() / 1000);
}

/**
 * The run times from `first` (a run time, included) up to `until` (included), at most `max` of
 * them, oldest first: the ticks a schedule owed while nothing fired it.
 */
export function runsFrom(
  expr: string,
  timezone: string,
  first: number,
  until: number,
  max: number,
): number[] {
  const runs: number[] = [];
  let at: number | null = first;
  while (at !== null && at <= until && runs.length < max) {
    runs.push(at);
    at = nextRunAfter(expr, timezone, at);
  }
  return runs;
}

/**
 * The last run time in [`first`, `until`], `first` being one: the slot a schedule that owed ticks
 * from `first` fires at `until` (the latest tick it reached, however many it missed).
 */
export function lastRunBetween(
  expr: string,
  timezone: string,
  first: number,
  until: number,
): number {
  const [last] = cronOf(expr, timezone).previousRuns(1, new Date((until + 1) * 1000));
  return last === undefined ? first : Math.max(first, Math.floor(last.getTime() / 1000));
}
