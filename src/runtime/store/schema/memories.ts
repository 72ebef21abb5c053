/**
 * Migration step 5 (memories): the tables of user memories. Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const MEMORIES_SCHEMA = `
  -- One row per memory. Every memory has an owner; topics are a JSON array of
  -- strings; times are epoch seconds.
  CREATE TABLE memories (
    memory_id  TEXT    NOT NULL PRIMARY KEY,
    memory     TEXT    NOT NULL,
    topics     JSON    NOT NULL,
    user_id    TEXT    NOT NULL,
    agent_id   TEXT,
    team_id    TEXT,
    created_at BIGINT  NOT NULL,
    updated_at BIGINT  NOT NULL
  ) STRICT;
  -- GET /memories (the scoped listing is by owner) in its default order, the per-user stats and
  -- topics, and the unfiltered listing; memory_id breaks ties.
  CREATE INDEX memories_by_user_updated ON memories (user_id, updated_at, memory_id);
  CREATE INDEX memories_by_updated ON memories (updated_at, memory_id);
`;
