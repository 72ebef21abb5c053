/**
 * Migration step 12 (approvals): the tables of approvals. Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const APPROVALS_SCHEMA = `
  -- One row per approval: a run paused on tools that need one (pending until resolved), or an
  -- audit record of a tool call. JSON columns are TEXT. No foreign key to runs: an approval is a
  -- record of a decision and outlives the session it was made in.
  CREATE TABLE approvals (
    id              TEXT    NOT NULL PRIMARY KEY,
    run_id          TEXT    NOT NULL,
    session_id      TEXT    NOT NULL,
    status          TEXT    NOT NULL
                    CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'cancelled')),
    source_type     TEXT    NOT NULL CHECK (source_type IN ('agent', 'team', 'workflow')),
    approval_type   TEXT    NOT NULL CHECK (approval_type IN ('required', 'audit')),
    pause_type      TEXT    CHECK (pause_type IN ('confirmation', 'user_input', 'external_execution')),
    tool_name       TEXT,
    tool_args       JSON,
    expires_at      BIGINT,
    agent_id        TEXT,
    team_id         TEXT,
    workflow_id     TEXT,
    user_id         TEXT,
    schedule_id     TEXT,
    schedule_run_id TEXT,
    source_name     TEXT,
    requirements    JSON    NOT NULL,
    context         JSON    NOT NULL,
    resolution_data JSON,
    resolved_by     TEXT,
    resolved_at     BIGINT,
    run_status      TEXT,
    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL
  ) STRICT;
  -- GET /approvals (newest first; the scoped listing by owner) and /approvals/count (pending).
  CREATE INDEX approvals_by_created ON approvals (created_at, id);
  CREATE INDEX approvals_by_user_status ON approvals (user_id, status, created_at);
  -- A run's approvals: the pending one a continue resolves, and the run status they mirror.
  CREATE INDEX approvals_by_run ON approvals (run_id, status);
`;
