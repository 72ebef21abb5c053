/**
 * The runtime's own settings (`runtime:` in gateway.yaml) and the agents, teams and workflows
 * they define. Parsed once at start; the runtime imports nothing outside shared/ (it holds no
 * auth code and reads no gateway config).
 */
import { z } from 'zod';
import {
  A2A_PREFIX_PATTERN,
  A2A_PREFIX_RULE,
  DEFAULT_A2A_PREFIX,
} from '../../shared/a2a-prefix.js';
import { isHttpsOrLoopbackUrl } from '../../shared/secure-url.js';
import { storeSettingProblem } from '../../shared/store-location.js';
import { ALLOW_HOST_RULE, isAllowHostEntry } from '../outbound/addresses.js';

const id = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/,
    'ids are 1–63 of A-Z a-z 0-9 _ . - (not starting with _ . -)',
  );

const toolSchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().default(''),
    /** JSON Schema of the arguments. */
    parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
    /** Executed by the client (AG-UI/continue), not the runtime: the run pauses on a call. */
    external_execution: z.boolean().default(false),
    /** The run pauses on a call until the client confirms (runs it) or rejects it. */
    requires_confirmation: z.boolean().optional(),
    /** The run pauses on a call until the client fills `user_input_schema` (merged into the args). */
    requires_user_input: z.boolean().optional(),
    /** The fields the user fills for a `requires_user_input` tool. */
    user_input_schema: z
      .array(
        z.strictObject({
          name: z.string().min(1),
          field_type: z.string().min(1).default('str'),
          description: z.string().nullable().default(null),
        }),
      )
      .optional(),
    /**
     * `required`: a call pauses the run (for confirmation unless another pause kind is set) and
     * creates a pending approval; `audit`: the call runs as it otherwise would and an
     * approval is recorded already resolved.
     */
    approval_type: z.enum(['required', 'audit']).optional(),
  })
  .refine(
    (tool) => tool.requires_user_input !== true || (tool.user_input_schema ?? []).length > 0,
    {
      message: 'a tool with requires_user_input lists its fields in user_input_schema',
      path: ['user_input_schema'],
    },
  );

/**
 * An integer setting from `min` to `max`, `fallback` when absent. Interpolation yields strings, so
 * `timeout_ms: ${TIMEOUT_MS:-5000}` arrives as "5000": canonical integer text is read as the
 * number, nothing looser (as the gateway's own schema does).
 */
function boundedInt(min: number, max: number, fallback: number) {
  const error = `must be an integer from ${min} to ${max}`;
  const fromText = (value: unknown): unknown =>
    typeof value === 'string' && /^(?:0|[1-9][0-9]*)$/.test(value) ? Number(value) : value;
  return z.preprocess(fromText, z.int({ error }).min(min, error).max(max, error)).default(fallback);
}

const NON_EMPTY = 'must be a non-empty string';
const nonEmpty = z.string({ error: NON_EMPTY }).min(1, NON_EMPTY);

/**
 * An http(s) URL to append paths to. Credentials belong in api_key or headers, where they are
 * kept out of messages; a query would end up in front of the `/chat/completions` we append.
 */
const baseUrl = z.string({ error: 'must be an http(s) URL' }).refine((value) => {
  if (!URL.canParse(value)) return false;
  const { protocol, username, password, search, hash } = new URL(value);
  return /^https?:$/.test(protocol) && username + password + search + hash === '';
}, 'must be an http(s) URL without credentials, query or fragment');

// RFC 9110 §5.6.2 `token` for names; values without CR, LF or NUL (undici refuses them).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[^\r\n\0]*$/;

/** The provider name of `runtime.models` entries served over a chat-completions API. */
export const OPENAI_COMPATIBLE_PROVIDER = 'openai-compatible';

const modelSettingsSchema = z.strictObject({
  id,
  provider: z.literal(OPENAI_COMPATIBLE_PROVIDER, {
    error: `must be "${OPENAI_COMPATIBLE_PROVIDER}"`,
  }),
  /** Up to the API version, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  base_url: baseUrl,
  /** Sent as `Authorization: Bearer <key>`; empty (a local server) sends no Authorization. */
  api_key: z.string({ error: 'must be a string (empty for no Authorization header)' }).default(''),
  /** The provider's model name, e.g. `gpt-4o-mini`. */
  model: nonEmpty,
  /** Extra request headers (e.g. an organisation id); names are matched case-insensitively. */
  headers: z
    .record(
      z.string().regex(HEADER_NAME),
      z
        .string({ error: 'header values must be strings' })
        .regex(HEADER_VALUE, 'header values may not hold CR, LF or NUL'),
      {
        error: (issue) =>
          issue.code === 'invalid_key'
            ? 'header names are HTTP tokens'
            : 'must be a mapping of header names to values',
      },
    )
    .default({}),
  /** Deadline of one model turn, from sending the request to the end of the stream. */
  timeout_ms: boundedInt(1, 3_600_000, 120_000),
});

