/**
 * The document part of the catalogue and run routes of agents, teams and workflows, as zod
 * schemas: the entity records, the run forms, a run's output and stored shape, and each family's
 * route schemas (`familyDocs`); the alias bodies are the component bodies components.ts checks
 * them with, the stored runs sessions'. They document only: catalogue.ts renders the records,
 * forms.ts and runs.ts read the forms. Pure data.
 */
import { z } from 'zod';
import { content, empty, errors, ok } from '../../http/openapi.js';
import { EPOCH } from '../../http/openapi-shapes.js';
import { sectionSchemas } from '../../http/validation.js';
import {
  componentSchema,
  createComponentBody,
  updateComponentFields,
} from '../components/schemas.js';
import { runSchemaSchema } from '../sessions/schemas.js';

/** A JSON object of anything. */
const OBJECT = z.record(z.string(), z.unknown());
const STRING = z.string().optional();
const INTEGER = z.int().optional();
const BOOLEAN = z.boolean().optional();
const RUN_STATUS = z.enum([
  'PENDING',
  'RUNNING',
  'COMPLETED',
  'PAUSED',
  'CANCELLED',
  'ERROR',
  'REGENERATED',
]);

/** The fields every entity record starts with. */
const ENTITY = {
  id: z.string(),
  name: z.string(),
  db_id: STRING,
  description: STRING,
};

/** A stored component's own fields on its entity record. */
const COMPONENT_USE = {
  is_factory: BOOLEAN,
  is_component: BOOLEAN,
  current_version: INTEGER,
  stage: STRING,
};

/** An agent as `GET /agents` lists it. */
export const AGENT_RESPONSE = z
  .object({
    ...ENTITY,
    role: STRING,
    ...COMPONENT_USE,
    model: z.object({ name: STRING, model: STRING, provider: STRING }).optional(),
    tools: z.object({ tools: z.array(OBJECT).optional() }).optional(),
    system_message: OBJECT.optional(),
    metadata: OBJECT.optional(),
  })
  .meta({ id: 'AgentResponse' });

/** A team, its members agents or teams. */
export const TEAM_RESPONSE = z
  .object({
    ...ENTITY,
    ...COMPONENT_USE,
    mode: z.enum(['coordinate', 'route', 'broadcast', 'tasks']).optional(),
    get members(): z.ZodOptional<z.ZodArray<z.ZodType>> {
      return z.array(z.union([AGENT_RESPONSE, TEAM_RESPONSE])).optional();
    },
  })
  .meta({ id: 'TeamResponse' });

/** A workflow with its steps. */
export const WORKFLOW_RESPONSE = z
  .object({
    ...ENTITY,
    ...COMPONENT_USE,
    workflow_agent: BOOLEAN,
    steps: z.array(z.object({ name: STRING, step_type: STRING, description: STRING })).optional(),
  })
  .meta({ id: 'WorkflowResponse' });

/** What a run answers when it is not streamed, and what `GET …/runs/{run_id}` reads back. */
export const RUN_OUTPUT = z
  .object({
    run_id: z.string(),
    agent_id: STRING,
    team_id: STRING,
    workflow_id: STRING,
    session_id: z.string(),
    user_id: STRING,
    content: z.union([z.string(), OBJECT]).optional(),
    content_type: STRING,
    status: RUN_STATUS,
    messages: z.array(OBJECT).optional(),
    metrics: OBJECT.optional(),
    tools: z.array(OBJECT).optional(),
    requirements: z.array(OBJECT).optional(),
    events: z.array(OBJECT).optional(),
    created_at: EPOCH.optional(),
  })
  .meta({ id: 'RunOutput', description: 'An agent, team or workflow run output' });

/** The answer of a run started in the background. */
export const BACKGROUND_RUN = z
  .object({ run_id: z.string(), session_id: z.string(), status: z.enum(['PENDING', 'RUNNING']) })
  .meta({ id: 'BackgroundRun' });

/** A form boolean (`true/false/1/0/yes/no/on/off`). */
const formBoolean = (fallback: boolean): z.ZodType => z.boolean().default(fallback);
/** A form field carrying JSON text. */
const formJson = (description: string): z.ZodType => z.string().optional().meta({ description });

/** The run form. */
export const RUN_FORM = z
  .object({
    message: z.string().meta({ description: 'The input' }),
    stream: formBoolean(true),
    session_id: z.string().optional().meta({ description: 'Empty or absent: a new session' }),
    user_id: STRING,
    background: formBoolean(false),
    session_state: formJson('JSON object'),
    dependencies: formJson('JSON object'),
    metadata: formJson('JSON object'),
    files: z.array(z.string().meta({ format: 'binary' })).optional(),
    version: z.string().optional().meta({ description: 'Component config version to run' }),
  })
  .meta({ id: 'RunForm' });

/** The fields every continue form has. */
const CONTINUE_FIELDS = {
  session_id: z.string().optional().meta({ description: 'Required' }),
  user_id: STRING,
  stream: formBoolean(true),
  background: formBoolean(false),
};

const AGENT_CONTINUE = z
  .object({
    tools: formJson('JSON array of ToolExecution objects'),
    input: STRING,
    continue_from: z.string().default('end').meta({ description: 'end, last_user or an index' }),
    fork: formBoolean(false),
    regenerate: formBoolean(false),
    ...CONTINUE_FIELDS,
  })
  .meta({ id: 'AgentContinueForm' });

