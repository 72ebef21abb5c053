/**
 * Components: agents, teams and workflows defined through the API with
 * numbered config versions, and `POST/PATCH/DELETE /agents|teams|workflows` as aliases of them.
 * Every write goes through the live catalogue, which refuses a config that does not
 * resolve. Each `/components` route declares its document part (schemas.ts). Never
 * runs anything; never checks scopes.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { configInUse, type LiveCatalogue } from '../../catalogue/live.js';
import type {
  ComponentConfigRecord,
  ComponentRecord,
  ComponentStore,
  ComponentType,
} from './table.js';

import { familyDocs } from '../entities/schemas.js';
import { paginated } from '../../http/list-query.js';
import { empty, errors, ok } from '../../http/openapi.js';
import { paginatedOf, presentFieldsOf } from '../../http/openapi-shapes.js';
import {
  COMPONENT_ID,
  COMPONENT_TAGS,
  COMPONENT_TYPES,
  componentConfigSchema,
  componentParams,
  componentSchema,
  configParams,
  configsQuery,
  createComponentBody,
  createConfigBody,
  listComponentsQuery,
  updateComponentBody,
  updateComponentFields,
  updateConfigBody,
} from './schemas.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';

/** The schemas of this file's routes (validation.ts). */
const { checked, documented } = sectionSchemas(COMPONENT_TAGS);

const LABELS: Readonly<Record<ComponentType, string>> = {
  agent: 'Agent',
  team: 'Team',
  workflow: 'Workflow',
};

