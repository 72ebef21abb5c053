/**
 * The knowledge content routes: upload (text, file, URLs) and remote
 * content answered 202 and processed in the background, list, read, status, update and delete.
 * Validates and shapes HTTP; reading, fetching and ranking live in the knowledge-* modules.
 * Knowledge is not user-owned: no caller filtering. Each route declares its input and answer
 * (schemas.ts); the content list is checked by the lifecycle, the form routes read their forms
 * themselves (forms.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { KnowledgeSettings } from '../../catalogue/definitions.js';
import { isoSeconds, epochSeconds } from '../../engine/time.js';
import { HttpError, missingField } from '../../http/errors.js';
import { formString, readForm, type Form } from '../../http/forms.js';
import { CONTENT_SORTS, type ContentRecord, type KnowledgeStore } from './table.js';
import { errors, ok } from '../../http/openapi.js';
import { paginatedOf } from '../../http/openapi-shapes.js';
import { registerKnowledgeCatalogueRoutes } from './catalogue.js';
import {
  contentOptionsOf,
  objectFieldOf,
  readerIdOf,
  sourceOf,
  uploadMetadataOf,
  type SourceOfForm,
} from './forms.js';
import { createKnowledgeIndex } from './search-index.js';
import {
  knowledgeInstanceOf,
  selectInstance,
  uuidOfHash,
  type KnowledgeInstance,
} from './instance.js';
import { createKnowledgeProcessor } from './processing.js';
import {
  contentAcceptedSchema,
  contentDeletedSchema,
  contentForm,
  contentParams,
  contentSchema,
  contentStatusSchema,
  contentUpdateForm,
  FORMS,
  instanceQuery,
  KNOWLEDGE_TAGS,
  listContentQuery,
  MULTIPART,
  remoteContentForm,
  SUCCESS,
} from './schemas.js';
import { listOf, paginated } from '../../http/list-query.js';
import { sectionSchemas } from '../../http/validation.js';

/** The schemas of this file's routes (validation.ts). */
const { checked, documented } = sectionSchemas(KNOWLEDGE_TAGS);

type Query = Record<string, string | undefined>;
type OneContent = { Params: z.infer<typeof contentParams>; Querystring: Query };

/** What a restarted runtime says of a content it was still processing. */
export const INTERRUPTED = 'Processing was interrupted: the runtime stopped before it finished';

/** A stored content as {@link contentSchema} writes it. */
function contentResponse(c: ContentRecord): z.infer<typeof contentSchema> {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    type: c.type,
    size: c.size === null ? null : String(c.size),
    linked_to: null,
    metadata: c.metadata,
    access_count: null,
    status: c.status,
    status_message: c.status_message,
    created_at: isoSeconds(c.created_at * 1000),
    updated_at: isoSeconds(c.updated_at * 1000),
  };
}

/** The 202 body of an upload. */
const accepted = (c: ContentRecord) => ({
  id: c.id,
  name: c.name,
  description: c.description,
  metadata: c.metadata,
  status: c.status,
});

/**
 * Registers every `/knowledge…` route over the one instance of `settings`; its processing is
 * cancelled and awaited when the app closes. Contents left `processing` by an earlier run are
 * marked failed first.
 */
