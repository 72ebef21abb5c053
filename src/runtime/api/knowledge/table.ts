/**
 * Knowledge contents and their text chunks in the runtime database, read and written
 * asynchronously through the query layer (database.ts, table.ts, page.ts). Stores what it is
 * given: reading, chunking, ranking and HTTP shapes live in the routes.
 */
import type { Kysely } from 'kysely';
import type { Database, RowOf, RuntimeDatabase } from '../../store/database.js';
import { equals, pageOf, type Page, type PageParams } from '../../store/page.js';
import { tableOf, type TableSpec } from '../../store/table.js';

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

/** The columns GET /knowledge/content may sort by. */
export const CONTENT_SORTS = ['created_at', 'updated_at', 'name'] as const;

/** A sort column of {@link CONTENT_SORTS}. */
export type ContentSort = (typeof CONTENT_SORTS)[number];

/** A page request of the knowledge store's `list`. */
export type ContentQuery = PageParams<ContentSort>;

/** The knowledge tables of the runtime store. */
export type KnowledgeStore = ReturnType<typeof createKnowledgeStore>;

/** The `knowledge_contents` table: metadata is JSON, times epoch seconds. */
const CONTENTS: TableSpec<ContentRecord> = {
  name: 'knowledge_contents',
  key: 'id',
  columns: [
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
  ],
  json: ['metadata'],
  seconds: ['created_at', 'updated_at'],
  keepOnUpdate: ['created_at'],
};

/** The `knowledge_chunks` table, written in bulk (its key is the content id and the number). */
const CHUNKS: TableSpec<ChunkRecord> = {
  name: 'knowledge_chunks',
  key: 'content_id',
  columns: ['content_id', 'seq', 'text'],
};

declare module '../../store/database.js' {
  interface Database {
    knowledge_contents: RowOf<ContentRecord, 'metadata'>;
    knowledge_chunks: ChunkRecord;
    knowledge_revisions: { knowledge_id: string; revision: number };
  }
}

/** The filters of the store's `list`. */
interface ContentFilters {
  knowledgeId?: string;
}

