/**
 * The knowledge read routes beside contents: `POST /knowledge/search`
 * (BM25 over the stored chunks), `GET /knowledge/config` (what this runtime reads, chunks and
 * searches with), and the configured remote sources with their (empty) file listings.
 * Validates and shapes HTTP only; each route declares its document part (schemas.ts).
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { KnowledgeSettings, KnowledgeSourceSettings } from '../../catalogue/definitions.js';
import { HttpError } from '../../http/errors.js';
import type { ContentRecord, KnowledgeStore } from './table.js';
import type { KnowledgeIndex } from './search-index.js';
import { selectInstance, type KnowledgeInstance } from './instance.js';
import {
  CHUNKER,
  DEFAULT_CHUNK_OVERLAP,
  DEFAULT_CHUNK_SIZE,
  READERS,
  READERS_FOR_TYPE,
} from './text.js';
import { errors, ok } from '../../http/openapi.js';
import { paginatedOf } from '../../http/openapi-shapes.js';
import {
  instanceQuery,
  knowledgeConfigSchema,
  knowledgeSourceSchema,
  KNOWLEDGE_TAGS,
  searchBody,
  searchResultSchema,
  sourceFilesParams,
  sourceFilesQuery,
  sourceFilesSchema,
  sourcesParams,
  sourcesQuery,
} from './schemas.js';
import { paginated } from '../../http/list-query.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';

/** The schemas of this file's routes (validation.ts). */
const { checked, documented } = sectionSchemas(KNOWLEDGE_TAGS);

type Query = Record<string, string | undefined>;

/** The one "vector db": the in-memory BM25 index. */
const INDEX_DB = Object.freeze({
  id: 'minisearch',
  name: 'MiniSearch',
  description:
    'In-memory BM25 keyword index of the stored chunks; vector and hybrid searches are answered with keyword ranking',
  search_types: ['keyword', 'vector', 'hybrid'],
});

/** A configured source as `/sources` lists it. */
const sourceEntry = (source: KnowledgeSourceSettings) => ({
  id: source.id,
  name: source.name,
  type: source.type,
  metadata: { base_url: source.base_url },
});

/** True when `metadata` holds every filter key with an equal (JSON) value. */
function matchesFilters(
  metadata: Record<string, unknown> | null,
  filters: Record<string, unknown>,
): boolean {
  return Object.entries(filters).every(
    ([key, value]) =>
      metadata !== null &&
      Object.hasOwn(metadata, key) &&
      JSON.stringify(metadata[key]) === JSON.stringify(value),
  );
}

/** Registers search, config and sources. */
export function registerKnowledgeCatalogueRoutes(
  app: FastifyInstance,
  o: {
    readonly settings: KnowledgeSettings;
    readonly store: KnowledgeStore;
    readonly instance: KnowledgeInstance;
    readonly index: KnowledgeIndex;
  },
): void {
  const checkedApp = app.withTypeProvider<CheckedTypes>();
  const { settings, store, instance, index } = o;
  const sourceOf = (id: string): KnowledgeSourceSettings => {
    const source = settings.sources.find((s) => s.id === id);
    if (source === undefined) throw new HttpError(404, `Content source '${id}' not found`);
    return source;
  };

  const searchSchema = checked('Search the knowledge base (ranked)', {
    body: searchBody,
    response: {
      200: ok('Ranked results', paginatedOf(searchResultSchema)),
      ...errors('400', '404', '422'),
    },
  });
  checkedApp.post('/knowledge/search', { schema: searchSchema }, async (request) => {
    const started = performance.now();
    const body = request.body;
    selectInstance(instance, { knowledgeId: body.knowledge_id, dbId: body.db_id });
    const filters = body.filters ?? {};
    const ranked = await index.search(body.query, () => true);
    const contents = new Map<string, ContentRecord | null>();
    for (const { contentId } of ranked) {
      if (!contents.has(contentId)) contents.set(contentId, await store.get(contentId));
    }
    const contentOf = (id: string): ContentRecord | null =>
      contents.get(id) as ContentRecord | null;
    const hits = ranked
      .filter((hit) => {
        const content = contentOf(hit.contentId);
        return content !== null && matchesFilters(content.metadata, filters);
      })
      .slice(0, body.max_results ?? undefined);
    const limit = body.meta?.limit ?? 20;
    const page = Math.max(body.meta?.page ?? 1, 1);
    const data = hits.slice((page - 1) * limit, page * limit).map((hit) => {
      const content = contentOf(hit.contentId) as ContentRecord;
      return {
        id: hit.id,
        content: hit.text,
        name: content.name,
        meta_data: { ...content.metadata, chunk: hit.seq + 1, chunk_size: hit.text.length },
        usage: null,
        reranking_score: null,
        content_id: hit.contentId,
        content_origin: content.origin,
        size: hit.text.length,
      };
    });
    return paginated(data, page, limit, hits.length, performance.now() - started);
  });

  const configSchema = documented('Readers, chunkers, filters and vector stores', {
    querystring: instanceQuery,
    response: { 200: ok('The configuration', knowledgeConfigSchema), ...errors('404') },
  });
  app.get<{ Querystring: Query }>(
    '/knowledge/config',
    { schema: configSchema },
    async (request) => {
      const { id } = selectInstance(instance, {
        knowledgeId: request.query.knowledge_id,
        dbId: request.query.db_id,
      });
      return {
        readers: Object.fromEntries(
          Object.values(READERS).map((r) => [r.id, { ...r, chunkers: [CHUNKER] }]),
        ),
        readersForType: READERS_FOR_TYPE,
        chunkers: {
          [CHUNKER]: {
            key: CHUNKER,
            name: CHUNKER,
            description:
              'Splits text into windows of chunk_size characters, each sharing chunk_overlap characters with the previous one',
            metadata: { chunk_size: DEFAULT_CHUNK_SIZE, chunk_overlap: DEFAULT_CHUNK_OVERLAP },
          },
        },
        filters: await store.metadataKeys(id),
        vector_dbs: [INDEX_DB],
        remote_content_sources: settings.sources.map(sourceEntry),
      };
    },
  );

  const sourcesSchema = documented('Remote content sources of a knowledge base', {
    params: sourcesParams,
    querystring: sourcesQuery,
    response: { 200: ok('Sources', z.array(knowledgeSourceSchema)), ...errors('404') },
  });
  app.get<{ Params: z.infer<typeof sourcesParams>; Querystring: Query }>(
    '/knowledge/:knowledge_id/sources',
    { schema: sourcesSchema },
    async (request) => {
      const knowledgeId = request.params.knowledge_id;
      selectInstance(instance, { knowledgeId, dbId: request.query.db_id });
      return settings.sources.map(sourceEntry);
    },
  );

  const filesSchema = checked('Files of a remote content source', {
    params: sourceFilesParams,
    querystring: sourceFilesQuery,
    response: { 200: ok('Folders and files', sourceFilesSchema), ...errors('404', '422') },
  });
  checkedApp.get(
    '/knowledge/:knowledge_id/sources/:source_id/files',
    { schema: filesSchema },
    async (request) => {
      const { page, limit, ...q } = request.query;
      selectInstance(instance, { knowledgeId: request.params.knowledge_id, dbId: q.db_id });
      const source = sourceOf(request.params.source_id);
      // A URL source cannot be listed: it has no folders or files to browse (what Agno
      // answers for a non-cloud source is unclear; this is ours).
      return {
        source_id: source.id,
        source_name: source.name,
        prefix: q.prefix ?? '',
        folders: [],
        files: [],
        meta: { page, limit, total_pages: 0, total_count: 0 },
      };
    },
  );
}
