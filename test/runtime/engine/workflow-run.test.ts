/**
 * Workflows through runEntity: steps in order, each fed the previous step's content, executor
 * events nested with the step's fields; a step's error, pause or cancel ending the workflow.
 */
import t from 'tap';
import type { RunResult } from '../../../src/runtime/engine/run.js';
import type { RunEvent } from '../../../src/runtime/engine/events.js';
import type { WorkflowDefinition } from '../../../src/runtime/catalogue/definitions.js';
import {
  assertEnding,
  CLIENT_TOOL,
  NOW_S,
  makeAgent,
  makeTeam,
  makeWorkflow,
  named,
  names,
  only,
  cancelOn,
  cancelOnSleep,
  runToEnd,
  type RunOptions,
} from './fixtures/harness.js';

const WRITER = makeAgent({ id: 'writer', name: 'Writer' });
const CREW = makeTeam([makeAgent({ id: 'm1', name: 'M1' }), makeAgent({ id: 'm2', name: 'M2' })]);
const FLOW = makeWorkflow([
  { name: 'draft', executor: WRITER },
  { name: 'review', executor: CREW },
]);

const FLOW_COMMON = {
  created_at: NOW_S,
  workflow_id: 'flow',
  workflow_name: 'Flow',
  run_id: 'run-1',
  session_id: 'sess-1',
  nested_depth: 0,
};

function run(
  message: string,
  options: RunOptions & { workflow?: WorkflowDefinition } = {},
): Promise<{ events: RunEvent[]; result: RunResult }> {
  return runToEnd(options.workflow ?? FLOW, message, options);
}

/** The names of the events the workflow itself emitted. */
const own = (events: readonly RunEvent[]): string[] =>
  names(events.filter((event) => event['workflow_name'] === 'Flow'));

t.test(
  'steps run in order, each on the previous content; WorkflowCompleted has the last',
  async (t) => {
    const { events, result } = await run('hi');
    t.same(own(events), [
      'WorkflowStarted',
      'StepStarted',
      'StepCompleted',
      'StepStarted',
      'StepCompleted',
      'WorkflowCompleted',
    ]);
    t.same(names(events).slice(0, 3), ['WorkflowStarted', 'StepStarted', 'RunStarted']);
    t.same(only(events, 'WorkflowStarted'), { event: 'WorkflowStarted', ...FLOW_COMMON });
    const [draft, review] = named(events, 'StepStarted');
    t.same(draft, {
      event: 'StepStarted',
      ...FLOW_COMMON,
      step_name: 'draft',
      step_index: 0,
      step_id: 'id-1',
    });
    t.match(review, { step_name: 'review', step_index: 1 });
    const reviewId = review!['step_id'];
    t.same(named(events, 'StepCompleted')[0], {
      event: 'StepCompleted',
      ...FLOW_COMMON,
      step_name: 'draft',
      step_index: 0,
      step_id: 'id-1',
      content: 'Echo: hi',
      content_type: 'str',
    });
    const finalContent = 'Echo: Echo: hi\n\nEcho: Echo: hi';
    t.match(named(events, 'StepCompleted')[1], { content: finalContent });

    const agentEvents = events.filter((event) => event['agent_id'] === 'writer');
    t.ok(agentEvents.length > 0);
    for (const event of agentEvents) {
      t.match(event, {
        run_id: 'id-2',
        workflow_id: 'flow',
        workflow_run_id: 'run-1',
        step_id: 'id-1',
        step_name: 'draft',
        step_index: 0,
        nested_depth: 1,
      });
      t.notOk('parent_run_id' in event);
    }
    for (const event of events.filter((event) => 'team_id' in event)) {
      t.match(event, { step_id: reviewId, step_name: 'review', step_index: 1, nested_depth: 1 });
    }
    const members = events.filter(
      (event) => event['agent_id'] === 'm1' || event['agent_id'] === 'm2',
    );
    for (const event of members) {
      t.match(event, { step_id: reviewId, workflow_run_id: 'run-1', nested_depth: 2 });
    }
    t.match(only(events, 'TeamRunStarted'), { parent_run_id: undefined });
    t.equal(
      named(events, 'RunStarted')[1]!['parent_run_id'],
      named(events, 'TeamRunStarted')[0]!['run_id'],
    );

    const completed = only(events, 'WorkflowCompleted');
    t.match(completed, { ...FLOW_COMMON, content: finalContent, content_type: 'str' });
    const stepResults = completed['step_results'];
    t.match(stepResults, [
      {
        step_name: 'draft',
        step_id: 'id-1',
        step_type: 'Step',
        executor_type: 'agent',
        executor_name: 'Writer',
        content: 'Echo: hi',
        step_run_id: 'id-2',
        success: true,
        stop: false,
      },
      { step_name: 'review', executor_type: 'team', executor_name: 'Crew', content: finalContent },
    ]);
    t.notOk('error' in (stepResults as object[])[0]!);
    t.equal(result.status, 'COMPLETED');
    t.match(result.output, {
      run_id: 'run-1',
      workflow_id: 'flow',
      workflow_name: 'Flow',
      session_id: 'sess-1',
      user_id: 'alice',
      input: 'hi',
      content: finalContent,
      content_type: 'str',
      status: 'COMPLETED',
      created_at: NOW_S,
      step_results: stepResults,
      step_executor_runs: [
        { run_id: 'id-2', agent_id: 'writer', workflow_id: 'flow', content: 'Echo: hi' },
        { team_id: 'crew', workflow_id: 'flow', content: finalContent },
      ],
      metrics: { input_tokens: 1 + 2 + 2, output_tokens: 2 + 3 + 3 },
    });
    t.same(result.output['events'], events);
    t.notOk('paused_step_index' in result.output);
  },
);

