/**
 * Schedules and their runs in the runtime's SQLite file. Stores what it is
 * given: cron rules, validation and the next run time live in ../schedules/ and the routes.
 */
import type { SqliteDatabase } from '../../store/sqlite.js';

/** The HTTP methods a schedule may call. */
export const SCHEDULE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ScheduleMethod = (typeof SCHEDULE_METHODS)[number];

/** One schedule. Times are epoch seconds. */
export interface ScheduleRecord {
  id: string;
  name: string;
  description: string | null;
  method: ScheduleMethod;
  /** A path on the gateway, starting with `/`. */
  endpoint: string;
  payload: Record<string, unknown> | null;
  /** Five fields: minute hour day-of-month month day-of-week. */
  cron_expr: string;
  /** An IANA time zone the cron fields are read in. */
  timezone: string;
  timeout_seconds: number;
  max_retries: number;
  retry_delay_seconds: number;
  enabled: boolean;
  /** When the scheduler fires it next; null when it has no next time. */
  next_run_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The states of one execution attempt. */
export type ScheduleRunStatus = 'running' | 'success' | 'failed' | 'paused' | 'cancelled';

/** One execution attempt of a schedule (or one missed tick). Times are epoch seconds. */
export interface ScheduleRunRecord {
  id: string;
  schedule_id: string;
  /** 1 for the first attempt, then 2, 3, … for retries. */
  attempt: number;
  triggered_at: number;
  completed_at: number | null;
  status: ScheduleRunStatus;
  /** The HTTP status of the last response the executor read; null when none came. */
  status_code: number | null;
  run_id: string | null;
  session_id: string | null;
  error: string | null;
  input: unknown;
  output: unknown;
  requirements: unknown;
  created_at: number;
}

/** The schedules of the runtime store. */
export interface ScheduleStore {
  /** One page of schedules, newest first, optionally only enabled (or disabled) ones. */
  list(
    enabled: boolean | null,
    page: number,
    limit: number,
  ): { rows: ScheduleRecord[]; total: number };
  get(id: string): ScheduleRecord | null;
  byName(name: string): ScheduleRecord | null;
  /** Inserts a new schedule; false, and nothing written, when its id or name is taken. */
  insert(schedule: ScheduleRecord): boolean;
  /** Replaces the stored schedule of the same id (a no-op for an unknown id). */
  update(schedule: ScheduleRecord): void;
  /** Deletes the schedule and its runs; false when there was none. */
  delete(id: string): boolean;
  /** The enabled schedules whose next run is at or before `now`, soonest first. */
  due(now: number): ScheduleRecord[];
  /** Inserts or replaces a run by id. */
  putRun(run: ScheduleRunRecord): void;
  /** The run of that schedule, or null. */
  getRun(scheduleId: string, runId: string): ScheduleRunRecord | null;
  /** One page of a schedule's runs, newest first, and how many it has. */
  listRuns(
    scheduleId: string,
    page: number,
    limit: number,
  ): { rows: ScheduleRunRecord[]; total: number };
}

interface ScheduleRow extends Omit<ScheduleRecord, 'payload' | 'enabled'> {
  payload: string | null;
  enabled: 0 | 1;
}

interface RunRow extends Omit<ScheduleRunRecord, 'input' | 'output' | 'requirements'> {
  input: string | null;
  output: string | null;
  requirements: string | null;
}

const toJson = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);
const fromJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

const toScheduleRow = (s: ScheduleRecord): ScheduleRow => ({
  ...s,
  payload: toJson(s.payload),
  enabled: s.enabled ? 1 : 0,
});
const fromScheduleRow = (row: ScheduleRow): ScheduleRecord => ({
  ...row,
  payload: fromJson(row.payload) as Record<string, unknown> | null,
  enabled: row.enabled === 1,
});
const toRunRow = (r: ScheduleRunRecord): RunRow => ({
  ...r,
  input: toJson(r.input),
  output: toJson(r.output),
  requirements: toJson(r.requirements),
});
const fromRunRow = ({ seq: _seq, ...row }: RunRow & { seq: number }): ScheduleRunRecord => ({
  ...row,
  input: fromJson(row.input),
  output: fromJson(row.output),
  requirements: fromJson(row.requirements),
});

