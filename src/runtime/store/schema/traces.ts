/**
 * Migration step 8 (traces): the tables of run traces and their spans. Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
// Times are epoch milliseconds (spans are shorter than a second). A trace's spans go with it.
// The indexes serve the listing (newest first), the confined listing (by owner), lookups by run
// and session (stats group by session), and a trace's spans in order.
export const TRACES_SCHEMA = `
  CREATE TABLE traces (
    trace_id     TEXT    NOT NULL PRIMARY KEY,
    name         TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('OK', 'ERROR', 'UNSET')),
    start_time   BIGINT  NOT NULL,
    end_time     BIGINT  NOT NULL,
    duration_ms  BIGINT  NOT NULL,
    total_spans  INTEGER NOT NULL,
    error_count  INTEGER NOT NULL,
    input        TEXT,
    output       TEXT,
    error        TEXT,
    run_id       TEXT    NOT NULL,
    session_id   TEXT,
    user_id      TEXT,
    agent_id     TEXT,
    team_id      TEXT,
    workflow_id  TEXT,
    created_at   BIGINT  NOT NULL
  ) STRICT;
  CREATE INDEX traces_by_start ON traces (start_time, trace_id);
  CREATE INDEX traces_by_user ON traces (user_id, start_time, trace_id);
  CREATE INDEX traces_by_run ON traces (run_id);
  CREATE INDEX traces_by_session ON traces (session_id, start_time);

  CREATE TABLE trace_spans (
    span_id        TEXT    NOT NULL PRIMARY KEY,
    trace_id       TEXT    NOT NULL REFERENCES traces (trace_id) ON DELETE CASCADE,
    position       INTEGER NOT NULL,
    parent_span_id TEXT,
    name           TEXT    NOT NULL,
    type           TEXT    NOT NULL CHECK (type IN ('AGENT', 'TEAM', 'WORKFLOW', 'LLM', 'TOOL')),
    status         TEXT    NOT NULL CHECK (status IN ('OK', 'ERROR', 'UNSET')),
    start_time     BIGINT  NOT NULL,
    end_time       BIGINT  NOT NULL,
    input          TEXT,
    output         TEXT,
    error          TEXT,
    step_type      TEXT,
    metadata       JSON    NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX trace_spans_by_trace ON trace_spans (trace_id, position);
`;
