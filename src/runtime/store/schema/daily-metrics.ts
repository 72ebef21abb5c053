/**
 * Migration step 9 (daily metrics): the tables of daily metrics aggregates. Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
// One row per UTC day (`date` is YYYY-MM-DD, so text order is date order), recomputed by
// POST /metrics/refresh. Token and model metrics are JSON; times are epoch milliseconds.
export const DAILY_METRICS_SCHEMA = `
  CREATE TABLE daily_metrics (
    date                    TEXT    NOT NULL PRIMARY KEY,
    id                      TEXT    NOT NULL UNIQUE,
    agent_runs_count        BIGINT  NOT NULL,
    agent_sessions_count    BIGINT  NOT NULL,
    team_runs_count         BIGINT  NOT NULL,
    team_sessions_count     BIGINT  NOT NULL,
    workflow_runs_count     BIGINT  NOT NULL,
    workflow_sessions_count BIGINT  NOT NULL,
    users_count             BIGINT  NOT NULL,
    token_metrics           JSON    NOT NULL,
    model_metrics           JSON    NOT NULL,
    created_at              BIGINT  NOT NULL,
    updated_at              BIGINT  NOT NULL
  ) STRICT;
`;