export function registerKnowledgeRoutes(
  app: FastifyInstance,
  o: {
    readonly settings: KnowledgeSettings;
    readonly store: KnowledgeStore;
    readonly dbId: string;
    readonly clock: { now(): number };
    /** The outbound-fetch guard's dispatcher, for URLs and remote sources. */
    readonly outbound: Dispatcher;
  },
): void {
  const { settings, store, clock } = o;
  const instance = knowledgeInstanceOf(settings, o.dbId);
  const now = (): number => epochSeconds(clock.now());
  // Issued now, so it runs before any request's query; awaited before the app is ready. A store
  // that cannot do it fails every request anyway, so a failure is logged and does not stop the
  // app from starting (the contents stay `processing` until the next start).
  const swept = store.failProcessing(INTERRUPTED, now()).then(
    () => undefined,
    (error: unknown) => {
      app.log.error({ err: error }, 'cannot mark interrupted knowledge contents failed');
    },
  );
  app.addHook('onReady', () => swept);
  const index = createKnowledgeIndex({
    revision: () => store.revision(instance.id),
    chunks: () => store.chunks(instance.id),
  });
  const processor = createKnowledgeProcessor({
    store,
    clock,
    outbound: o.outbound,
    limits: { maxBytes: settings.max_fetch_bytes, timeoutMs: settings.fetch_timeout_ms },
  });
  app.addHook('onClose', () => processor.close());

  const selected = (q: {
    knowledge_id?: string | undefined;
    db_id?: string | undefined;
  }): KnowledgeInstance => selectInstance(instance, { knowledgeId: q.knowledge_id, dbId: q.db_id });
  const found = async (id: string): Promise<ContentRecord> => {
    const content = await store.get(id);
    if (content === null || content.knowledge_id !== instance.id) {
      throw new HttpError(404, `Content not found: ${id}`);
    }
    return content;
  };

  /** Stores the content as `processing` and queues its processing; the 202 body. */
  async function accept(form: Form, from: SourceOfForm) {
    const options = contentOptionsOf(form);
    const name = formString(form, 'name') ?? from.defaultName;
    const description = formString(form, 'description');
    const id = uuidOfHash(JSON.stringify([instance.id, name, description, from.key]));
    const at = now();
    const content: ContentRecord = {
      id,
      knowledge_id: instance.id,
      name,
      description,
      type: from.type,
      size: null,
      metadata: uploadMetadataOf(form),
      status: 'processing',
      status_message: null,
      reader_id: options.readerId,
      chunker: options.chunker,
      chunk_size: options.chunkSize,
      chunk_overlap: options.chunkOverlap,
      origin: from.origin,
      created_at: at,
      updated_at: at,
    };
    await store.put(content);
    processor.enqueue({ contentId: id, source: from.source, ...options });
    return accepted(content);
  }

  const uploadSchema = documented(
    'Add content (text, a file or URLs); processed in the background',
    {
      querystring: instanceQuery,
      consumes: MULTIPART,
      body: contentForm,
      response: { 202: ok('Accepted', contentAcceptedSchema), ...errors('400', '404', '422') },
    },
  );
  app.post<{ Querystring: Query }>(
    '/knowledge/content',
    { schema: uploadSchema },
    async (request, reply) => {
      selected(request.query);
      const form = readForm(request);
      return reply.code(202).send(await accept(form, sourceOf(form)));
    },
  );

  const remoteSchema = documented('Add content from a configured remote source', {
    querystring: instanceQuery,
    consumes: FORMS,
    body: remoteContentForm,
    response: { 202: ok('Accepted', contentAcceptedSchema), ...errors('400', '404', '422') },
  });
  app.post<{ Querystring: Query }>(
    '/knowledge/remote-content',
    { schema: remoteSchema },
    async (request, reply) => {
      selected(request.query);
      const form = readForm(request);
      const configId = formString(form, 'config_id');
      if (configId === null) throw missingField('body', 'config_id');
      const path = formString(form, 'path');
      if (path === null) throw missingField('body', 'path');
      objectFieldOf(form, 'source_params');
      const source = settings.sources.find((s) => s.id === configId);
      if (source === undefined) {
        throw new HttpError(400, `Unknown remote content source '${configId}'`);
      }
      // The path stays below base_url: `..` or an absolute URL cannot leave the configured place.
      const base = source.base_url.endsWith('/') ? source.base_url : `${source.base_url}/`;
      const relative = path.replace(/^\/+/, '');
      const url = URL.canParse(relative, base) ? new URL(relative, base) : null;
      if (url === null || !url.href.startsWith(base)) {
        throw new HttpError(400, `path '${path}' leaves the base_url of source '${configId}'`);
      }
      return reply.code(202).send(
        await accept(form, {
          source: { kind: 'urls', urls: [url] },
          defaultName: path,
          origin: url.href,
          type: null,
          key: `remote:${configId}:${url.href}`,
        }),
      );
    },
  );

  const listSchema = checked('List content', {
    querystring: listContentQuery,
    response: { 200: ok('Content', paginatedOf(contentSchema)), ...errors('400', '404', '422') },
  });
  type List = { Querystring: z.output<typeof listContentQuery> };
  app.get<List>('/knowledge/content', { schema: listSchema }, async (request) => {
    const q = request.query;
    const { id } = selected(q);
    const { page, limit, sortBy, sortOrder } = listOf(q, CONTENT_SORTS, 'created_at');
    const { rows, total } = await store.list(id, { page, limit, sortBy, sortOrder });
    return paginated(rows.map(contentResponse), page, limit, total);
  });

  const getSchema = documented('One content entry', {
    params: contentParams,
    querystring: instanceQuery,
    response: { 200: ok('The content', contentSchema), ...errors('404') },
  });
  app.get<OneContent>('/knowledge/content/:content_id', { schema: getSchema }, async (request) => {
    selected(request.query);
    return contentResponse(await found(request.params.content_id));
  });

  const statusSchema = documented('Processing status of one content entry', {
    params: contentParams,
    querystring: instanceQuery,
    response: { 200: ok('The status', contentStatusSchema), ...errors('404') },
  });
  app.get<OneContent>(
    '/knowledge/content/:content_id/status',
    { schema: statusSchema },
    async (request) => {
      selected(request.query);
      const content = await found(request.params.content_id);
      return { id: content.id, status: content.status, status_message: content.status_message };
    },
  );

  const updateSchema = documented('Update content metadata', {
    params: contentParams,
    querystring: instanceQuery,
    consumes: FORMS,
    body: contentUpdateForm,
    response: { 200: ok('Updated', contentSchema), ...errors('400', '404', '422') },
  });
  app.patch<OneContent>(
    '/knowledge/content/:content_id',
    { schema: updateSchema },
    async (request) => {
      selected(request.query);
      const content = await found(request.params.content_id);
      const form = readForm(request);
      const metadata = objectFieldOf(form, 'metadata');
      const readerId = readerIdOf(form);
      const name = formString(form, 'name');
      const description = formString(form, 'description');
      const updated: ContentRecord = {
        ...content,
        ...(name === null ? {} : { name }),
        ...(description === null ? {} : { description }),
        ...(metadata === null ? {} : { metadata }),
        ...(readerId === null ? {} : { reader_id: readerId }),
        updated_at: now(),
      };
      await store.update(updated);
      return contentResponse(updated);
    },
  );

  const deleteSchema = documented('Delete one content entry', {
    params: contentParams,
    querystring: instanceQuery,
    response: { 200: ok('Deleted', contentDeletedSchema), ...errors('404') },
  });
  app.delete<OneContent>(
    '/knowledge/content/:content_id',
    { schema: deleteSchema },
    async (request) => {
      selected(request.query);
      const id = request.params.content_id;
      // Only this instance's content: a row of an earlier instance name is not ours to delete.
      await store.delete(instance.id, id);
      return { id };
    },
  );

  const deleteAllSchema = documented('Delete all content', {
    querystring: instanceQuery,
    response: { 200: ok('"success"', SUCCESS), ...errors('400', '404') },
  });
  app.delete<{ Querystring: Query }>(
    '/knowledge/content',
    { schema: deleteAllSchema },
    async (request, reply) => {
      const { id } = selected(request.query);
      await store.deleteAll(id);
      // A JSON string, as Agno answers (Fastify would send a bare string as text/plain).
      return reply.type('application/json').send(JSON.stringify('success'));
    },
  );

  registerKnowledgeCatalogueRoutes(app, { settings, store, instance, index });
}
