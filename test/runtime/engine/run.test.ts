/**
 * runEntity with agents on the offline model: the exact event sequence and key payloads of every
 * directive, the run output, each built-in tool, pauses on client
 * tools, unknown tools and providers, and cancellation; and one agent on an OpenAI-compatible
 * model, against a fake chat-completions server, through a tool turn and an answer turn.
 */
import t from 'tap';
import type { RunResult } from '../../../src/runtime/engine/run.js';
import {
  CLIENT_TOOL,
  NOW_S,
  makeAgent,
  named,
  names,
  only,
  testDeps,
  cancelOn,
  AGENT_COMMON,
  runToEnd,
  type RunOptions,
} from './fixtures/harness.js';
import { buildCatalogue } from '../../../src/runtime/catalogue/resolve.js';
import type { AgentDefinition } from '../../../src/runtime/catalogue/definitions.js';
import type { RunEvent } from '../../../src/runtime/engine/events.js';
import {
  API_KEY,
  delta,
  startChatServer,
  streamEvents,
  usage,
} from '../model/fixtures/chat-server.js';

/** Fields every event of the top-level agent run carries. */
const COMMON = AGENT_COMMON;
const MODEL = { model: 'offline-echo', model_provider: 'offline' };

function run(
  message: string,
  options: RunOptions & { agent?: AgentDefinition } = {},
): Promise<{ events: RunEvent[]; result: RunResult }> {
  return runToEnd(options.agent ?? makeAgent(), message, options);
}

const deltas = (events: readonly RunEvent[], name = 'RunContent'): unknown[] =>
  named(events, name).map((event) => event['content']);

const TOOL_TURN = [
  'RunStarted',
  'ModelRequestStarted',
  'ModelRequestCompleted',
  'ToolCallStarted',
  'ToolCallCompleted',
  'ModelRequestStarted',
];

t.test('plain text: every event and the whole run output', async (t) => {
  const { events, result } = await run('hi there');
  const content = (delta: string) => ({
    event: 'RunContent',
    ...COMMON,
    content: delta,
    content_type: 'str',
    workflow_agent: false,
  });
  const tokens = { input_tokens: 2, output_tokens: 3, total_tokens: 5 };
  const metrics = {
    ...tokens,
    details: { model: [{ id: 'offline-echo', provider: 'offline', ...tokens }] },
  };
  t.same(events, [
    { event: 'RunStarted', ...COMMON, ...MODEL },
    { event: 'ModelRequestStarted', ...COMMON, ...MODEL },
    content('Echo:'),
    content(' hi'),
    content(' there'),
    {
      event: 'ModelRequestCompleted',
      ...COMMON,
      ...MODEL,
      ...tokens,
      time_to_first_token: 0,
      reasoning_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
    },
    { event: 'RunContentCompleted', ...COMMON },
    {
      event: 'RunCompleted',
      ...COMMON,
      content: 'Echo: hi there',
      content_type: 'str',
      metrics,
      session_state: {},
    },
  ]);
  const message = { from_history: false, stop_after_tool_call: false, created_at: NOW_S };
  t.same(result, {
    status: 'COMPLETED',
    sessionState: {},
    checkpoint: null,
    output: {
      run_id: 'run-1',
      agent_id: 'echoer',
      agent_name: 'Echoer',
      session_id: 'sess-1',
      user_id: 'alice',
      input: { input_content: 'hi there' },
      content: 'Echo: hi there',
      content_type: 'str',
      ...MODEL,
      messages: [
        { id: 'id-1', role: 'user', content: 'hi there', ...message },
        { id: 'id-2', role: 'assistant', content: 'Echo: hi there', ...message },
      ],
      metrics,
      session_state: {},
      created_at: NOW_S,
      events,
      status: 'COMPLETED',
    },
  });
});

t.test('a null user id is left out of the output', async (t) => {
  const { result } = await run('hi', { request: { userId: null } });
  t.notOk('user_id' in result.output);
});

t.test('description and instructions become the system message', async (t) => {
  const agent = makeAgent({ description: 'An echo bot.', instructions: 'Repeat.' });
  const { result } = await run('hi', { agent });
  t.match(result.output['messages'], [
    { id: 'id-1', role: 'system', content: 'An echo bot.\n\nRepeat.' },
    { id: 'id-2', role: 'user', content: 'hi' },
    { id: 'id-3', role: 'assistant', content: 'Echo: hi' },
  ]);
  const started = only((await run('hi', { agent })).events, 'ModelRequestCompleted');
  t.equal(started['input_tokens'], 5, 'the system prompt counts as input');
});

