/**
 * The runtime's OpenAPI 3.1.0 document: every route of every
 * path module, the AG-UI input schemas and those of the records, the shared error responses. Built
 * once when the app is built; the A2A paths sit under the configured prefix. No I/O.
 */
import { AGNO_VERSION } from '../routes/system.js';
import { a2aPaths } from './paths-a2a.js';
import { CATALOGUE_PATHS } from './paths-catalogue.js';
import { AGUI_PATHS, CORE_PATHS } from './paths-core.js';
import { KNOWLEDGE_PATHS } from './paths-knowledge.js';
import { LEARNING_PATHS, MEMORY_PATHS } from './paths-memories.js';
import { EVAL_PATHS, METRICS_PATHS, TRACE_PATHS } from './paths-metrics.js';
import { APPROVAL_PATHS, SCHEDULE_PATHS } from './paths-schedules.js';
import { COMPONENT_PATHS, SESSION_PATHS } from './paths-sessions.js';
import { json, ref, type Json, type PathItem, type Paths } from './parts.js';
import { AGUI_SCHEMAS } from './schemas-agui.js';
import { CORE_SCHEMAS } from './schemas-core.js';
import { DATA_SCHEMAS } from './schemas-data.js';

/** The document's own routes; they describe no API and stay out of it, as in FastAPI. */
export const DOCS_ROUTES = Object.freeze([
  '/openapi.json',
  '/docs',
  '/redoc',
  '/docs/oauth2-redirect',
] as const);

/** What the document depends on. */
export interface OpenApiOptions {
  /** The A2A path prefix (`a2a_prefix`), e.g. `/a2a`. */
  readonly a2aPrefix: string;
  /** Whether AG-UI (`/agui`, `/status`) is mounted. */
  readonly agui: boolean;
}

/** An OpenAPI document. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly description: string; readonly version: string };
  readonly paths: Paths;
  readonly components: Json;
  readonly security: readonly Json[];
}

const DESCRIPTION =
  'The scopegate agent runtime: agents, teams and workflows with their runs, sessions, ' +
  'memories, learnings, knowledge, metrics, evals, traces, schedules and approvals, plus the ' +
  'AG-UI and A2A interfaces (Agno AgentOS 2.7.2 compatible). Every route except /, /health, ' +
  '/info and the documentation pages is reached through the scopegate gateway with a bearer ' +
  'token carrying the scope the route requires.';

/** A `{detail}` error response. */
const detailError = (description: string): Json => ({
  description,
  content: json(ref('ErrorDetail')),
});

const RESPONSES: Json = {
  BadRequest: detailError('Bad request'),
  Forbidden: detailError('Forbidden'),
  NotFound: detailError('Not found'),
  Conflict: detailError('Conflict'),
  ValidationFailed: {
    description: 'Validation error (a FastAPI error list, or a string detail on some routes)',
    content: json({ anyOf: [ref('HTTPValidationError'), ref('ErrorDetail')] }),
  },
  ServerError: detailError('Internal error'),
  Unavailable: detailError('Feature not available'),
};

/** Operation ids from method and path (`get_agents_agent_id`); `/` is `root`. */
function withOperationIds(paths: Paths): Paths {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]): [string, PathItem] => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, op]) => [
          method,
          {
            ...op,
            operationId: `${method}_${path.replace(/\W+/g, '_').replace(/^_|_$/g, '') || 'root'}`,
          },
        ]),
      ),
    ]),
  );
}

/** Builds the document for one runtime. */
export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const paths: Paths = {
    ...CORE_PATHS,
    ...CATALOGUE_PATHS,
    ...SESSION_PATHS,
    ...COMPONENT_PATHS,
    ...MEMORY_PATHS,
    ...LEARNING_PATHS,
    ...KNOWLEDGE_PATHS,
    ...METRICS_PATHS,
    ...EVAL_PATHS,
    ...TRACE_PATHS,
    ...SCHEDULE_PATHS,
    ...APPROVAL_PATHS,
    ...(options.agui ? AGUI_PATHS : {}),
    ...a2aPaths(options.a2aPrefix),
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Agno AgentOS', description: DESCRIPTION, version: AGNO_VERSION },
    paths: withOperationIds(paths),
    components: {
      schemas: { ...AGUI_SCHEMAS, ...CORE_SCHEMAS, ...DATA_SCHEMAS },
      responses: RESPONSES,
      securitySchemes: {
        HTTPBearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A JWT, service-account token or security key, checked by the gateway',
        },
      },
    },
    security: [{ HTTPBearer: [] }],
  };
}