t.test('steps share the session state', async (t) => {
  const reader = makeAgent({ id: 'reader', name: 'Reader' });
  const workflow = makeWorkflow([
    { name: 'set', executor: WRITER },
    { name: 'read', executor: reader },
  ]);
  const { result } = await run('/tool set_state {"key":"k","value":[1]}', { workflow });
  t.same(result.sessionState, { k: [1] });
  t.equal(result.output['content'], 'Echo: Tool set_state returned: ok');
});

t.test('a failing step: StepError, then WorkflowError; status ERROR', async (t) => {
  const ended = await run('/error no draft');
  const { events } = ended;
  t.same(names(events), [
    'WorkflowStarted',
    'StepStarted',
    'RunStarted',
    'ModelRequestStarted',
    'RunError',
    'StepError',
    'WorkflowError',
  ]);
  t.same(only(events, 'StepError'), {
    event: 'StepError',
    ...FLOW_COMMON,
    step_name: 'draft',
    step_index: 0,
    step_id: 'id-1',
    error: 'no draft',
  });
  assertEnding(t, ended, {
    event: { event: 'WorkflowError', ...FLOW_COMMON, error: 'no draft' },
    status: 'ERROR',
    output: {
      status: 'ERROR',
      content: 'no draft',
      step_results: [{ step_name: 'draft', success: false, error: 'no draft' }],
    },
  });
});

t.test('a step whose agent pauses pauses the workflow', async (t) => {
  const asker = makeAgent({ id: 'asker', name: 'Asker', tools: [CLIENT_TOOL] });
  const workflow = makeWorkflow([{ name: 'ask', executor: asker }]);
  const { events, result } = await run('/tool pick_color {}', { workflow });
  t.same(own(events), ['WorkflowStarted', 'StepStarted', 'StepExecutorPaused', 'WorkflowPaused']);
  t.same(names(events).slice(-3), ['RunPaused', 'StepExecutorPaused', 'WorkflowPaused']);
  t.match(only(events, 'StepExecutorPaused'), {
    step_name: 'ask',
    step_index: 0,
    executor_type: 'agent',
    executor_name: 'Asker',
    executor_run_id: 'id-2',
    requirements: [{ tool_execution: { tool_name: 'pick_color' } }],
  });
  t.match(only(events, 'WorkflowPaused'), {
    status: 'PAUSED',
    paused_step_index: 0,
    paused_step_name: 'ask',
    pause_kind: 'executor',
    step_results: [{ step_name: 'ask', success: false }],
    content: '',
  });
  t.equal(result.status, 'PAUSED');
  t.match(result.output, {
    status: 'PAUSED',
    paused_step_index: 0,
    paused_step_name: 'ask',
    pause_kind: 'executor',
  });
});

t.test('a step cancelled mid-stream cancels the workflow', async (t) => {
  const ended = await run('/slow 2 1', cancelOnSleep());
  t.same(names(ended.events).slice(-3), ['RunCancelled', 'RunCompleted', 'WorkflowCancelled']);
  assertEnding(t, ended, {
    event: { event: 'WorkflowCancelled', ...FLOW_COMMON, reason: 'Run run-1 was cancelled' },
    status: 'CANCELLED',
    output: { status: 'CANCELLED', content: '' },
  });
});

t.test('a cancel between steps stops before the next StepStarted', async (t) => {
  const { events, result } = await run('hi', cancelOn('StepCompleted'));
  t.same(own(events), ['WorkflowStarted', 'StepStarted', 'StepCompleted', 'WorkflowCancelled']);
  t.equal(result.status, 'CANCELLED');
  t.equal((result.output['step_results'] as unknown[]).length, 1);
});

t.test('a team step whose member fails fails the workflow', async (t) => {
  const workflow = makeWorkflow([{ name: 'crew', executor: CREW }]);
  const { events, result } = await run('/error crew down', { workflow });
  t.same(names(events).slice(-4), ['RunError', 'TeamRunError', 'StepError', 'WorkflowError']);
  t.match(result.output, { step_results: [{ executor_type: 'team', error: 'crew down' }] });
});
