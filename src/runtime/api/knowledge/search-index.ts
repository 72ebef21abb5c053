/**
 * The in-memory search index of one knowledge instance: its stored chunks ranked with BM25 by
 * MiniSearch. Built lazily from the store on the first search, then kept current as contents are
 * completed and deleted (changes made while it is being built are applied once it is); it holds
 * exactly the stored chunks, so it is bounded by the database. Never writes the store.
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

/** A built index and its chunk ids by content (to drop a content's chunks). */
interface Built {
  readonly index: MiniSearch<ChunkDocument>;
  readonly byContent: Map<string, string[]>;
}

/** Indexes a content's chunks. */
function add(built: Built, contentId: string, texts: readonly string[]): void {
  const docs = texts.map((text, seq) => ({
    id: chunkId(contentId, seq),
    content_id: contentId,
    seq,
    text,
  }));
  built.index.addAll(docs);
  built.byContent.set(
    contentId,
    docs.map((d) => d.id),
  );
}

/** Drops a content's chunks. */
function drop(built: Built, contentId: string): void {
  built.index.discardAll(built.byContent.get(contentId) ?? []);
  built.byContent.delete(contentId);
}

/** An index whose first search loads every chunk `load` returns. */
export function createKnowledgeIndex(load: () => Promise<readonly ChunkRecord[]>): KnowledgeIndex {
  let current: Built | null = null;
  /** The build under way, and the changes made since it started, applied when it ends. */
  let building: { readonly done: Promise<Built>; readonly changes: ((b: Built) => void)[] } | null =
    null;

  const build = async (changes: ((b: Built) => void)[]): Promise<Built> => {
    const chunks = await load();
    const built: Built = {
      index: new MiniSearch<ChunkDocument>({
        fields: ['text'],
        storeFields: ['content_id', 'seq', 'text'],
      }),
      byContent: new Map(),
    };
    const grouped = new Map<string, string[]>();
    for (const chunk of chunks) {
      const texts = grouped.get(chunk.content_id) ?? [];
      texts[chunk.seq] = chunk.text;
      grouped.set(chunk.content_id, texts);
    }
    for (const [contentId, texts] of grouped) add(built, contentId, texts);
    for (const change of changes) change(built);
    // A build cleared while it loaded serves the searches that waited for it, and is not kept.
    if (building?.changes === changes) {
      current = built;
      building = null;
    }
    return built;
  };
  const built = (): Promise<Built> => {
    if (current !== null) return Promise.resolve(current);
    if (building === null) {
      const changes: ((b: Built) => void)[] = [];
      const done = build(changes);
      building = { done, changes };
      // A failed load is retried by the next search.
      done.catch(() => {
        if (building?.done === done) building = null;
      });
    }
    return building.done;
  };
  /** Applies `change` now, or once the build under way ends; nothing before the first search. */
  const apply = (change: (b: Built) => void): void => {
    if (current !== null) change(current);
    else building?.changes.push(change);
  };

  return {
    async search(query, accept) {
      return (await built()).index
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
      apply((b) => {
        drop(b, contentId);
        add(b, contentId, chunks);
      });
    },
    remove(contentId) {
      apply((b) => drop(b, contentId));
    },
    clear() {
      current = null;
      building = null;
    },
  };
}
