/**
 * Run traces and their spans in the runtime's SQLite file. Stores what it is
 * given and lists by a condition compiled elsewhere (traces/filter.ts): it never filters by
 * caller identity on its own, never builds HTTP shapes, and never puts a value into SQL text.
 */
import { LRUCache } from 'lru-cache';
import type { SpanRecord, TraceRecord } from './records.js';
import type { SqliteDatabase, SqliteStatement } from '../../store/sqlite.js';

/** A condition over the `traces` columns with its positional parameters. */
export interface TraceCondition {
  readonly sql: string;
  readonly params: readonly (string | number | null)[];
}

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

/** One page of rows and how many match in all. */
export interface TracePage<T> {
  readonly rows: T[];
  readonly total: number;
}

/** The traces of the runtime store. */
export interface TraceStore {
  /** Stores a finished trace with its spans, in one transaction. */
  put(trace: TraceRecord): void;
  /** How many traces a run has (one per start or continue). */
  countForRun(runId: string): number;
  get(traceId: string): StoredTrace | null;
  /** The trace's spans, root first, in the order they started. */
  spans(traceId: string): SpanRecord[];
  span(spanId: string): SpanRecord | null;
  /** One page of the matching traces, newest first. `page` is 1-based. */
  list(where: TraceCondition, page: number, limit: number): TracePage<StoredTrace>;
  /** One page of per-session counts over the matching traces, latest session first. */
  sessionStats(
    where: TraceCondition,
    page: number,
    limit: number,
  ): TracePage<TraceSessionStatsRecord>;
}

interface TraceRow extends Omit<StoredTrace, 'start_ms' | 'end_ms'> {
  start_time: number;
  end_time: number;
  duration_ms: number;
  created_at: number;
}

interface SpanRow extends Omit<SpanRecord, 'start_ms' | 'end_ms' | 'metadata'> {
  start_time: number;
  end_time: number;
  position: number;
  metadata: string;
}

function fromTraceRow(row: TraceRow): StoredTrace {
  return {
    trace_id: row.trace_id,
    name: row.name,
    status: row.status,
    start_ms: row.start_time,
    end_ms: row.end_time,
    total_spans: row.total_spans,
    error_count: row.error_count,
    input: row.input,
    output: row.output,
    error: row.error,
    run_id: row.run_id,
    session_id: row.session_id,
    user_id: row.user_id,
    agent_id: row.agent_id,
    team_id: row.team_id,
    workflow_id: row.workflow_id,
  };
}

function fromSpanRow(row: SpanRow): SpanRecord {
  return {
    span_id: row.span_id,
    trace_id: row.trace_id,
    parent_span_id: row.parent_span_id,
    name: row.name,
    type: row.type,
    status: row.status,
    start_ms: row.start_time,
    end_ms: row.end_time,
    input: row.input,
    output: row.output,
    error: row.error,
    step_type: row.step_type,
    metadata: JSON.parse(row.metadata) as Record<string, unknown> | null,
  };
}

/** Statements whose text depends on a filter's shape, kept for reuse (bounded). */
const MAX_CACHED_STATEMENTS = 256;

/** Prepares the trace statements on an open, migrated database. */
export function createTraceStore(db: SqliteDatabase): TraceStore {
  const putTrace = db.prepare(
    `INSERT INTO traces (trace_id, name, status, start_time, end_time, duration_ms, total_spans,
       error_count, input, output, error, run_id, session_id, user_id, agent_id, team_id,
       workflow_id, created_at)
     VALUES (@trace_id, @name, @status, @start_ms, @end_ms, @duration_ms, @total_spans,
       @error_count, @input, @output, @error, @run_id, @session_id, @user_id, @agent_id, @team_id,
       @workflow_id, @start_ms)`,
  );
  const putSpan = db.prepare(
    `INSERT INTO trace_spans (span_id, trace_id, position, parent_span_id, name, type, status,
       start_time, end_time, input, output, error, step_type, metadata)
     VALUES (@span_id, @trace_id, @position, @parent_span_id, @name, @type, @status, @start_ms,
       @end_ms, @input, @output, @error, @step_type, @metadata)`,
  );
  const countForRun = db.prepare('SELECT count(*) AS n FROM traces WHERE run_id = ?');
  const get = db.prepare('SELECT * FROM traces WHERE trace_id = ?');
  const spans = db.prepare('SELECT * FROM trace_spans WHERE trace_id = ? ORDER BY position');
  const span = db.prepare('SELECT * FROM trace_spans WHERE span_id = ?');
  const cache = new LRUCache<string, SqliteStatement>({ max: MAX_CACHED_STATEMENTS });
  const prepared = (sql: string): SqliteStatement => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };

  const insert = db.transaction((trace: TraceRecord) => {
    const { spans: all, ...rest } = trace;
    putTrace.run({
      ...rest,
      duration_ms: trace.end_ms - trace.start_ms,
      total_spans: all.length,
    });
    all.forEach((s, position) => {
      putSpan.run({
        ...s,
        position,
        // JSON `null` for none: the column is always JSON.
        metadata: JSON.stringify(s.metadata),
      });
    });
  });

  // One read transaction for rows and count, so `total` always matches the page.
  const page = db.transaction(
    (rowsSql: string, countSql: string, where: TraceCondition, p: number, limit: number) => ({
      rows: prepared(rowsSql).all(...where.params, limit, (Math.max(p, 1) - 1) * limit),
      total: (prepared(countSql).get(...where.params) as { n: number }).n,
    }),
  );

  return Object.freeze({
    put: (trace) => insert(trace),
    countForRun: (runId) => (countForRun.get(runId) as { n: number }).n,
    get(traceId) {
      const row = get.get(traceId) as TraceRow | undefined;
      return row === undefined ? null : fromTraceRow(row);
    },
    spans: (traceId) => (spans.all(traceId) as SpanRow[]).map(fromSpanRow),
    span(spanId) {
      const row = span.get(spanId) as SpanRow | undefined;
      return row === undefined ? null : fromSpanRow(row);
    },
    list(where, p, limit) {
      const { rows, total } = page(
        `SELECT * FROM traces WHERE ${where.sql}
         ORDER BY start_time DESC, trace_id DESC LIMIT ? OFFSET ?`,
        `SELECT count(*) AS n FROM traces WHERE ${where.sql}`,
        where,
        p,
        limit,
      );
      return { rows: (rows as TraceRow[]).map(fromTraceRow), total };
    },
    sessionStats(where, p, limit) {
      const scope = `session_id IS NOT NULL AND (${where.sql})`;
      const { rows, total } = page(
        `SELECT session_id, max(user_id) AS user_id, max(agent_id) AS agent_id,
           max(team_id) AS team_id, max(workflow_id) AS workflow_id, count(*) AS total_traces,
           min(start_time) AS first_trace_ms, max(start_time) AS last_trace_ms
         FROM traces WHERE ${scope} GROUP BY session_id
         ORDER BY last_trace_ms DESC, session_id DESC LIMIT ? OFFSET ?`,
        `SELECT count(DISTINCT session_id) AS n FROM traces WHERE ${scope}`,
        where,
        p,
        limit,
      );
      return { rows: rows as TraceSessionStatsRecord[], total };
    },
  } satisfies TraceStore);
}
