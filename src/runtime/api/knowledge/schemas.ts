/**
 * The shapes of the knowledge routes: their path and query parameters, their bodies (the
 * upload, remote-content and update forms, read by forms.ts; the JSON search body, checked by
 * the lifecycle) and their answers (ContentResponseSchema and the rest), as zod
 * schemas the routes declare and the OpenAPI document is generated from. The form schemas
 * document only. Pure: never reads the store.
 */
import { z } from 'zod';
import {
  DB_QUERY,
  ISO_TIME,
  limit,
  NULLABLE_STRING,
  PAGINATION_INFO,
  pathParam,
  QUERY_STRING,
  sortedPageQuery,
} from '../../http/openapi-shapes.js';

/** The document's section of the knowledge routes. */
export const KNOWLEDGE_TAGS = ['Knowledge'] as const;

/** An upload's form encoding: multipart only (it may carry a file). */
export const MULTIPART = ['multipart/form-data'] as const;

/** The other forms' encodings. */
export const FORMS = ['multipart/form-data', 'application/x-www-form-urlencoded'] as const;

const json = z.record(z.string(), z.unknown());
const optionalString = z.string().optional();
const jsonField = z.string().optional().meta({ description: 'JSON object' });
const KNOWLEDGE_ID = z.string().meta({ description: 'Knowledge base id' });

/**
 * The database id of the knowledge routes: the knowledge base's own (another is a 404 naming the
 * knowledge base), so a schema of its own, documented as the runtime's.
 */
const KNOWLEDGE_DB_ID = z.string().optional().meta({ description: DB_QUERY.db_id.description });

/** Which knowledge base: optional while the runtime has one. */
export const instanceQuery = z.object({
  db_id: KNOWLEDGE_DB_ID,
  knowledge_id: KNOWLEDGE_ID.optional(),
});

/** The query of `GET /knowledge/content`. */
export const listContentQuery = z.object({
  ...sortedPageQuery(20, 1000, 'created_at'),
  ...instanceQuery.shape,
});

/** `/knowledge/content/{content_id}`. */
export const contentParams = pathParam('content_id', 'Content id');

/** `/knowledge/{knowledge_id}/sources`. */
export const sourcesParams = z.object({ knowledge_id: KNOWLEDGE_ID });

/** `/knowledge/{knowledge_id}/sources/{source_id}/files`. */
export const sourceFilesParams = z.object({
  knowledge_id: KNOWLEDGE_ID,
  source_id: z.string().meta({ description: 'Source id' }),
});

/** The query of `GET /knowledge/{knowledge_id}/sources`. */
export const sourcesQuery = z.object({ db_id: KNOWLEDGE_DB_ID });

/** The query of `GET /knowledge/{knowledge_id}/sources/{source_id}/files` (page 0 refused). */
export const sourceFilesQuery = z.object({
  prefix: QUERY_STRING,
  delimiter: z.string().default('/'),
  limit: limit(100, 1000),
  page: z.int().min(1).max(1_000_000).default(1).meta({ description: 'Page (1-based)' }),
  db_id: KNOWLEDGE_DB_ID,
});

/** The reading options every content form may carry. */
const readingFields = {
  reader_id: optionalString,
  chunker: optionalString,
  chunk_size: z.int().optional(),
  chunk_overlap: z.int().optional(),
};

/** `POST /knowledge/content`: text, a file or URLs. */
export const contentForm = z
  .object({
    name: optionalString,
    description: optionalString,
    url: z.string().optional().meta({ description: 'A URL or a JSON array of URLs' }),
    metadata: jsonField,
    file: z.string().optional().meta({ format: 'binary' }),
    text_content: optionalString,
    ...readingFields,
  })
  .meta({ id: 'ContentForm' });

/** `POST /knowledge/remote-content`. */
export const remoteContentForm = z
  .object({
    config_id: z.string(),
    path: z.string(),
    source_params: jsonField,
    name: optionalString,
    description: optionalString,
    metadata: jsonField,
    ...readingFields,
  })
  .meta({ id: 'RemoteContentForm' });

