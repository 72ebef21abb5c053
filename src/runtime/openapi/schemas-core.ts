/**
 * The OpenAPI schemas of the runtime's core records: errors,
 * the pagination envelope, the system routes, the catalogue, runs and their forms, sessions,
 * components and A2A. Data only; fields the runtime may add later are allowed (no
 * `additionalProperties: false`).
 */
import {
  ANY,
  arrayOf,
  EPOCH,
  INTEGER,
  ISO_TIME,
  nullable,
  object,
  OBJECT,
  STRING,
  type Json,
} from './parts.js';

const NSTRING = nullable(STRING);
const KIND = { type: 'string', enum: ['agent', 'team', 'workflow'] };
/** Core schemas by name. */
export const CORE_SCHEMAS: Readonly<Record<string, Json>> = {
  SessionSchema: object(
    {
      session_id: STRING,
      session_name: NSTRING,
      session_state: ANY,
      session_type: KIND,
      user_id: NSTRING,
      agent_id: NSTRING,
      team_id: NSTRING,
      workflow_id: NSTRING,
      session_summary: ANY,
      metrics: ANY,
      total_tokens: nullable(INTEGER),
      metadata: ANY,
      created_at: ISO_TIME,
      updated_at: ISO_TIME,
    },
    ['session_id'],
  ),
  SessionDetail: {
    ...object(
      {
        session_id: STRING,
        session_name: NSTRING,
        user_id: NSTRING,
        agent_id: NSTRING,
        team_id: NSTRING,
        workflow_id: NSTRING,
        session_state: ANY,
        session_summary: ANY,
        metadata: ANY,
        chat_history: arrayOf(OBJECT),
        created_at: ISO_TIME,
        updated_at: ISO_TIME,
      },
      ['session_id'],
    ),
    description: 'An agent, team or workflow session in detail',
  },
  SessionCreate: object({
    session_id: STRING,
    session_name: STRING,
    session_state: OBJECT,
    metadata: OBJECT,
    user_id: STRING,
    agent_id: STRING,
    team_id: STRING,
    workflow_id: STRING,
  }),
  SessionRename: object({ session_name: STRING }, ['session_name']),
  SessionUpdate: object({
    session_name: STRING,
    session_state: OBJECT,
    metadata: OBJECT,
    summary: object({ summary: STRING, topics: arrayOf(STRING), updated_at: STRING }, ['summary']),
  }),
  SessionsDelete: object(
    {
      session_ids: { type: 'array', items: STRING, minItems: 1 },
      session_types: { type: 'array', items: KIND, minItems: 1 },
    },
    ['session_ids', 'session_types'],
  ),
  ComponentConfigResponse: object(
    {
      component_id: STRING,
      version: INTEGER,
      label: STRING,
      stage: { type: 'string', enum: ['draft', 'published'] },
      config: OBJECT,
      notes: STRING,
      created_at: EPOCH,
      updated_at: EPOCH,
    },
    ['component_id', 'version', 'stage'],
  ),
  ComponentCreate: object(
    {
      name: STRING,
      component_id: STRING,
      component_type: KIND,
      description: NSTRING,
      metadata: nullable(OBJECT),
      config: OBJECT,
      label: NSTRING,
      stage: { type: 'string', enum: ['draft', 'published'], default: 'draft' },
      notes: NSTRING,
      set_current: { type: 'boolean', default: true },
    },
    ['name', 'component_type'],
  ),
  ConfigCreate: object(
    {
      config: OBJECT,
      version: INTEGER,
      label: NSTRING,
      stage: { type: 'string', enum: ['draft', 'published'], default: 'draft' },
      notes: NSTRING,
      links: arrayOf(OBJECT),
      set_current: { type: 'boolean', default: true },
    },
    ['config'],
  ),
  ConfigUpdate: object({
    config: OBJECT,
    label: NSTRING,
    stage: { type: 'string', enum: ['draft', 'published'] },
    notes: NSTRING,
    links: arrayOf(OBJECT),
  }),
};
