/**
 * Schedules and their runs in the runtime database, read and written asynchronously through the
 * query layer (database.ts, table.ts, page.ts). Stores what it is given: cron rules, validation
 * and the next run time live in cron.ts, the scheduler and the routes. Every state change another
 * process could race is one conditional UPDATE: the claim of a due slot compares the
 * `next_run_at` that was read, so two schedulers on one database never both fire a slot. On
 * PostgreSQL the due rows are also read `FOR UPDATE SKIP LOCKED` in the claim's transaction, so
 * replicas ticking at once do not even wait on each other's rows. Behind both, a UNIQUE index on
 * (schedule, slot, attempt) refuses a second run of one slot.
 */
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database, RowOf, RuntimeDatabase } from '../../store/database.js';
import { pageOf } from '../../store/page.js';
import { tableOf, type Table, type TableSpec } from '../../store/table.js';
import { scheduleRunSchema, scheduleSchema } from './schemas.js';

/** One schedule, as its answer names its fields. Times are epoch seconds. */
export type ScheduleRecord = z.output<typeof scheduleSchema>;

/** One attempt of a schedule (or one missed tick), as answered, and two internal fields. */
export type ScheduleRunRecord = z.output<typeof scheduleRunSchema> & {
  /**
   * The cron tick (epoch seconds) this run belongs to; null for a manual trigger. At most one
   * run per schedule, slot and attempt is stored.
   */
  slot: number | null;
  /** The runtime replica that claimed the slot (or ran the trigger). */
  claimed_by: string | null;
};

/** A due slot one caller claimed: the schedule as read (`next_run_at` is the slot) and its next run. */
export interface ClaimedSchedule {
  readonly schedule: ScheduleRecord;
  readonly next: number | null;
}

/** What a schedule's update may change (everything but its id). */
export type ScheduleChanges = Partial<Omit<ScheduleRecord, 'id'>>;

declare module '../../store/database.js' {
  interface Database {
    schedules: RowOf<ScheduleRecord, 'payload', 'enabled'>;
    /** `seq` orders the runs recorded in the same second; it stays internal. */
    schedule_runs: RowOf<ScheduleRunRecord, 'input' | 'output' | 'requirements'> & { seq: number };
  }
}

/** The `schedules` table, a column per field: the payload is JSON, `enabled` a boolean. */
const SCHEDULES: TableSpec<ScheduleRecord> = {
  name: 'schedules',
  key: 'id',
  columns: Object.keys(scheduleSchema.shape) as (keyof ScheduleRecord)[],
  json: ['payload'],
  booleans: ['enabled'],
  seconds: ['created_at', 'updated_at'],
};

/** The `schedule_runs` table, a column per field: what went in and came out is JSON. */
const SCHEDULE_RUNS: TableSpec<ScheduleRunRecord> = {
  name: 'schedule_runs',
  key: 'id',
  columns: [
    ...(Object.keys(scheduleRunSchema.shape) as (keyof ScheduleRunRecord)[]),
    'slot',
    'claimed_by',
  ],
  json: ['input', 'output', 'requirements'],
  seconds: ['triggered_at', 'created_at'],
};