/** `PATCH /knowledge/content/{content_id}`: given fields replace. */
export const contentUpdateForm = z
  .object({
    name: optionalString,
    description: optionalString,
    metadata: jsonField,
    reader_id: optionalString,
  })
  .meta({ id: 'ContentUpdateForm' });

/** `POST /knowledge/search`. */
export const searchBody = z
  .object({
    query: z.string(),
    db_id: z.string().nullable().optional(),
    knowledge_id: z.string().nullable().optional(),
    vector_db_ids: z.array(z.string()).nullable().optional(),
    search_type: z.enum(['vector', 'keyword', 'hybrid']).nullable().optional(),
    max_results: z.int().min(1).max(1000).nullable().optional(),
    filters: json.nullable().optional(),
    meta: z
      .object({
        limit: z.int().min(1).max(1000).default(20),
        page: z.int().min(0).default(1),
      })
      .nullable()
      .optional(),
  })
  .meta({ id: 'KnowledgeSearchRequest' });

/** `ContentResponseSchema`. */
export const contentSchema = z
  .object({
    id: z.string(),
    name: NULLABLE_STRING,
    description: NULLABLE_STRING,
    type: NULLABLE_STRING,
    size: NULLABLE_STRING,
    linked_to: NULLABLE_STRING,
    metadata: json.nullable(),
    access_count: z.int().nullable(),
    status: z.enum(['processing', 'completed', 'failed']),
    status_message: NULLABLE_STRING,
    created_at: ISO_TIME,
    updated_at: ISO_TIME,
  })
  .meta({ id: 'Content' });

/** The 202 of an upload: the content, stored and still processing. */
export const contentAcceptedSchema = z
  .object({
    id: z.string(),
    name: NULLABLE_STRING,
    description: NULLABLE_STRING,
    metadata: json.nullable(),
    status: z.literal('processing'),
  })
  .meta({ id: 'ContentAccepted' });

/** `GET /knowledge/content/{content_id}/status`. */
export const contentStatusSchema = z
  .object({ id: z.string(), status: z.string(), status_message: NULLABLE_STRING })
  .meta({ id: 'ContentStatus' });

/** What deleting one content answers: its id, whether or not there was one. */
export const contentDeletedSchema = z.object({ id: z.string() });

/** What deleting every content answers: the JSON string `"success"`. */
export const SUCCESS = z.literal('success');

/** One ranked chunk of `POST /knowledge/search`. */
export const searchResultSchema = z
  .object({
    id: z.string(),
    content: z.string(),
    name: NULLABLE_STRING,
    meta_data: json.nullable(),
    usage: json.nullable(),
    reranking_score: z.number().nullable(),
    content_id: NULLABLE_STRING,
    content_origin: NULLABLE_STRING,
    size: z.int().nullable(),
  })
  .meta({ id: 'KnowledgeSearchResult' });

/** `GET /knowledge/config`. */
export const knowledgeConfigSchema = z
  .object({
    readers: json,
    readersForType: json,
    chunkers: json,
    filters: z.array(z.string()),
    vector_dbs: z.array(json),
    remote_content_sources: z.array(json),
  })
  .meta({ id: 'KnowledgeConfig' });

/** A configured remote source. */
export const knowledgeSourceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    metadata: json.nullable(),
    prefix: NULLABLE_STRING.optional(),
  })
  .meta({ id: 'KnowledgeSource' });

/** The folders and files of a remote source, one page of them. */
export const sourceFilesSchema = z
  .object({
    source_id: z.string(),
    source_name: z.string(),
    prefix: NULLABLE_STRING,
    // A URL source has neither: the entries' fields are named, none promised.
    folders: z.array(
      z.object({ prefix: z.string(), name: z.string(), is_empty: z.boolean() }).partial(),
    ),
    files: z.array(
      z
        .object({
          key: z.string(),
          name: z.string(),
          size: z.int(),
          last_modified: z.string(),
          content_type: NULLABLE_STRING,
        })
        .partial(),
    ),
    // The page without a search time.
    meta: PAGINATION_INFO.omit({ search_time_ms: true }),
  })
  .meta({ id: 'SourceFiles' });
