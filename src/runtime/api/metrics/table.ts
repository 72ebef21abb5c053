/**
 * Daily metrics: per-UTC-day aggregates of the stored sessions and runs, kept in
 * the runtime's SQLite file. `refresh` recomputes them from the sessions and runs tables; `list`
 * reads what the last refresh stored. Never builds HTTP shapes.
 */
import { createHash } from 'node:crypto';
import type { SessionType } from '../../store/records.js';
import type { SqliteDatabase } from '../../store/sqlite.js';

/** Summed run token metrics, under Agno's metrics names. */
export type TokenMetrics = Readonly<Record<(typeof TOKEN_SOURCES)[number][0], number>>;

/** How many runs used one model. */
export interface ModelCount {
  readonly model_id: string;
  readonly model_provider: string | null;
  readonly count: number;
}

/** One day's aggregates. */
export interface DailyMetricsRecord {
  readonly id: string;
  /** `YYYY-MM-DD`, UTC. */
  readonly date: string;
  readonly agent_runs_count: number;
  readonly agent_sessions_count: number;
  readonly team_runs_count: number;
  readonly team_sessions_count: number;
  readonly workflow_runs_count: number;
  readonly workflow_sessions_count: number;
  /** Distinct non-null user ids of the day's sessions and runs. */
  readonly users_count: number;
  readonly token_metrics: TokenMetrics;
  /** Most used first. */
  readonly model_metrics: readonly ModelCount[];
  /** Epoch ms of the first refresh that stored this day. */
  readonly created_at: number;
  /** Epoch ms of the last refresh. */
  readonly updated_at: number;
}

/** The daily metrics of the runtime store. */
export interface DailyMetricsStore {
  /**
   * Recomputes every day that has sessions or runs, stores them (a day left without any is
   * dropped) and returns them, oldest first.
   */
  refresh(nowMs: number): DailyMetricsRecord[];
  /** The stored days between two dates (inclusive; null = unbounded), oldest first. */
  list(from: string | null, to: string | null): DailyMetricsRecord[];
}

/** Each day metric and the run `metrics` field it sums. */
const TOKEN_SOURCES = [
  ['input_tokens', 'input_tokens'],
  ['output_tokens', 'output_tokens'],
  ['total_tokens', 'total_tokens'],
  ['audio_tokens', 'audio_total_tokens'],
  ['input_audio_tokens', 'audio_input_tokens'],
  ['output_audio_tokens', 'audio_output_tokens'],
  ['cached_tokens', 'cache_read_tokens'],
  ['cache_write_tokens', 'cache_write_tokens'],
  ['reasoning_tokens', 'reasoning_tokens'],
] as const;

const KINDS: readonly SessionType[] = ['agent', 'team', 'workflow'];

/** A stable uuid-shaped id for a day, so a refresh keeps it. */
function dayIdOf(date: string): string {
  const hex = createHash('sha256').update(`daily-metrics:${date}`).digest('hex');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20, 32),
  ].join('-');
}

interface DayRow extends Omit<DailyMetricsRecord, 'token_metrics' | 'model_metrics'> {
  token_metrics: string;
  model_metrics: string;
}

const fromDayRow = (row: DayRow): DailyMetricsRecord => ({
  ...row,
  token_metrics: JSON.parse(row.token_metrics) as TokenMetrics,
  model_metrics: JSON.parse(row.model_metrics) as ModelCount[],
});

const DAY = `date(created_at, 'unixepoch')`;

