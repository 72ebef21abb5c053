/**
 * The OpenAPI schemas of the runtime's core records: errors,
 * the pagination envelope, the system routes, the catalogue, runs and their forms, sessions,
 * components and A2A. Data only; fields the runtime may add later are allowed (no
 * `additionalProperties: false`).
 */
import {
  ANY,
  arrayOf,
  BOOLEAN,
  EPOCH,
  INTEGER,
  ISO_TIME,
  nullable,
  object,
  OBJECT,
  ref,
  STRING,
  type Json,
} from './parts.js';

const NSTRING = nullable(STRING);
const RUN_STATUS = {
  type: 'string',
  enum: ['PENDING', 'RUNNING', 'COMPLETED', 'PAUSED', 'CANCELLED', 'ERROR', 'REGENERATED'],
};
/** A form boolean: `true/false/1/0/yes/no/on/off`. */
const FORM_BOOLEAN = (fallback: boolean): Json => ({ type: 'boolean', default: fallback });
/** A form field carrying JSON text. */
const FORM_JSON = (description: string): Json => ({ type: 'string', description });

const RUN_FORM_FIELDS: Json = {
  message: { type: 'string', description: 'The input' },
  stream: FORM_BOOLEAN(true),
  session_id: { type: 'string', description: 'Empty or absent: a new session' },
  user_id: STRING,
  background: FORM_BOOLEAN(false),
  session_state: FORM_JSON('JSON object'),
  dependencies: FORM_JSON('JSON object'),
  metadata: FORM_JSON('JSON object'),
};

const CONTINUE_FIELDS: Json = {
  session_id: { type: 'string', description: 'Required' },
  user_id: STRING,
  stream: FORM_BOOLEAN(true),
  background: FORM_BOOLEAN(false),
};

