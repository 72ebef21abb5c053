/**
 * The offline deterministic model, driven directly: every directive it knows, its usage
 * errors, the answer after a tool result, and the cancel check of `/slow`.
 */
import t from 'tap';
import type {
  ModelChunk,
  ModelMessage,
  ModelStreamOptions,
  ModelTool,
} from '../../../src/runtime/model/model.js';
import { offlineModel } from '../../../src/runtime/model/offline.js';

const ADD: ModelTool = { name: 'add', description: 'Adds.', parameters: {} };

function options(overrides: Partial<ModelStreamOptions> = {}): ModelStreamOptions {
  let ids = 0;
  return {
    cancel: { cancelled: false },
    sleep: async () => {},
    newId: () => `call-${++ids}`,
    ...overrides,
  };
}

async function collect(
  messages: readonly ModelMessage[],
  tools: readonly ModelTool[] = [ADD],
  opts: ModelStreamOptions = options(),
): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of offlineModel.stream(messages, tools, opts)) chunks.push(chunk);
  return chunks;
}

const user = (content: string): ModelMessage => ({ role: 'user', content });
const text = (...deltas: string[]): ModelChunk[] =>
  deltas.map((delta) => ({ type: 'text', delta }));
const error = (message: string): ModelChunk[] => [{ type: 'error', message }];

t.test('registered as offline-echo / offline / OfflineModel', async (t) => {
  t.same(
    [offlineModel.id, offlineModel.provider, offlineModel.name],
    ['offline-echo', 'offline', 'OfflineModel'],
  );
});

t.test('plain text is echoed one word per delta, whole message, spaces kept', async (t) => {
  t.same(await collect([user('hello  big world')]), text('Echo:', ' hello', '  big', ' world'));
  t.same(
    await collect([user('line one\nline two')]),
    text('Echo:', ' line', ' one', '\nline', ' two'),
  );
  t.same(await collect([user('')]), text('Echo: '));
  t.same(await collect([user('/unknown directive')]), text('Echo:', ' /unknown', ' directive'));
  t.same(
    await collect([user('/toolbox x')]),
    text('Echo:', ' /toolbox', ' x'),
    'a prefix is no directive',
  );
});

t.test(
  'answers the last user message, reading only its first line for the directive',
  async (t) => {
    const history: ModelMessage[] = [
      { role: 'system', content: 'Be brief.' },
      user('/error old'),
      { role: 'assistant', content: 'x', toolCalls: [], reasoning: null },
      user('  /error now  \n/tool add {}'),
    ];
    t.same(await collect(history), error('now'));
  },
);

t.test('/tool NAME {json} calls one offered tool with an id from newId', async (t) => {
  t.same(await collect([user('/tool add {"a": 1, "b": 2}')]), [
    { type: 'tool_call', id: 'call-1', name: 'add', args: { a: 1, b: 2 } },
  ]);
  t.same(
    await collect([user('/tool add')]),
    [{ type: 'tool_call', id: 'call-1', name: 'add', args: {} }],
    'no JSON means no arguments',
  );
});

t.test('/tool errors: usage, unknown tool, bad JSON, non-object arguments', async (t) => {
  const rows: [string, string][] = [
    ['/tool', 'Usage: /tool NAME {json}'],
    ['/tool nope {}', 'Unknown tool nope'],
    ['/tool add {a:1}', 'Invalid JSON arguments for tool add'],
    ['/tool add [1,2]', 'Arguments for tool add must be a JSON object'],
    ['/tool add null', 'Arguments for tool add must be a JSON object'],
    ['/tool add 3', 'Arguments for tool add must be a JSON object'],
  ];
  for (const [input, message] of rows) t.same(await collect([user(input)]), error(message), input);
  t.same(
    await collect([user('/tool add {}')], []),
    error('Unknown tool add'),
    'only offered tools',
  );
});