/** Prepares the daily metrics statements on an open, migrated database. */
export function createDailyMetricsStore(db: SqliteDatabase): DailyMetricsStore {
  const sessions = db.prepare(
    `SELECT ${DAY} AS day, session_type AS kind, count(*) AS n FROM sessions GROUP BY day, kind`,
  );
  const sums = TOKEN_SOURCES.map(
    ([name, source]) =>
      `CAST(total(json_extract(output, '$.metrics.${source}')) AS INTEGER) AS ${name}`,
  );
  const runs = db.prepare(
    `SELECT ${DAY} AS day, session_type AS kind, count(*) AS n, ${sums.join(', ')}
     FROM runs GROUP BY day, kind`,
  );
  const users = db.prepare(
    `SELECT day, count(DISTINCT user_id) AS n FROM (
       SELECT ${DAY} AS day, user_id FROM sessions UNION ALL SELECT ${DAY} AS day, user_id FROM runs
     ) WHERE user_id IS NOT NULL GROUP BY day`,
  );
  const models = db.prepare(
    `SELECT ${DAY} AS day, json_extract(output, '$.model') AS model_id,
       json_extract(output, '$.model_provider') AS model_provider, count(*) AS count
     FROM runs WHERE json_extract(output, '$.model') IS NOT NULL
     GROUP BY day, model_id, model_provider ORDER BY day, count DESC, model_id`,
  );
  const createdAt = db.prepare('SELECT date, created_at FROM daily_metrics');
  const put = db.prepare(
    `INSERT INTO daily_metrics (date, id, agent_runs_count, agent_sessions_count, team_runs_count,
       team_sessions_count, workflow_runs_count, workflow_sessions_count, users_count,
       token_metrics, model_metrics, created_at, updated_at)
     VALUES (@date, @id, @agent_runs_count, @agent_sessions_count, @team_runs_count,
       @team_sessions_count, @workflow_runs_count, @workflow_sessions_count, @users_count,
       @token_metrics, @model_metrics, @created_at, @updated_at)
     ON CONFLICT (date) DO UPDATE SET agent_runs_count = excluded.agent_runs_count,
       agent_sessions_count = excluded.agent_sessions_count,
       team_runs_count = excluded.team_runs_count,
       team_sessions_count = excluded.team_sessions_count,
       workflow_runs_count = excluded.workflow_runs_count,
       workflow_sessions_count = excluded.workflow_sessions_count,
       users_count = excluded.users_count, token_metrics = excluded.token_metrics,
       model_metrics = excluded.model_metrics, updated_at = excluded.updated_at`,
  );
  const dropOthers = db.prepare(
    'DELETE FROM daily_metrics WHERE date NOT IN (SELECT value FROM json_each(?))',
  );
  const list = db.prepare(
    `SELECT * FROM daily_metrics WHERE (@from IS NULL OR date >= @from)
       AND (@to IS NULL OR date <= @to) ORDER BY date`,
  );

  const refresh = db.transaction((nowMs: number): DailyMetricsRecord[] => {
    const created = new Map(
      (createdAt.all() as { date: string; created_at: number }[]).map((r) => [
        r.date,
        r.created_at,
      ]),
    );
    const days = new Map<string, Record<string, unknown>>();
    const dayOf = (date: string): Record<string, unknown> => {
      let day = days.get(date);
      if (day === undefined) {
        day = {
          id: dayIdOf(date),
          date,
          ...Object.fromEntries(
            KINDS.flatMap((k) => [
              [`${k}_runs_count`, 0],
              [`${k}_sessions_count`, 0],
            ]),
          ),
          users_count: 0,
          token_metrics: Object.fromEntries(TOKEN_SOURCES.map(([name]) => [name, 0])),
          model_metrics: [] as ModelCount[],
          created_at: created.get(date) ?? nowMs,
          updated_at: nowMs,
        };
        days.set(date, day);
      }
      return day;
    };
    for (const row of sessions.all() as { day: string; kind: SessionType; n: number }[]) {
      dayOf(row.day)[`${row.kind}_sessions_count`] = row.n;
    }
    for (const row of runs.all() as ({ day: string; kind: SessionType; n: number } & Record<
      string,
      number
    >)[]) {
      const day = dayOf(row.day);
      day[`${row.kind}_runs_count`] = row.n;
      const tokens = day.token_metrics as Record<string, number>;
      for (const [name] of TOKEN_SOURCES)
        tokens[name] = (tokens[name] as number) + (row[name] as number);
    }
    for (const row of users.all() as { day: string; n: number }[])
      dayOf(row.day).users_count = row.n;
    for (const row of models.all() as (ModelCount & { day: string })[]) {
      const { day, ...count } = row;
      (dayOf(day).model_metrics as ModelCount[]).push(count);
    }
    const records = [...days.values()]
      .map((day) => day as unknown as DailyMetricsRecord)
      .sort((a, b) => a.date.localeCompare(b.date));
    for (const record of records) {
      put.run({
        ...record,
        token_metrics: JSON.stringify(record.token_metrics),
        model_metrics: JSON.stringify(record.model_metrics),
      });
    }
    dropOthers.run(JSON.stringify(records.map((r) => r.date)));
    return records;
  });

  return Object.freeze({
    refresh: (nowMs) => refresh(nowMs),
    list: (from, to) => (list.all({ from, to }) as DayRow[]).map(fromDayRow),
  } satisfies DailyMetricsStore);
}