/** Core schemas by name. */
export const CORE_SCHEMAS: Readonly<Record<string, Json>> = {
  Root: object({ name: STRING, id: STRING, version: STRING }, ['name', 'id', 'version']),
  Health: object({ status: { const: 'ok' }, instantiated_at: ISO_TIME }, [
    'status',
    'instantiated_at',
  ]),
  Info: object(
    {
      os_id: STRING,
      name: NSTRING,
      agno_version: STRING,
      agent_count: INTEGER,
      team_count: INTEGER,
      workflow_count: INTEGER,
      mcp: object({ enabled: BOOLEAN, path: NSTRING, oauth: ANY }),
      auth_mode: { type: 'string', enum: ['none', 'security_key', 'jwt'] },
    },
    ['os_id', 'agno_version', 'agent_count', 'team_count', 'workflow_count', 'auth_mode'],
  ),
  Status: object({ status: { const: 'available' } }, ['status']),
  Config: object(
    {
      os_id: STRING,
      description: STRING,
      available_models: arrayOf(STRING),
      os_database: STRING,
      databases: arrayOf(STRING),
      session: ref('DomainConfig'),
      memory: ref('DomainConfig'),
      learning: ref('DomainConfig'),
      metrics: ref('DomainConfig'),
      evals: ref('DomainConfig'),
      traces: ref('DomainConfig'),
      knowledge: OBJECT,
      agents: arrayOf(OBJECT),
      teams: arrayOf(OBJECT),
      workflows: arrayOf(OBJECT),
      interfaces: arrayOf(
        object({ type: { type: 'string', enum: ['agui', 'a2a'] }, version: STRING, route: STRING }),
      ),
    },
    ['os_id', 'databases'],
  ),
  DomainConfig: object({
    dbs: arrayOf(
      object({
        db_id: STRING,
        domain_config: object({ display_name: STRING }),
        tables: arrayOf(STRING),
      }),
    ),
  }),
  Model: object({ id: STRING, provider: STRING }, ['id', 'provider']),
  RegistryEntry: object(
    { name: STRING, type: STRING, id: STRING, description: STRING, metadata: OBJECT },
    ['name', 'type'],
  ),
  MigrateResponse: object({ message: STRING, failed: OBJECT }, ['message']),
  AgentResponse: object(
    {
      id: STRING,
      name: STRING,
      db_id: STRING,
      description: STRING,
      role: STRING,
      is_factory: BOOLEAN,
      is_component: BOOLEAN,
      current_version: INTEGER,
      stage: STRING,
      model: object({ name: STRING, model: STRING, provider: STRING }),
      tools: object({ tools: arrayOf(OBJECT) }),
      system_message: OBJECT,
      metadata: OBJECT,
    },
    ['id', 'name'],
  ),
  TeamResponse: object(
    {
      id: STRING,
      name: STRING,
      db_id: STRING,
      description: STRING,
      is_factory: BOOLEAN,
      is_component: BOOLEAN,
      current_version: INTEGER,
      stage: STRING,
      mode: { type: 'string', enum: ['coordinate', 'route', 'broadcast', 'tasks'] },
      members: arrayOf({ anyOf: [ref('AgentResponse'), ref('TeamResponse')] }),
    },
    ['id', 'name'],
  ),
  WorkflowResponse: object(
    {
      id: STRING,
      name: STRING,
      db_id: STRING,
      description: STRING,
      is_factory: BOOLEAN,
      is_component: BOOLEAN,
      current_version: INTEGER,
      stage: STRING,
      workflow_agent: BOOLEAN,
      steps: arrayOf(object({ name: STRING, step_type: STRING, description: STRING })),
    },
    ['id', 'name'],
  ),
  RunOutput: {
    ...object(
      {
        run_id: STRING,
        agent_id: STRING,
        team_id: STRING,
        workflow_id: STRING,
        session_id: STRING,
        user_id: STRING,
        content: { anyOf: [STRING, OBJECT] },
        content_type: STRING,
        status: RUN_STATUS,
        messages: arrayOf(OBJECT),
        metrics: OBJECT,
        tools: arrayOf(OBJECT),
        requirements: arrayOf(OBJECT),
        events: arrayOf(OBJECT),
        created_at: EPOCH,
      },
      ['run_id', 'session_id', 'status'],
    ),
    description: 'An agent, team or workflow run output',
  },
  BackgroundRun: object(
    {
      run_id: STRING,
      session_id: STRING,
      status: { type: 'string', enum: ['PENDING', 'RUNNING'] },
    },
    ['run_id', 'session_id', 'status'],
  ),
  RunForm: object(
    {
      ...RUN_FORM_FIELDS,
      files: arrayOf({ type: 'string', format: 'binary' }),
      version: { type: 'string', description: 'Component config version to run' },
    },
    ['message'],
  ),
  AgentContinueForm: object({
    tools: FORM_JSON('JSON array of ToolExecution objects'),
    input: STRING,
    continue_from: { type: 'string', default: 'end', description: 'end, last_user or an index' },
    fork: FORM_BOOLEAN(false),
    regenerate: FORM_BOOLEAN(false),
    ...CONTINUE_FIELDS,
  }),
  TeamContinueForm: object({
    requirements: FORM_JSON('JSON array of RunRequirement objects'),
    ...CONTINUE_FIELDS,
  }),
  WorkflowContinueForm: object({
    step_requirements: FORM_JSON('JSON array of StepRequirement objects'),
    ...CONTINUE_FIELDS,
  }),
  EntityCreate: {
    ...object(
      {
        name: STRING,
        component_id: STRING,
        description: NSTRING,
        metadata: nullable(OBJECT),
        config: OBJECT,
        label: NSTRING,
        stage: { type: 'string', enum: ['draft', 'published'], default: 'draft' },
        notes: NSTRING,
        set_current: { type: 'boolean', default: true },
      },
      ['name'],
    ),
    description: 'ComponentCreate without component_type (fixed by the route)',
  },
  AgentCard: object(
    {
      name: STRING,
      description: STRING,
      url: STRING,
      version: STRING,
      protocolVersion: STRING,
      preferredTransport: STRING,
      capabilities: OBJECT,
      defaultInputModes: arrayOf(STRING),
      defaultOutputModes: arrayOf(STRING),
      skills: arrayOf(OBJECT),
      supportsAuthenticatedExtendedCard: BOOLEAN,
    },
    ['name', 'url', 'version', 'protocolVersion'],
  ),
  JsonRpcRequest: {
    ...object(
      {
        jsonrpc: { const: '2.0' },
        id: { anyOf: [STRING, INTEGER] },
        method: STRING,
        params: OBJECT,
      },
      ['jsonrpc', 'id', 'params'],
    ),
    description: 'An A2A JSON-RPC 2.0 request (message/send, message/stream, tasks/get, …)',
  },
  JsonRpcResponse: object(
    { jsonrpc: { const: '2.0' }, id: { anyOf: [STRING, INTEGER] }, result: ref('A2ATask') },
    ['jsonrpc', 'id', 'result'],
  ),
  A2ATask: object(
    {
      kind: { const: 'task' },
      id: STRING,
      contextId: STRING,
      status: object({
        state: {
          type: 'string',
          enum: ['submitted', 'working', 'completed', 'failed', 'canceled', 'input-required'],
        },
      }),
      history: arrayOf(OBJECT),
      artifacts: arrayOf(OBJECT),
    },
    ['kind', 'id', 'status'],
  ),
};
