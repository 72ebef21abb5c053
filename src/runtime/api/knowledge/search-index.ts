/**
 * The in-memory search index of one knowledge instance: its stored chunks ranked with BM25 by
 * MiniSearch. The database is the source of truth: the index is built from the stored chunks and
 * built again on the first search after the instance's revision moved (every write that changes
 * which chunks are searchable bumps it, through whichever runtime shares the database). Chunks
 * are indexed in content-id order, so every runtime on one database ranks alike. It holds exactly
 * the stored chunks, so it is bounded by the database. Never writes the store.
 */
import MiniSearch from 'minisearch';
import type { ChunkRecord } from './table.js';

/** One ranked chunk. */
export interface SearchHit {
  /** `<content id>_<chunk number>`. */
  readonly id: string;
  readonly contentId: string;
  readonly seq: number;
  readonly text: string;
  readonly score: number;
}

/** A knowledge instance's index. */
export interface KnowledgeIndex {
  /** The chunks matching any term of `query`, best first, of the contents `accept` keeps. */
  search(query: string, accept: (contentId: string) => boolean): Promise<SearchHit[]>;
}

/** Where an index reads its instance: the revision, and the chunks in content-id order. */
export interface IndexSource {
  revision(): Promise<number>;
  chunks(): Promise<readonly ChunkRecord[]>;
}

interface Built {
  readonly revision: number;
  readonly index: MiniSearch<ChunkRecord & { id: string }>;
}

/** Indexes every chunk `source` holds, as of `revision` or later. */
async function build(source: IndexSource, revision: number): Promise<Built> {
  const index = new MiniSearch<ChunkRecord & { id: string }>({
    fields: ['text'],
    storeFields: ['content_id', 'seq', 'text'],
  });
  index.addAll((await source.chunks()).map((c) => ({ ...c, id: `${c.content_id}_${c.seq}` })));
  return { revision, index };
}

/** An index of `source`'s chunks, built on the first search and again once the revision moves. */
export function createKnowledgeIndex(source: IndexSource): KnowledgeIndex {
  /** The newest build, done or under way: searches of one revision share it. */
  let latest: { readonly revision: number; readonly built: Promise<Built> } | null = null;

  const current = async (): Promise<Built> => {
    const revision = await source.revision();
    if (latest?.revision !== revision) {
      const built = build(source, revision);
      latest = { revision, built };
      // A failed load is retried by the next search.
      built.catch(() => {
        if (latest?.built === built) latest = null;
      });
    }
    return latest.built;
  };

  return {
    async search(query, accept) {
      return (await current()).index
        .search(query, { filter: (result) => accept(result['content_id'] as string) })
        .map((result) => ({
          id: result.id as string,
          contentId: result['content_id'] as string,
          seq: result['seq'] as number,
          text: result['text'] as string,
          score: result.score,
        }));
    },
  };
}
