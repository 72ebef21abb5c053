/**
 * The scheduler: on each tick it claims every enabled schedule that is due (a compare-and-set on
 * the `next_run_at` it read, so that of several schedulers on one database exactly one fires a
 * slot), records the ticks missed while no scheduler ran, and fires it, recording each attempt as
 * a schedule run of its slot (the cron tick) and replica (retrying failed ones per the schedule).
 * A run the database refuses because its slot and attempt are stored already is another
 * replica's: it is neither executed nor retried here. Time, the timer, sleep and the executor
 * are injected. Never writes HTTP.
 */
import type { Clock } from '../../../shared/clock.js';
import type { ScheduleRecord, ScheduleRunRecord, ScheduleStore } from './table.js';
import { lastRunBetween, nextRunAfter, runsFrom } from './cron.js';
import { failedOutcome, type ExecutionOutcome, type ScheduleExecutor } from './executor.js';
import type { SchedulerTimer } from './timer.js';
import { isoOfSeconds } from '../../engine/time.js';

/** The error of a run when no executor is attached (it names the setting to fix). */
export const NO_EXECUTOR_ERROR =
  'Schedules cannot run: no gateway executor is attached (set auth.internal_service_token ' +
  'and run the runtime embedded in `scopegate serve`)';

/** At most this many missed ticks are recorded per schedule and catch-up. */
export const MAX_MISSED_RUNS = 10;

/** What the scheduler runs on. */
export interface SchedulerDeps {
  readonly store: ScheduleStore;
  readonly clock: Clock;
  /** Waits between a failed attempt and its retry. */
  readonly sleep: (ms: number) => Promise<void>;
  readonly newId: () => string;
  /** This runtime replica's name, recorded as `claimed_by` on the runs it writes. */
  readonly replicaId: string;
}

