/**
 * Daily metrics: per-UTC-day aggregates of the stored sessions and runs, kept in the runtime
 * database and read and written asynchronously through the query layer (database.ts,
 * table.ts). `refresh` recomputes them from the sessions and runs tables; `list` reads what the
 * last refresh stored. Never builds HTTP shapes.
 */
import { sql, type Kysely } from 'kysely';
import type { RowOf, RuntimeDatabase } from '../../store/database.js';
import type { SessionType } from '../../store/records.js';
import { tableOf, type TableSpec } from '../../store/table.js';
import { uuidOfHash } from '../knowledge/instance.js';

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
export type DailyMetricsStore = ReturnType<typeof createDailyMetricsStore>;

/** Each day metric and the run `metrics` field it sums. */
export const TOKEN_SOURCES = [
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

/** The `daily_metrics` table: keyed by day; token and model metrics are JSON, times epoch ms. */
const DAILY_METRICS: TableSpec<DailyMetricsRecord> = {
  name: 'daily_metrics',
  key: 'date',
  columns: [
    'date',
    'id',
    'agent_runs_count',
    'agent_sessions_count',
    'team_runs_count',
    'team_sessions_count',
    'workflow_runs_count',
    'workflow_sessions_count',
    'users_count',
    'token_metrics',
    'model_metrics',
    'created_at',
    'updated_at',
  ],
  json: ['token_metrics', 'model_metrics'],
  keepOnUpdate: ['id', 'created_at'],
};

declare module '../../store/database.js' {
  interface Database {
    daily_metrics: RowOf<DailyMetricsRecord, 'token_metrics' | 'model_metrics'>;
  }
}

/** The daily metrics store on an open, migrated database. */
export function createDailyMetricsStore(database: RuntimeDatabase) {
  const { db, dialect } = database;
  const table = tableOf(database, DAILY_METRICS);
  const day = dialect.dayOfSeconds('created_at');

  /**
   * Recomputes every day that has sessions or runs, stores them (a day left without any is
   * dropped) and returns them, oldest first.
   */
  const refresh = (nowMs: number): Promise<DailyMetricsRecord[]> =>
    db.transaction().execute(async (typed) => {
      // The sessions and runs tables belong to the session store: read here untyped, by name.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const trx = typed as unknown as Kysely<any>;
      const created = new Map(
        (await trx.selectFrom('daily_metrics').select(['date', 'created_at']).execute()).map(
          (r) => [r.date as string, Number(r.created_at)],
        ),
      );
      const days = new Map<string, Record<string, unknown>>();
      const dayOf = (date: string): Record<string, unknown> => {
        let found = days.get(date);
        if (found === undefined) {
          found = {
            // A stable uuid-shaped id for the day, so a refresh keeps it.
            id: uuidOfHash(`daily-metrics:${date}`),
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
          days.set(date, found);
        }
        return found;
      };
      const sessions = await trx
        .selectFrom('sessions')
        .select((eb) => [day.as('day'), 'session_type as kind', eb.fn.countAll().as('n')])
        .groupBy(['day', 'kind'])
        .execute();
      for (const row of sessions) dayOf(row.day)[`${row.kind}_sessions_count`] = Number(row.n);
      const runs = await trx
        .selectFrom('runs')
        .select((eb) => [
          day.as('day'),
          'session_type as kind',
          eb.fn.countAll().as('n'),
          ...TOKEN_SOURCES.map(([name, source]) =>
            sql<number>`CAST(coalesce(sum(${dialect.jsonNumberAt('output', ['metrics', source])}), 0) AS BIGINT)`.as(
              name,
            ),
          ),
        ])
        .groupBy(['day', 'kind'])
        .execute();
      for (const row of runs) {
        const found = dayOf(row.day);
        found[`${row.kind}_runs_count`] = Number(row.n);
        const tokens = found.token_metrics as Record<string, number>;
        for (const [name] of TOKEN_SOURCES)
          tokens[name] = (tokens[name] as number) + Number(row[name]);
      }
      const owners = trx
        .selectFrom('sessions')
        .select([day.as('day'), 'user_id'])
        .unionAll(trx.selectFrom('runs').select([day.as('day'), 'user_id']))
        .as('owners');
      const users = await trx
        .selectFrom(owners)
        .select((eb) => ['day', eb.fn.count('user_id').distinct().as('n')])
        .where('user_id', 'is not', null)
        .groupBy('day')
        .execute();
      for (const row of users) dayOf(row.day as string).users_count = Number(row.n);
      const model = dialect.jsonTextAt('output', ['model']);
      const models = await trx
        .selectFrom('runs')
        .select((eb) => [
          day.as('day'),
          model.as('model_id'),
          dialect.jsonTextAt('output', ['model_provider']).as('model_provider'),
          eb.fn.countAll().as('count'),
        ])
        .where(model, 'is not', null)
        .groupBy(['day', 'model_id', 'model_provider'])
        .orderBy('day')
        .orderBy('count', 'desc')
        .orderBy('model_id')
        .execute();
      for (const { day: date, model_id, model_provider, count } of models) {
        (dayOf(date).model_metrics as ModelCount[]).push({
          model_id: model_id as string,
          model_provider,
          count: Number(count),
        });
      }
      const records = [...days.values()]
        .map((found) => found as unknown as DailyMetricsRecord)
        .sort((a, b) => a.date.localeCompare(b.date));
      // An upsert on the day: a refresh running at the same time elsewhere leaves one row a day.
      for (const record of records) await table.in(typed).put(record);
      await trx
        .deleteFrom('daily_metrics')
        .$if(records.length > 0, (qb) =>
          qb.where(
            'date',
            'not in',
            records.map((r) => r.date),
          ),
        )
        .execute();
      return records;
    });

  return Object.freeze({
    refresh,
    /** The stored days between two dates (inclusive; null = unbounded), oldest first. */
    async list(from: string | null, to: string | null): Promise<DailyMetricsRecord[]> {
      const rows = await db
        .selectFrom('daily_metrics')
        .selectAll()
        .$if(from !== null, (qb) => qb.where('date', '>=', from as string))
        .$if(to !== null, (qb) => qb.where('date', '<=', to as string))
        .orderBy('date')
        .execute();
      return rows.map((row) => table.fromRow(row));
    },
  });
}
