/**
 * The runtime's own settings (`runtime:` in gateway.yaml) and the agents, teams and workflows
 * they define. Parsed once at start; the runtime imports nothing outside shared/ (it holds no
 * auth code and reads no gateway config).
 */
import { z } from 'zod';

const id = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/,
    'ids are 1–63 of A-Z a-z 0-9 _ . - (not starting with _ . -)',
  );

const toolSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(''),
  /** JSON Schema of the arguments. */
  parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
  /** Executed by the client (AG-UI/continue), not the runtime: the run pauses on a call. */
  external_execution: z.boolean().default(false),
});

const modelRefSchema = z.strictObject({
  id: z.string().min(1).default('offline-echo'),
  provider: z.string().min(1).default('offline'),
});

const agentSchema = z.strictObject({
  id,
  name: z.string().min(1),
  description: z.string().optional(),
  instructions: z.string().optional(),
  model: modelRefSchema.default({ id: 'offline-echo', provider: 'offline' }),
  /** Names of built-in server tools (`echo`, `add`, `get_state`, `set_state`, `fail`) or tool objects. */
  tools: z.array(z.union([z.string().min(1), toolSchema])).default([]),
});

const teamSchema = z.strictObject({
  id,
  name: z.string().min(1),
  description: z.string().optional(),
  mode: z.enum(['coordinate', 'route', 'broadcast', 'tasks']).default('coordinate'),
  /** Agent ids, in delegation order. */
  members: z.array(id).min(1),
});

const stepSchema = z.union([
  z.strictObject({ name: z.string().min(1), agent: id }),
  z.strictObject({ name: z.string().min(1), team: id }),
]);

const workflowSchema = z.strictObject({
  id,
  name: z.string().min(1),
  description: z.string().optional(),
  steps: z.array(stepSchema).min(1),
});

/** Which entity `POST /agui` runs (RUNTIME_API §15): an agent, else a team. */
const aguiSchema = z.union([z.strictObject({ agent: id }), z.strictObject({ team: id })]);

/** The `runtime:` section. */
export const runtimeSettingsSchema = z.strictObject({
  os_id: z.string().min(1).default('scopegate-runtime'),
  name: z.string().nullable().default(null),
  /** SQLite file (relative to the config's folder). */
  db: z.string().min(1).default('data/runtime.db'),
  agents: z.array(agentSchema).default([]),
  teams: z.array(teamSchema).default([]),
  workflows: z.array(workflowSchema).default([]),
  /** The entity behind `POST /agui`; default: the first agent (none: no AG-UI routes). */
  agui: aguiSchema.optional(),
});

export type ToolDefinition = z.output<typeof toolSchema>;
export type AgentSettings = z.output<typeof agentSchema>;
export type TeamSettings = z.output<typeof teamSchema>;
export type WorkflowSettings = z.output<typeof workflowSchema>;
export type RuntimeSettings = z.output<typeof runtimeSettingsSchema>;

/** An agent ready to run: its tools resolved. */
export interface AgentDefinition {
  readonly kind: 'agent';
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly instructions: string | null;
  readonly model: { readonly id: string; readonly provider: string };
  /** Server tools by name (built-in) and client tools (external_execution). */
  readonly tools: readonly ToolDefinition[];
}

/** A team: members resolved to agent definitions, in delegation order. */
export interface TeamDefinition {
  readonly kind: 'team';
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly mode: TeamSettings['mode'];
  readonly members: readonly AgentDefinition[];
}

/** A workflow: each step runs an agent or a team, in order, passing its output on. */
export interface WorkflowDefinition {
  readonly kind: 'workflow';
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly steps: readonly {
    readonly name: string;
    readonly executor: AgentDefinition | TeamDefinition;
  }[];
}

/** Everything the runtime hosts, by id. */
export interface Catalogue {
  readonly agents: ReadonlyMap<string, AgentDefinition>;
  readonly teams: ReadonlyMap<string, TeamDefinition>;
  readonly workflows: ReadonlyMap<string, WorkflowDefinition>;
  /** The entity `POST /agui` runs; null when there is none (no agents and no `agui` setting). */
  readonly agui: AgentDefinition | TeamDefinition | null;
}