/** Builds a scheduler over the store; it does nothing until started or ticked. */
export function createScheduler(deps: SchedulerDeps) {
  const { store } = deps;
  let executor: ScheduleExecutor | null = null;
  let stop: (() => void) | null = null;
  let closed = false;
  const abort = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const now = (): number => Math.floor(deps.clock.now() / 1000);

  /** Tracks a promise until it settles, so close() can wait for it. */
  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    // Settled either way; a rejection stays the caller's (this derived promise never rejects).
    const settled = (): boolean => inFlight.delete(promise);
    void promise.then(settled, settled);
    return promise;
  }

  /** A run of `schedule`'s `slot` recorded at `at` by this replica, nothing read of it yet. */
  const runOf = (
    schedule: ScheduleRecord,
    slot: number | null,
    at: number,
    fields: Pick<ScheduleRunRecord, 'attempt' | 'completed_at' | 'status'> &
      Partial<ScheduleRunRecord>,
  ): ScheduleRunRecord => ({
    id: deps.newId(),
    schedule_id: schedule.id,
    triggered_at: at,
    status_code: null,
    run_id: null,
    session_id: null,
    error: null,
    input: schedule.payload,
    output: null,
    requirements: null,
    created_at: at,
    slot,
    claimed_by: deps.replicaId,
    ...fields,
  });

  /**
   * One attempt of `slot` (null: a trigger): recorded as running, executed, recorded with its
   * outcome. Null, and nothing executed, when the database refuses the run (that slot's attempt
   * is stored already: another replica has it).
   */
  async function attempt(
    schedule: ScheduleRecord,
    n: number,
    slot: number | null,
  ): Promise<ScheduleRunRecord | null> {
    const at = now();
    const running = runOf(schedule, slot, at, {
      attempt: n,
      completed_at: null,
      status: 'running',
    });
    if (!(await store.insertRun(running))) return null;
    let outcome: ExecutionOutcome;
    if (executor === null) outcome = failedOutcome(NO_EXECUTOR_ERROR);
    else {
      try {
        outcome = await executor(schedule, abort.signal);
      } catch (error) {
        outcome = failedOutcome(`Executor failed: ${String(error)}`);
      }
    }
    const done: ScheduleRunRecord = {
      ...running,
      completed_at: now(),
      status: outcome.status,
      status_code: outcome.statusCode,
      run_id: outcome.runId,
      session_id: outcome.sessionId,
      error: outcome.error,
      output: outcome.output,
      requirements: outcome.requirements,
    };
    // Deleted while it ran: its runs went with it, and there is nothing to record into.
    await store.finishRun(done);
    return done;
  }

  /**
   * Attempts `slot`, then retries a failed attempt up to `max_retries` times, `retry_delay`
   * apart; stops at an attempt the database refuses (another replica's).
   */
  async function execute(schedule: ScheduleRecord, slot: number): Promise<void> {
    let n = 1;
    let run = await attempt(schedule, n, slot);
    while (run?.status === 'failed' && n <= schedule.max_retries) {
      await deps.sleep(schedule.retry_delay_seconds * 1000);
      if (closed) return;
      run = await attempt(schedule, ++n, slot);
    }
  }

  /**
   * Records the ticks owed before the latest due one (the runtime was down, or the clock
   * jumped) as failed runs of their slots, bounded by {@link MAX_MISSED_RUNS}; a tick whose run
   * is stored already is left as it is.
   *
   * @returns the latest due tick: the slot fired now
   */
  async function recordMissed(
    schedule: ScheduleRecord,
    first: number,
    at: number,
  ): Promise<number> {
    const { cron_expr: expr, timezone } = schedule;
    const owed = runsFrom(expr, timezone, first, at, MAX_MISSED_RUNS + 2);
    // The last owed tick is the one fired now; more than MAX + 1 means some went unrecorded.
    const truncated = owed.length > MAX_MISSED_RUNS + 1;
    const missed = truncated ? owed.slice(0, MAX_MISSED_RUNS) : owed.slice(0, -1);
    for (const [i, tick] of missed.entries()) {
      const last = truncated && i === missed.length - 1;
      await store.insertRun(
        runOf(schedule, tick, at, {
          attempt: 1,
          triggered_at: tick,
          completed_at: at,
          status: 'failed',
          error:
            `Missed scheduled run at ${isoOfSeconds(tick)}: the scheduler was not running` +
            (last ? ' (later missed runs were not recorded)' : ''),
        }),
      );
    }
    return truncated ? lastRunBetween(expr, timezone, first, at) : (owed.at(-1) as number);
  }

  async function fireDue(): Promise<void> {
    const at = now();
    const fired: Promise<void>[] = [];
    // Claimed before anything runs: an overlapping tick, or another replica's scheduler, that
    // read the same slot finds it moved on (or locked) and leaves it to the winner.
    const claimed = await store.claimDue(at, (schedule) =>
      nextRunAfter(schedule.cron_expr, schedule.timezone, at),
    );
    for (const { schedule, next } of claimed) {
      const slot = await recordMissed(schedule, schedule.next_run_at as number, at);
      fired.push(track(execute({ ...schedule, next_run_at: next }, slot)));
    }
    await Promise.all(fired);
  }

  /** One tick, tracked from its start: close() waits for what it claimed to be fired and recorded. */
  const tick = (): Promise<void> => (closed ? Promise.resolve() : track(fireDue()));

  return {
    /** Whether an executor is attached (without one, runs are recorded as failed). */
    get canExecute(): boolean {
      return executor !== null;
    },
    /** Attaches the executor runs go through (the gateway's, once it listens). */
    attach(given: ScheduleExecutor): void {
      executor = given;
    },
    /** Starts ticking on `timer` (once). */
    start(timer: SchedulerTimer): void {
      if (stop !== null || closed) return;
      stop = timer.start(() => void tick());
    },
    /**
     * Fires every enabled schedule due at the clock's time; resolves when those executions (with
     * their retries) have been recorded.
     */
    tick,
    /** Runs a schedule now, once (no retries), and resolves with its recorded run. */
    trigger: (schedule: ScheduleRecord): Promise<ScheduleRunRecord> =>
      track(
        attempt(schedule, 1, null).then((run) => {
          // A trigger has no slot: only a taken run id refuses it (never with fresh ids).
          if (run === null) throw new Error('Schedule run id is taken');
          return run;
        }),
      ),
    /** Stops ticking, aborts executions in flight and waits until they are recorded. */
    async close(): Promise<void> {
      closed = true;
      stop?.();
      abort.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** The runtime's scheduler. */
export type Scheduler = ReturnType<typeof createScheduler>;
