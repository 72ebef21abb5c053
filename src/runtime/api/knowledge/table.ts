/**
 * Knowledge contents and their text chunks in the runtime's SQLite file.
 * Stores what it is given: reading, chunking, ranking and HTTP shapes live in the routes.
 */
import type { SqliteDatabase, SqliteStatement } from '../../store/sqlite.js';

/** Where a content is in its processing. */
export type ContentStatus = 'processing' | 'completed' | 'failed';

/** One knowledge content. */
export interface ContentRecord {
  id: string;
  knowledge_id: string;
  name: string | null;
  description: string | null;
  /** MIME type of what was read; null until known (a URL before its fetch). */
  type: string | null;
  /** Bytes of the text read; null until read. */
  size: number | null;
  metadata: Record<string, unknown> | null;
  status: ContentStatus;
  status_message: string | null;
  reader_id: string | null;
  chunker: string;
  chunk_size: number;
  chunk_overlap: number;
  /** The URL(s) it was fetched from (space-separated), or null for uploads. */
  origin: string | null;
  /** Epoch seconds. */
  created_at: number;
  /** Epoch seconds. */
  updated_at: number;
}

/** One chunk of a content's text, numbered from 0. */
export interface ChunkRecord {
  content_id: string;
  seq: number;
  text: string;
}

/** A page request of {@link KnowledgeStore.list}. */
export interface ContentQuery {
  readonly page: number;
  readonly limit: number;
  readonly sortBy: 'created_at' | 'updated_at' | 'name';
  readonly sortOrder: 'asc' | 'desc';
}

/** The knowledge tables of the runtime store. */
export interface KnowledgeStore {
  /** One page of an instance's contents and how many it has. */
  list(knowledgeId: string, query: ContentQuery): { rows: ContentRecord[]; total: number };
  get(id: string): ContentRecord | null;
  /** Insert, or replace by id (keeping `created_at` and dropping the old chunks). */
  put(content: ContentRecord): void;
  /** Rewrites a content's name, description, metadata, reader and `updated_at` (chunks kept). */
  update(content: ContentRecord): void;
  /**
   * Stores the chunks and marks the content completed with its type and size, in one
   * transaction; false, and nothing written, when the content was deleted meanwhile.
   */
  complete(
    id: string,
    read: { type: string; size: number; chunks: readonly string[] },
    at: number,
  ): boolean;
  /** Marks the content failed with `message`; nothing when it was deleted meanwhile. */
  fail(id: string, message: string, at: number): void;
  /** Marks every content still `processing` failed with `message` (a stopped runtime's). */
  failProcessing(message: string, at: number): number;
  /** Every chunk of the instance's contents (what its search index is built from). */
  chunks(knowledgeId: string): ChunkRecord[];
  /** The distinct top-level metadata keys of the instance's contents, sorted. */
  metadataKeys(knowledgeId: string): string[];
  /** Deletes the instance's content `id` (and its chunks); false when it has none. */
  delete(knowledgeId: string, id: string): boolean;
  /** Deletes every content of the instance; how many. */
  deleteAll(knowledgeId: string): number;
}

interface ContentRow extends Omit<ContentRecord, 'metadata'> {
  metadata: string | null;
}

const COLUMNS = [
  'id',
  'knowledge_id',
  'name',
  'description',
  'type',
  'size',
  'metadata',
  'status',
  'status_message',
  'reader_id',
  'chunker',
  'chunk_size',
  'chunk_overlap',
  'origin',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ContentRow)[];

const SORTS = ['created_at', 'updated_at', 'name'] as const;

const fromRow = (row: ContentRow): ContentRecord => ({
  ...row,
  metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
});

