/**
 * The catalogue the routes serve: the agents, teams and workflows of the `runtime:` settings
 * (read-only) plus the components stored through the API, each in the config version in use.
 * Every change to the components goes through {@link LiveCatalogue.change}, which re-resolves
 * the whole set and refuses a change that would leave a dangling reference. Never runs anything.
 */
import {
  aguiEntityOf,
  resolveEntities,
  settingsSources,
  type EntitySources,
  type Sourced,
} from './resolve.js';
import {
  agentSchema,
  teamSchema,
  workflowSchema,
  type AgentDefinition,
  type AgentSettings,
  type Catalogue,
  type RuntimeSettings,
  type TeamDefinition,
  type TeamSettings,
  type WorkflowDefinition,
  type WorkflowSettings,
} from './definitions.js';
import { HttpError } from '../http/errors.js';
import type {
  ComponentConfigRecord,
  ComponentRecord,
  ComponentStore,
  ComponentTables,
  ComponentType,
} from '../api/components/table.js';

/** A component and the config version the catalogue runs it with. */
export interface ComponentInUse {
  readonly component: ComponentRecord;
  readonly config: ComponentConfigRecord;
}

/** The live catalogue. */
export interface LiveCatalogue {
  /** Updated in place after every change: hold on to it, not to its entries. */
  readonly catalogue: Catalogue;
  /** Whether `id` is defined in the configuration file (and so read-only) for that kind. */
  isConfigured(type: ComponentType, id: string): boolean;
  /** The stored component behind a listed entity; null for a configured one or an unknown id. */
  componentOf(type: ComponentType, id: string): ComponentInUse | null;
  /**
   * Reads the stored components and resolves them (once; again after a failed read). Every
   * request waits for it, so the catalogue is complete before any route reads it.
   */
  load(): Promise<void>;
  /**
   * Runs `fn` (writes to the component tables it is given) in one transaction, then re-resolves.
   * A change that leaves a reference dangling or a config that does not parse is rolled back.
   *
   * @throws {HttpError} 400 naming every new problem
   */
  change<T>(fn: (components: ComponentTables) => Promise<T>): Promise<T>;
  /** Stored components left out because they do not resolve (at start, or broken since). */
  readonly skipped: readonly string[];
}

const SCHEMAS = { agent: agentSchema, team: teamSchema, workflow: workflowSchema } as const;

/** The config version a component runs with: the current one, else its latest. */
export async function configInUse(
  components: ComponentTables,
  component: ComponentRecord,
): Promise<ComponentConfigRecord | null> {
  const { component_id: id, current_version: current } = component;
  return (
    (current === null ? null : await components.config(id, current)) ??
    (await components.configs(id)).at(-1) ??
    null
  );
}

/** The live catalogue over the settings' entities and the stored components, loaded. */
export async function createLiveCatalogue(
  settings: RuntimeSettings,
  components: ComponentStore,
): Promise<LiveCatalogue> {
  const live = liveCatalogueOf(settings, components);
  await live.load();
  return live;
}

/**
 * The live catalogue over the settings' entities and the stored components: the configured
 * entities at once, the stored ones once {@link LiveCatalogue.load} has read them.
 */
