/**
 * Migration step 7 (knowledge): the tables of knowledge contents and their chunks. Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
// One row per content (its id is derived from what was uploaded, so a re-upload replaces it);
// the chunks are the text the search index is built from and go with their content. Times are
// epoch seconds; `metadata` is JSON; `size` is the byte length of the text read.
export const KNOWLEDGE_SCHEMA = `
  CREATE TABLE knowledge_contents (
    id             TEXT    NOT NULL PRIMARY KEY,
    knowledge_id   TEXT    NOT NULL,
    name           TEXT,
    description    TEXT,
    type           TEXT,
    size           BIGINT,
    metadata       JSON,
    status         TEXT    NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
    status_message TEXT,
    reader_id      TEXT,
    chunker        TEXT    NOT NULL,
    chunk_size     INTEGER NOT NULL CHECK (chunk_size >= 1),
    chunk_overlap  INTEGER NOT NULL CHECK (chunk_overlap >= 0 AND chunk_overlap < chunk_size),
    origin         TEXT,
    created_at     BIGINT  NOT NULL,
    updated_at     BIGINT  NOT NULL
  ) STRICT;
  -- GET /knowledge/content pages in one of three orders; id is the tie-break.
  CREATE INDEX knowledge_contents_by_created ON knowledge_contents (knowledge_id, created_at, id);
  CREATE INDEX knowledge_contents_by_updated ON knowledge_contents (knowledge_id, updated_at, id);
  CREATE INDEX knowledge_contents_by_name ON knowledge_contents (knowledge_id, name, id);
  -- Startup marks the contents left 'processing' by a stopped runtime as failed.
  CREATE INDEX knowledge_contents_by_status ON knowledge_contents (status);

  CREATE TABLE knowledge_chunks (
    content_id TEXT    NOT NULL REFERENCES knowledge_contents (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    PRIMARY KEY (content_id, seq)
  ) STRICT;
`;
