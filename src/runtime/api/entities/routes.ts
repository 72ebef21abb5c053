/**
 * `GET /agents|teams|workflows[/{agent_id|team_id|workflow_id}]`: the hosted entities, listings
 * filtered by the gateway's `accessible_resource_ids`. Reads the catalogue; never runs anything.
 * The routes' document part is in schemas.ts (familyDocs).
 */
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../http/caller.js';
import type {
  AgentDefinition,
  Catalogue,
  TeamDefinition,
  WorkflowDefinition,
} from '../../catalogue/definitions.js';
import { HttpError } from '../../http/errors.js';
import type { LiveCatalogue } from '../../catalogue/live.js';
import { OPENAI_COMPATIBLE_NAME } from '../../model/openai-compatible.js';
import { familyDocs, FAMILY_NAMES } from './schemas.js';

/** The fields every entity's public shape starts with (nulls dropped, as Agno's *xnull* routes do). */
const headOf = (entity: AgentDefinition | TeamDefinition | WorkflowDefinition, dbId: string) => ({
  id: entity.id,
  name: entity.name,
  db_id: dbId,
  ...(entity.description === null ? {} : { description: entity.description }),
  is_factory: false,
  is_component: false,
});

/** The public shape of an agent. */
function agentResponse(agent: AgentDefinition, dbId: string): Record<string, unknown> {
  return {
    ...headOf(agent, dbId),
    model: {
      name: agent.model.settings === undefined ? 'OfflineModel' : OPENAI_COMPATIBLE_NAME,
      model: agent.model.id,
      provider: agent.model.provider,
    },
    ...(agent.tools.length === 0
      ? {}
      : {
          tools: {
            tools: agent.tools.map((t) => ({
              name: t.name,
              description: t.description,
              parameters: t.parameters,
              ...(t.external_execution ? { external_execution: true } : {}),
            })),
          },
        }),
    ...(agent.instructions === null
      ? {}
      : { system_message: { instructions: agent.instructions } }),
  };
}

function teamResponse(team: TeamDefinition, dbId: string): Record<string, unknown> {
  return {
    ...headOf(team, dbId),
    mode: team.mode,
    members: team.members.map((m) => agentResponse(m, dbId)),
  };
}

function workflowResponse(workflow: WorkflowDefinition, dbId: string): Record<string, unknown> {
  return {
    ...headOf(workflow, dbId),
    workflow_agent: false,
    steps: workflow.steps.map((s) => ({
      name: s.name,
      step_type: 'step',
      [s.executor.kind]: s.executor.id,
    })),
  };
}

/** Registers the catalogue routes; `live` says which entries are stored components. */
export function registerCatalogueRoutes(
  app: FastifyInstance,
  catalogue: Catalogue,
  dbId: string,
  live: Pick<LiveCatalogue, 'componentOf'>,
): void {
  const families = [
    { label: 'Agent', items: catalogue.agents, render: agentResponse },
    { label: 'Team', items: catalogue.teams, render: teamResponse },
    { label: 'Workflow', items: catalogue.workflows, render: workflowResponse },
  ] as const;
  for (const [index, name] of FAMILY_NAMES.entries()) {
    const family = { ...families[index]!, ...name };
    const docs = familyDocs(name);
    const type = family.path.slice(0, -1) as 'agent' | 'team' | 'workflow';
    const base = family.render as (item: unknown, db: string) => Record<string, unknown>;
    // A stored component says so, with the version and stage it runs in.
    const render = (item: unknown, db: string): Record<string, unknown> => {
      const out = base(item, db);
      const use = live.componentOf(type, out['id'] as string);
      return use === null
        ? out
        : {
            ...out,
            is_component: true,
            current_version: use.config.version,
            stage: use.config.stage,
          };
    };
    app.get(`/${family.path}`, { schema: docs.list }, async (request) => {
      const allowed = callerOf(request).accessibleResourceIds;
      const all = [...(family.items as ReadonlyMap<string, unknown>).entries()];
      // A filtered listing returns what the caller may see, possibly nothing.
      return all
        .filter(([id]) => allowed === null || allowed.includes(id))
        .map(([, item]) => render(item, dbId));
    });
    const one = `/${family.path}/:${family.param}`;
    app.get<{ Params: Record<string, string> }>(one, { schema: docs.one }, async (request) => {
      const item = (family.items as ReadonlyMap<string, unknown>).get(
        request.params[family.param] as string,
      );
      if (item === undefined) throw new HttpError(404, `${family.label} not found`);
      return render(item, dbId);
    });
  }
}
