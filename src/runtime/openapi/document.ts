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
import type { Json, PathItem, Paths } from './parts.js';
import { AGUI_SCHEMAS } from './schemas-agui.js';
import { CORE_SCHEMAS } from './schemas-core.js';

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

const HAND_WRITTEN_SCHEMAS: Readonly<Record<string, Json>> = {
  ...AGUI_SCHEMAS,
  ...CORE_SCHEMAS,
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
  // The generated paths keep the place their hand-written ones had: a section taken by its tag
  // where it stood, the others after the components (REST).
  const section = sectionTaker(generated.paths);
  const groups = [
    CORE_PATHS,
    CATALOGUE_PATHS,
    section('Sessions'),
    section('Components'),
    REST,
    section('Knowledge'),
    section('Metrics'),
    section('Evals'),
    section('Traces'),
    section('Schedules'),
    section('Approvals'),
    options.agui ? AGUI_PATHS : {},
    a2aPaths(options.a2aPrefix),
  ].map((group) => (group === REST ? section.rest() : group));
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const path of groups.flatMap((group) => Object.keys(group))) {
    if (seen.has(path) && path in generated.paths) twice.push(path);
    seen.add(path);
  }
  twice.push(...Object.keys(generated.schemas).filter((name) => name in HAND_WRITTEN_SCHEMAS));
  if (twice.length > 0) throw new Error(`documented twice: ${twice.join(', ')}`);
  const paths: Paths = Object.assign({}, ...groups) as Paths;
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
