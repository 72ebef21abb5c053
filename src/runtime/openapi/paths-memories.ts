/**
 * OpenAPI paths of memories and learnings. Data only.
 */
import {
  arrayOf,
  DB_PARAMS,
  empty,
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
  USER_ID,
  type Paths,
} from './parts.js';

const MEMORY = pathParam('memory_id', 'Memory id');
const LEARNING = pathParam('learning_id', 'Learning id');
const MEMORIES = ['Memory'];
const LEARNINGS = ['Learnings'];

/** The memory routes. */
export const MEMORY_PATHS: Paths = {
  '/memories': {
    get: {
      tags: MEMORIES,
      summary: 'List memories',
      parameters: [
        USER_ID,
        query('agent_id', STRING),
        query('team_id', STRING),
        query('topics', STRING, 'Comma-separated topics'),
        query('search_content', STRING, 'Substring of the memory'),
        limit(20),
        PAGE,
        sortBy('updated_at'),
        SORT_ORDER,
        ...DB_PARAMS,
      ],
      responses: { '200': ok('Memories', paginated(ref('UserMemory'))), ...errors('404', '422') },
    },
    post: {
      tags: MEMORIES,
      summary: 'Create a memory',
      parameters: DB_PARAMS,
      requestBody: jsonBody(ref('MemoryWrite')),
      responses: { '200': ok('Created', ref('UserMemory')), ...errors('400', '404', '422') },
    },
    delete: {
      tags: MEMORIES,
      summary: 'Delete memories',
      parameters: DB_PARAMS,
      requestBody: jsonBody(ref('MemoriesDelete')),
      responses: { '204': empty('Deleted'), ...errors('404', '422') },
    },
  },
  '/memories/{memory_id}': {
    get: {
      tags: MEMORIES,
      summary: 'One memory',
      parameters: [MEMORY, USER_ID, ...DB_PARAMS],
      responses: { '200': ok('The memory', ref('UserMemory')), ...errors('404') },
    },
    patch: {
      tags: MEMORIES,
      summary: 'Replace a memory',
      parameters: [MEMORY, ...DB_PARAMS],
      requestBody: jsonBody(ref('MemoryWrite')),
      responses: { '200': ok('Updated', ref('UserMemory')), ...errors('400', '404', '422') },
    },
    delete: {
      tags: MEMORIES,
      summary: 'Delete a memory',
      parameters: [MEMORY, USER_ID, ...DB_PARAMS],
      responses: { '204': empty('Deleted') },
    },
  },
  '/memory_topics': {
    get: {
      tags: MEMORIES,
      summary: 'The topics of the memories',
      parameters: [USER_ID, ...DB_PARAMS],
      responses: { '200': ok('Topics', arrayOf(STRING)), ...errors('404') },
    },
  },
  '/user_memory_stats': {
    get: {
      tags: MEMORIES,
      summary: 'Memory counts per user',
      parameters: [limit(20), PAGE, USER_ID, ...DB_PARAMS],
      responses: {
        '200': ok('Per-user statistics', paginated(ref('UserMemoryStats'))),
        ...errors('404', '422'),
      },
    },
  },
  '/optimize-memories': {
    post: {
      tags: MEMORIES,
      summary: "Merge a user's memories into fewer",
      parameters: DB_PARAMS,
      requestBody: jsonBody(ref('OptimizeMemoriesRequest')),
      responses: {
        '200': ok('The optimized memories', ref('OptimizeMemoriesResponse')),
        ...errors('404', '422'),
      },
    },
  },
};

const LEARNING_FILTERS = [
  query('learning_type', STRING),
  USER_ID,
  query('agent_id', STRING),
  query('team_id', STRING),
  query('session_id', STRING),
  query('namespace', STRING),
  query('entity_id', STRING),
  query('entity_type', STRING),
];

/** The learning routes. */
export const LEARNING_PATHS: Paths = {
  '/learnings': {
    get: {
      tags: LEARNINGS,
      summary: 'List learnings (own and ownerless under user isolation)',
      parameters: [
        ...LEARNING_FILTERS,
        limit(100, 1000),
        PAGE,
        sortBy('updated_at'),
        SORT_ORDER,
        ...DB_PARAMS,
      ],
      responses: {
        '200': ok('Learnings', paginated(ref('Learning'))),
        ...errors('403', '404', '422'),
      },
    },
    post: {
      tags: LEARNINGS,
      summary: 'Create a learning',
      parameters: DB_PARAMS,
      requestBody: jsonBody(ref('LearningCreate')),
      responses: {
        '201': ok('Created', ref('Learning')),
        ...errors('403', '404', '409', '422'),
      },
    },
  },
  '/learnings/users': {
    get: {
      tags: LEARNINGS,
      summary: 'Users with learnings',
      parameters: [query('learning_type', STRING), USER_ID, limit(20, 1000), PAGE, ...DB_PARAMS],
      responses: {
        '200': ok('Users', paginated(ref('LearningUser'))),
        ...errors('403', '404', '422'),
      },
    },
  },
  '/learnings/users/{user_id}': {
    delete: {
      tags: LEARNINGS,
      summary: "Delete a user's learnings",
      parameters: [pathParam('user_id', 'User id'), query('learning_type', STRING), ...DB_PARAMS],
      responses: { '204': empty('Deleted'), ...errors('403', '404') },
    },
  },
  '/learnings/{learning_id}': {
    get: {
      tags: LEARNINGS,
      summary: 'One learning',
      parameters: [LEARNING, ...DB_PARAMS],
      responses: { '200': ok('The learning', ref('Learning')), ...errors('404') },
    },
    patch: {
      tags: LEARNINGS,
      summary: 'Update a learning (given fields replace)',
      parameters: [LEARNING, ...DB_PARAMS],
      requestBody: jsonBody(ref('LearningUpdate')),
      responses: { '200': ok('Updated', ref('Learning')), ...errors('403', '404', '422') },
    },
    delete: {
      tags: LEARNINGS,
      summary: 'Delete a learning',
      parameters: [LEARNING, ...DB_PARAMS],
      responses: { '204': empty('Deleted'), ...errors('403', '404') },
    },
  },
};
