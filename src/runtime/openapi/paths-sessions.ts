/**
 * OpenAPI paths of sessions and components. Data only.
 */
import {
  arrayOf,
  DB_ID,
  DB_PARAMS,
  empty,
  errors,
  INTEGER,
  jsonBody,
  limit,
  ok,
  optionalJsonBody,
  PAGE,
  paginated,
  pathParam,
  query,
  ref,
  SORT_ORDER,
  sortBy,
  STRING,
  USER_ID,
  type Paths,
} from './parts.js';

const TYPE = query('type', { type: 'string', enum: ['agent', 'team', 'workflow'] }, 'Session kind');
const SESSION = pathParam('session_id', 'Session id');
const CID = pathParam('component_id', 'Component id');
const VERSION = pathParam('version', 'Config version (an integer)');
const SESSIONS = ['Sessions'];
const COMPONENTS = ['Components'];
const RUN_TIMES = [
  query('created_after', INTEGER, 'Epoch seconds'),
  query('created_before', INTEGER, 'Epoch seconds'),
];

/** The session routes. */
export const SESSION_PATHS: Paths = {
  '/sessions': {
    get: {
      tags: SESSIONS,
      summary: 'List sessions',
      parameters: [
        TYPE,
        query('component_id', STRING),
        USER_ID,
        query('session_name', STRING, 'Substring of the name'),
        limit(20),
        PAGE,
        sortBy('created_at'),
        SORT_ORDER,
        ...DB_PARAMS,
      ],
      responses: {
        '200': ok('Sessions', paginated(ref('SessionSchema'))),
        ...errors('404', '422'),
      },
    },
    post: {
      tags: SESSIONS,
      summary: 'Create a session',
      parameters: [TYPE, DB_ID],
      requestBody: optionalJsonBody(ref('SessionCreate')),
      responses: { '201': ok('Created', ref('SessionDetail')), ...errors('400', '404', '422') },
    },
    delete: {
      tags: SESSIONS,
      summary: 'Delete sessions',
      parameters: [USER_ID, ...DB_PARAMS],
      requestBody: jsonBody(ref('SessionsDelete')),
      responses: { '204': empty('Deleted'), ...errors('400', '422') },
    },
  },
  '/sessions/{session_id}': {
    get: {
      tags: SESSIONS,
      summary: 'One session',
      parameters: [SESSION, TYPE, USER_ID, ...DB_PARAMS],
      responses: { '200': ok('The session', ref('SessionDetail')), ...errors('404', '422') },
    },
    patch: {
      tags: SESSIONS,
      summary: 'Update a session (given fields replace)',
      parameters: [SESSION, TYPE, USER_ID, ...DB_PARAMS],
      requestBody: jsonBody(ref('SessionUpdate')),
      responses: { '200': ok('Updated', ref('SessionDetail')), ...errors('404', '422') },
    },
    delete: {
      tags: SESSIONS,
      summary: 'Delete a session',
      parameters: [SESSION, USER_ID, ...DB_PARAMS],
      responses: { '204': empty('Deleted (also when unknown)') },
    },
  },
  '/sessions/{session_id}/rename': {
    post: {
      tags: SESSIONS,
      summary: 'Rename a session',
      parameters: [SESSION, TYPE, USER_ID, ...DB_PARAMS],
      requestBody: jsonBody(ref('SessionRename')),
      responses: { '200': ok('Renamed', ref('SessionDetail')), ...errors('404', '422') },
    },
  },
  '/sessions/{session_id}/runs': {
    get: {
      tags: SESSIONS,
      summary: "A session's runs",
      parameters: [SESSION, TYPE, USER_ID, ...RUN_TIMES, ...DB_PARAMS],
      responses: { '200': ok('Runs', arrayOf(ref('RunSchema'))), ...errors('404', '422') },
    },
  },
  '/sessions/{session_id}/runs/{run_id}': {
    get: {
      tags: SESSIONS,
      summary: 'One run of a session',
      parameters: [SESSION, pathParam('run_id', 'Run id'), TYPE, USER_ID, ...DB_PARAMS],
      responses: { '200': ok('The run', ref('RunSchema')), ...errors('404', '422') },
    },
  },
};

/** The component routes. */
export const COMPONENT_PATHS: Paths = {
  '/components': {
    get: {
      tags: COMPONENTS,
      summary: 'List components',
      parameters: [
        query('component_type', { type: 'string', enum: ['agent', 'team', 'workflow'] }),
        PAGE,
        limit(20, 100),
      ],
      responses: {
        '200': ok('Components', paginated(ref('ComponentResponse'))),
        ...errors('422'),
      },
    },
    post: {
      tags: COMPONENTS,
      summary: 'Create a component (and its version 1 config)',
      requestBody: jsonBody(ref('ComponentCreate')),
      responses: { '201': ok('Created', ref('ComponentResponse')), ...errors('400', '422') },
    },
  },
  '/components/{component_id}': {
    get: {
      tags: COMPONENTS,
      summary: 'One component',
      parameters: [CID],
      responses: { '200': ok('The component', ref('ComponentResponse')), ...errors('404') },
    },
    patch: {
      tags: COMPONENTS,
      summary: 'Update a component',
      parameters: [CID],
      requestBody: jsonBody(ref('ComponentUpdate')),
      responses: {
        '200': ok('Updated', ref('ComponentResponse')),
        ...errors('400', '404', '422'),
      },
    },
    delete: {
      tags: COMPONENTS,
      summary: 'Delete a component',
      parameters: [CID],
      responses: { '204': empty('Deleted'), ...errors('404') },
    },
  },
  '/components/{component_id}/configs': {
    get: {
      tags: COMPONENTS,
      summary: "A component's config versions",
      parameters: [CID, query('include_config', { type: 'boolean', default: true })],
      responses: {
        '200': ok('Configs', arrayOf(ref('ComponentConfigResponse'))),
        ...errors('404'),
      },
    },
    post: {
      tags: COMPONENTS,
      summary: 'Add a config version',
      parameters: [CID],
      requestBody: jsonBody(ref('ConfigCreate')),
      responses: {
        '201': ok('Created', ref('ComponentConfigResponse')),
        ...errors('400', '422'),
      },
    },
  },
  '/components/{component_id}/configs/current': {
    get: {
      tags: COMPONENTS,
      summary: 'The current config (else the latest draft)',
      parameters: [CID],
      responses: { '200': ok('The config', ref('ComponentConfigResponse')), ...errors('404') },
    },
  },
  '/components/{component_id}/configs/{version}': {
    get: {
      tags: COMPONENTS,
      summary: 'One config version',
      parameters: [CID, VERSION],
      responses: { '200': ok('The config', ref('ComponentConfigResponse')), ...errors('404') },
    },
    patch: {
      tags: COMPONENTS,
      summary: 'Update a draft config version',
      parameters: [CID, VERSION],
      requestBody: jsonBody(ref('ConfigUpdate')),
      responses: {
        '200': ok('Updated', ref('ComponentConfigResponse')),
        ...errors('400', '404', '422'),
      },
    },
    delete: {
      tags: COMPONENTS,
      summary: 'Delete a config version (not the current one)',
      parameters: [CID, VERSION],
      responses: { '204': empty('Deleted'), ...errors('400', '404') },
    },
  },
  '/components/{component_id}/configs/{version}/set-current': {
    post: {
      tags: COMPONENTS,
      summary: 'Make a published version current',
      parameters: [CID, VERSION],
      responses: { '200': ok('The component', ref('ComponentResponse')), ...errors('404') },
    },
  },
};