/** A `component_id` from a name: lower-cased, spaces and underscores as `-`. */
export function componentIdOf(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

/** `ComponentResponse` (nulls dropped, *xnull*). */
const componentResponse = (c: ComponentRecord) => presentFieldsOf(componentSchema, c);

/** `ComponentConfigResponse` without `config`, as a listing not asking for it answers. */
const CONFIG_WITHOUT_BODY = componentConfigSchema.omit({ config: true });

/** `ComponentConfigResponse` (nulls dropped); without `config` when not asked for. */
const configResponse = (c: ComponentConfigRecord, withConfig = true) =>
  presentFieldsOf(withConfig ? componentConfigSchema : CONFIG_WITHOUT_BODY, c);

/** Version `version` of component `id` as a create body gives it, written at `at`. */
function configOf(
  id: string,
  version: number,
  body: z.output<typeof createComponentBody> | z.output<typeof createConfigBody>,
  at: number,
): ComponentConfigRecord {
  return {
    component_id: id,
    version,
    label: body.label ?? null,
    stage: body.stage,
    config: body.config ?? {},
    notes: body.notes ?? null,
    created_at: at,
    updated_at: at,
  };
}

/** Registers `/components…` and the `POST/PATCH/DELETE /agents|teams|workflows` aliases. */
export function registerComponentRoutes(
  parent: FastifyInstance,
  live: LiveCatalogue,
  store: ComponentStore,
  clock: { now(): number },
): void {
  const app = parent.withTypeProvider<CheckedTypes>();
  const now = (): number => Math.floor(clock.now() / 1000);
  const found = async (id: string): Promise<ComponentRecord> => {
    const component = await store.get(id);
    if (component === null) throw new HttpError(404, `Component ${id} not found`);
    return component;
  };
  /** 409 for an entity the configuration defines: only stored components are written here. */
  const refuseConfigured = (type: ComponentType, id: string): void => {
    if (live.isConfigured(type, id)) {
      throw new HttpError(
        409,
        `${LABELS[type]} '${id}' is defined in configuration and is read-only`,
      );
    }
  };

  /** Creates a component with its version 1 config. */
  async function create(body: z.output<typeof createComponentBody>): Promise<ComponentRecord> {
    const id = body.component_id ?? componentIdOf(body.name);
    if (!COMPONENT_ID.test(id)) throw new HttpError(400, `Invalid component id '${id}'`);
    refuseConfigured(body.component_type, id);
    if ((await store.get(id)) !== null) {
      throw new HttpError(400, `Component ${id} already exists`);
    }
    const at = now();
    const component: ComponentRecord = {
      component_id: id,
      component_type: body.component_type,
      name: body.name,
      description: body.description ?? null,
      current_version: body.set_current || body.stage === 'published' ? 1 : null,
      metadata: body.metadata ?? null,
      created_at: at,
      updated_at: at,
    };
    await live.change(async (tables) => {
      await tables.put(component);
      await tables.putConfig(configOf(id, 1, body, at));
    });
    return component;
  }

  /** Adds a config version (max + 1 unless given); current when asked or published. */
  async function addConfig(
    component: ComponentRecord,
    body: z.output<typeof createConfigBody>,
  ): Promise<ComponentConfigRecord> {
    const id = component.component_id;
    const existing = await store.configs(id);
    const version = body.version ?? (existing.at(-1)?.version ?? 0) + 1;
    if (existing.some((c) => c.version === version)) {
      throw new HttpError(400, `Config ${id} v${version} already exists`);
    }
    if (body.label != null && existing.some((c) => c.label === body.label)) {
      throw new HttpError(400, `Label '${body.label}' is already used by ${id}`);
    }
    const at = now();
    const config = configOf(id, version, body, at);
    const current = body.set_current || body.stage === 'published';
    await live.change(async (tables) => {
      await tables.putConfig(config);
      if (current) await tables.put({ ...component, current_version: version, updated_at: at });
    });
    return config;
  }

  /** Applies a ComponentUpdate. */
  async function update(
    component: ComponentRecord,
    body: z.output<typeof updateComponentFields>,
  ): Promise<ComponentRecord> {
    const id = component.component_id;
    if (body.current_version != null && (await store.config(id, body.current_version)) === null) {
      throw new HttpError(400, `Config ${id} v${body.current_version} not found`);
    }
    // The parsed body holds only the fields given: those replace.
    const { config, ...fields } = body;
    const next: ComponentRecord = { ...component, ...fields, updated_at: now() };
    await live.change((tables) => tables.put(next));
    if (config === undefined) return next;
    await addConfig(next, { config, stage: 'draft', set_current: true });
    return found(id);
  }

  const listSchema = checked('List components', {
    querystring: listComponentsQuery,
    response: { 200: ok('Components', paginatedOf(componentSchema)), ...errors('422') },
  });
  app.get('/components', { schema: listSchema }, async (request) => {
    const { component_type: type, page, limit } = request.query;
    const { rows, total } = await store.list(type ?? null, page, limit);
    return paginated(rows.map(componentResponse), page, limit, total);
  });

  const createSchema = checked('Create a component (and its version 1 config)', {
    body: createComponentBody,
    response: { 201: ok('Created', componentSchema), ...errors('400', '422') },
  });
  app.post('/components', { schema: createSchema }, async (request, reply) => {
    const component = await create(request.body);
    return reply.code(201).send(componentResponse(component));
  });

  const getSchema = checked('One component', {
    params: componentParams,
    response: { 200: ok('The component', componentSchema), ...errors('404') },
  });
  app.get('/components/:component_id', { schema: getSchema }, async (request) =>
    componentResponse(await found(request.params.component_id)),
  );

  const updateSchema = checked('Update a component', {
    params: componentParams,
    body: updateComponentBody,
    response: { 200: ok('Updated', componentSchema), ...errors('400', '404', '422') },
  });
  app.patch('/components/:component_id', { schema: updateSchema }, async (request) =>
    componentResponse(await update(await found(request.params.component_id), request.body)),
  );

  const deleteSchema = checked('Delete a component', {
    params: componentParams,
    response: { 204: empty('Deleted'), ...errors('404') },
  });
  app.delete('/components/:component_id', { schema: deleteSchema }, async (request, reply) => {
    const component = await found(request.params.component_id);
    await live.change((tables) => tables.delete(component.component_id));
    return reply.code(204).send();
  });

  const configsSchema = documented("A component's config versions", {
    params: componentParams,
    querystring: configsQuery,
    response: { 200: ok('Configs', z.array(componentConfigSchema)), ...errors('404') },
  });
  // Documented only: `include_config` is read as sent (anything but `false` includes).
  parent.get<{ Params: z.infer<typeof componentParams>; Querystring: { include_config?: string } }>(
    '/components/:component_id/configs',
    { schema: configsSchema },
    async (request) => {
      const component = await found(request.params.component_id);
      const withConfig = request.query.include_config !== 'false';
      return (await store.configs(component.component_id)).map((c) =>
        configResponse(c, withConfig),
      );
    },
  );

  const addConfigSchema = checked('Add a config version', {
    params: componentParams,
    body: createConfigBody,
    response: { 201: ok('Created', componentConfigSchema), ...errors('400', '422') },
  });
  app.post(
    '/components/:component_id/configs',
    { schema: addConfigSchema },
    async (request, reply) => {
      const id = request.params.component_id;
      const component = await store.get(id);
      if (component === null) throw new HttpError(400, `Component ${id} not found`);
      const config = await addConfig(component, request.body);
      return reply.code(201).send(configResponse(config));
    },
  );

  const currentSchema = checked('The current config (else the latest draft)', {
    params: componentParams,
    response: { 200: ok('The config', componentConfigSchema), ...errors('404') },
  });
  app.get(
    '/components/:component_id/configs/current',
    { schema: currentSchema },
    async (request) => {
      const component = await found(request.params.component_id);
      const config = await configInUse(store, component);
      if (config === null)
        throw new HttpError(404, `No current config for ${component.component_id}`);
      return configResponse(config);
    },
  );

  /** The config `version` of `cid` (an integer path segment), or 404. */
  const versionOf = async (cid: string, raw: string): Promise<ComponentConfigRecord> => {
    const version = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    const config = Number.isNaN(version) ? null : await store.config(cid, version);
    if (config === null) throw new HttpError(404, `Config ${cid} v${raw} not found`);
    return config;
  };

  const versionSchema = checked('One config version', {
    params: configParams,
    response: { 200: ok('The config', componentConfigSchema), ...errors('404') },
  });
  app.get(
    '/components/:component_id/configs/:version',
    { schema: versionSchema },
    async (request) => {
      await found(request.params.component_id);
      return configResponse(await versionOf(request.params.component_id, request.params.version));
    },
  );

  const updateConfigSchema = checked('Update a draft config version', {
    params: configParams,
    body: updateConfigBody,
    response: { 200: ok('Updated', componentConfigSchema), ...errors('400', '404', '422') },
  });
  app.patch(
    '/components/:component_id/configs/:version',
    { schema: updateConfigSchema },
    async (request) => {
      const component = await found(request.params.component_id);
      const config = await versionOf(component.component_id, request.params.version);
      if (config.stage === 'published') {
        throw new HttpError(
          400,
          `Cannot update published config ${component.component_id} v${config.version}`,
        );
      }
      // The fields given replace; `links` is accepted and not kept.
      const { links: _, ...fields } = request.body;
      const next: ComponentConfigRecord = { ...config, ...fields, updated_at: now() };
      await live.change(async (tables) => {
        await tables.putConfig(next);
        // Publishing a version makes it the current one.
        if (next.stage === 'published') {
          await tables.put({
            ...component,
            current_version: next.version,
            updated_at: next.updated_at,
          });
        }
      });
      return configResponse(next);
    },
  );

  const deleteConfigSchema = checked('Delete a config version (not the current one)', {
    params: configParams,
    response: { 204: empty('Deleted'), ...errors('400', '404') },
  });
  app.delete(
    '/components/:component_id/configs/:version',
    { schema: deleteConfigSchema },
    async (request, reply) => {
      const component = await found(request.params.component_id);
      const config = await versionOf(component.component_id, request.params.version);
      if (component.current_version === config.version) {
        throw new HttpError(
          400,
          `Cannot delete current config ${component.component_id} v${config.version}`,
        );
      }
      await live.change((tables) => tables.deleteConfig(component.component_id, config.version));
      return reply.code(204).send();
    },
  );

  const setCurrentSchema = checked('Make a published version current', {
    params: configParams,
    response: { 200: ok('The component', componentSchema), ...errors('404') },
  });
  app.post(
    '/components/:component_id/configs/:version/set-current',
    { schema: setCurrentSchema },
    async (request) => {
      const { component_id: cid, version } = request.params;
      const component = await store.get(cid);
      const config = component === null ? null : await store.config(cid, Number(version));
      if (component === null || config === null || config.stage !== 'published') {
        throw new HttpError(404, `Component ${cid} or config version ${version} not found`);
      }
      const next = { ...component, current_version: config.version, updated_at: now() };
      await live.change((tables) => tables.put(next));
      return componentResponse(next);
    },
  );

  // The aliases: the family's component with its type fixed (ours).
  for (const type of COMPONENT_TYPES) {
    const path = `/${type}s`;
    const guard = async (id: string): Promise<ComponentRecord> => {
      refuseConfigured(type, id);
      const component = await store.get(id);
      if (component === null || component.component_type !== type) {
        throw new HttpError(404, `${LABELS[type]} not found`);
      }
      return component;
    };
    // Documented with the family's catalogue routes (familyDocs, in entities/schemas.ts).
    const docs = familyDocs({ path: `${type}s`, param: `${type}_id` });
    const one = `${path}/:${type}_id`;
    app.post(path, { schema: docs.create }, async (request, reply) => {
      const component = await create({ ...request.body, component_type: type });
      return reply.code(201).send(componentResponse(component));
    });
    app.patch(one, { schema: docs.update }, async (request) => {
      const component = await guard(request.params[`${type}_id`] as string);
      return componentResponse(await update(component, request.body));
    });
    app.delete(one, { schema: docs.delete }, async (request, reply) => {
      const component = await guard(request.params[`${type}_id`] as string);
      await live.change((tables) => tables.delete(component.component_id));
      return reply.code(204).send();
    });
  }
}
