/**
 * The runtime's own description: `GET /`, `GET /health`, `GET /info`, `GET /config`,
 * `GET /models`, `GET /registry`, and the database migrations. Reads the settings, the live
 * catalogue and the store; never runs anything and never checks scopes (`/config` is never
 * filtered). Each route declares its document part (schemas.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type {
  AgentDefinition,
  Catalogue,
  ModelRef,
  RuntimeSettings,
  TeamDefinition,
} from '../../catalogue/definitions.js';
import { BUILTIN_TOOLS } from '../../engine/tools.js';
import { HttpError } from '../../http/errors.js';
import { MIGRATIONS } from '../../store/migrations.js';
import type { RuntimeStore } from '../../store/store.js';
import { KNOWLEDGE_TABLE, knowledgeInstanceOf } from '../knowledge/instance.js';
import { paginated } from '../../http/list-query.js';
import { AGNO_VERSION } from '../../http/openapi-document.js';
import { registryQuery, SYSTEM_DOCS } from './schemas.js';

/** The tables each data domain lives in, as `/config` names them. */
const DOMAINS = {
  session: 'agno_sessions',
  memory: 'agno_memories',
  learning: 'agno_learnings',
  metrics: 'agno_metrics',
  evals: 'agno_eval_runs',
  traces: 'agno_traces',
} as const;

type RegistryEntry = {
  readonly name: string;
  readonly type: string;
  readonly id?: string;
  readonly description?: string;
  readonly metadata?: Record<string, unknown>;
};

/** What `/config` lists of an entity or instance: `id`, `name`, `description` (*xnull*), `db_id`. */
const entryOf = (
  e: { readonly id: string; readonly name: string; readonly description: string | null },
  dbId: string,
) => ({
  id: e.id,
  name: e.name,
  ...(e.description === null ? {} : { description: e.description }),
  db_id: dbId,
});

const modelOf = (ref: ModelRef) => ({ id: ref.id, provider: ref.provider });

/** The unique (id, provider) pairs of the configured agents' and teams' models. */
function modelsOf(catalogue: Catalogue): { id: string; provider: string }[] {
  const seen = new Map<string, { id: string; provider: string }>();
  const add = (agent: AgentDefinition): void => {
    seen.set(`${agent.model.provider}\u0000${agent.model.id}`, modelOf(agent.model));
  };
  for (const agent of catalogue.agents.values()) add(agent);
  for (const team of catalogue.teams.values()) team.members.forEach(add);
  return [...seen.values()];
}

