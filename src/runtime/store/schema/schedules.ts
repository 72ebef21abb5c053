/**
 * Migration step 11 (schedules): the tables of schedules and their runs. Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
// STRICT: epoch-second integers stay integers; `payload`, `input`, `output` and `requirements`
// are JSON text. A schedule's runs go with it. `schedule_runs.seq` orders runs recorded in the
// same second (an explicit INTEGER PRIMARY KEY, as `runs.seq`, so VACUUM cannot renumber it).
export const SCHEDULES_SCHEMA = `
  CREATE TABLE schedules (
    id                  TEXT    NOT NULL PRIMARY KEY,
    name                TEXT    NOT NULL UNIQUE,
    description         TEXT,
    method              TEXT    NOT NULL CHECK (method IN ('GET', 'POST', 'PUT', 'PATCH', 'DELETE')),
    endpoint            TEXT    NOT NULL,
    payload             JSON,
    cron_expr           TEXT    NOT NULL,
    timezone            TEXT    NOT NULL,
    timeout_seconds     INTEGER NOT NULL,
    max_retries         INTEGER NOT NULL,
    retry_delay_seconds INTEGER NOT NULL,
    enabled             FLAG,
    next_run_at         BIGINT,
    created_at          BIGINT  NOT NULL,
    updated_at          BIGINT  NOT NULL
  ) STRICT;
  -- The scheduler's tick: the enabled schedules that are due.
  CREATE INDEX schedules_due ON schedules (enabled, next_run_at);
  -- GET /schedules, newest first, optionally by enabled.
  CREATE INDEX schedules_by_created ON schedules (created_at, id);

  CREATE TABLE schedule_runs (
    seq          SERIAL  PRIMARY KEY,
    id           TEXT    NOT NULL UNIQUE,
    schedule_id  TEXT    NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
    attempt      INTEGER NOT NULL,
    triggered_at BIGINT  NOT NULL,
    completed_at BIGINT,
    status       TEXT    NOT NULL
                 CHECK (status IN ('running', 'success', 'failed', 'paused', 'cancelled')),
    status_code  INTEGER,
    run_id       TEXT,
    session_id   TEXT,
    error        TEXT,
    input        JSON,
    output       JSON,
    requirements JSON,
    created_at   BIGINT  NOT NULL
  ) STRICT;
  CREATE INDEX schedule_runs_by_schedule ON schedule_runs (schedule_id, created_at, seq);
`;

/**
 * Migration step 14 (schedule slots): each schedule run records the cron tick it belongs to
 * (`slot`, epoch seconds; NULL for a manual trigger and for runs stored before this step) and the
 * runtime replica that claimed it (`claimed_by`). The UNIQUE index makes the database itself
 * refuse a second run of one slot's attempt, whichever replica writes it; NULL slots never
 * collide. Append-only once released, like step 11.
 */
export const SCHEDULE_SLOTS_SCHEMA = `
  ALTER TABLE schedule_runs ADD COLUMN slot BIGINT;
  ALTER TABLE schedule_runs ADD COLUMN claimed_by TEXT;
  CREATE UNIQUE INDEX schedule_runs_by_slot ON schedule_runs (schedule_id, slot, attempt);
`;