/** The schedule store on an open, migrated database. */
export function createScheduleStore(database: RuntimeDatabase) {
  const { db, dialect } = database;
  const schedules = tableOf(database, SCHEDULES);
  /** The due enabled schedules, soonest first; `lock`: `FOR UPDATE SKIP LOCKED` (PostgreSQL). */
  async function dueIn(
    executor: Kysely<Database>,
    now: number,
    lock: boolean,
  ): Promise<ScheduleRecord[]> {
    const query = executor
      .selectFrom('schedules')
      .selectAll()
      .where('enabled', '=', dialect.booleanToColumn(true) as number)
      .where('next_run_at', '<=', now)
      .orderBy('next_run_at')
      .orderBy('created_at')
      .orderBy('id');
    const rows = await (lock ? query.forUpdate().skipLocked() : query).execute();
    return rows.map((row) => schedules.fromRow(row));
  }
  /** The compare-and-set of one due slot on the value read. */
  const claimIn = (
    table: Table<ScheduleRecord>,
    schedule: ScheduleRecord,
    next: number | null,
  ): Promise<boolean> =>
    table.change(
      schedule.id,
      { next_run_at: next },
      { next_run_at: schedule.next_run_at, enabled: true },
    );
  async function claimDueIn(
    executor: Kysely<Database>,
    table: Table<ScheduleRecord>,
    now: number,
    nextOf: (schedule: ScheduleRecord) => number | null,
    lock: boolean,
  ): Promise<ClaimedSchedule[]> {
    const claimed: ClaimedSchedule[] = [];
    for (const schedule of await dueIn(executor, now, lock)) {
      const next = nextOf(schedule);
      // Kept even under the row lock: it is what makes a read from before another replica's
      // committed claim (SQLite, or PostgreSQL across transactions) claim nothing.
      if (await claimIn(table, schedule, next)) claimed.push({ schedule, next });
    }
    return claimed;
  }
  const runs = tableOf(database, SCHEDULE_RUNS);
  const schedulePages = pageOf<ScheduleRecord, { enabled?: boolean | undefined }, 'created_at'>(
    database,
    schedules,
    {
      filters: { enabled: (on, eb) => eb('enabled', '=', dialect.booleanToColumn(on)) },
      sorts: ['created_at'],
      tieBreak: 'id',
      tieBreakOrder: 'asc',
    },
  );
  const runPages = pageOf<ScheduleRunRecord, { scheduleId: string }, 'created_at'>(database, runs, {
    filters: { scheduleId: (id, eb) => eb('schedule_id', '=', id) },
    sorts: ['created_at'],
    // Runs recorded in the same second: the later one first.
    tieBreak: 'seq',
  });
  return Object.freeze({
    /** One page of schedules, newest first, optionally only enabled (or disabled) ones. */
    list: (enabled: boolean | null, page: number, limit: number) =>
      schedulePages.page({ filters: { enabled: enabled ?? undefined }, page, limit }),
    get: (id: string) => schedules.get(id),
    // Names are unique (a UNIQUE column).
    byName: async (name: string) => (await schedules.find({ name }))[0] ?? null,
    /** Inserts a new schedule; false, and nothing written, when its id or name is taken. */
    insert: (schedule: ScheduleRecord) => schedules.insert(schedule),
    /**
     * Sets only the given columns of the stored schedule (what a route changed), so that a
     * concurrent claim's `next_run_at` is not written back over; false for an unknown id.
     */
    update: (id: string, changes: ScheduleChanges) => schedules.change(id, changes),
    /** Deletes the schedule and its runs; false when there was none. */
    delete: (id: string) => schedules.delete(id),
    /** The enabled schedules whose next run is at or before `now`, soonest first. */
    due: (now: number) => dueIn(db, now, false),
    /**
     * Claims the due slot of `schedule` as read: moves `next_run_at` to `next` only while the
     * schedule is still enabled and still due at the slot read (a compare-and-set).
     *
     * @returns true for the one caller that moved it; false when another got there first
     */
    claim: (schedule: ScheduleRecord, next: number | null) => claimIn(schedules, schedule, next),
    /**
     * Reads the due schedules (`due`) and claims each (`claim`), moving it to `nextOf(schedule)`;
     * on PostgreSQL in one transaction that reads the due rows `FOR UPDATE SKIP LOCKED`, so a row
     * another replica is claiming is skipped rather than waited for.
     *
     * @returns the schedules this caller claimed, soonest first
     */
    claimDue: (now: number, nextOf: (schedule: ScheduleRecord) => number | null) =>
      dialect.name === 'postgres'
        ? db.transaction().execute((trx) => claimDueIn(trx, schedules.in(trx), now, nextOf, true))
        : // SQLite: no transaction. Two connections in one process would deadlock on upgrading
          // a read lock; the compare-and-set alone makes the claim safe on one file.
          claimDueIn(db, schedules, now, nextOf, false),
    /** Inserts or replaces a run by id. */
    putRun: (run: ScheduleRunRecord) => runs.put(run),
    /**
     * Inserts a new run; false, and nothing written, when its id is taken or its schedule already
     * has a run of that slot and attempt (another replica's).
     */
    insertRun: (run: ScheduleRunRecord) => runs.insert(run),
    /** Replaces a recorded run; false, and nothing written, when it is gone (with its schedule). */
    finishRun: (run: ScheduleRunRecord) => runs.update(run),
    /** The run of that schedule, or null. */
    async getRun(scheduleId: string, runId: string): Promise<ScheduleRunRecord | null> {
      const run = await runs.get(runId);
      return run?.schedule_id === scheduleId ? run : null;
    },
    /** One page of a schedule's runs, newest first, and how many it has. */
    listRuns: (scheduleId: string, page: number, limit: number) =>
      runPages.page({ filters: { scheduleId }, page, limit }),
  });
}

/** The schedules of the runtime store. */
export type ScheduleStore = ReturnType<typeof createScheduleStore>;