export function liveCatalogueOf(
  settings: RuntimeSettings,
  components: ComponentStore,
): LiveCatalogue {
  const modelProblems: string[] = [];
  const base = settingsSources(settings, modelProblems);
  const configured = {
    agent: new Set(settings.agents.map((a) => a.id)),
    team: new Set(settings.teams.map((t) => t.id)),
    workflow: new Set(settings.workflows.map((w) => w.id)),
  };
  const agents = new Map<string, AgentDefinition>();
  const teams = new Map<string, TeamDefinition>();
  const workflows = new Map<string, WorkflowDefinition>();
  const inUse = new Map<string, ComponentInUse>();
  let skipped: string[] = [];

  /** Resolves everything stored in `tables`; the problems of components left out. */
  async function resolve(
    tables: ComponentTables,
  ): Promise<{ problems: string[]; apply: () => void }> {
    const all = await tables.all();
    const configs = await Promise.all(all.map((component) => configInUse(tables, component)));
    const stored = all
      .map((component, at) => ({ component, config: configs[at] }))
      .filter((c): c is ComponentInUse => c.config !== null);
    return resolveWith(stored);
  }

  /** Resolves the settings' entities with `stored`; the problems of components left out. */
  function resolveWith(stored: readonly ComponentInUse[]): {
    problems: string[];
    apply: () => void;
  } {
    const problems: string[] = [];
    const parsed: { use: ComponentInUse; where: string; entry: unknown }[] = [];
    for (const use of stored) {
      const { component, config } = use;
      const where = `components.${component.component_id}.v${config.version}.config`;
      const blob = {
        ...config.config,
        id: component.component_id,
        name: config.config['name'] ?? component.name,
        ...(config.config['description'] === undefined && component.description !== null
          ? { description: component.description }
          : {}),
      };
      const result = SCHEMAS[component.component_type].safeParse(blob);
      if (!result.success) {
        for (const issue of result.error.issues) {
          problems.push(`${[where, ...issue.path].join('.')}: ${issue.message}`);
        }
      } else parsed.push({ use, where, entry: result.data });
    }
    // Leave out, one round at a time, every component a problem names, until the rest resolves.
    let kept = parsed;
    for (;;) {
      const sources: EntitySources = {
        models: base.models,
        agents: [...base.agents, ...of<AgentSettings>(kept, 'agent')],
        teams: [...base.teams, ...of<TeamSettings>(kept, 'team')],
        workflows: [...base.workflows, ...of<WorkflowSettings>(kept, 'workflow')],
      };
      const resolved = resolveEntities(sources);
      const broken = new Set(
        kept.filter(({ where }) => resolved.problems.some((p) => p.startsWith(`${where}.`))),
      );
      if (broken.size === 0) {
        return {
          problems,
          apply: () => {
            replace(agents, resolved.catalogue.agents);
            replace(teams, resolved.catalogue.teams);
            replace(workflows, resolved.catalogue.workflows);
            inUse.clear();
            for (const { use } of kept) inUse.set(key(use.component), use);
          },
        };
      }
      problems.push(
        ...resolved.problems.filter((p) =>
          [...broken].some(({ where }) => p.startsWith(`${where}.`)),
        ),
      );
      kept = kept.filter((k) => !broken.has(k));
    }
  }

  // The configured entities at once; the agui entity is one of them (checked when the settings
  // were built), so it never changes.
  resolveWith([]).apply();
  const agui = aguiEntityOf(settings, agents, teams, []);
  let loading: Promise<void> | null = null;

  return {
    catalogue: Object.freeze({ agents, teams, workflows, agui }),
    isConfigured: (type, id) => configured[type].has(id),
    componentOf: (type, id) => inUse.get(`${type}:${id}`) ?? null,
    load() {
      loading ??= resolve(components).then(
        (first) => {
          first.apply();
          skipped = first.problems;
        },
        (error: unknown) => {
          // Read again by the next request rather than served without the stored components.
          loading = null;
          throw error;
        },
      );
      return loading;
    },
    async change(fn) {
      const { value, next } = await components.transaction(async (tables) => {
        const result = await fn(tables);
        const resolved = await resolve(tables);
        const before = new Set(skipped);
        const fresh = resolved.problems.filter((p) => !before.has(p));
        if (fresh.length > 0) {
          throw new HttpError(400, `Invalid component config: ${fresh.join('; ')}`);
        }
        return { value: result, next: resolved };
      });
      // Swapped in only once the transaction has committed.
      next.apply();
      skipped = next.problems;
      return value;
    },
    get skipped() {
      return skipped;
    },
  };
}

const key = (component: ComponentRecord): string =>
  `${component.component_type}:${component.component_id}`;

function of<T>(
  parsed: readonly { use: ComponentInUse; where: string; entry: unknown }[],
  type: ComponentType,
): Sourced<T>[] {
  return parsed
    .filter(({ use }) => use.component.component_type === type)
    .map(({ where, entry }) => ({ entry: entry as T, where }));
}

function replace<V>(target: Map<string, V>, source: ReadonlyMap<string, V>): void {
  target.clear();
  for (const [id, value] of source) target.set(id, value);
}
