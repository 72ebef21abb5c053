/**
 * OpenAPI paths of the system routes and of AG-UI:
 * `/`, `/health`, `/info`, `/config`, `/models`, `/registry`, the migrations, `/status`, `/agui`.
 * Data only.
 */
import {
  arrayOf,
  errors,
  json,
  limit,
  ok,
  PAGE,
  paginated,
  pathParam,
  query,
  ref,
  STRING,
  type Paths,
} from './parts.js';

const TARGET_VERSION = query(
  'target_version',
  STRING,
  'Migrate to this version (the latest only); also accepted as a form field',
);

/** The system routes. */
export const CORE_PATHS: Paths = {
  '/': {
    get: {
      security: [],
      tags: ['Core'],
      summary: 'Runtime name, id and version',
      responses: { '200': ok('The runtime', ref('Root')) },
    },
  },
  '/health': {
    get: {
      security: [],
      tags: ['Core'],
      summary: 'Health check',
      responses: { '200': ok('Healthy', ref('Health')) },
    },
  },
  '/info': {
    get: {
      security: [],
      tags: ['Core'],
      summary: 'What the runtime hosts and how it authenticates',
      responses: { '200': ok('Runtime information', ref('Info')) },
    },
  },
  '/config': {
    get: {
      tags: ['Core'],
      summary: 'The runtime configuration the web UI loads first',
      responses: { '200': ok('The configuration', ref('Config')) },
    },
  },
  '/models': {
    get: {
      tags: ['Core'],
      summary: 'The models of the configured agents and teams',
      responses: { '200': ok('Unique (id, provider) pairs', arrayOf(ref('Model'))) },
    },
  },
  '/registry': {
    get: {
      tags: ['Registry'],
      summary: 'Tools, models, databases and entities the runtime knows',
      parameters: [
        query('resource_type', STRING, 'tool, model, db, agent, team, …'),
        query('name', STRING, 'Case-insensitive substring of the name'),
        PAGE,
        limit(20, 100),
      ],
      responses: {
        '200': ok('Registry entries', paginated(ref('RegistryEntry'))),
        ...errors('422', '503'),
      },
    },
  },
  '/databases/all/migrate': {
    post: {
      tags: ['Database'],
      summary: 'Migrate every database',
      parameters: [TARGET_VERSION],
      responses: {
        '200': ok('Migrated', ref('MigrateResponse')),
        '207': ok('Some databases failed', ref('MigrateResponse')),
        ...errors('400'),
      },
    },
  },
  '/databases/{db_id}/migrate': {
    post: {
      tags: ['Database'],
      summary: 'Migrate one database',
      parameters: [pathParam('db_id', 'Database id'), TARGET_VERSION],
      responses: {
        '200': ok('Migrated', ref('MigrateResponse')),
        ...errors('400', '404', '500'),
      },
    },
  },
};

/** The AG-UI interface (mounted when the runtime has an agent or team to bind it to). */
export const AGUI_PATHS: Paths = {
  '/status': {
    get: {
      tags: ['AGUI'],
      summary: 'AG-UI interface status',
      responses: { '200': ok('Available', ref('Status')) },
    },
  },
  '/agui': {
    post: {
      tags: ['AGUI'],
      summary: 'Run the bound agent or team (AG-UI)',
      description:
        'Answers 200 with AG-UI events as `text/event-stream` (`data: <JSON>` frames). Trailing tool ' +
        'messages or `resume` entries continue a paused run on the same thread.',
      requestBody: { required: true, content: json(ref('RunAgentInput')) },
      responses: {
        '200': {
          description: 'Successful Response',
          content: json({}),
        },
        '403': { $ref: '#/components/responses/Forbidden' },
        '422': {
          description: 'Validation Error',
          content: json(ref('HTTPValidationError')),
        },
      },
    },
  },
};
