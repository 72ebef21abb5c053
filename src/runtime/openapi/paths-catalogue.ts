/**
 * OpenAPI paths of the agent, team and workflow catalogue and their runs:
 * list, read, create/update/delete as component aliases, start a run, list and read runs,
 * continue and cancel. Data only: one table per family, the same operations for each.
 */
import {
  arrayOf,
  errors,
  formBody,
  jsonBody,
  ok,
  empty,
  OBJECT,
  pathParam,
  query,
  ref,
  requiredQuery,
  STRING,
  type Json,
  type Paths,
} from './parts.js';

interface Family {
  readonly path: 'agents' | 'teams' | 'workflows';
  readonly tag: string;
  readonly label: string;
  readonly idParam: string;
  readonly schema: string;
  readonly continueForm: string;
}

const FAMILIES: readonly Family[] = [
  {
    path: 'agents',
    tag: 'Agents',
    label: 'agent',
    idParam: 'agent_id',
    schema: 'AgentResponse',
    continueForm: 'AgentContinueForm',
  },
  {
    path: 'teams',
    tag: 'Teams',
    label: 'team',
    idParam: 'team_id',
    schema: 'TeamResponse',
    continueForm: 'TeamContinueForm',
  },
  {
    path: 'workflows',
    tag: 'Workflows',
    label: 'workflow',
    idParam: 'workflow_id',
    schema: 'WorkflowResponse',
    continueForm: 'WorkflowContinueForm',
  },
];

const RUN_ID = pathParam('run_id', 'Run id');
const SESSION_ID = requiredQuery('session_id', STRING, 'The session the run belongs to');

/** A run's answer: SSE when `stream` (the default), else the run output as JSON. */
const RUN_ANSWER: Json = {
  description: 'The run: SSE events (`event: <Name>`) when streaming, else the run output',
  content: {
    'text/event-stream': { schema: STRING },
    'application/json': { schema: ref('RunOutput') },
  },
};

function familyPaths(f: Family): Paths {
  const id = pathParam(f.idParam, `The ${f.label} id`);
  const base = `/${f.path}`;
  const one = `${base}/{${f.idParam}}`;
  const tags = [f.tag];
  return {
    [base]: {
      get: {
        tags,
        summary: `List ${f.path} (filtered to those the caller may see)`,
        responses: { '200': ok(`The ${f.path}`, arrayOf(ref(f.schema))) },
      },
      post: {
        tags,
        summary: `Create a ${f.label} component`,
        requestBody: jsonBody(ref('EntityCreate')),
        responses: {
          '201': ok('Created', ref('ComponentResponse')),
          ...errors('400', '422'),
        },
      },
    },
    [one]: {
      get: {
        tags,
        summary: `One ${f.label}`,
        parameters: [id, ...(f.path === 'workflows' ? [query('version', STRING)] : [])],
        responses: { '200': ok(`The ${f.label}`, ref(f.schema)), ...errors('404') },
      },
      patch: {
        tags,
        summary: `Update a ${f.label} component`,
        parameters: [id],
        requestBody: jsonBody(ref('ComponentUpdate')),
        responses: {
          '200': ok('Updated', ref('ComponentResponse')),
          ...errors('400', '404', '409', '422'),
        },
      },
      delete: {
        tags,
        summary: `Delete a ${f.label} component`,
        parameters: [id],
        responses: { '204': empty('Deleted'), ...errors('404', '409') },
      },
    },
    [`${one}/runs`]: {
      post: {
        tags,
        summary: `Run the ${f.label}`,
        parameters: [id],
        requestBody: formBody(ref('RunForm')),
        responses: {
          '200': RUN_ANSWER,
          '202': ok('Started in the background', ref('BackgroundRun')),
          ...errors('400', '403', '404', '422', '500'),
        },
      },
      get: {
        tags,
        summary: `The ${f.label}'s runs in a session`,
        parameters: [id, SESSION_ID, query('status', STRING)],
        responses: { '200': ok('Runs', arrayOf(ref('RunSchema'))), ...errors('404') },
      },
    },
    [`${one}/runs/{run_id}`]: {
      get: {
        tags,
        summary: 'One run',
        parameters: [id, RUN_ID, SESSION_ID],
        responses: { '200': ok('The run output', ref('RunOutput')), ...errors('404') },
      },
    },
    [`${one}/runs/{run_id}/continue`]: {
      post: {
        tags,
        summary: 'Continue a paused run',
        parameters: [id, RUN_ID],
        requestBody: formBody(ref(f.continueForm)),
        responses: { '200': RUN_ANSWER, ...errors('400', '403', '404', '409', '422') },
      },
    },
    [`${one}/runs/{run_id}/cancel`]: {
      post: {
        tags,
        summary: 'Cancel a run',
        parameters: [
          id,
          RUN_ID,
          query('session_id', STRING, 'Required for callers under user isolation'),
        ],
        responses: { '200': ok('Cancellation recorded', OBJECT), ...errors('400', '404') },
      },
    },
  };
}

/** The catalogue and run routes of the three families. */
export const CATALOGUE_PATHS: Paths = Object.assign({}, ...FAMILIES.map(familyPaths)) as Paths;
