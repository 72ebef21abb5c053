/**
 * The runtime's OpenAPI 3.1.0 document: the paths and schemas generated from the routes' own
 * zod schemas (http/openapi.ts) merged with the hand-written path modules of the sections not
 * converted yet, the shared error responses, operation ids for all. Built once when the app is
 * ready; the A2A paths sit under the configured prefix. No I/O.
 */
import { ERROR_RESPONSES, type GeneratedDocument } from '../http/openapi.js';
import { AGNO_VERSION } from '../routes/system.js';
import { a2aPaths } from './paths-a2a.js';
import { CATALOGUE_PATHS } from './paths-catalogue.js';
import { AGUI_PATHS, CORE_PATHS } from './paths-core.js';
import { EVAL_PATHS, METRICS_PATHS, TRACE_PATHS } from './paths-metrics.js';
import { COMPONENT_PATHS, SESSION_PATHS } from './paths-sessions.js';
import type { Json, PathItem, Paths } from './parts.js';
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

/** The document's title. */
export const TITLE = 'Agno AgentOS';

const DESCRIPTION =
  'The scopegate agent runtime: agents, teams and workflows with their runs, sessions, ' +
  'memories, learnings, knowledge, metrics, evals, traces, schedules and approvals, plus the ' +
  'AG-UI and A2A interfaces (Agno AgentOS 2.7.2 compatible). Every route except /, /health, ' +
  '/info and the documentation pages is reached through the scopegate gateway with a bearer ' +
  'token carrying the scope the route requires.';

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

const HAND_WRITTEN_SCHEMAS: Readonly<Record<string, Json>> = {
  ...AGUI_SCHEMAS,
  ...CORE_SCHEMAS,
  ...DATA_SCHEMAS,
};

/**
 * Builds the document for one runtime from what its routes generated.
 *
 * @throws {Error} when a generated path or schema is also written by hand
 */
export function buildOpenApiDocument(
  options: OpenApiOptions,
  generated: GeneratedDocument,
): OpenApiDocument {
  // The generated sections keep the place their hand-written paths had: after the components.
  const before: Paths = { ...CORE_PATHS, ...CATALOGUE_PATHS, ...SESSION_PATHS, ...COMPONENT_PATHS };
  const after: Paths = {
    ...METRICS_PATHS,
    ...EVAL_PATHS,
    ...TRACE_PATHS,
    ...(options.agui ? AGUI_PATHS : {}),
    ...a2aPaths(options.a2aPrefix),
  };
  const twice = [
    ...Object.keys(generated.paths).filter((path) => path in before || path in after),
    ...Object.keys(generated.schemas).filter((name) => name in HAND_WRITTEN_SCHEMAS),
  ];
  if (twice.length > 0) throw new Error(`documented twice: ${twice.join(', ')}`);
  const paths: Paths = { ...before, ...generated.paths, ...after };
  return {
    openapi: '3.1.0',
    info: { title: TITLE, description: DESCRIPTION, version: AGNO_VERSION },
    paths: withOperationIds(paths),
    components: {
      schemas: { ...HAND_WRITTEN_SCHEMAS, ...generated.schemas },
      responses: ERROR_RESPONSES,
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