/** Prepares the knowledge statements on an open, migrated database. */
export function createKnowledgeStore(db: SqliteDatabase): KnowledgeStore {
  // One statement per order, so the SQL text never depends on a request value.
  const pages = new Map<string, SqliteStatement>();
  for (const sort of SORTS) {
    for (const order of ['asc', 'desc'] as const) {
      pages.set(
        `${sort} ${order}`,
        db.prepare(
          `SELECT * FROM knowledge_contents WHERE knowledge_id = @knowledgeId
           ORDER BY ${sort} ${order}, id ${order} LIMIT @limit OFFSET @offset`,
        ),
      );
    }
  }
  const count = db.prepare('SELECT count(*) AS n FROM knowledge_contents WHERE knowledge_id = ?');
  const get = db.prepare('SELECT * FROM knowledge_contents WHERE id = ?');
  const updates = COLUMNS.filter((c) => c !== 'id' && c !== 'created_at')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  const put = db.prepare(
    `INSERT INTO knowledge_contents (${COLUMNS.join(', ')})
     VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})
     ON CONFLICT (id) DO UPDATE SET ${updates}`,
  );
  const update = db.prepare(
    `UPDATE knowledge_contents SET name = @name, description = @description,
       metadata = @metadata, reader_id = @reader_id, updated_at = @updated_at WHERE id = @id`,
  );
  const dropChunks = db.prepare('DELETE FROM knowledge_chunks WHERE content_id = ?');
  const addChunk = db.prepare(
    'INSERT INTO knowledge_chunks (content_id, seq, text) VALUES (?, ?, ?)',
  );
  const markCompleted = db.prepare(
    `UPDATE knowledge_contents SET status = 'completed', status_message = NULL, type = @type,
       size = @size, updated_at = @at WHERE id = @id`,
  );
  const markFailed = db.prepare(
    `UPDATE knowledge_contents SET status = 'failed', status_message = ?, updated_at = ?
     WHERE id = ?`,
  );
  const markProcessingFailed = db.prepare(
    `UPDATE knowledge_contents SET status = 'failed', status_message = ?, updated_at = ?
     WHERE status = 'processing'`,
  );
  const chunks = db.prepare(
    `SELECT c.content_id, c.seq, c.text FROM knowledge_chunks c
     JOIN knowledge_contents k ON k.id = c.content_id
     WHERE k.knowledge_id = ? ORDER BY c.content_id, c.seq`,
  );
  const keys = db.prepare(
    `SELECT DISTINCT j.key AS key FROM knowledge_contents k, json_each(k.metadata) j
     WHERE k.knowledge_id = ? AND k.metadata IS NOT NULL ORDER BY j.key`,
  );
  const remove = db.prepare('DELETE FROM knowledge_contents WHERE id = ? AND knowledge_id = ?');
  const removeAll = db.prepare('DELETE FROM knowledge_contents WHERE knowledge_id = ?');

  const complete = db.transaction(
    (id: string, read: { type: string; size: number; chunks: readonly string[] }, at: number) => {
      if (get.get(id) === undefined) return false;
      dropChunks.run(id);
      read.chunks.forEach((text, seq) => addChunk.run(id, seq, text));
      markCompleted.run({ id, type: read.type, size: read.size, at });
      return true;
    },
  );
  const replace = db.transaction((content: ContentRecord) => {
    dropChunks.run(content.id);
    put.run({
      ...content,
      metadata: content.metadata === null ? null : JSON.stringify(content.metadata),
    });
  });

  return Object.freeze({
    list(knowledgeId, query) {
      const statement = pages.get(`${query.sortBy} ${query.sortOrder}`) as SqliteStatement;
      const rows = statement.all({
        knowledgeId,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      }) as ContentRow[];
      const { n } = count.get(knowledgeId) as { n: number };
      return { rows: rows.map(fromRow), total: n };
    },
    get(id) {
      const row = get.get(id) as ContentRow | undefined;
      return row === undefined ? null : fromRow(row);
    },
    put: (content) => replace(content),
    update(content) {
      update.run({
        id: content.id,
        name: content.name,
        description: content.description,
        metadata: content.metadata === null ? null : JSON.stringify(content.metadata),
        reader_id: content.reader_id,
        updated_at: content.updated_at,
      });
    },
    complete: (id, read, at) => complete(id, read, at),
    fail(id, message, at) {
      markFailed.run(message, at, id);
    },
    failProcessing: (message, at) => markProcessingFailed.run(message, at).changes,
    chunks: (knowledgeId) => chunks.all(knowledgeId) as ChunkRecord[],
    metadataKeys: (knowledgeId) =>
      (keys.all(knowledgeId) as { key: string }[]).map((row) => row.key),
    delete: (knowledgeId, id) => remove.run(id, knowledgeId).changes > 0,
    deleteAll: (knowledgeId) => removeAll.run(knowledgeId).changes,
  } satisfies KnowledgeStore);
}
