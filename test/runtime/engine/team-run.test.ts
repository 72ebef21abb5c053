/**
 * Offline teams through runEntity: delegation to each member in order with the members' events
 * nested, the joined answer, the TeamRunOutput, and a member's error, pause or cancellation
 * ending the team.
 */
import t from 'tap';
import type { RunResult } from '../../../src/runtime/engine/run.js';
import type { RunEvent } from '../../../src/runtime/engine/events.js';
import type { TeamDefinition } from '../../../src/runtime/catalogue/definitions.js';
import {
  assertEnding,
  CLIENT_TOOL,
  NOW_S,
  makeAgent,
  makeTeam,
  named,
  names,
  only,
  cancelOn,
  cancelOnSleep,
  runToEnd,
  type RunOptions,
} from './fixtures/harness.js';

const ECHOER = makeAgent();
const SECOND = makeAgent({ id: 'second', name: 'Second' });
const TEAM = makeTeam([ECHOER, SECOND]);

const TEAM_COMMON = {
  created_at: NOW_S,
  team_id: 'crew',
  team_name: 'Crew',
  run_id: 'run-1',
  session_id: 'sess-1',
  nested_depth: 0,
};

/** The event names of one offline member answering `Echo: <one word>`. */
const MEMBER = [
  'RunStarted',
  'ModelRequestStarted',
  'RunContent',
  'RunContent',
  'ModelRequestCompleted',
  'RunContentCompleted',
  'RunCompleted',
];

function run(
  message: string,
  options: RunOptions & { team?: TeamDefinition } = {},
): Promise<{ events: RunEvent[]; result: RunResult }> {
  return runToEnd(options.team ?? TEAM, message, options);
}

t.test('each member in order, nested, then the joined answer as TeamRunContent', async (t) => {
  const { events, result } = await run('hi');
  t.same(names(events), [
    'TeamRunStarted',
    'TeamToolCallStarted',
    ...MEMBER,
    'TeamToolCallCompleted',
    'TeamToolCallStarted',
    ...MEMBER,
    'TeamToolCallCompleted',
    'TeamRunContent',
    'TeamRunContent',
    'TeamRunContent',
    'TeamRunContent',
    'TeamRunContentCompleted',
    'TeamRunCompleted',
  ]);
  t.same(only(events, 'TeamRunStarted'), {
    event: 'TeamRunStarted',
    ...TEAM_COMMON,
    model: 'offline-echo',
    model_provider: 'offline',
  });
  const [first, second] = named(events, 'TeamToolCallStarted');
  t.match(first, {
    ...TEAM_COMMON,
    tool: {
      tool_call_id: 'id-3',
      tool_name: 'delegate_task_to_member',
      tool_args: { member_id: 'echoer', task: 'hi' },
      child_run_id: 'id-2',
      result: null,
    },
  });
  t.match(second, { tool: { tool_args: { member_id: 'second' }, child_run_id: 'id-8' } });
  const memberEvents = events.filter((event) => 'agent_id' in event);
  t.equal(memberEvents.length, MEMBER.length * 2);
  for (const event of memberEvents) {
    t.match(event, { parent_run_id: 'run-1', nested_depth: 1, session_id: 'sess-1' });
  }
  t.same(
    [...new Set(memberEvents.map((event) => `${event['agent_id']}:${event['run_id']}`))],
    ['echoer:id-2', 'second:id-8'],
  );
  t.match(named(events, 'TeamToolCallCompleted'), [
    {
      tool: { tool_call_error: false, result: 'Echo: hi', child_run_id: 'id-2' },
      content: 'Echo: hi',
    },
    { tool: { result: 'Echo: hi', child_run_id: 'id-8' } },
  ]);
  t.same(
    named(events, 'TeamRunContent').map((event) => [event['content'], event['content_type']]),
    [
      ['Echo:', 'str'],
      [' hi', 'str'],
      ['\n\nEcho:', 'str'],
      [' hi', 'str'],
    ],
  );
  t.same(only(events, 'TeamRunCompleted'), {
    event: 'TeamRunCompleted',
    ...TEAM_COMMON,
    content: 'Echo: hi\n\nEcho: hi',
    content_type: 'str',
    metrics: { input_tokens: 2, output_tokens: 4, total_tokens: 6 },
    session_state: {},
  });
  t.equal(result.status, 'COMPLETED');
  const output = result.output;
  t.match(output, {
    run_id: 'run-1',
    team_id: 'crew',
    team_name: 'Crew',
    session_id: 'sess-1',
    user_id: 'alice',
    input: { input_content: 'hi' },
    content: 'Echo: hi\n\nEcho: hi',
    content_type: 'str',
    model: 'offline-echo',
    model_provider: 'offline',
    status: 'COMPLETED',
    created_at: NOW_S,
    session_state: {},
  });
  t.same(output['events'], events, 'the team run stores the whole stream');
  t.match(output['member_responses'], [
    {
      run_id: 'id-2',
      agent_id: 'echoer',
      parent_run_id: 'run-1',
      content: 'Echo: hi',
      status: 'COMPLETED',
    },
    { run_id: 'id-8', agent_id: 'second', parent_run_id: 'run-1' },
  ]);
  t.same(
    (output['member_responses'] as { events: RunEvent[] }[])[0]!.events,
    memberEvents.slice(0, MEMBER.length),
  );
  t.match(output['tools'], [
    { tool_call_id: 'id-3', result: 'Echo: hi' },
    { tool_call_id: 'id-9' },
  ]);
  t.match(output['messages'], [
    { id: 'id-1', role: 'user', content: 'hi' },
    {
      id: 'id-4',
      role: 'assistant',
      tool_calls: [{ id: 'id-3', function: { name: 'delegate_task_to_member' } }],
    },
    { id: 'id-7', role: 'tool', tool_call_id: 'id-3', content: 'Echo: hi' },
    { id: 'id-10', role: 'assistant' },
    { id: 'id-13', role: 'tool', tool_call_id: 'id-9' },
    { id: 'id-14', role: 'assistant', content: 'Echo: hi\n\nEcho: hi' },
  ]);
});