/** The knowledge store on an open, migrated database. */
export function createKnowledgeStore(database: RuntimeDatabase) {
  const { db, dialect } = database;
  const contents = tableOf(database, CONTENTS);
  const chunks = tableOf(database, CHUNKS);
  const pages = pageOf<ContentRecord, ContentFilters, ContentSort>(database, contents, {
    filters: { knowledgeId: equals('knowledge_id') },
    sorts: CONTENT_SORTS,
    tieBreak: 'id',
  });
  /** Marks the content `id` failed; how many were (0 or 1; every `processing` one without id). */
  const fail = async (id: string | null, message: string, at: number): Promise<number> => {
    const result = await db
      .updateTable('knowledge_contents')
      .set({ status: 'failed', status_message: message, updated_at: at })
      .$if(id === null, (qb) => qb.where('status', '=', 'processing'))
      .$if(id !== null, (qb) => qb.where('id', '=', id as string))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  };

  /** Moves the instance's revision, in the write's transaction `trx`. */
  const bump = (trx: Kysely<Database>, knowledgeId: string): Promise<unknown> =>
    trx
      .insertInto('knowledge_revisions')
      .values({ knowledge_id: knowledgeId, revision: 1 })
      .onConflict((oc) =>
        oc
          .column('knowledge_id')
          .doUpdateSet((eb) => ({ revision: eb('knowledge_revisions.revision', '+', 1) })),
      )
      .execute();

  return Object.freeze({
    /** One page of an instance's contents and how many it has. */
    list: (knowledgeId: string, query: ContentQuery): Promise<Page<ContentRecord>> =>
      pages.page({ ...query, filters: { knowledgeId } }),
    get: (id: string): Promise<ContentRecord | null> => contents.get(id),
    /** Insert, or replace by id (keeping `created_at` and dropping the old chunks). */
    put: (content: ContentRecord): Promise<void> =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('knowledge_chunks').where('content_id', '=', content.id).execute();
        await contents.in(trx).put(content);
        await bump(trx, content.knowledge_id);
      }),
    /** Rewrites a content's name, description, metadata, reader and `updated_at` (chunks kept). */
    async update(content: ContentRecord): Promise<void> {
      const { id, name, description, metadata, reader_id, updated_at } = content;
      await contents.patch(id, { name, description, metadata, reader_id, updated_at });
    },
    /**
     * Stores the chunks and marks the content completed with its type and size, in one
     * transaction; false, and nothing written, when the content was deleted meanwhile.
     */
    complete: (
      id: string,
      read: { type: string; size: number; chunks: readonly string[] },
      at: number,
    ): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        // Conditional on the row: a content deleted meanwhile stays deleted, with no chunks.
        const marked = await trx
          .updateTable('knowledge_contents')
          .set({
            status: 'completed',
            status_message: null,
            type: read.type,
            size: read.size,
            updated_at: at,
          })
          .where('id', '=', id)
          .returning('knowledge_id')
          .executeTakeFirst();
        if (marked === undefined) return false;
        await trx.deleteFrom('knowledge_chunks').where('content_id', '=', id).execute();
        await chunks
          .in(trx)
          .insertAll(read.chunks.map((text, seq) => ({ content_id: id, seq, text })));
        await bump(trx, marked.knowledge_id);
        return true;
      }),
    /** Marks the content failed with `message`; nothing when it was deleted meanwhile. */
    async fail(id: string, message: string, at: number): Promise<void> {
      await fail(id, message, at);
    },
    /** Marks every content still `processing` failed with `message` (a stopped runtime's). */
    failProcessing: (message: string, at: number): Promise<number> => fail(null, message, at),
    /** Every chunk of the instance's contents (what its search index is built from). */
    async chunks(knowledgeId: string): Promise<ChunkRecord[]> {
      const rows = await db
        .selectFrom('knowledge_chunks as c')
        .innerJoin('knowledge_contents as k', 'k.id', 'c.content_id')
        .select(['c.content_id', 'c.seq', 'c.text'])
        .where('k.knowledge_id', '=', knowledgeId)
        .orderBy('c.content_id')
        .orderBy('c.seq')
        .execute();
      return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
    },
    /** The distinct top-level metadata keys of the instance's contents, sorted. */
    async metadataKeys(knowledgeId: string): Promise<string[]> {
      const rows = await db
        .selectFrom(['knowledge_contents as k', dialect.jsonObjectKeys('k.metadata', 'j')])
        .select('j.key as key')
        .distinct()
        .where('k.knowledge_id', '=', knowledgeId)
        .where('k.metadata', 'is not', null)
        .orderBy('key')
        .execute();
      return rows.map((row) => row.key);
    },
    /** Deletes the instance's content `id` (and its chunks); false when it has none. */
    delete: (knowledgeId: string, id: string): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        // The chunks go with their content (ON DELETE CASCADE).
        const result = await trx
          .deleteFrom('knowledge_contents')
          .where('id', '=', id)
          .where('knowledge_id', '=', knowledgeId)
          .executeTakeFirst();
        if (result.numDeletedRows === 0n) return false;
        await bump(trx, knowledgeId);
        return true;
      }),
    /** Deletes every content of the instance; how many. */
    deleteAll: (knowledgeId: string): Promise<number> =>
      db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('knowledge_contents')
          .where('knowledge_id', '=', knowledgeId)
          .executeTakeFirst();
        await bump(trx, knowledgeId);
        return Number(result.numDeletedRows);
      }),
    /**
     * The instance's revision: moved by every write that changes which chunks are searchable
     * (put, complete, delete, deleteAll), in the write's transaction; 0 before the first.
     */
    async revision(knowledgeId: string): Promise<number> {
      const row = await db
        .selectFrom('knowledge_revisions')
        .select('revision')
        .where('knowledge_id', '=', knowledgeId)
        .executeTakeFirst();
      return Number(row?.revision ?? 0);
    },
  });
}
