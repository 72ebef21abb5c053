/**
 * OpenAPI paths of schedules and approvals. Data only.
 */
import {
  BOOLEAN,
  empty,
  errors,
  jsonBody,
  limit,
  ok,
  PAGE,
  paginated,
  pathParam,
  query,
  ref,
  STRING,
  USER_ID,
  type Paths,
} from './parts.js';

const SCHEDULE = pathParam('schedule_id', 'Schedule id');
const APPROVAL = pathParam('approval_id', 'Approval id');
const SCHEDULES = ['Schedules'];
const APPROVALS = ['Approvals'];

/** The schedule routes. */
export const SCHEDULE_PATHS: Paths = {
  '/schedules': {
    get: {
      tags: SCHEDULES,
      summary: 'List schedules',
      parameters: [query('enabled', BOOLEAN), limit(100, 1000), PAGE],
      responses: {
        '200': ok('Schedules', paginated(ref('Schedule'))),
        ...errors('422', '503'),
      },
    },
    post: {
      tags: SCHEDULES,
      summary: 'Create a schedule',
      requestBody: jsonBody(ref('ScheduleCreate')),
      responses: {
        '201': ok('Created', ref('Schedule')),
        ...errors('409', '422', '503'),
      },
    },
  },
  '/schedules/{schedule_id}': {
    get: {
      tags: SCHEDULES,
      summary: 'One schedule',
      parameters: [SCHEDULE],
      responses: { '200': ok('The schedule', ref('Schedule')), ...errors('404', '503') },
    },
    patch: {
      tags: SCHEDULES,
      summary: 'Update a schedule',
      parameters: [SCHEDULE],
      requestBody: jsonBody(ref('ScheduleUpdate')),
      responses: {
        '200': ok('Updated', ref('Schedule')),
        ...errors('404', '409', '422', '503'),
      },
    },
    delete: {
      tags: SCHEDULES,
      summary: 'Delete a schedule',
      parameters: [SCHEDULE],
      responses: { '204': empty('Deleted'), ...errors('404', '503') },
    },
  },
  '/schedules/{schedule_id}/enable': {
    post: {
      tags: SCHEDULES,
      summary: 'Enable a schedule',
      parameters: [SCHEDULE],
      responses: { '200': ok('Enabled', ref('ScheduleState')), ...errors('404', '503') },
    },
  },
  '/schedules/{schedule_id}/disable': {
    post: {
      tags: SCHEDULES,
      summary: 'Disable a schedule',
      parameters: [SCHEDULE],
      responses: { '200': ok('Disabled', ref('ScheduleState')), ...errors('404', '503') },
    },
  },
  '/schedules/{schedule_id}/trigger': {
    post: {
      tags: SCHEDULES,
      summary: 'Run a schedule now (through the gateway) and wait for it',
      parameters: [SCHEDULE],
      responses: {
        '200': ok('The schedule run', ref('ScheduleRun')),
        ...errors('404', '409', '503'),
      },
    },
  },
  '/schedules/{schedule_id}/runs': {
    get: {
      tags: SCHEDULES,
      summary: "A schedule's run history",
      parameters: [SCHEDULE, limit(100, 1000), PAGE],
      responses: {
        '200': ok('Schedule runs', paginated(ref('ScheduleRun'))),
        ...errors('404', '422', '503'),
      },
    },
  },
  '/schedules/{schedule_id}/runs/{run_id}': {
    get: {
      tags: SCHEDULES,
      summary: 'One schedule run',
      parameters: [SCHEDULE, pathParam('run_id', 'Schedule run id')],
      responses: { '200': ok('The schedule run', ref('ScheduleRun')), ...errors('404', '503') },
    },
  },
};

/** The approval routes. */
export const APPROVAL_PATHS: Paths = {
  '/approvals': {
    get: {
      tags: APPROVALS,
      summary: 'List approvals',
      parameters: [
        query('status', STRING),
        query('source_type', STRING),
        query('approval_type', STRING),
        query('pause_type', STRING),
        query('agent_id', STRING),
        query('team_id', STRING),
        query('workflow_id', STRING),
        USER_ID,
        query('schedule_id', STRING),
        query('run_id', STRING),
        limit(100, 1000),
        PAGE,
      ],
      responses: {
        '200': ok('Approvals', paginated(ref('Approval'))),
        ...errors('422', '503'),
      },
    },
  },
  '/approvals/count': {
    get: {
      tags: APPROVALS,
      summary: 'Number of pending approvals',
      parameters: [USER_ID],
      responses: { '200': ok('The count', ref('ApprovalCount')), ...errors('503') },
    },
  },
  '/approvals/{approval_id}': {
    get: {
      tags: APPROVALS,
      summary: 'One approval',
      parameters: [APPROVAL],
      responses: { '200': ok('The approval', ref('Approval')), ...errors('404', '503') },
    },
    delete: {
      tags: APPROVALS,
      summary: 'Delete an approval',
      parameters: [APPROVAL],
      responses: { '204': empty('Deleted'), ...errors('404', '500', '503') },
    },
  },
  '/approvals/{approval_id}/status': {
    get: {
      tags: APPROVALS,
      summary: "An approval's status",
      parameters: [APPROVAL],
      responses: { '200': ok('The status', ref('ApprovalStatus')), ...errors('404', '503') },
    },
  },
  '/approvals/{approval_id}/resolve': {
    post: {
      tags: APPROVALS,
      summary: 'Approve or reject (resumes the run accordingly)',
      parameters: [APPROVAL],
      requestBody: jsonBody(ref('ApprovalResolve')),
      responses: {
        '200': ok('The resolved approval', ref('Approval')),
        ...errors('404', '409', '422', '503'),
      },
    },
  },
};