t.test('a team description becomes its system message', async (t) => {
  const { result } = await run('hi', { team: makeTeam([ECHOER], { description: 'Echo crew.' }) });
  t.match(result.output['messages'], [{ role: 'system', content: 'Echo crew.' }, { role: 'user' }]);
});

t.test('members share the session state: one sets, the next reads', async (t) => {
  const setter = makeAgent({ id: 'setter', name: 'Setter' });
  const { result } = await run('/tool set_state {"key":"n","value":7}', {
    team: makeTeam([setter]),
  });
  t.same(result.sessionState, { n: 7 });
  t.same(result.output['session_state'], { n: 7 });
});

t.test('a member error ends the team with TeamRunError, status ERROR', async (t) => {
  const ended = await run('/error member down');
  const { events, result } = ended;
  t.same(names(events), [
    'TeamRunStarted',
    'TeamToolCallStarted',
    'RunStarted',
    'ModelRequestStarted',
    'RunError',
    'TeamRunError',
  ]);
  assertEnding(t, ended, {
    event: { event: 'TeamRunError', ...TEAM_COMMON, content: 'member down' },
    status: 'ERROR',
    output: {
      status: 'ERROR',
      content: 'member down',
      tools: [{ tool_call_error: true, result: 'member down' }],
      member_responses: [{ status: 'ERROR' }],
    },
  });
  t.match(result.output['messages'], [{}, {}, { role: 'tool', tool_call_error: true }]);
});

t.test('a member pausing on a client tool pauses the team: TeamRunPaused', async (t) => {
  const asker = makeAgent({ id: 'asker', name: 'Asker', tools: [CLIENT_TOOL] });
  const { events, result } = await run('/tool pick_color {}', { team: makeTeam([asker, SECOND]) });
  t.same(names(events), [
    'TeamRunStarted',
    'TeamToolCallStarted',
    'RunStarted',
    'ModelRequestStarted',
    'ModelRequestCompleted',
    'RunPaused',
    'TeamRunPaused',
  ]);
  const paused = only(events, 'TeamRunPaused');
  t.match(paused, {
    ...TEAM_COMMON,
    content: '',
    tools: [{ tool_name: 'pick_color', external_execution_required: true }],
    requirements: [
      {
        id: 'id-8',
        tool_execution: { tool_call_id: 'id-6', tool_name: 'pick_color' },
        member_agent_id: 'asker',
        member_agent_name: 'Asker',
        member_run_id: 'id-2',
      },
    ],
  });
  t.equal(result.status, 'PAUSED');
  t.match(result.output, {
    status: 'PAUSED',
    requirements: [{ member_agent_id: 'asker' }],
    tools: [{ tool_name: 'delegate_task_to_member', result: null }],
    member_responses: [{ status: 'PAUSED' }],
  });
});

t.test('a member cancelled mid-stream cancels the team', async (t) => {
  const ended = await run('/slow 3 5', cancelOnSleep());
  const { events } = ended;
  t.same(names(events), [
    'TeamRunStarted',
    'TeamToolCallStarted',
    'RunStarted',
    'ModelRequestStarted',
    'RunContent',
    'RunCancelled',
    'RunCompleted',
    'TeamRunCancelled',
    'TeamRunCompleted',
  ]);
  t.match(only(events, 'RunCancelled'), { run_id: 'id-2', reason: 'Run id-2 was cancelled' });
  assertEnding(t, ended, {
    event: { event: 'TeamRunCancelled', ...TEAM_COMMON, reason: 'Run run-1 was cancelled' },
    status: 'CANCELLED',
    output: { status: 'CANCELLED', content: '', member_responses: [{ status: 'CANCELLED' }] },
  });
});

t.test('a cancel between members stops before the next delegation', async (t) => {
  const { events, result } = await run('hi', cancelOn('TeamToolCallCompleted'));
  t.same(names(events), [
    'TeamRunStarted',
    'TeamToolCallStarted',
    ...MEMBER,
    'TeamToolCallCompleted',
    'TeamRunCancelled',
    'TeamRunCompleted',
  ]);
  t.equal(result.status, 'CANCELLED');
});

t.test('a cancel during the team answer keeps the part already streamed', async (t) => {
  const { events, result } = await run('hi', cancelOn('TeamRunContent'));
  t.same(names(events).slice(-3), ['TeamRunContent', 'TeamRunCancelled', 'TeamRunCompleted']);
  t.equal(only(events, 'TeamRunCompleted')['content'], 'Echo:');
  t.match(result.output, { status: 'CANCELLED', content: 'Echo:' });
});

t.test('a cancel before the team starts', async (t) => {
  const { events } = await run('hi', { request: { cancel: { cancelled: true } } });
  t.same(names(events), ['TeamRunStarted', 'TeamRunCancelled', 'TeamRunCompleted']);
});
