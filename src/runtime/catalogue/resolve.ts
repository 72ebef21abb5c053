/**
 * Resolves agent, team and workflow entries into runnable definitions: tools looked up, team
 * members and workflow steps resolved to their agents and teams. The entries come from the
 * `runtime:` settings and from components stored through the API. Reports every dangling
 * reference, naming where the entry came from; never runs anything.
 */
import {
  runtimeSettingsSchema,
  type AgentDefinition,
  type AgentSettings,
  type Catalogue,
  type ModelRef,
  type ModelSettings,
  type RuntimeSettings,
  type TeamDefinition,
  type TeamSettings,
  type ToolDefinition,
  type WorkflowDefinition,
  type WorkflowSettings,
} from './definitions.js';
import { BUILTIN_TOOLS } from '../engine/tools.js';
import type { ModelTool } from '../model/model.js';
import { OFFLINE_MODEL_ID, OFFLINE_PROVIDER } from '../model/offline.js';

const OFFLINE_REF: ModelRef = Object.freeze({ id: OFFLINE_MODEL_ID, provider: OFFLINE_PROVIDER });

/** The built-in server tools by name, described once by the engine that runs them. */
const BUILT_IN_TOOLS: ReadonlyMap<string, ModelTool> = new Map(
  BUILTIN_TOOLS.map((tool) => [tool.name, tool]),
);

/** An entry and where it came from (`runtime.agents.0`, `component "x" v2`), for problems. */
export interface Sourced<T> {
  readonly entry: T;
  readonly where: string;
}

/** Every entry to resolve, of each kind, in order; later ids must not repeat earlier ones. */
export interface EntitySources {
  /** The configured models (`runtime.models`) agents may name, by id. */
  readonly models: ReadonlyMap<string, ModelSettings>;
  readonly agents: readonly Sourced<AgentSettings>[];
  readonly teams: readonly Sourced<TeamSettings>[];
  readonly workflows: readonly Sourced<WorkflowSettings>[];
}

/**
 * Resolves `sources` into a catalogue; each problem is a `where.key: message` line. A team or
 * workflow with a dangling reference is still listed (without the missing part) only when there
 * are no problems at all, so callers refuse the whole set whenever `problems` is not empty.
 */
export function resolveEntities(sources: EntitySources): {
  catalogue: Omit<Catalogue, 'agui'>;
  problems: string[];
} {
  const problems: string[] = [];
  /** Lists `entry` resolved (id, name, description, then `rest`); a repeated id is a problem. */
  const add = <T extends AgentDefinition | TeamDefinition | WorkflowDefinition>(
    map: Map<string, T>,
    { entry, where }: Sourced<{ id: string; name: string; description?: string | undefined }>,
    kind: T['kind'],
    rest: Omit<T, 'kind' | 'id' | 'name' | 'description'>,
  ): void => {
    const { id, name, description = null } = entry;
    if (map.has(id)) problems.push(`${where}.id: duplicate ${kind} id "${id}"`);
    map.set(id, Object.freeze({ kind, id, name, description, ...rest } as T));
  };
  const agents = new Map<string, AgentDefinition>();
  for (const source of sources.agents) {
    const { entry: a, where } = source;
    const model = resolveModelRef(a.model, sources.models);
    if (typeof model === 'string') problems.push(`${where}.model: agent "${a.id}" ${model}`);
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
        problems.push(`${where}.tools.${j}: unknown built-in tool "${tool}" (known: ${known})`);
      }
    });
    add(agents, source, 'agent', {
      instructions: a.instructions ?? null,
      model: typeof model === 'string' ? OFFLINE_REF : model,
      tools,
    });
  }
  const teams = new Map<string, TeamDefinition>();
  for (const source of sources.teams) {
    const { entry: team, where } = source;
    const members: AgentDefinition[] = [];
    team.members.forEach((m, j) => {
      const agent = agents.get(m);
      if (agent === undefined) problems.push(`${where}.members.${j}: no agent "${m}"`);
      else members.push(agent);
    });
    add(teams, source, 'team', { mode: team.mode, members });
  }
  const workflows = new Map<string, WorkflowDefinition>();
  for (const source of sources.workflows) {
    const { entry: wf, where } = source;
    const steps: WorkflowDefinition['steps'][number][] = [];
    wf.steps.forEach((step, j) => {
      const executor = 'agent' in step ? agents.get(step.agent) : teams.get(step.team);
      if (executor === undefined) {
        const missing = 'agent' in step ? `agent "${step.agent}"` : `team "${step.team}"`;
        problems.push(`${where}.steps.${j}: no ${missing}`);
      } else steps.push({ name: step.name, executor });
    });
    add(workflows, source, 'workflow', { steps });
  }
  return { catalogue: { agents, teams, workflows }, problems };
}

/**
 * The entries of the `runtime:` settings, each named by its key path, and its models; `problems`
 * receives what is wrong with the models.
 */
export function settingsSources(settings: RuntimeSettings, problems: string[]): EntitySources {
  const sourced = <T>(kind: string, entries: readonly T[]): Sourced<T>[] =>
    entries.map((entry, i) => ({ entry, where: `runtime.${kind}.${i}` }));
  const models = new Map<string, ModelSettings>();
  settings.models.forEach((m, i) => {
    if (m.id === OFFLINE_MODEL_ID) {
      problems.push(`runtime.models.${i}.id: "${m.id}" is the built-in offline model`);
    } else if (models.has(m.id)) {
      problems.push(`runtime.models.${i}.id: duplicate model id "${m.id}"`);
    } else models.set(m.id, Object.freeze({ ...m, headers: Object.freeze({ ...m.headers }) }));
  });
  return {
    models,
    agents: sourced('agents', settings.agents),
    teams: sourced('teams', settings.teams),
    workflows: sourced('workflows', settings.workflows),
  };
}

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
  const resolved = resolveEntities(settingsSources(settings, problems));
  problems.push(...resolved.problems);
  const { agents, teams } = resolved.catalogue;
  const agui = aguiEntityOf(settings, agents, teams, problems);
  if (problems.length > 0) return { catalogue: null, settings, problems };
  return { catalogue: Object.freeze({ ...resolved.catalogue, agui }), settings, problems };
}

/**
 * An agent's `model` as a reference: absent or `offline-echo` is the offline model, as is any id
 * with provider `offline`; anything else must name a `runtime.models` entry (of that provider,
 * when one is given). A string is the problem, to follow `agent "<id>" `.
 */
function resolveModelRef(
  model: AgentSettings['model'],
  models: ReadonlyMap<string, ModelSettings>,
): ModelRef | string {
  const { id, provider } =
    typeof model === 'string'
      ? { id: model, provider: undefined }
      : (model ?? { id: OFFLINE_MODEL_ID });
  if (provider === OFFLINE_PROVIDER) return Object.freeze({ id, provider });
  if (id === OFFLINE_MODEL_ID && provider === undefined) return OFFLINE_REF;
  const settings = models.get(id);
  if (settings === undefined || (provider !== undefined && provider !== settings.provider)) {
    const known = [OFFLINE_MODEL_ID, ...models.keys()].join(', ');
    const of = provider === undefined ? '' : ` of provider "${provider}"`;
    return `names unknown model "${id}"${of} (known: ${known})`;
  }
  return Object.freeze({ id: settings.model, provider: settings.provider, settings });
}

/** The entity behind `POST /agui`: the one `agui` names, else the first agent, else none. */
export function aguiEntityOf(
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