/**
 * An agent's model: a `runtime.models` id (or `offline-echo`), or the object form
 * `{id, provider}`, where provider `offline` is the offline model whatever the id.
 */
const modelRefSchema = z.union([
  z.string().min(1),
  z.strictObject({
    id: z.string().min(1).default('offline-echo'),
    provider: z.string().min(1).optional(),
  }),
]);

/** One agent of `runtime.agents` (also the config blob of an agent component). */
export const agentSchema = z.strictObject({
  id,
  name: z.string().min(1),
  description: z.string().optional(),
  instructions: z.string().optional(),
  /** Absent: the offline model. */
  model: modelRefSchema.optional(),
  /** Names of built-in server tools (`echo`, `add`, `get_state`, `set_state`, `fail`) or tool objects. */
  tools: z.array(z.union([z.string().min(1), toolSchema])).default([]),
});

/** One team of `runtime.teams` (also the config blob of a team component). */
export const teamSchema = z.strictObject({
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

/** One workflow of `runtime.workflows` (also the config blob of a workflow component). */
export const workflowSchema = z.strictObject({
  id,
  name: z.string().min(1),
  description: z.string().optional(),
  steps: z.array(stepSchema).min(1),
});

/** Which entity `POST /agui` runs: an agent, else a team. */
const aguiSchema = z.union([z.strictObject({ agent: id }), z.strictObject({ team: id })]);

/** A remote content source (`POST /knowledge/remote-content`): a path is fetched below `base_url`. */
const knowledgeSourceSchema = z.strictObject({
  id,
  name: z.string().min(1),
  type: z.literal('url', { error: 'must be "url"' }),
  base_url: baseUrl,
});

/** `runtime.knowledge`: the knowledge base and the bounds of remote fetches. */
const knowledgeSettingsSchema = z.strictObject({
  /** The one knowledge instance's name (its id is derived from it). */
  name: z.string().min(1).default('knowledge'),
  description: z.string().optional(),
  /** The largest remote body read; a larger one fails the content. */
  max_fetch_bytes: boundedInt(1, 1_073_741_824, 10 * 1024 * 1024),
  /** Deadline of one remote fetch, from sending the request to the end of the body. */
  fetch_timeout_ms: boundedInt(1, 3_600_000, 10_000),
  /** Where outbound fetches may go besides the public internet (see docs/runtime-knowledge.md). */
  fetch: z
    .strictObject({
      /**
       * Host names (matched exactly against the URL's host) and addresses or CIDRs (matched
       * against the address connected to) opened on purpose: an internal documentation host.
       * The runtime's and the gateway's own listeners stay closed whatever this opens.
       */
      allow_hosts: z
        .array(z.string({ error: ALLOW_HOST_RULE }).refine(isAllowHostEntry, ALLOW_HOST_RULE), {
          error: 'must be a list of host names, IP addresses or CIDRs',
        })
        .default([]),
    })
    .prefault({}),
  sources: z
    .array(knowledgeSourceSchema)
    .default([])
    .superRefine((sources, ctx) => {
      const seen = new Set<string>();
      sources.forEach((source, i) => {
        if (seen.has(source.id)) {
          ctx.addIssue({
            code: 'custom',
            path: [i, 'id'],
            message: `duplicate source id "${source.id}"`,
          });
        }
        seen.add(source.id);
      });
    }),
});

/** `runtime.schedules`: how the scheduler of each replica runs. */
const schedulesSettingsSchema = z.strictObject({
  /**
   * How often, in seconds, each replica looks for due schedule slots (cron has minutes; a slot
   * fires at most this late). Every replica may look: each slot is claimed by one.
   */
  tick_seconds: boundedInt(1, 3600, 10),
});

const JWKS_URL_RULE = 'must be an https:// URL (http:// only for a loopback host)';

/**
 * `runtime.identity_token`: believe a context only when the gateway's identity token (its
 * `upstream.identity_token`) verifies and binds it. The keys come from the gateway's JWK Set, by
 * URL (its admin listener's `/.well-known/jwks.json`) or as a file (its `jwks_file`), one of them.
 */
const identityTokenCheckSchema = z
  .strictObject({
    /** The gateway's JWK Set URL; fetched when a token needs it, cached by jose. */
    jwks_url: z
      .string({ error: JWKS_URL_RULE })
      .refine(isHttpsOrLoopbackUrl, JWKS_URL_RULE)
      .nullable()
      .default(null),
    /** The gateway's `jwks_file` (relative to the config's folder); read again on an unknown kid. */
    jwks_file: nonEmpty.nullable().default(null),
    /** The gateway's `identity_token.issuer` (its default: `scopegate:<service_id>`). */
    issuer: nonEmpty,
    /** The gateway's `identity_token.audience` (its default: the origin of `upstream.url`). */
    audience: nonEmpty,
    /** The gateway's `identity_token.header`. */
    header: z
      .string({ error: 'must be an HTTP header name' })
      .regex(HEADER_NAME, 'must be an HTTP header name')
      .default('x-auth-identity-token'),
  })
  .refine((s) => (s.jwks_url === null) !== (s.jwks_file === null), {
    error: 'needs exactly one of jwks_url and jwks_file',
  });

/** The `runtime:` section. */
export const runtimeSettingsSchema = z.strictObject({
  os_id: z.string().min(1).default('scopegate-runtime'),
  name: z.string().nullable().default(null),
  /**
   * The runtime's database: a SQLite file (`sqlite:<path>` or a bare path, relative to the
   * config's folder), or a `postgres://` / `postgresql://` URL that runtime replicas share.
   */
  db: z
    .string()
    .min(1)
    .default('data/runtime.db')
    .superRefine((value, ctx) => {
      if (!value.startsWith('sqlite:') && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return;
      const problem = storeSettingProblem(value);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    }),
  /**
   * Seconds after its last heartbeat that a runtime counts as stopped: another runtime on the
   * database then marks its RUNNING runs failed. Heartbeats and sweeps come every third of it.
   */
  lease_seconds: boundedInt(3, 3600, 30),
  /** Model providers agents may name by id (besides the built-in `offline-echo`). */
  models: z.array(modelSettingsSchema).default([]),
  /**
   * Path prefix of the A2A routes, the same rule as the gateway's `a2a.prefix`;
   * `scopegate serve` and `scopegate runtime` pass that one unless this is set.
   */
  a2a_prefix: z
    .string({ error: A2A_PREFIX_RULE })
    .regex(A2A_PREFIX_PATTERN, { error: A2A_PREFIX_RULE })
    .default(DEFAULT_A2A_PREFIX),
  agents: z.array(agentSchema).default([]),
  teams: z.array(teamSchema).default([]),
  workflows: z.array(workflowSchema).default([]),
  /** The entity behind `POST /agui`; default: the first agent (none: no AG-UI routes). */
  agui: aguiSchema.optional(),
  /**
   * How callers authenticate in front of this runtime, as `GET /info` reports it; `scopegate
   * serve` passes the gateway's (`jwt` with a JWT source, else `security_key`, else `none`).
   */
  auth_mode: z.enum(['none', 'security_key', 'jwt']).default('none'),
  /** The knowledge base and its remote fetches; every key has a default. */
  knowledge: knowledgeSettingsSchema.prefault({}),
  /** Verify the gateway's identity token (null: the HMAC alone, when a secret is set). */
  identity_token: identityTokenCheckSchema.nullable().default(null),
  /** The schedulers' rhythm; every key has a default. */
  schedules: schedulesSettingsSchema.prefault({}),
});

export type ToolDefinition = z.output<typeof toolSchema>;
/** One `runtime.models` entry, validated. Holds the API key: never log or echo it. */
export type ModelSettings = z.output<typeof modelSettingsSchema>;
export type AgentSettings = z.output<typeof agentSchema>;
export type TeamSettings = z.output<typeof teamSchema>;
export type WorkflowSettings = z.output<typeof workflowSchema>;
export type RuntimeSettings = z.output<typeof runtimeSettingsSchema>;
export type KnowledgeSettings = z.output<typeof knowledgeSettingsSchema>;
export type KnowledgeSourceSettings = z.output<typeof knowledgeSourceSchema>;
/** `runtime.identity_token`, validated. */
export type IdentityTokenCheckSettings = z.output<typeof identityTokenCheckSchema>;

/**
 * What an agent runs on: `id` and `provider` are its events' `model` and `model_provider`;
 * `settings` says how to reach a configured (`runtime.models`) model.
 */
export interface ModelRef {
  readonly id: string;
  readonly provider: string;
  readonly settings?: ModelSettings;
}

/** What every resolved agent, team and workflow starts with. */
interface EntityHead<Kind extends string> {
  readonly kind: Kind;
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
}

/** An agent ready to run: its model and tools resolved. */
export interface AgentDefinition extends EntityHead<'agent'> {
  readonly instructions: string | null;
  readonly model: ModelRef;
  /** Server tools by name (built-in) and client tools (external_execution). */
  readonly tools: readonly ToolDefinition[];
}

/** A team: members resolved to agent definitions, in delegation order. */
export interface TeamDefinition extends EntityHead<'team'> {
  readonly mode: TeamSettings['mode'];
  readonly members: readonly AgentDefinition[];
}

/** A workflow: each step runs an agent or a team, in order, passing its output on. */
export interface WorkflowDefinition extends EntityHead<'workflow'> {
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
