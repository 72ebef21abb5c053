/**
 * Migration step 10 (eval runs): the table of eval runs. Append-only once
 * released: a later change is a new step in ../migrations.ts, never an edit here.
 */
export const EVALS_SCHEMA = `
  -- One row per POST /eval-runs. STRICT: timestamps stay integers (epoch seconds); eval_data and
  -- eval_input are JSON text. An eval run names at most one of agent, team or workflow.
  CREATE TABLE eval_runs (
    run_id                   TEXT    NOT NULL PRIMARY KEY,
    eval_type                TEXT    NOT NULL
      CHECK (eval_type IN ('accuracy', 'agent_as_judge', 'performance', 'reliability')),
    name                     TEXT,
    agent_id                 TEXT,
    team_id                  TEXT,
    workflow_id              TEXT,
    model_id                 TEXT,
    model_provider           TEXT,
    evaluated_component_name TEXT,
    eval_data                JSON    NOT NULL,
    eval_input               JSON,
    created_at               BIGINT  NOT NULL,
    updated_at               BIGINT  NOT NULL
  ) STRICT;
  -- GET /eval-runs pages in created_at or updated_at order (run_id breaks ties), optionally for
  -- one agent or team.
  CREATE INDEX eval_runs_by_created ON eval_runs (created_at, run_id);
  CREATE INDEX eval_runs_by_updated ON eval_runs (updated_at, run_id);
  CREATE INDEX eval_runs_by_agent ON eval_runs (agent_id, created_at);
  CREATE INDEX eval_runs_by_team ON eval_runs (team_id, created_at);
`;
