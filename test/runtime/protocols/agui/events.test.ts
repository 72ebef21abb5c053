/**
 * The Agno → AG-UI event mapper, fed hand-made engine events: each Agno event
 * kind, the completion of a finished, paused, cancelled or failed run, team runs, and — for the
 * sequences a client receives — the real @ag-ui/client verifier accepting them.
 */
import t from 'tap';
import { AguiEventMapper, type AguiStream } from '../../../../src/runtime/protocols/agui/events.js';
import { createEvent, type RunEvent } from '../../../../src/runtime/engine/events.js';
import { encodeEvents, replayWithClient, typesOf } from '../../fixtures/agui.js';

/** A mapper with ids m-1, m-2, … ; thread th-1, run r-1, no snapshots unless told. */
function mapper(stream: Partial<AguiStream> = {}): AguiEventMapper {
  let ids = 0;
  return new AguiEventMapper({
    threadId: 'th-1',
    runId: 'r-1',
    state: {},
    snapshots: false,
    newId: () => `m-${++ids}`,
    ...stream,
  });
}

/** Everything a stream of `events` writes: start, each event, end. */
function streamOf(events: readonly RunEvent[], stream: Partial<AguiStream> = {}) {
  const m = mapper(stream);
  return [...m.start(), ...events.flatMap((event) => m.map(event)), ...m.end()];
}

/** An engine event of the top-level run (nested_depth 0) or of a member (depth 1). */
const top = (name: string, fields: Record<string, unknown> = {}): RunEvent =>
  createEvent(name, { run_id: 'run-x', nested_depth: 0 }, fields);
const member = (name: string, fields: Record<string, unknown> = {}): RunEvent =>
  createEvent(name, { run_id: 'member-x', nested_depth: 1 }, fields);

/** A ToolExecution as the engine's tool events carry it. */
const tool = (id: string, name: string, args: object, extra: Record<string, unknown> = {}) => ({
  tool_call_id: id,
  tool_name: name,
  tool_args: args,
  tool_call_error: null,
  result: null,
  ...extra,
});
const started = (id: string, name: string, args: object = {}) =>
  top('ToolCallStarted', { tool: tool(id, name, args) });
const completed = (id: string, name: string, args: object, result: unknown, error = false) =>
  top('ToolCallCompleted', { tool: tool(id, name, args, { result, tool_call_error: error }) });