t.test('/tool add: a server tool turn, then the answer from its result', async (t) => {
  const { events, result } = await run('/tool add {"a": 2, "b": 3}');
  t.same(names(events), [
    ...TOOL_TURN,
    'RunContent',
    'RunContent',
    'RunContent',
    'RunContent',
    'ModelRequestCompleted',
    'RunContentCompleted',
    'RunCompleted',
  ]);
  const started = only(events, 'ToolCallStarted');
  t.match(started, { ...COMMON, tool: { tool_call_id: 'id-2', tool_name: 'add', result: null } });
  t.same((started['tool'] as Record<string, unknown>)['tool_args'], { a: 2, b: 3 });
  const completed = only(events, 'ToolCallCompleted');
  const tool = {
    tool_call_id: 'id-2',
    tool_name: 'add',
    tool_args: { a: 2, b: 3 },
    tool_call_error: false,
    result: '5',
    metrics: { start_time: NOW_S, end_time: NOW_S, duration: 0 },
    child_run_id: null,
    stop_after_tool_call: false,
    created_at: NOW_S,
    requires_confirmation: null,
    confirmed: null,
    confirmation_note: null,
    requires_user_input: null,
    user_input_schema: null,
    user_feedback_schema: null,
    answered: null,
    external_execution_required: null,
    external_execution_silent: null,
    approval_type: null,
    approval_id: null,
  };
  t.same(completed, { event: 'ToolCallCompleted', ...COMMON, tool, content: '5' });
  t.same(deltas(events), ['Tool', ' add', ' returned:', ' 5']);
  t.equal(only(events, 'RunCompleted')['content'], 'Tool add returned: 5');
  t.same(result.output['tools'], [tool]);
  t.match(result.output['messages'], [
    { id: 'id-1', role: 'user' },
    {
      id: 'id-3',
      role: 'assistant',
      tool_calls: [
        { id: 'id-2', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
      ],
    },
    {
      id: 'id-4',
      role: 'tool',
      content: '5',
      tool_call_id: 'id-2',
      tool_name: 'add',
      tool_call_error: false,
    },
    { id: 'id-5', role: 'assistant', content: 'Tool add returned: 5' },
  ]);
  t.notOk(
    'content' in (result.output['messages'] as Record<string, unknown>[])[1]!,
    'no null content',
  );
  // turn 1: in `/tool add {"a": 2, "b": 3}` 6 words, out `add {"a":2,"b":3}` 2; turn 2: in 6+2+1, out 4
  t.same(
    named(events, 'ModelRequestCompleted').map((e) => [e['input_tokens'], e['output_tokens']]),
    [
      [6, 2],
      [9, 4],
    ],
  );
  t.match(result.output['metrics'], { input_tokens: 15, output_tokens: 6, total_tokens: 21 });
});

t.test('/tool echo returns its text', async (t) => {
  const { result } = await run('/tool echo {"text": "a b"}');
  t.equal(result.output['content'], 'Tool echo returned: a b');
  t.equal(result.status, 'COMPLETED');
});

t.test(
  '/tool fail: ToolCallCompleted with the error, ToolCallError, then the answer',
  async (t) => {
    const { events, result } = await run('/tool fail');
    t.same(names(events), [
      ...TOOL_TURN.slice(0, 5),
      'ToolCallError',
      'ModelRequestStarted',
      ...Array(8).fill('RunContent'),
      'ModelRequestCompleted',
      'RunContentCompleted',
      'RunCompleted',
    ]);
    const error = only(events, 'ToolCallError');
    t.match(error, {
      ...COMMON,
      tool: { tool_name: 'fail', tool_call_error: true, result: 'fail: this tool always fails' },
      error: 'fail: this tool always fails',
    });
    t.match(only(events, 'ToolCallCompleted'), { tool: { tool_call_error: true } });
    t.equal(result.status, 'COMPLETED', 'a tool error is the model’s to handle');
    t.equal(result.output['content'], 'Tool fail returned: fail: this tool always fails');
    t.match(result.output['messages'], [{}, {}, { role: 'tool', tool_call_error: true }, {}]);
  },
);

t.test('/tool set_state changes the session state; the request’s stays untouched', async (t) => {
  const sessionState = { keep: true };
  const { events, result } = await run('/tool set_state {"key": "color", "value": "red"}', {
    request: { sessionState },
  });
  t.equal(result.output['content'], 'Tool set_state returned: ok');
  t.same(result.sessionState, { keep: true, color: 'red' });
  t.same(result.output['session_state'], { keep: true, color: 'red' });
  t.same(only(events, 'RunCompleted')['session_state'], { keep: true, color: 'red' });
  t.same(sessionState, { keep: true }, 'the request’s state is copied');
});

t.test('/tool get_state reads the session state going in', async (t) => {
  const { result } = await run('/tool get_state {"key": "color"}', {
    request: { sessionState: { color: 'blue' } },
  });
  t.equal(result.output['content'], 'Tool get_state returned: blue');
});

t.test('/think: reasoning events, then the echo, reasoning_content kept', async (t) => {
  const { events, result } = await run('/think first second');
  t.same(names(events), [
    'RunStarted',
    'ModelRequestStarted',
    'ReasoningStarted',
    'ReasoningContentDelta',
    'ReasoningContentDelta',
    'ReasoningCompleted',
    'RunContent',
    'RunContent',
    'RunContent',
    'ModelRequestCompleted',
    'RunContentCompleted',
    'RunCompleted',
  ]);
  t.same(only(events, 'ReasoningStarted'), { event: 'ReasoningStarted', ...COMMON });
  t.same(
    named(events, 'ReasoningContentDelta').map((e) => e['reasoning_content']),
    ['first', ' second'],
  );
  t.match(only(events, 'ReasoningCompleted'), { content: 'first second', content_type: 'str' });
  t.same(deltas(events), ['Echo:', ' first', ' second']);
  t.match(only(events, 'ModelRequestCompleted'), { output_tokens: 5, reasoning_tokens: 2 });
  t.match(only(events, 'RunCompleted'), {
    content: 'Echo: first second',
    reasoning_content: 'first second',
    metrics: { reasoning_tokens: 2 },
  });
  t.equal(result.output['reasoning_content'], 'first second');
  t.match(result.output['messages'], [
    {},
    { role: 'assistant', reasoning_content: 'first second' },
  ]);
});

t.test('/error: RunError with the message, status ERROR, content the message', async (t) => {
  const { events, result } = await run('/error the model broke');
  t.same(names(events), ['RunStarted', 'ModelRequestStarted', 'RunError']);
  t.same(only(events, 'RunError'), { event: 'RunError', ...COMMON, content: 'the model broke' });
  t.equal(result.status, 'ERROR');
  t.match(result.output, { status: 'ERROR', content: 'the model broke' });
  t.same(result.output['metrics'], {}, 'no model turn finished');
});

t.test('/slow: N deltas, MS apart through deps.sleep', async (t) => {
  const sleeps: number[] = [];
  const deps = testDeps({ sleep: async (ms) => void sleeps.push(ms) });
  const { events, result } = await run('/slow 3 40', { deps });
  t.same(deltas(events), ['1', ' 2', ' 3']);
  t.same(sleeps, [40, 40]);
  t.equal(result.output['content'], '1 2 3');
});

t.test(
  '/slow cancelled from inside sleep: RunCancelled then RunCompleted, status CANCELLED',
  async (t) => {
    const cancel = { cancelled: false };
    let sleeps = 0;
    const deps = testDeps({
      sleep: async () => {
        sleeps += 1;
        if (sleeps === 2) cancel.cancelled = true;
      },
    });
    const { events, result } = await run('/slow 5 10', { deps, request: { cancel } });
    t.same(names(events), [
      'RunStarted',
      'ModelRequestStarted',
      'RunContent',
      'RunContent',
      'RunCancelled',
      'RunCompleted',
    ]);
    t.same(only(events, 'RunCancelled'), {
      event: 'RunCancelled',
      ...COMMON,
      reason: 'Run run-1 was cancelled',
    });
    t.match(only(events, 'RunCompleted'), { content: '1 2', content_type: 'str' });
    t.equal(result.status, 'CANCELLED');
    t.match(result.output, { status: 'CANCELLED', content: '1 2' });
    t.equal(sleeps, 2, 'the model stopped');
  },
);

t.test('a cancel set between deltas stops the run at the next delta', async (t) => {
  const { events, result } = await run('one two three four', cancelOn('RunContent'));
  t.same(names(events), [
    'RunStarted',
    'ModelRequestStarted',
    'RunContent',
    'RunCancelled',
    'RunCompleted',
  ]);
  t.equal(result.output['content'], 'Echo:');
});

t.test('a cancel set before the run starts: RunStarted, RunCancelled, RunCompleted', async (t) => {
  const { events, result } = await run('hi', { request: { cancel: { cancelled: true } } });
  t.same(names(events), ['RunStarted', 'RunCancelled', 'RunCompleted']);
  t.equal(result.status, 'CANCELLED');
});

t.test('a cancel during a tool turn stops before the next model turn', async (t) => {
  const { events } = await run('/tool echo {"text":"x"}', cancelOn('ToolCallCompleted'));
  t.same(names(events), [...TOOL_TURN.slice(0, 5), 'RunCancelled', 'RunCompleted']);
});

t.test(
  'a configured client tool pauses the run: RunPaused with tools and requirements',
  async (t) => {
    const agent = makeAgent({ tools: [CLIENT_TOOL] });
    const { events, result } = await run('/tool pick_color {"for": "car"}', { agent });
    t.same(names(events), [
      'RunStarted',
      'ModelRequestStarted',
      'ModelRequestCompleted',
      'RunPaused',
    ]);
    const paused = only(events, 'RunPaused');
    const tool = {
      tool_call_id: 'id-2',
      tool_name: 'pick_color',
      tool_args: { for: 'car' },
      tool_call_error: null,
      result: null,
      metrics: null,
      child_run_id: null,
      stop_after_tool_call: false,
      created_at: NOW_S,
      requires_confirmation: null,
      confirmed: null,
      confirmation_note: null,
      requires_user_input: null,
      user_input_schema: null,
      user_feedback_schema: null,
      answered: null,
      external_execution_required: true,
      external_execution_silent: null,
      approval_type: null,
      approval_id: null,
    };
    const requirement = { id: 'id-4', created_at: '2025-06-15T15:13:20Z', tool_execution: tool };
    t.same(paused, {
      event: 'RunPaused',
      ...COMMON,
      tools: [tool],
      requirements: [requirement],
      content: '',
    });
    t.equal(result.status, 'PAUSED');
    t.match(result.output, {
      status: 'PAUSED',
      content: '',
      tools: [tool],
      requirements: [requirement],
    });
    t.match(result.output['messages'], [
      { role: 'user' },
      { role: 'assistant', tool_calls: [{ id: 'id-2', function: { name: 'pick_color' } }] },
    ]);
    t.equal((result.output['messages'] as unknown[]).length, 2, 'no tool result yet');
  },
);

t.test('a configured tool named like a built-in wins: external echo pauses', async (t) => {
  const agent = makeAgent({ tools: [{ ...CLIENT_TOOL, name: 'echo' }] });
  const { result } = await run('/tool echo {"text":"x"}', { agent });
  t.equal(result.status, 'PAUSED');
});

t.test('a configured server tool without an implementation is a tool error', async (t) => {
  const agent = makeAgent({
    tools: [{ ...CLIENT_TOOL, name: 'lookup', external_execution: false }],
  });
  const { events, result } = await run('/tool lookup {}', { agent });
  t.match(only(events, 'ToolCallError'), { error: 'Tool lookup has no server implementation' });
  t.equal(
    result.output['content'],
    'Tool lookup returned: Tool lookup has no server implementation',
  );
});

t.test('/tool of a tool neither built-in nor configured: RunError Unknown tool NAME', async (t) => {
  const { events, result } = await run('/tool pick_color {}');
  t.same(names(events), ['RunStarted', 'ModelRequestStarted', 'RunError']);
  t.equal(only(events, 'RunError')['content'], 'Unknown tool pick_color');
  t.equal(result.status, 'ERROR');
});

t.test('an agent whose model provider is unknown fails after RunStarted', async (t) => {
  const agent = makeAgent({ model: { id: 'gpt-x', provider: 'openai-compatible' } });
  const { events, result } = await run('hi', { agent });
  t.same(names(events), ['RunStarted', 'RunError']);
  t.match(only(events, 'RunStarted'), { model: 'gpt-x', model_provider: 'openai-compatible' });
  t.equal(only(events, 'RunError')['content'], 'Unknown model provider openai-compatible');
  t.match(result.output, { status: 'ERROR', model: 'gpt-x', model_provider: 'openai-compatible' });
});

t.test('timing comes from the clock: created_at, time to first token, durations', async (t) => {
  // Each clock read advances 1 s, so every timing is a count of reads in between.
  const { events, result } = await run('/tool add {"a":1,"b":1}', {
    deps: testDeps({ tickMs: 1000 }),
  });
  const createdAt = events.map((event) => event['created_at'] as number);
  t.same(
    createdAt,
    [...createdAt].sort((a, b) => a - b),
    'created_at never goes back',
  );
  t.ok(createdAt.at(-1)! > createdAt[0]!, 'time passed');
  for (const event of named(events, 'ModelRequestCompleted')) {
    t.ok((event['time_to_first_token'] as number) > 0, 'time to first token measured');
  }
  const tool = only(events, 'ToolCallCompleted')['tool'] as { metrics: Record<string, number> };
  t.ok(tool.metrics['duration']! > 0);
  t.equal(tool.metrics['end_time']! - tool.metrics['start_time']!, tool.metrics['duration']);
  const metrics = result.output['metrics'] as Record<string, number>;
  t.ok(metrics['duration']! > metrics['time_to_first_token']!);
  t.ok(metrics['time_to_first_token']! > 0);
});

t.test('an agent on an openai-compatible model: tool turn (add), then the answer', async (t) => {
  const server = await startChatServer(t, (_request, res, index) =>
    index === 0
      ? streamEvents(res, [
          delta({
            role: 'assistant',
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: 'add', arguments: '' },
              },
            ],
          }),
          delta({ tool_calls: [{ index: 0, function: { arguments: '{"a":2,' } }] }),
          delta({ tool_calls: [{ index: 0, function: { arguments: '"b":3}' } }] }, 'tool_calls'),
          usage(30, 8),
        ])
      : streamEvents(res, [
          delta({ content: 'The sum' }),
          delta({ content: ' is 5.' }, 'stop'),
          usage(45, 5),
        ]),
  );
  const built = buildCatalogue({
    models: [
      {
        id: 'main',
        provider: 'openai-compatible',
        base_url: `${server.origin}/v1`,
        api_key: API_KEY,
        model: 'gpt-test',
      },
    ],
    agents: [
      { id: 'calc', name: 'Calc', instructions: 'Use tools.', model: 'main', tools: ['add'] },
    ],
  });
  const agent = built.catalogue?.agents.get('calc') as AgentDefinition;
  const { events, result } = await run('add 2 and 3', { agent });
  t.same(names(events), [
    'RunStarted',
    'ModelRequestStarted',
    'ModelRequestCompleted',
    'ToolCallStarted',
    'ToolCallCompleted',
    'ModelRequestStarted',
    'RunContent',
    'RunContent',
    'ModelRequestCompleted',
    'RunContentCompleted',
    'RunCompleted',
  ]);
  const model = { model: 'gpt-test', model_provider: 'openai-compatible' };
  t.match(only(events, 'RunStarted'), model);
  t.match(only(events, 'ToolCallStarted'), {
    tool: { tool_call_id: 'call_1', tool_name: 'add', tool_args: { a: 2, b: 3 } },
  });
  t.match(only(events, 'ToolCallCompleted'), { tool: { result: '5' }, content: '5' });
  t.same(deltas(events), ['The sum', ' is 5.']);
  t.same(
    named(events, 'ModelRequestCompleted').map((e) => [e['input_tokens'], e['output_tokens']]),
    [
      [30, 8],
      [45, 5],
    ],
    'token counts are the provider usage',
  );
  t.match(only(events, 'RunCompleted'), {
    content: 'The sum is 5.',
    metrics: {
      input_tokens: 75,
      output_tokens: 13,
      total_tokens: 88,
      details: { model: [{ id: 'gpt-test', provider: 'openai-compatible' }] },
    },
  });
  t.equal(result.status, 'COMPLETED');
  t.match(result.output, { model: 'gpt-test', model_provider: 'openai-compatible' });
  t.same(
    server.requests.map((r) => r.path),
    ['/v1/chat/completions', '/v1/chat/completions'],
  );
  t.same(server.requests[0]?.body['messages'], [
    { role: 'system', content: 'Use tools.' },
    { role: 'user', content: 'add 2 and 3' },
  ]);
  t.match(server.requests[0]?.body['tools'], [{ type: 'function', function: { name: 'echo' } }]);
  t.same(server.requests[1]?.body['messages'], [
    { role: 'system', content: 'Use tools.' },
    { role: 'user', content: 'add 2 and 3' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '5' },
  ]);
  t.notMatch(JSON.stringify(result.output), API_KEY, 'the key is nowhere in the run output');
});
