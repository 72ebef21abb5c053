/**
 * OpenAPI paths of knowledge: content upload and remote content, listing,
 * status, update and delete, search, the reader/chunker config, and sources. Data only.
 */
import {
  arrayOf,
  DB_ID,
  errors,
  jsonBody,
  limit,
  ok,
  PAGE,
  paginated,
  pathParam,
  query,
  ref,
  SORT_ORDER,
  sortBy,
  STRING,
  type Json,
  type Paths,
} from './parts.js';

const TAGS = ['Knowledge'];
const CONTENT = pathParam('content_id', 'Content id');
/** Which knowledge base: optional while the runtime has one. */
const INSTANCE: readonly Json[] = [DB_ID, query('knowledge_id', STRING, 'Knowledge base id')];
const form = (schema: Json, types: readonly string[]): Json => ({
  required: true,
  content: Object.fromEntries(types.map((type) => [type, { schema }])),
});
const MULTIPART = ['multipart/form-data'];
const FORMS = ['multipart/form-data', 'application/x-www-form-urlencoded'];

/** The knowledge routes. */
export const KNOWLEDGE_PATHS: Paths = {
  '/knowledge/content': {
    get: {
      tags: TAGS,
      summary: 'List content',
      parameters: [limit(20), PAGE, sortBy('created_at'), SORT_ORDER, ...INSTANCE],
      responses: {
        '200': ok('Content', paginated(ref('Content'))),
        ...errors('400', '404', '422'),
      },
    },
    post: {
      tags: TAGS,
      summary: 'Add content (text, a file or URLs); processed in the background',
      parameters: INSTANCE,
      requestBody: form(ref('ContentForm'), MULTIPART),
      responses: {
        '202': ok('Accepted', ref('ContentAccepted')),
        ...errors('400', '404', '422'),
      },
    },
    delete: {
      tags: TAGS,
      summary: 'Delete all content',
      parameters: INSTANCE,
      responses: { '200': ok('"success"', { const: 'success' }), ...errors('400', '404') },
    },
  },
  '/knowledge/remote-content': {
    post: {
      tags: TAGS,
      summary: 'Add content from a configured remote source',
      parameters: INSTANCE,
      requestBody: form(ref('RemoteContentForm'), FORMS),
      responses: {
        '202': ok('Accepted', ref('ContentAccepted')),
        ...errors('400', '404', '422'),
      },
    },
  },
  '/knowledge/content/{content_id}': {
    get: {
      tags: TAGS,
      summary: 'One content entry',
      parameters: [CONTENT, ...INSTANCE],
      responses: { '200': ok('The content', ref('Content')), ...errors('404') },
    },
    patch: {
      tags: TAGS,
      summary: 'Update content metadata',
      parameters: [CONTENT, ...INSTANCE],
      requestBody: form(ref('ContentUpdateForm'), FORMS),
      responses: { '200': ok('Updated', ref('Content')), ...errors('400', '404', '422') },
    },
    delete: {
      tags: TAGS,
      summary: 'Delete one content entry',
      parameters: [CONTENT, ...INSTANCE],
      responses: {
        '200': ok('Deleted', { type: 'object', properties: { id: STRING } }),
        ...errors('404'),
      },
    },
  },
  '/knowledge/content/{content_id}/status': {
    get: {
      tags: TAGS,
      summary: 'Processing status of one content entry',
      parameters: [CONTENT, ...INSTANCE],
      responses: { '200': ok('The status', ref('ContentStatus')), ...errors('404') },
    },
  },
  '/knowledge/search': {
    post: {
      tags: TAGS,
      summary: 'Search the knowledge base (ranked)',
      requestBody: jsonBody(ref('KnowledgeSearchRequest')),
      responses: {
        '200': ok('Ranked results', paginated(ref('KnowledgeSearchResult'))),
        ...errors('400', '404', '422'),
      },
    },
  },
  '/knowledge/config': {
    get: {
      tags: TAGS,
      summary: 'Readers, chunkers, filters and vector stores',
      parameters: INSTANCE,
      responses: { '200': ok('The configuration', ref('KnowledgeConfig')), ...errors('404') },
    },
  },
  '/knowledge/{knowledge_id}/sources': {
    get: {
      tags: TAGS,
      summary: 'Remote content sources of a knowledge base',
      parameters: [pathParam('knowledge_id', 'Knowledge base id'), DB_ID],
      responses: { '200': ok('Sources', arrayOf(ref('KnowledgeSource'))), ...errors('404') },
    },
  },
  '/knowledge/{knowledge_id}/sources/{source_id}/files': {
    get: {
      tags: TAGS,
      summary: 'Files of a remote content source',
      parameters: [
        pathParam('knowledge_id', 'Knowledge base id'),
        pathParam('source_id', 'Source id'),
        query('prefix', STRING),
        query('delimiter', { type: 'string', default: '/' }),
        limit(100, 1000),
        PAGE,
      ],
      responses: { '200': ok('Folders and files', ref('SourceFiles')), ...errors('404', '422') },
    },
  },
};
