/**
 * The runtime's OpenAPI 3.1.0 document: the paths and schemas generated from the routes' own
 * zod schemas (http/openapi.ts), section by section in a fixed order, the shared error
 * responses, operation ids for all. Built once when the app is ready (the A2A paths sit under
 * the configured prefix, as their routes do). No I/O.
 */
import { ERROR_RESPONSES, type GeneratedDocument, type Json } from './openapi.js';

/** The operations of one path, by lower-case HTTP method. */
export type PathItem = Readonly<Record<string, Json>>;

/** Paths by OpenAPI path template (`/agents/{agent_id}`). */
export type Paths = Readonly<Record<string, PathItem>>;

/** The document's own routes; they describe no API and stay out of it, as in FastAPI. */
export const DOCS_ROUTES = Object.freeze([
  '/openapi.json',
  '/docs',
  '/redoc',
  '/docs/oauth2-redirect',
] as const);

/** An OpenAPI document. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly description: string; readonly version: string };
  readonly paths: Paths;
  readonly components: Json;
  readonly security: readonly Json[];
}

/** The Agno version whose API the runtime serves (the document's version, `/info`'s `agno_version`). */
export const AGNO_VERSION = '2.7.2';

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

/** Where the generated paths no section took go. */
const REST: Paths = Object.freeze({});

/** Takes generated paths out by their operations' tag; `rest` gives those none took. */
interface SectionTaker {
  (tag: string): Paths;
  rest(): Paths;
}

/** A {@link SectionTaker} over `generated`: each path taken once, in registration order. */
function sectionTaker(generated: Paths): SectionTaker {
  const taken = new Set<string>();
  const pick = (keep: (path: string, item: PathItem) => boolean): Paths =>
    Object.fromEntries(
      Object.entries(generated).filter(([path, item]) => {
        if (taken.has(path) || !keep(path, item)) return false;
        taken.add(path);
        return true;
      }),
    );
  const take = (tag: string): Paths =>
    pick((_, item) =>
      Object.values(item).some((op) => (op['tags'] as readonly string[]).includes(tag)),
    );
  return Object.assign(take, { rest: () => pick(() => true) });
}

/** Builds the document for one runtime from what its routes generated. */
export function buildOpenApiDocument(generated: GeneratedDocument): OpenApiDocument {
  // The sections in the document's order, each taken by its tag, whatever order the routes
  // registered in; the paths no section took (memories, learnings) after the components (REST).
  const section = sectionTaker(generated.paths);
  const groups = [
    section('Core'),
    section('Registry'),
    section('Database'),
    section('Agents'),
    section('Teams'),
    section('Workflows'),
    section('Sessions'),
    section('Components'),
    REST,
    section('Knowledge'),
    section('Metrics'),
    section('Evals'),
    section('Traces'),
    section('Schedules'),
    section('Approvals'),
    // AG-UI's paths when its routes are mounted; A2A's under the prefix they were registered with.
    section('AGUI'),
    section('A2A'),
  ].map((group) => (group === REST ? section.rest() : group));
  const paths: Paths = Object.assign({}, ...groups) as Paths;
  return {
    openapi: '3.1.0',
    info: { title: TITLE, description: DESCRIPTION, version: AGNO_VERSION },
    paths: withOperationIds(paths),
    components: {
      schemas: generated.schemas,
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