t.test('plain text naming a client tool calls the one named first', async (t) => {
  const pick: ModelTool = {
    name: 'pick_color',
    description: 'Client.',
    parameters: {},
    client: true,
  };
  const ask: ModelTool = { name: 'ask.user', description: 'Client.', parameters: {}, client: true };
  const tools = [ADD, pick, ask];
  const call = (name: string, args: Record<string, unknown>): ModelChunk[] => [
    { type: 'tool_call', id: 'call-1', name, args },
  ];
  const rows: [string, ModelChunk[]][] = [
    ['please pick_color', call('pick_color', {})],
    ['pick_color {"for": "car", "n": [1]} thanks', call('pick_color', { for: 'car', n: [1] })],
    ['ask.user, then pick_color', call('ask.user', {})],
    ['pick_color or ask.user', call('pick_color', {})],
    ['pick_color with {not json}', call('pick_color', {})],
    ['pick_color } before {', call('pick_color', {})],
    ['first line\nthen pick_color', call('pick_color', {})],
  ];
  for (const [input, chunks] of rows) t.same(await collect([user(input)], tools), chunks, input);
  const echoed: [string, string[]][] = [
    ['add these', ['Echo:', ' add', ' these']],
    ['my_pick_color is a word', ['Echo:', ' my_pick_color', ' is', ' a', ' word']],
    ['askXuser', ['Echo:', ' askXuser']],
  ];
  for (const [input, deltas] of echoed) {
    t.same(await collect([user(input)], tools), text(...deltas), `${input}: not a client tool`);
  }
  t.same(
    await collect([user('/tool add {"a": 1, "b": 1}\npick_color')], tools),
    call('add', { a: 1, b: 1 }),
    'a directive wins',
  );
});

t.test('after a tool result the model answers Tool NAME returned: <result>', async (t) => {
  const messages: ModelMessage[] = [
    user('/tool add {"a":1,"b":2}'),
    {
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'c1', name: 'add', args: { a: 1, b: 2 } }],
      reasoning: null,
    },
    {
      role: 'tool',
      content: '3',
      toolCallId: 'c1',
      toolName: 'add',
      toolArgs: { a: 1, b: 2 },
      toolCallError: false,
    },
  ];
  t.same(await collect(messages), text('Tool', ' add', ' returned:', ' 3'));
  t.same(
    await collect([...messages, user('again')]),
    text('Echo:', ' again'),
    'a result before the last user message is history',
  );
});

t.test('/think TEXT streams reasoning per word, then the echo of TEXT', async (t) => {
  t.same(await collect([user('/think step one')]), [
    { type: 'reasoning', delta: 'step' },
    { type: 'reasoning', delta: ' one' },
    ...text('Echo:', ' step', ' one'),
  ]);
  t.same(await collect([user('/think')]), text('Echo: '), 'nothing to think');
});

t.test('/error MSG is an error chunk; bare /error has a default message', async (t) => {
  t.same(await collect([user('/error the model broke')]), error('the model broke'));
  t.same(await collect([user('/error')]), error('Offline model error'));
});

t.test('/slow N MS yields N deltas with MS sleeps between them', async (t) => {
  const sleeps: number[] = [];
  const chunks = await collect(
    [user('/slow 3 250')],
    [],
    options({ sleep: async (ms) => void sleeps.push(ms) }),
  );
  t.same(chunks, text('1', ' 2', ' 3'));
  t.same(sleeps, [250, 250]);
});

t.test('/slow stops at the first sleep after which the run is cancelled', async (t) => {
  const cancel = { cancelled: false };
  const chunks = await collect(
    [user('/slow 5 10')],
    [],
    options({
      cancel,
      sleep: async () => {
        cancel.cancelled = true;
      },
    }),
  );
  t.same(chunks, text('1'));
});

t.test('/slow usage errors', async (t) => {
  for (const input of [
    '/slow',
    '/slow 3',
    '/slow 0 10',
    '/slow 10000 1',
    '/slow 2 100000',
    '/slow a b',
  ]) {
    t.same(
      await collect([user(input)]),
      error('Usage: /slow N MS (N 1-9999 deltas, MS 0-99999 apart)'),
      input,
    );
  }
});

t.test('no user message is an error', async (t) => {
  t.same(await collect([{ role: 'system', content: 'hi' }]), error('No user message to answer'));
});
