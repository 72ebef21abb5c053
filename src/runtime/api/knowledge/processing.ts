/**
 * Background processing of knowledge contents: after the 202 is sent, a
 * content's text is read (uploaded text or file, or fetched URLs), chunked, stored and indexed,
 * and its status set to `completed`, or to `failed` with the reason. Never answers HTTP.
 */
import type { Dispatcher } from 'undici';
import { epochSeconds } from '../../engine/time.js';
import type { KnowledgeStore } from './table.js';
import { fetchContent, type FetchLimits } from './fetch.js';
import { baseType, chunkText, readerFor, readText, unsupportedType } from './text.js';

/** What a content is read from. */
export type ContentSource =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'file'; readonly type: string; readonly data: Buffer }
  | { readonly kind: 'urls'; readonly urls: readonly URL[] };

/** One content to process; its row is already stored with status `processing`. */
export interface ProcessingJob {
  readonly contentId: string;
  readonly source: ContentSource;
  /** The reader asked for; null: the one for the content's type. */
  readonly readerId: string | null;
  readonly chunkSize: number;
  readonly chunkOverlap: number;
}

/** Text read from a source, or why it could not be. */
type Read =
  | { readonly ok: true; readonly type: string; readonly size: number; readonly text: string }
  | { readonly ok: false; readonly message: string };

/** Reads `bytes` of `type` with the asked reader or the type's own. */
function readBytes(bytes: Buffer, type: string, readerId: string | null): Read {
  const reader = readerFor(type);
  if (reader === null) return { ok: false, message: unsupportedType(type) };
  return { ok: true, type, size: bytes.length, text: readText(bytes, readerId ?? reader) };
}

/** Creates the processor over the store: it runs jobs in the background. */
export function createKnowledgeProcessor(deps: {
  readonly store: KnowledgeStore;
  readonly limits: FetchLimits;
  /** The outbound-fetch guard's dispatcher: every URL is fetched through it. */
  readonly outbound: Dispatcher;
  readonly clock: { now(): number };
}) {
  const { store, limits, outbound, clock } = deps;
  const running = new Set<Promise<void>>();
  const stop = new AbortController();

  async function readSource(job: ProcessingJob): Promise<Read> {
    const { source } = job;
    if (source.kind === 'text') {
      return readBytes(Buffer.from(source.text, 'utf8'), 'text/plain', job.readerId);
    }
    if (source.kind === 'file') return readBytes(source.data, source.type, job.readerId);
    // Several URLs make one content: their texts in order, the first one's type.
    const texts: string[] = [];
    let type = '';
    let size = 0;
    for (const url of source.urls) {
      const fetched = await fetchContent(url, limits, outbound, stop.signal);
      if (!fetched.ok) return fetched;
      const read = readBytes(fetched.body, baseType(fetched.type), job.readerId);
      if (!read.ok) return read;
      type ||= read.type;
      size += read.size;
      texts.push(read.text);
    }
    return { ok: true, type, size, text: texts.join('\n\n') };
  }

  async function run(job: ProcessingJob): Promise<void> {
    const read = await readSource(job);
    const at = epochSeconds(clock.now());
    if (!read.ok) {
      await store.fail(job.contentId, read.message, at);
      return;
    }
    try {
      const chunks = chunkText(read.text, job.chunkSize, job.chunkOverlap);
      // A content deleted while it was read stays deleted (the store writes nothing then).
      await store.complete(job.contentId, { type: read.type, size: read.size, chunks }, at);
    } catch (error) {
      await store.fail(job.contentId, `Processing failed: ${(error as Error).message}`, at);
    }
  }

  return {
    /** Starts `job` once the current request is answered. */
    enqueue(job: ProcessingJob): void {
      const done = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => run(job))
        // Only a store that cannot even record the failure (closed under the job) gets here;
        // the content then stays `processing` until the next start marks it failed.
        .catch(() => {})
        .finally(() => running.delete(done));
      running.add(done);
    },
    /** Resolves once every job started so far has finished. */
    idle: async (): Promise<void> => {
      await Promise.all(running);
    },
    /** Cancels running fetches and waits for every job (their contents end `failed`). */
    async close(): Promise<void> {
      stop.abort();
      await Promise.all(running);
    },
  };
}
