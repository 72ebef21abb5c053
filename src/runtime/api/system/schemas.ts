/**
 * The document part of the system routes (`/`, `/health`, `/info`, `/config`, `/models`,
 * `/registry`, the migrations), as zod schemas; the registry's query is checked by the lifecycle,
 * the migrations read `target_version` themselves (a query or a form field). Pure data.
 */
import { z } from 'zod';
import { errors, ok } from '../../http/openapi.js';
import { ISO_TIME, limit, paginatedOf } from '../../http/openapi-shapes.js';
import { sectionSchemas } from '../../http/validation.js';

const STRING = z.string().optional();
const OBJECT = z.record(z.string(), z.unknown());
const NULLABLE = z.string().nullable().optional();

const ROOT = z
  .object({ name: z.string(), id: z.string(), version: z.string() })
  .meta({ id: 'Root' });

const HEALTH = z
  .object({ status: z.literal('ok'), instantiated_at: ISO_TIME })
  .meta({ id: 'Health' });

const INFO = z
  .object({
    os_id: z.string(),
    name: NULLABLE,
    agno_version: z.string(),
    agent_count: z.int(),
    team_count: z.int(),
    workflow_count: z.int(),
    mcp: z
      .object({ enabled: z.boolean().optional(), path: NULLABLE, oauth: z.unknown().optional() })
      .optional(),
    auth_mode: z.enum(['none', 'security_key', 'jwt']),
  })
  .meta({ id: 'Info' });

const DOMAIN_CONFIG = z
  .object({
    dbs: z
      .array(
        z.object({
          db_id: STRING,
          domain_config: z.object({ display_name: STRING }).optional(),
          tables: z.array(z.string()).optional(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'DomainConfig' });

const CONFIG = z
  .object({
    os_id: z.string(),
    description: STRING,
    available_models: z.array(z.string()).optional(),
    os_database: STRING,
    databases: z.array(z.string()),
    session: DOMAIN_CONFIG.optional(),
    memory: DOMAIN_CONFIG.optional(),
    learning: DOMAIN_CONFIG.optional(),
    metrics: DOMAIN_CONFIG.optional(),
    evals: DOMAIN_CONFIG.optional(),
    traces: DOMAIN_CONFIG.optional(),
    knowledge: OBJECT.optional(),
    agents: z.array(OBJECT).optional(),
    teams: z.array(OBJECT).optional(),
    workflows: z.array(OBJECT).optional(),
    interfaces: z
      .array(z.object({ type: z.enum(['agui', 'a2a']).optional(), version: STRING, route: STRING }))
      .optional(),
  })
  .meta({ id: 'Config' });

const MODEL = z.object({ id: z.string(), provider: z.string() }).meta({ id: 'Model' });

const REGISTRY_ENTRY = z
  .object({
    name: z.string(),
    type: z.string(),
    id: STRING,
    description: STRING,
    metadata: OBJECT.optional(),
  })
  .meta({ id: 'RegistryEntry' });

const MIGRATE_RESPONSE = z
  .object({ message: z.string(), failed: OBJECT.optional() })
  .meta({ id: 'MigrateResponse' });

const core = sectionSchemas(['Core']);
const database = sectionSchemas(['Database']);
const registry = sectionSchemas(['Registry']);

/** `target_version`, from the query (or, as the Python SDK sends it, a form field). */
const MIGRATE_QUERY = z.object({
  target_version: z.string().optional().meta({
    description: 'Migrate to this version (the latest only); also accepted as a form field',
  }),
});

/** The query of `GET /registry`. */
export const registryQuery = z.object({
  resource_type: z.string().optional().meta({ description: 'tool, model, db, agent, team, …' }),
  name: z.string().optional().meta({ description: 'Case-insensitive substring of the name' }),
  page: z.int().min(1).default(1).meta({ description: 'Page (1-based)' }),
  limit: limit(20, 100),
});

/** The system routes' schemas, by route. */
export const SYSTEM_DOCS = {
  root: core.documented('Runtime name, id and version', {
    security: [],
    response: { 200: ok('The runtime', ROOT) },
  }),
  health: core.documented('Health check', {
    security: [],
    response: { 200: ok('Healthy', HEALTH) },
  }),
  info: core.documented('What the runtime hosts and how it authenticates', {
    security: [],
    response: { 200: ok('Runtime information', INFO) },
  }),
  config: core.documented('The runtime configuration the web UI loads first', {
    response: { 200: ok('The configuration', CONFIG) },
  }),
  models: core.documented('The models of the configured agents and teams', {
    response: { 200: ok('Unique (id, provider) pairs', z.array(MODEL)) },
  }),
  registry: registry.checked('Tools, models, databases and entities the runtime knows', {
    querystring: registryQuery,
    response: {
      200: ok('Registry entries', paginatedOf(REGISTRY_ENTRY)),
      ...errors('422', '503'),
    },
  }),
  migrateAll: database.documented('Migrate every database', {
    querystring: MIGRATE_QUERY,
    response: {
      200: ok('Migrated', MIGRATE_RESPONSE),
      207: ok('Some databases failed', MIGRATE_RESPONSE),
      ...errors('400'),
    },
  }),
  migrateOne: database.documented('Migrate one database', {
    params: z.object({ db_id: z.string().meta({ description: 'Database id' }) }),
    querystring: MIGRATE_QUERY,
    response: { 200: ok('Migrated', MIGRATE_RESPONSE), ...errors('400', '404', '500') },
  }),
};
