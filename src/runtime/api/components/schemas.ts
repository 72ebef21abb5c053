/**
 * The shapes of the component routes as zod schemas the routes declare and the OpenAPI document
 * is generated from: their path and query parameters, their JSON bodies (checked with these very
 * schemas, unknown fields refused) and their answers (`ComponentResponse`,
 * `ComponentConfigResponse`, null fields left out). Pure data.
 */
import { z } from 'zod';
import { EPOCH, limit, pathParam } from '../../http/openapi-shapes.js';

/** The document's section of the component routes. */
export const COMPONENT_TAGS = ['Components'] as const;

/** The kinds of component. */
export const COMPONENT_TYPES = ['agent', 'team', 'workflow'] as const;

/** A component id: 1–63 of `A-Z a-z 0-9 _ . -`, not starting with `_ . -`. */
export const COMPONENT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

const json = z.record(z.string(), z.unknown());
const STAGE = z.enum(['draft', 'published']);

/** `/components/{component_id}`. */
export const componentParams = pathParam('component_id', 'Component id');

/** `/components/{component_id}/configs/{version}`. */
export const configParams = componentParams.extend({
  version: z.string().meta({ description: 'Config version (an integer)' }),
});

/** The query of `GET /components`. */
export const listComponentsQuery = z.object({
  component_type: z.enum(COMPONENT_TYPES).optional(),
  page: z.int().min(1).default(1).meta({ description: 'Page (1-based)' }),
  limit: limit(20, 100),
});

/** The query of `GET /components/{component_id}/configs`. */
export const configsQuery = z.object({ include_config: z.boolean().default(true) });

/** `POST /components`. */
export const createComponentBody = z
  .strictObject({
    name: z.string().min(1).max(255),
    component_id: z
      .string()
      .regex(COMPONENT_ID, 'ids are 1–63 of A-Z a-z 0-9 _ . - (not starting with _ . -)')
      .optional(),
    component_type: z.enum(COMPONENT_TYPES),
    description: z.string().nullable().optional(),
    metadata: json.nullable().optional(),
    config: json.optional(),
    label: z.string().nullable().optional(),
    stage: STAGE.default('draft'),
    notes: z.string().nullable().optional(),
    set_current: z.boolean().default(true),
  })
  .meta({ id: 'ComponentCreate' });

/** What a component update may carry: `PATCH /components/{component_id}` takes all but `config`. */
export const updateComponentFields = z.strictObject({
  name: z.string().min(1).max(255).optional(),
  description: z.string().nullable().optional(),
  component_type: z.enum(COMPONENT_TYPES).optional(),
  metadata: json.nullable().optional(),
  current_version: z.int().min(1).nullable().optional(),
  /** (ours, on the /agents|teams|workflows aliases) a new config version, made current. */
  config: json.optional(),
});

/** `PATCH /components/{component_id}`. */
export const updateComponentBody = updateComponentFields
  .omit({ config: true })
  .meta({ id: 'ComponentUpdate' });

/** `POST /components/{component_id}/configs`. */
export const createConfigBody = z
  .strictObject({
    config: json,
    version: z.int().min(1).optional(),
    label: z.string().nullable().optional(),
    stage: STAGE.default('draft'),
    notes: z.string().nullable().optional(),
    links: z.array(json).optional(),
    set_current: z.boolean().default(true),
  })
  .meta({ id: 'ConfigCreate' });

/** `PATCH /components/{component_id}/configs/{version}`. */
export const updateConfigBody = z
  .strictObject({
    config: json.optional(),
    label: z.string().nullable().optional(),
    stage: STAGE.optional(),
    notes: z.string().nullable().optional(),
    links: z.array(json).optional(),
  })
  .meta({ id: 'ConfigUpdate' });

/** `ComponentResponse`. */
export const componentSchema = z
  .object({
    component_id: z.string(),
    component_type: z.enum(COMPONENT_TYPES),
    name: z.string(),
    description: z.string().optional(),
    current_version: z.int().optional(),
    metadata: json.optional(),
    created_at: EPOCH,
    updated_at: EPOCH,
  })
  .meta({ id: 'ComponentResponse' });

/** `ComponentConfigResponse` (`config` left out when not asked for). */
export const componentConfigSchema = z
  .object({
    component_id: z.string(),
    version: z.int(),
    label: z.string().optional(),
    stage: STAGE,
    config: json.optional(),
    notes: z.string().optional(),
    created_at: EPOCH,
    updated_at: EPOCH,
  })
  .meta({ id: 'ComponentConfigResponse' });