/** Registers the system routes. */
export function registerSystemRoutes(
  app: FastifyInstance,
  o: {
    readonly settings: RuntimeSettings;
    readonly catalogue: Catalogue;
    readonly store: RuntimeStore;
    readonly dbId: string;
    /** When the runtime started (`/health` answers it). */
    readonly startedAt: Date;
  },
): void {
  const { settings, catalogue, store, dbId } = o;

  app.get('/', { schema: SYSTEM_DOCS.root }, async () => ({
    name: 'AgentOS API',
    id: settings.os_id,
    version: '1.0.0',
  }));
  // The one route without an identity check (see identity-check.ts): a probe, no data.
  app.get('/health', { schema: SYSTEM_DOCS.health }, async () => ({
    status: 'ok',
    instantiated_at: o.startedAt.toISOString(),
  }));

  app.get('/info', { schema: SYSTEM_DOCS.info }, async () => ({
    os_id: settings.os_id,
    name: settings.name,
    agno_version: AGNO_VERSION,
    agent_count: settings.agents.length,
    team_count: settings.teams.length,
    workflow_count: settings.workflows.length,
    mcp: { enabled: false, path: null, oauth: null },
    auth_mode: settings.auth_mode,
  }));

  app.get('/config', { schema: SYSTEM_DOCS.config }, async () => {
    const domain = (table: string) => ({
      dbs: [{ db_id: dbId, domain_config: { display_name: dbId }, tables: [table] }],
    });
    // A team has at least one member (the settings schema says so); the leader runs on its model.
    const teamModel = (team: TeamDefinition) => (team.members[0] as AgentDefinition).model;
    const knowledge = knowledgeInstanceOf(settings.knowledge, dbId);
    return {
      os_id: settings.os_id,
      ...(settings.name === null ? {} : { description: settings.name }),
      available_models: modelsOf(catalogue).map((m) => m.id),
      os_database: dbId,
      databases: [dbId],
      ...Object.fromEntries(Object.entries(DOMAINS).map(([name, table]) => [name, domain(table)])),
      knowledge: {
        ...domain(KNOWLEDGE_TABLE),
        knowledge_instances: [{ ...entryOf(knowledge, knowledge.db_id), table: knowledge.table }],
      },
      agents: [...catalogue.agents.values()].map((a) => ({
        ...entryOf(a, dbId),
        model: modelOf(a.model),
      })),
      teams: [...catalogue.teams.values()].map((team) => ({
        ...entryOf(team, dbId),
        mode: team.mode,
        model: modelOf(teamModel(team)),
      })),
      workflows: [...catalogue.workflows.values()].map((w) => ({
        ...entryOf(w, dbId),
        is_factory: false,
        is_component: !settings.workflows.some((s) => s.id === w.id),
      })),
      interfaces: [
        ...(catalogue.agui === null ? [] : [{ type: 'agui', version: '1.0', route: '' }]),
        { type: 'a2a', version: '1.0', route: settings.a2a_prefix },
      ],
    };
  });

  app.get('/models', { schema: SYSTEM_DOCS.models }, async () => modelsOf(catalogue));

  app.get<{ Querystring: z.output<typeof registryQuery> }>(
    '/registry',
    { schema: SYSTEM_DOCS.registry },
    async (request) => {
      const { page, limit, ...q } = request.query;
      const entries: RegistryEntry[] = [
        ...BUILTIN_TOOLS.map((tool) => ({
          name: tool.name,
          type: 'tool',
          description: tool.description,
          metadata: { is_toolkit: false, parameters: tool.parameters },
        })),
        ...modelsOf(catalogue).map((m) => ({
          name: m.id,
          type: 'model',
          id: m.id,
          metadata: { provider: m.provider, model_id: m.id },
        })),
        { name: dbId, type: 'db', id: dbId, metadata: { engine: 'sqlite' } },
        ...[...catalogue.agents.values()].map((a) => ({ name: a.name, type: 'agent', id: a.id })),
        ...[...catalogue.teams.values()].map((team) => ({
          name: team.name,
          type: 'team',
          id: team.id,
        })),
      ];
      const name = q.name?.toLowerCase();
      const matching = entries.filter(
        (e) =>
          (q.resource_type === undefined || e.type === q.resource_type) &&
          (name === undefined || e.name.toLowerCase().includes(name)),
      );
      return paginated(
        matching.slice((page - 1) * limit, page * limit),
        page,
        limit,
        matching.length,
      );
    },
  );

  /** Migrates to the latest version; a `target_version` other than it is refused (ours). */
  const migrate = async (target: string | undefined): Promise<string> => {
    const latest = MIGRATIONS.length;
    if (target !== undefined && target !== '' && target !== String(latest)) {
      throw new HttpError(
        400,
        `Unsupported target_version '${target}': this runtime migrates to version ${latest} only`,
      );
    }
    await store.migrate();
    return target === undefined || target === '' ? 'latest version' : `version ${target}`;
  };
  /** `target_version` from the query or, as the Python SDK sends it, a form field. */
  const targetOf = (request: { query: unknown; body: unknown }): string | undefined => {
    const query = (request.query as Record<string, string | undefined>)['target_version'];
    const body = request.body as Record<string, unknown> | null | undefined;
    const field = body?.['target_version'];
    return query ?? (typeof field === 'string' ? field : undefined);
  };

  app.post('/databases/all/migrate', { schema: SYSTEM_DOCS.migrateAll }, async (request) => ({
    message: `All databases migrated successfully to ${await migrate(targetOf(request))}`,
  }));
  app.post<{ Params: { db_id: string } }>(
    '/databases/:db_id/migrate',
    { schema: SYSTEM_DOCS.migrateOne },
    async (request) => {
      if (request.params.db_id !== dbId) {
        throw new HttpError(404, `No database found with id '${request.params.db_id}'`);
      }
      return { message: `Database migrated successfully to ${await migrate(targetOf(request))}` };
    },
  );
}
