/**
 * Resolves the `runtime:` settings into runnable definitions: tools looked up, team members and
 * workflow steps resolved to their agents and teams. Reports every dangling reference; never
 * runs anything.
 */
import {
  runtimeSettingsSchema,
  type AgentDefinition,
  type Catalogue,
  type RuntimeSettings,
  type TeamDefinition,
  type ToolDefinition,
  type WorkflowDefinition,
} from './definitions.js';
import { BUILTIN_TOOLS } from './engine/tools.js';
import type { ModelTool } from './model/model.js';

/** The built-in server tools by name, described once by the engine that runs them. */
const BUILT_IN_TOOLS: ReadonlyMap<string, ModelTool> = new Map(
  BUILTIN_TOOLS.map((tool) => [tool.name, tool]),
);

/** Parses and resolves the `runtime:` section; `problems` are `key: message` lines. */
export function buildCatalogue(raw: unknown): {
  catalogue: Catalogue | null;
  settings: RuntimeSettings | null;
  problems: string[];
} {
  const parsed = runtimeSettingsSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    return {
      catalogue: null,
      settings: null,
      problems: parsed.error.issues.map((i) => `${['runtime', ...i.path].join('.')}: ${i.message}`),
    };
  }
  const settings = parsed.data;
  const problems: string[] = [];
  const agents = new Map<string, AgentDefinition>();
  settings.agents.forEach((a, i) => {
    const tools: ToolDefinition[] = [];
    a.tools.forEach((tool, j) => {
      if (typeof tool !== 'string') {
        tools.push(tool);
        return;
      }
      const builtIn = BUILT_IN_TOOLS.get(tool);
      if (builtIn !== undefined) tools.push({ ...builtIn, external_execution: false });
      else {
        const known = [...BUILT_IN_TOOLS.keys()].join(', ');
        problems.push(
          `runtime.agents.${i}.tools.${j}: unknown built-in tool "${tool}" (known: ${known})`,
        );
      }
    });
    if (agents.has(a.id)) problems.push(`runtime.agents.${i}.id: duplicate agent id "${a.id}"`);
    agents.set(
      a.id,
      Object.freeze({
        kind: 'agent',
        id: a.id,
        name: a.name,
        description: a.description ?? null,
        instructions: a.instructions ?? null,
        model: a.model,
        tools,
      }),
    );
  });
  const teams = new Map<string, TeamDefinition>();
  settings.teams.forEach((team, i) => {
    const members: AgentDefinition[] = [];
    team.members.forEach((m, j) => {
      const agent = agents.get(m);
      if (agent === undefined) problems.push(`runtime.teams.${i}.members.${j}: no agent "${m}"`);
      else members.push(agent);
    });
    if (teams.has(team.id)) problems.push(`runtime.teams.${i}.id: duplicate team id "${team.id}"`);
    teams.set(
      team.id,
      Object.freeze({
        kind: 'team',
        id: team.id,
        name: team.name,
        description: team.description ?? null,
        mode: team.mode,
        members,
      }),
    );
  });
  const workflows = new Map<string, WorkflowDefinition>();
  settings.workflows.forEach((wf, i) => {
    const steps: WorkflowDefinition['steps'][number][] = [];
    wf.steps.forEach((step, j) => {
      const executor = 'agent' in step ? agents.get(step.agent) : teams.get(step.team);
      if (executor === undefined) {
        problems.push(
          `runtime.workflows.${i}.steps.${j}: no ${'agent' in step ? `agent "${step.agent}"` : `team "${step.team}"`}`,
        );
      } else steps.push({ name: step.name, executor });
    });
    if (workflows.has(wf.id))
      problems.push(`runtime.workflows.${i}.id: duplicate workflow id "${wf.id}"`);
    workflows.set(
      wf.id,
      Object.freeze({
        kind: 'workflow',
        id: wf.id,
        name: wf.name,
        description: wf.description ?? null,
        steps,
      }),
    );
  });
  const agui = aguiEntityOf(settings, agents, teams, problems);
  if (problems.length > 0) return { catalogue: null, settings, problems };
  return { catalogue: Object.freeze({ agents, teams, workflows, agui }), settings, problems };
}

/** The entity behind `POST /agui`: the one `agui` names, else the first agent, else none. */
function aguiEntityOf(
  settings: RuntimeSettings,
  agents: ReadonlyMap<string, AgentDefinition>,
  teams: ReadonlyMap<string, TeamDefinition>,
  problems: string[],
): AgentDefinition | TeamDefinition | null {
  const binding = settings.agui;
  if (binding === undefined) return agents.values().next().value ?? null;
  const entity = 'agent' in binding ? agents.get(binding.agent) : teams.get(binding.team);
  if (entity === undefined) {
    problems.push(
      'agent' in binding
        ? `runtime.agui.agent: no agent "${binding.agent}"`
        : `runtime.agui.team: no team "${binding.team}"`,
    );
    return null;
  }
  return entity;
}