const RUN_STARTED = { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r-1' };
const RUN_FINISHED = { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r-1' };
const raw = (event: RunEvent) => ({ type: 'RAW', event, source: 'agno' });

t.test('RunContent: a text message opened once, one CONTENT per non-empty delta', async (t) => {
  const first = top('RunStarted');
  const events = streamOf([
    first,
    top('RunContent', { content: 'Echo:' }),
    top('RunContent', { content: '' }),
    top('RunContent', { content: ' hi' }),
    top('RunCompleted', { content: 'Echo: hi' }),
  ]);
  t.same(events, [
    RUN_STARTED,
    raw(first),
    { type: 'TEXT_MESSAGE_START', messageId: 'm-1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm-1', delta: 'Echo:' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm-1', delta: ' hi' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm-1' },
    RUN_FINISHED,
  ]);
  const replay = await replayWithClient(encodeEvents(events));
  t.match(replay.agent.messages, [{ id: 'm-1', role: 'assistant', content: 'Echo: hi' }]);
});

t.test('RunContent without content opens the message and adds nothing', async (t) => {
  t.same(streamOf([top('RunContent')]).slice(1, 2), [
    { type: 'TEXT_MESSAGE_START', messageId: 'm-1', role: 'assistant' },
  ]);
});

t.test('a given state: snapshots at the start and, from RunCompleted, at the end', async (t) => {
  const events = streamOf([top('RunCompleted', { session_state: { a: 2 } })], {
    state: { a: 1 },
    snapshots: true,
  });
  t.same(events, [
    RUN_STARTED,
    { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
    { type: 'STATE_SNAPSHOT', snapshot: { a: 2 } },
    RUN_FINISHED,
  ]);
  const replay = await replayWithClient(encodeEvents(events));
  t.same(replay.agent.state, { a: 2 });
});

t.test('server tools: parent message, args, end, result, and the state delta', async (t) => {
  const args = { key: 'colour', value: 'red' };
  const events = streamOf(
    [
      top('RunContent', { content: 'Let me see.' }),
      started('c-1', 'set_state', args),
      completed('c-1', 'set_state', args, 'ok'),
      started('c-2', 'add', { a: 1, b: 2 }),
      completed('c-2', 'add', { a: 1, b: 2 }, '3'),
      started('c-3', 'set_state', { key: 'x', value: 1 }),
      completed('c-3', 'set_state', { key: 'x', value: 1 }, 'set_state: bad', true),
      top('RunCompleted', { session_state: { colour: 'red' } }),
    ],
    { state: { colour: 'blue', keep: true }, snapshots: true },
  );
  t.same(events, [
    RUN_STARTED,
    { type: 'STATE_SNAPSHOT', snapshot: { colour: 'blue', keep: true } },
    { type: 'TEXT_MESSAGE_START', messageId: 'm-1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm-1', delta: 'Let me see.' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm-1' },
    {
      type: 'TOOL_CALL_START',
      toolCallId: 'c-1',
      toolCallName: 'set_state',
      parentMessageId: 'm-1',
    },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c-1', delta: JSON.stringify(args) },
    { type: 'TOOL_CALL_END', toolCallId: 'c-1' },
    {
      type: 'TOOL_CALL_RESULT',
      messageId: 'c-1',
      toolCallId: 'c-1',
      content: '"ok"',
      role: 'tool',
    },
    { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/colour', value: 'red' }] },
    { type: 'TEXT_MESSAGE_START', messageId: 'm-2', role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm-2' },
    { type: 'TOOL_CALL_START', toolCallId: 'c-2', toolCallName: 'add', parentMessageId: 'm-2' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c-2', delta: '{"a":1,"b":2}' },
    { type: 'TOOL_CALL_END', toolCallId: 'c-2' },
    { type: 'TOOL_CALL_RESULT', messageId: 'c-2', toolCallId: 'c-2', content: '3', role: 'tool' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm-3', role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm-3' },
    {
      type: 'TOOL_CALL_START',
      toolCallId: 'c-3',
      toolCallName: 'set_state',
      parentMessageId: 'm-3',
    },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c-3', delta: '{"key":"x","value":1}' },
    { type: 'TOOL_CALL_END', toolCallId: 'c-3' },
    {
      type: 'TOOL_CALL_RESULT',
      messageId: 'c-3',
      toolCallId: 'c-3',
      content: '"set_state: bad"',
      role: 'tool',
    },
    { type: 'STATE_SNAPSHOT', snapshot: { colour: 'red' } },
    RUN_FINISHED,
  ]);
  const replay = await replayWithClient(encodeEvents(events), { state: {} });
  t.same(replay.agent.state, { colour: 'red' });
  t.match(replay.agent.messages, [
    { id: 'm-1', role: 'assistant', content: 'Let me see.', toolCalls: [{ id: 'c-1' }] },
    { id: 'c-1', role: 'tool', toolCallId: 'c-1', content: '"ok"' },
    {
      id: 'm-2',
      toolCalls: [{ id: 'c-2', function: { name: 'add', arguments: '{"a":1,"b":2}' } }],
    },
    { id: 'c-2', role: 'tool', content: '3' },
    { id: 'm-3' },
    { id: 'c-3', role: 'tool' },
  ]);
});

t.test('tool results: JSON text as is, other text and non-strings as JSON', async (t) => {
  const contentOf = (result: unknown) =>
    streamOf([started('c', 'echo'), completed('c', 'echo', {}, result)]).find(
      (event) => event.type === 'TOOL_CALL_RESULT',
    )?.['content' as never];
  t.equal(contentOf('{"a": 1}'), '{"a": 1}');
  t.equal(contentOf('plain words'), '"plain words"');
  t.equal(contentOf(42), '42');
  t.notOk(
    streamOf([started('c', 'echo'), completed('c', 'echo', {}, null)]).some(
      (event) => event.type === 'TOOL_CALL_RESULT',
    ),
    'no result, no TOOL_CALL_RESULT',
  );
});

t.test(
  'a tool call without arguments sends {}; one not started here gets its result only',
  async (t) => {
    const bare = top('ToolCallStarted', { tool: { tool_call_id: 'c', tool_name: 'echo' } });
    t.match(streamOf([bare]), [{}, {}, {}, {}, { type: 'TOOL_CALL_ARGS', delta: '{}' }]);
    t.same(streamOf([completed('old', 'echo', { text: 'x' }, 'x')]), [
      RUN_STARTED,
      {
        type: 'TOOL_CALL_RESULT',
        messageId: 'old',
        toolCallId: 'old',
        content: '"x"',
        role: 'tool',
      },
      RUN_FINISHED,
    ]);
  },
);

t.test('a built-in tool completed without arguments changes no state', async (t) => {
  const done = top('ToolCallCompleted', {
    tool: { tool_call_id: 'c', tool_name: 'set_state', result: 'set_state: key must be a string' },
  });
  t.notOk(streamOf([done]).some((event) => event.type === 'STATE_DELTA'));
});

t.test('reasoning: start, deltas, steps as markdown, completion', async (t) => {
  const events = streamOf([
    top('RunContent', { content: 'Hmm.' }),
    top('ReasoningStarted'),
    top('ReasoningContentDelta', { reasoning_content: 'think' }),
    top('ReasoningContentDelta', { reasoning_content: '' }),
    top('ReasoningContentDelta'),
    top('ReasoningStep', {
      content: {
        title: 'Look',
        reasoning: 'at it',
        action: 'look',
        result: 'seen',
        confidence: 0.9,
      },
    }),
    top('ReasoningStep', { content: { reasoning: 'again' } }),
    top('ReasoningCompleted', { content: 'think' }),
    top('ReasoningCompleted'),
    top('RunContent', { content: 'Done.' }),
  ]);
  t.same(events, [
    RUN_STARTED,
    { type: 'TEXT_MESSAGE_START', messageId: 'm-1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm-1', delta: 'Hmm.' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm-1' },
    { type: 'REASONING_START', messageId: 'm-2' },
    { type: 'REASONING_MESSAGE_START', messageId: 'm-2', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'm-2', delta: 'think' },
    {
      type: 'REASONING_MESSAGE_CONTENT',
      messageId: 'm-2',
      delta: '## Step 1: Look\n\nat it\nAction: look\nResult: seen\nConfidence: 0.9\n\n',
    },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'm-2', delta: '## Step 2\n\nagain\n\n' },
    { type: 'REASONING_MESSAGE_END', messageId: 'm-2' },
    { type: 'REASONING_END', messageId: 'm-2' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm-3', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm-3', delta: 'Done.' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm-3' },
    RUN_FINISHED,
  ]);
  await replayWithClient(encodeEvents(events));
});

t.test(
  'reasoning opened by a delta or a step; closed by content, a tool call or the end',
  async (t) => {
    const opened = (events: RunEvent[]) => typesOf(streamOf(events)).slice(1);
    t.same(opened([top('ReasoningContentDelta', { reasoning_content: 'a' })]), [
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'RUN_FINISHED',
    ]);
    t.same(opened([top('ReasoningStep'), top('RunContent', { content: 'x' })]), [
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    t.same(opened([top('ReasoningStarted'), top('ReasoningStarted'), started('c', 'echo')]), [
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'RUN_FINISHED',
    ]);
  },
);

t.test('CustomEvent → CUSTOM; every other Agno event → RAW', async (t) => {
  const custom = top('CustomEvent', { tool_call_id: 'c', payload: 1 });
  const others = [
    'RunStarted',
    'ModelRequestStarted',
    'RunContentCompleted',
    'MemoryUpdateStarted',
  ];
  t.same(streamOf([custom]).slice(1, 2), [{ type: 'CUSTOM', name: 'CustomEvent', value: custom }]);
  for (const name of others) {
    const event = top(name);
    t.same(streamOf([event]).slice(1, 2), [raw(event)], name);
  }
});

t.test(
  'a pause: closes what is open, one assistant message carrying the client calls, interrupts',
  async (t) => {
    const waiting = [tool('c-1', 'pick_color', { for: 'car' }), tool('c-2', 'confirm', {})];
    const events = streamOf(
      [
        top('ReasoningStarted'),
        top('RunPaused', { tools: waiting, requirements: [], content: 'ignored' }),
      ],
      { state: { a: 1 }, snapshots: true },
    );
    t.same(events, [
      RUN_STARTED,
      { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
      { type: 'REASONING_START', messageId: 'm-1' },
      { type: 'REASONING_MESSAGE_START', messageId: 'm-1', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_END', messageId: 'm-1' },
      { type: 'REASONING_END', messageId: 'm-1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm-2', role: 'assistant' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm-2' },
      {
        type: 'TOOL_CALL_START',
        toolCallId: 'c-1',
        toolCallName: 'pick_color',
        parentMessageId: 'm-2',
      },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c-1', delta: '{"for":"car"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c-1' },
      {
        type: 'TOOL_CALL_START',
        toolCallId: 'c-2',
        toolCallName: 'confirm',
        parentMessageId: 'm-2',
      },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c-2', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c-2' },
      { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
      {
        ...RUN_FINISHED,
        outcome: {
          type: 'interrupt',
          interrupts: [
            { id: 'c-1', reason: 'tool_call', toolCallId: 'c-1' },
            { id: 'c-2', reason: 'tool_call', toolCallId: 'c-2' },
          ],
        },
      },
    ]);
    const replay = await replayWithClient(encodeEvents(events));
    t.same(
      replay.agent.pendingInterrupts.map((interrupt) => interrupt.id),
      ['c-1', 'c-2'],
    );
    t.match(replay.agent.messages, [
      { id: 'm-1', role: 'reasoning' },
      { id: 'm-2', role: 'assistant', toolCalls: [{ id: 'c-1' }, { id: 'c-2' }] },
    ]);
  },
);

t.test(
  'a pause without tools just finishes; so does a RunPaused without its tools key',
  async (t) => {
    for (const paused of [top('RunPaused', { tools: [] }), top('RunPaused')]) {
      t.same(streamOf([paused]).at(-1), RUN_FINISHED);
    }
  },
);

t.test('RunError → RUN_ERROR, and nothing after it', async (t) => {
  const m = mapper();
  const events = [
    ...m.start(),
    ...m.map(top('RunContent', { content: 'partial' })),
    ...m.map(top('RunError', { content: 'model down' })),
    ...m.map(top('RunCompleted')),
    ...m.end(),
    ...m.fail('again'),
  ];
  t.same(typesOf(events), [
    'RUN_STARTED',
    'TEXT_MESSAGE_START',
    'TEXT_MESSAGE_CONTENT',
    'RUN_ERROR',
  ]);
  t.same(events.at(-1), { type: 'RUN_ERROR', message: 'model down' });
  t.equal(m.finished, true);
  t.same(streamOf([top('TeamRunError')]).at(-1), { type: 'RUN_ERROR', message: 'Run failed' });
  await t.resolves(replayWithClient(encodeEvents(events)), 'the client accepts an errored run');
});

t.test('fail(): an exception ends the stream with RUN_ERROR', async (t) => {
  const m = mapper();
  t.same(
    [...m.start(), ...m.fail('boom'), ...m.end()],
    [RUN_STARTED, { type: 'RUN_ERROR', message: 'boom' }],
  );
});

t.test(
  'a cancelled run finishes with the cancelled outcome; a member’s cancel is RAW',
  async (t) => {
    const events = streamOf([top('RunCancelled', { reason: 'x' }), top('RunCompleted')]);
    t.same(events.at(-1), { ...RUN_FINISHED, outcome: { type: 'cancelled' } });
    const nested = streamOf([member('RunCancelled'), top('TeamRunCompleted')]);
    t.same(nested.at(-1), RUN_FINISHED);
    await replayWithClient(encodeEvents(events));
  },
);

t.test('a stream that ends without a terminal event is finished, open things closed', async (t) => {
  const events = streamOf([top('RunContent', { content: 'cut' }), started('c', 'echo')]);
  t.same(typesOf(events).slice(-3), ['TOOL_CALL_ARGS', 'TOOL_CALL_END', 'RUN_FINISHED']);
  await replayWithClient(encodeEvents(events));
});

t.test('events without nested_depth belong to the top-level run', async (t) => {
  t.same(typesOf(streamOf([createEvent('RunContent', { content: 'x' })])).slice(1, 3), [
    'TEXT_MESSAGE_START',
    'TEXT_MESSAGE_CONTENT',
  ]);
});

t.test(
  'a team: its answer is the text, member content and reasoning are RAW, every tool call maps',
  async (t) => {
    const delegation = tool('d-1', 'delegate_task_to_member', { member_id: 'a1', task: 'go' });
    const memberEvents = [
      member('RunStarted'),
      member('ReasoningStarted'),
      member('ReasoningContentDelta', { reasoning_content: 'x' }),
      member('ReasoningStep'),
      member('ReasoningCompleted'),
      member('RunContent', { content: 'member says' }),
      member('RunPaused'),
      member('RunError'),
      member('RunCompleted'),
    ];
    const events = streamOf([
      top('TeamRunStarted'),
      top('TeamToolCallStarted', { tool: delegation }),
      ...memberEvents.slice(0, 6),
      member('ToolCallStarted', { tool: tool('c-1', 'add', { a: 1, b: 1 }) }),
      member('ToolCallCompleted', { tool: tool('c-1', 'add', { a: 1, b: 1 }, { result: '2' }) }),
      ...memberEvents.slice(6),
      top('TeamToolCallCompleted', { tool: { ...delegation, result: 'member says' } }),
      top('TeamRunContent', { content: 'member says' }),
      top('TeamRunCompleted', { session_state: {} }),
    ]);
    t.same(typesOf(events), [
      'RUN_STARTED',
      'RAW',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      ...memberEvents.slice(0, 6).map(() => 'RAW'),
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      ...memberEvents.slice(6).map(() => 'RAW'),
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    const replay = await replayWithClient(encodeEvents(events));
    t.match(replay.agent.messages.at(-1), { role: 'assistant', content: 'member says' });
  },
);

t.test(
  'a team paused in a member: the open delegation is ended, the member’s call interrupts',
  async (t) => {
    const delegation = tool('d-1', 'delegate_task_to_member', {});
    const events = streamOf([
      top('TeamToolCallStarted', { tool: delegation }),
      member('RunPaused', { tools: [tool('c-1', 'pick_color', {})] }),
      top('TeamRunPaused', { tools: [tool('c-1', 'pick_color', {})] }),
    ]);
    t.same(typesOf(events), [
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'RAW',
      'TOOL_CALL_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'RUN_FINISHED',
    ]);
    t.same(events[6], { type: 'TOOL_CALL_END', toolCallId: 'd-1' });
    await replayWithClient(encodeEvents(events));
  },
);