const SCHEDULE_COLUMNS = [
  'id',
  'name',
  'description',
  'method',
  'endpoint',
  'payload',
  'cron_expr',
  'timezone',
  'timeout_seconds',
  'max_retries',
  'retry_delay_seconds',
  'enabled',
  'next_run_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ScheduleRow)[];

const RUN_COLUMNS = [
  'id',
  'schedule_id',
  'attempt',
  'triggered_at',
  'completed_at',
  'status',
  'status_code',
  'run_id',
  'session_id',
  'error',
  'input',
  'output',
  'requirements',
  'created_at',
] as const satisfies readonly (keyof RunRow)[];

const values = (columns: readonly string[]): string => columns.map((c) => `@${c}`).join(', ');

/** Prepares the schedule statements on an open, migrated database. */
export function createScheduleStore(db: SqliteDatabase): ScheduleStore {
  // `@enabled IS NULL`: one statement for "all", "enabled only" and "disabled only".
  const filter = '@enabled IS NULL OR enabled = @enabled';
  const page = db.prepare(
    `SELECT * FROM schedules WHERE ${filter}
     ORDER BY created_at DESC, id LIMIT @limit OFFSET @offset`,
  );
  const count = db.prepare(`SELECT count(*) AS n FROM schedules WHERE ${filter}`);
  const get = db.prepare('SELECT * FROM schedules WHERE id = ?');
  const byName = db.prepare('SELECT * FROM schedules WHERE name = ?');
  const insert = db.prepare(
    `INSERT INTO schedules (${SCHEDULE_COLUMNS.join(', ')}) VALUES (${values(SCHEDULE_COLUMNS)})
     ON CONFLICT DO NOTHING`,
  );
  const update = db.prepare(
    `UPDATE schedules SET ${SCHEDULE_COLUMNS.filter((c) => c !== 'id')
      .map((c) => `${c} = @${c}`)
      .join(', ')} WHERE id = @id`,
  );
  const remove = db.prepare('DELETE FROM schedules WHERE id = ?');
  const due = db.prepare(
    `SELECT * FROM schedules WHERE enabled = 1 AND next_run_at <= ?
     ORDER BY next_run_at, created_at, id`,
  );
  const putRun = db.prepare(
    `INSERT INTO schedule_runs (${RUN_COLUMNS.join(', ')}) VALUES (${values(RUN_COLUMNS)})
     ON CONFLICT (id) DO UPDATE SET ${RUN_COLUMNS.filter((c) => c !== 'id')
       .map((c) => `${c} = excluded.${c}`)
       .join(', ')}`,
  );
  const getRun = db.prepare('SELECT * FROM schedule_runs WHERE schedule_id = ? AND id = ?');
  const runPage = db.prepare(
    `SELECT * FROM schedule_runs WHERE schedule_id = @scheduleId
     ORDER BY created_at DESC, seq DESC LIMIT @limit OFFSET @offset`,
  );
  const runCount = db.prepare(
    'SELECT count(*) AS n FROM schedule_runs WHERE schedule_id = @scheduleId',
  );
  const one = (row: unknown): ScheduleRecord | null =>
    row === undefined ? null : fromScheduleRow(row as ScheduleRow);
  return Object.freeze({
    list(enabled, pageNumber, limit) {
      const flag = enabled === null ? null : enabled ? 1 : 0;
      const rows = page.all({ enabled: flag, limit, offset: (pageNumber - 1) * limit });
      const { n } = count.get({ enabled: flag }) as { n: number };
      return { rows: (rows as ScheduleRow[]).map(fromScheduleRow), total: n };
    },
    get: (id) => one(get.get(id)),
    byName: (name) => one(byName.get(name)),
    insert: (schedule) => insert.run(toScheduleRow(schedule)).changes === 1,
    update(schedule) {
      update.run(toScheduleRow(schedule));
    },
    delete: (id) => remove.run(id).changes > 0,
    due: (now) => (due.all(now) as ScheduleRow[]).map(fromScheduleRow),
    putRun(run) {
      putRun.run(toRunRow(run));
    },
    getRun(scheduleId, runId) {
      const row = getRun.get(scheduleId, runId) as (RunRow & { seq: number }) | undefined;
      return row === undefined ? null : fromRunRow(row);
    },
    listRuns(scheduleId, pageNumber, limit) {
      const rows = runPage.all({ scheduleId, limit, offset: (pageNumber - 1) * limit });
      const { n } = runCount.get({ scheduleId }) as { n: number };
      return { rows: (rows as (RunRow & { seq: number })[]).map(fromRunRow), total: n };
    },
  } satisfies ScheduleStore);
}
