/**
 * The in-memory search index of one knowledge instance: its stored chunks ranked with BM25 by
 * MiniSearch. Built lazily from the store on the first search, then kept current as contents are
 * completed and deleted; it holds exactly the stored chunks, so it is bounded by the database.
 * Never writes the store.
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
  search(query: string, accept: (contentId: string) => boolean): SearchHit[];
  /** Indexes a content's chunks, replacing any it had. */
  put(contentId: string, chunks: readonly string[]): void;
  /** Drops a content's chunks. */
  remove(contentId: string): void;
  /** Drops everything. */
  clear(): void;
}

interface ChunkDocument {
  readonly id: string;
  readonly content_id: string;
  readonly seq: number;
  readonly text: string;
}

const chunkId = (contentId: string, seq: number): string => `${contentId}_${seq}`;

/** An index whose first search loads every chunk `load` returns. */
export function createKnowledgeIndex(load: () => readonly ChunkRecord[]): KnowledgeIndex {
  let search: MiniSearch<ChunkDocument> | null = null;
  /** Chunk ids by content, to drop a content's chunks. */
  const byContent = new Map<string, string[]>();

  const add = (index: MiniSearch<ChunkDocument>, contentId: string, texts: readonly string[]) => {
    const docs = texts.map((text, seq) => ({
      id: chunkId(contentId, seq),
      content_id: contentId,
      seq,
      text,
    }));
    index.addAll(docs);
    byContent.set(
      contentId,
      docs.map((d) => d.id),
    );
  };
  const drop = (index: MiniSearch<ChunkDocument>, contentId: string) => {
    index.discardAll(byContent.get(contentId) ?? []);
    byContent.delete(contentId);
  };
  const built = (): MiniSearch<ChunkDocument> => {
    if (search !== null) return search;
    const index = new MiniSearch<ChunkDocument>({
      fields: ['text'],
      storeFields: ['content_id', 'seq', 'text'],
    });
    const grouped = new Map<string, string[]>();
    for (const chunk of load()) {
      const texts = grouped.get(chunk.content_id) ?? [];
      texts[chunk.seq] = chunk.text;
      grouped.set(chunk.content_id, texts);
    }
    for (const [contentId, texts] of grouped) add(index, contentId, texts);
    search = index;
    return index;
  };

  return {
    search(query, accept) {
      return built()
        .search(query, { filter: (result) => accept(result['content_id'] as string) })
        .map((result) => ({
          id: result.id as string,
          contentId: result['content_id'] as string,
          seq: result['seq'] as number,
          text: result['text'] as string,
          score: result.score,
        }));
    },
    // Before the first search there is nothing to keep current: the build reads the store.
    put(contentId, chunks) {
      if (search === null) return;
      drop(search, contentId);
      add(search, contentId, chunks);
    },
    remove(contentId) {
      if (search !== null) drop(search, contentId);
    },
    clear() {
      search = null;
      byContent.clear();
    },
  };
}
