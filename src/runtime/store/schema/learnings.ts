/**
 * Migration step 6 (learnings): the tables of learnings. Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const LEARNINGS_SCHEMA = `
  -- One row per learning. user_id NULL = shared (ownerless); content and
  -- metadata are JSON objects; times are epoch seconds.
  CREATE TABLE learnings (
    learning_id   TEXT    NOT NULL PRIMARY KEY,
    learning_type TEXT    NOT NULL,
    namespace     TEXT,
    user_id       TEXT,
    agent_id      TEXT,
    team_id       TEXT,
    session_id    TEXT,
    entity_id     TEXT,
    entity_type   TEXT,
    content       JSON    NOT NULL,
    metadata      JSON,
    created_at    BIGINT  NOT NULL,
    updated_at    BIGINT  NOT NULL
  ) STRICT;
  -- GET /learnings by owner (the scoped listing: own + ownerless) or by type, in the default
  -- order, and unfiltered; GET /learnings/users groups by owner.
  CREATE INDEX learnings_by_user_updated ON learnings (user_id, updated_at, learning_id);
  CREATE INDEX learnings_by_type_updated ON learnings (learning_type, updated_at, learning_id);
  CREATE INDEX learnings_by_updated ON learnings (updated_at, learning_id);
`;
