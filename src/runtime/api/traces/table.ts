/**
 * Run traces and their spans in the runtime database, read and written asynchronously through
 * the query layer (database.ts, table.ts, page.ts). Stores what it is given and lists by a
 * condition compiled elsewhere (filter.ts): it never filters by caller identity on its own,
 * never builds HTTP shapes, and never puts a value into SQL text.
 */
import type { RowOf, RuntimeDatabase } from '../../store/database.js';
import { offsetOf, pageOf, type Page } from '../../store/page.js';
import { tableOf, type TableSpec } from '../../store/table.js';
import type { TraceCondition } from './filter.js';
import type { SpanRecord, TraceRecord } from './records.js';

export type { TraceCondition } from './filter.js';

/** A stored trace without its spans, and how many it has. */
export type StoredTrace = Omit<TraceRecord, 'spans'> & { readonly total_spans: number };

/** The traces of one session, as `trace_session_stats` counts them. */
export interface TraceSessionStatsRecord {
  readonly session_id: string;
  readonly user_id: string | null;
  readonly agent_id: string | null;
  readonly team_id: string | null;
  readonly workflow_id: string | null;
  readonly total_traces: number;
  /** Epoch ms of the first and last trace's start. */
  readonly first_trace_ms: number;
  readonly last_trace_ms: number;
}

/** The traces of the runtime store. */
export type TraceStore = ReturnType<typeof createTraceStore>;

/** A `traces` row as a record: the trace's fields, its duration and when it was stored. */
interface TraceEntry extends StoredTrace {
  readonly duration_ms: number;
  /** The trace's start (epoch ms). */
  readonly created_at: number;
}

/** A `trace_spans` row as a record: the span and its place in the trace. */
interface SpanEntry extends SpanRecord {
  readonly position: number;
}

/** Times in epoch ms: start and end stored as `start_time` and `end_time`. */
const TIMES = { start_ms: 'start_time', end_ms: 'end_time' } as const;

/** The `traces` table. */
const TRACES: TableSpec<TraceEntry> = {
  name: 'traces',
  key: 'trace_id',
  columns: [
    'trace_id',
    'name',
    'status',
    'start_ms',
    'end_ms',
    'duration_ms',
    'total_spans',
    'error_count',
    'input',
    'output',
    'error',
    'run_id',
    'session_id',
    'user_id',
    'agent_id',
    'team_id',
    'workflow_id',
    'created_at',
  ],
  columnNames: TIMES,
};

/** The `trace_spans` table: metadata is JSON, `null` included. */
const SPANS: TableSpec<SpanEntry> = {
  name: 'trace_spans',
  key: 'span_id',
  columns: [
    'span_id',
    'trace_id',
    'position',
    'parent_span_id',
    'name',
    'type',
    'status',
    'start_ms',
    'end_ms',
    'input',
    'output',
    'error',
    'step_type',
    'metadata',
  ],
  jsonNull: ['metadata'],
  columnNames: TIMES,
};

/** Renames `start_ms` and `end_ms` to their columns. */
type Timed<R> = Omit<R, 'start_ms' | 'end_ms'> & { start_time: number; end_time: number };

declare module '../../store/database.js' {
  interface Database {
    traces: RowOf<Timed<TraceEntry>>;
    trace_spans: RowOf<Timed<SpanEntry>, 'metadata'>;
  }
}

/** A stored trace, without what only the table keeps. */
function storedTrace(entry: TraceEntry): StoredTrace {
  const { duration_ms: _duration, created_at: _created, ...trace } = entry;
  return trace;
}

/** A stored span, without its place. */
function storedSpan(entry: SpanEntry): SpanRecord {
  const { position: _position, ...span } = entry;
  return span;
}

/** The trace store on an open, migrated database. */
export function createTraceStore(database: RuntimeDatabase) {
  const { db, dialect } = database;
  const traces = tableOf(database, TRACES);
  const spans = tableOf(database, SPANS);
  const pages = pageOf<TraceEntry, { where?: TraceCondition }, 'start_time'>(database, traces, {
    filters: { where: (where, eb) => where(eb, dialect) },
    sorts: ['start_time'],
    tieBreak: 'trace_id',
  });
  return Object.freeze({
    /** Stores a finished trace with its spans, in one transaction. */
    put: ({ spans: all, ...trace }: TraceRecord): Promise<void> =>
      db.transaction().execute(async (trx) => {
        await traces.in(trx).insertAll([
          {
            ...trace,
            duration_ms: trace.end_ms - trace.start_ms,
            total_spans: all.length,
            created_at: trace.start_ms,
          },
        ]);
        await spans.in(trx).insertAll(all.map((span, position) => ({ ...span, position })));
      }),
    /** How many traces a run has (one per start or continue). */
    async countForRun(runId: string): Promise<number> {
      const { n } = await db
        .selectFrom('traces')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('run_id', '=', runId)
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    async get(traceId: string): Promise<StoredTrace | null> {
      const entry = await traces.get(traceId);
      return entry === null ? null : storedTrace(entry);
    },
    /** The trace's spans, root first, in the order they started. */
    async spans(traceId: string): Promise<SpanRecord[]> {
      return (await spans.find({ trace_id: traceId }, ['position'])).map(storedSpan);
    },
    async span(spanId: string): Promise<SpanRecord | null> {
      const entry = await spans.get(spanId);
      return entry === null ? null : storedSpan(entry);
    },
    /** One page of the matching traces, newest first. `page` is 1-based. */
    async list(where: TraceCondition, page: number, limit: number): Promise<Page<StoredTrace>> {
      const found = await pages.page({ filters: { where }, page, limit });
      return { rows: found.rows.map(storedTrace), total: found.total };
    },
    /** One page of per-session counts over the matching traces, latest session first. */
    sessionStats: (
      where: TraceCondition,
      page: number,
      limit: number,
    ): Promise<Page<TraceSessionStatsRecord>> =>
      db.transaction().execute(async (trx) => {
        const scoped = trx
          .selectFrom('traces')
          .where((eb) => eb.and([eb('session_id', 'is not', null), where(eb, dialect)]));
        const rows = await scoped
          .select((eb) => [
            'session_id',
            eb.fn.max('user_id').as('user_id'),
            eb.fn.max('agent_id').as('agent_id'),
            eb.fn.max('team_id').as('team_id'),
            eb.fn.max('workflow_id').as('workflow_id'),
            eb.fn.countAll().as('total_traces'),
            eb.fn.min('start_time').as('first_trace_ms'),
            eb.fn.max('start_time').as('last_trace_ms'),
          ])
          .groupBy('session_id')
          .orderBy('last_trace_ms', 'desc')
          .orderBy('session_id', 'desc')
          .limit(limit)
          .offset(offsetOf({ page, limit }))
          .execute();
        const { n } = await scoped
          .select((eb) => eb.fn.count('session_id').distinct().as('n'))
          .executeTakeFirstOrThrow();
        return {
          rows: rows.map((row) => ({
            ...row,
            session_id: row.session_id as string,
            total_traces: Number(row.total_traces),
            first_trace_ms: Number(row.first_trace_ms),
            last_trace_ms: Number(row.last_trace_ms),
          })),
          total: Number(n),
        };
      }),
  });
}