const TEAM_CONTINUE = z
  .object({ requirements: formJson('JSON array of RunRequirement objects'), ...CONTINUE_FIELDS })
  .meta({ id: 'TeamContinueForm' });

const WORKFLOW_CONTINUE = z
  .object({
    step_requirements: formJson('JSON array of StepRequirement objects'),
    ...CONTINUE_FIELDS,
  })
  .meta({ id: 'WorkflowContinueForm' });

/** `ComponentCreate` without `component_type`, which an alias route fixes. */
export const ENTITY_CREATE = createComponentBody.omit({ component_type: true }).meta({
  id: 'EntityCreate',
  description: 'ComponentCreate without component_type (fixed by the route)',
});

/** What an alias route's update takes: no `component_type`, and `config` makes a new version. */
export const ENTITY_UPDATE = updateComponentFields.omit({ component_type: true }).meta({
  id: 'EntityUpdate',
  description:
    'ComponentUpdate without component_type (fixed by the route); a config becomes a new ' +
    'current version',
});

/** One family of entities, as its routes are written. */
export interface FamilyName {
  readonly path: 'agents' | 'teams' | 'workflows';
  /** The path parameter naming one entity (`agent_id`). */
  readonly param: 'agent_id' | 'team_id' | 'workflow_id';
}

const RECORDS = { agents: AGENT_RESPONSE, teams: TEAM_RESPONSE, workflows: WORKFLOW_RESPONSE };
const CONTINUE_FORMS = {
  agents: AGENT_CONTINUE,
  teams: TEAM_CONTINUE,
  workflows: WORKFLOW_CONTINUE,
};
const TAGS = { agents: ['Agents'], teams: ['Teams'], workflows: ['Workflows'] };

/** A run route's form: multipart (browsers, files) or urlencoded (the Python SDK). */
const FORMS = ['multipart/form-data', 'application/x-www-form-urlencoded'];

/** A run's answer: SSE when `stream` (the default), else the run output as JSON. */
const RUN_ANSWER = content(
  'The run: SSE events (`event: <Name>`) when streaming, else the run output',
  { 'text/event-stream': z.string(), 'application/json': RUN_OUTPUT },
);

const RUN_ID = z.string().meta({ description: 'Run id' });
const SESSION_ID = z.string().meta({ description: 'The session the run belongs to' });

/** The route schemas of one family: its catalogue, alias and run routes. */
export function familyDocs(family: FamilyName) {
  const label = family.path.slice(0, -1);
  const { checked, documented } = sectionSchemas(TAGS[family.path]);
  const record = RECORDS[family.path];
  const id = { [family.param]: z.string().meta({ description: `The ${label} id` }) };
  const one = z.object(id);
  const run = z.object({ ...id, run_id: RUN_ID });
  return {
    list: documented(`List ${family.path} (filtered to those the caller may see)`, {
      response: { 200: ok(`The ${family.path}`, z.array(record)) },
    }),
    one: documented(`One ${label}`, {
      params: one,
      ...(family.path === 'workflows'
        ? { querystring: z.object({ version: z.string().optional() }) }
        : {}),
      response: { 200: ok(`The ${label}`, record), ...errors('404') },
    }),
    create: checked(`Create a ${label} component`, {
      body: ENTITY_CREATE,
      response: { 201: ok('Created', componentSchema), ...errors('400', '422') },
    }),
    update: checked(`Update a ${label} component`, {
      params: one,
      body: ENTITY_UPDATE,
      response: {
        200: ok('Updated', componentSchema),
        ...errors('400', '404', '409', '422'),
      },
    }),
    delete: documented(`Delete a ${label} component`, {
      params: one,
      response: { 204: empty('Deleted'), ...errors('404', '409') },
    }),
    start: documented(`Run the ${label}`, {
      params: one,
      consumes: FORMS,
      body: RUN_FORM,
      response: {
        200: RUN_ANSWER,
        202: ok('Started in the background', BACKGROUND_RUN),
        ...errors('400', '403', '404', '422', '500'),
      },
    }),
    runs: documented(`The ${label}'s runs in a session`, {
      params: one,
      querystring: z.object({ session_id: SESSION_ID, status: z.string().optional() }),
      response: { 200: ok('Runs', z.array(runSchemaSchema)), ...errors('404') },
    }),
    run: documented('One run', {
      params: run,
      querystring: z.object({ session_id: SESSION_ID }),
      response: { 200: ok('The run output', RUN_OUTPUT), ...errors('404') },
    }),
    continue: documented('Continue a paused run', {
      params: run,
      consumes: FORMS,
      body: CONTINUE_FORMS[family.path],
      response: { 200: RUN_ANSWER, ...errors('400', '403', '404', '409', '422') },
    }),
    cancel: documented('Cancel a run', {
      params: run,
      querystring: z.object({
        session_id: z
          .string()
          .optional()
          .meta({ description: 'Required for callers under user isolation' }),
      }),
      response: { 200: ok('Cancellation recorded', OBJECT), ...errors('400', '404') },
    }),
  };
}

/** The three families, in the order the document lists them. */
export const FAMILY_NAMES: readonly FamilyName[] = [
  { path: 'agents', param: 'agent_id' },
  { path: 'teams', param: 'team_id' },
  { path: 'workflows', param: 'workflow_id' },
];
