/**
 * The chat-completions wire format without a server: provider error messages, and a streamed
 * turn read event by event — what is skipped, what ends it, and every tool call that cannot be
 * used. (The request body and the common stream shapes are asserted against the fake server in
 * openai-compatible.test.ts.)
 */
import t from 'tap';
import {
  ChatTurnReader,
  chatRequestBody,
  providerMessage,
} from '../../../src/runtime/model/chat-completions.js';

const ids = () => {
  let n = 0;
  return () => `call-${++n}`;
};

/** Reads `events` (objects are JSON-encoded) and ends the turn. */
function readTurn(events: readonly unknown[]) {
  const reader = new ChatTurnReader();
  const read = events.flatMap((event) =>
    reader.read(typeof event === 'string' ? event : JSON.stringify(event)),
  );
  return { read, end: reader.end(ids()) };
}

const choice = (delta: unknown, finish: unknown = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const call = (fields: Record<string, unknown>) => choice({ tool_calls: [fields] });

t.test('providerMessage reads error.message, a string error or message', async (t) => {
  const rows: [string, unknown, string | null][] = [
    ['error object', { error: { message: ' quota ' } }, 'quota'],
    ['string error', { error: 'nope' }, 'nope'],
    ['top-level message', { message: 'bad' }, 'bad'],
    ['error object without a message', { error: { code: 1 }, message: 'outer' }, null],
    ['blank message', { error: { message: '  ' } }, null],
    ['numeric error', { error: 7 }, null],
    ['null error, message', { error: null, message: 'm' }, 'm'],
    ['not an object', 'text', null],
    ['an array', [{ message: 'm' }], null],
    ['null', null, null],
  ];
  for (const [name, body, expected] of rows) t.equal(providerMessage(body), expected, name);
  t.equal(providerMessage({ message: 'y'.repeat(600) }), `${'y'.repeat(500)}…`, 'cut at 500');
});

t.test('no tools: neither tools nor tool_choice', async (t) => {
  t.same(chatRequestBody('m', [{ role: 'user', content: 'hi' }], []), {
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    stream_options: { include_usage: true },
  });
});

t.test('events that carry nothing are skipped', async (t) => {
  const { read, end } = readTurn([
    {},
    { choices: 'x' },
    { choices: [] },
    { choices: [null] },
    choice(null),
    choice({ content: 5, reasoning: '' }),
    { error: null, ...choice({ content: 'a' }) },
    { usage: null },
    { usage: { prompt_tokens: 1 } },
    '[DONE]',
  ]);
  t.same(read, [{ type: 'text', delta: 'a' }]);
  t.same(end, []);
});

t.test('events after [DONE] are ignored', async (t) => {
  const { read, end } = readTurn(['[DONE]', choice({ content: 'late' }), 'not json']);
  t.same(read, []);
  t.same(end, []);
});

t.test('a finish_reason completes the turn without [DONE]; a null one does not', async (t) => {
  t.same(readTurn([choice({ content: 'a' }, 'stop')]).end, []);
  t.same(readTurn([choice({ content: 'a' }, null)]).end, [
    { type: 'error', message: 'Model provider stream ended before [DONE]' },
  ]);
});

t.test('the last usage wins; reasoning tokens default to 0', async (t) => {
  const { end } = readTurn([
    { choices: [], usage: { prompt_tokens: 1, completion_tokens: 1 } },
    {
      choices: [],
      usage: { prompt_tokens: 9, completion_tokens: 4, completion_tokens_details: null },
    },
    '[DONE]',
  ]);
  t.same(end, [{ type: 'usage', inputTokens: 9, outputTokens: 4, reasoningTokens: 0 }]);
});

t.test('tool calls: ids, names and arguments from their fragments, in index order', async (t) => {
  const { end } = readTurn([
    call({ index: 2, id: 'c2', function: { name: 'echo', arguments: '{"text":' } }),
    call({ index: 0, function: { name: 'add' } }),
    call({ index: 2, id: 'ignored', function: { name: 'ignored', arguments: '"x"}' } }),
    call({ index: 0, function: { arguments: '   ' } }),
    call({ index: 1, id: 'c1', type: 'function' }),
    call({ index: 1, function: 'not an object' }),
    call({ index: 1, function: { name: 'get_state', arguments: 5 } }),
    choice({ tool_calls: ['not an object'] }),
    choice({ tool_calls: [{ function: { name: 'fail', arguments: '{}' } }] }, 'tool_calls'),
  ]);
  t.same(end, [
    { type: 'tool_call', id: 'call-1', name: 'add', args: {} },
    { type: 'tool_call', id: 'c1', name: 'get_state', args: {} },
    { type: 'tool_call', id: 'c2', name: 'echo', args: { text: 'x' } },
  ]);
});

t.test('a tool call that cannot be used ends the turn with an error naming it', async (t) => {
  const rows: [string, Record<string, unknown>, string][] = [
    [
      'no name',
      { index: 0, id: 'c', function: { arguments: '{}' } },
      'Model provider sent a tool call without a function name',
    ],
    [
      'invalid JSON',
      { index: 0, function: { name: 'add', arguments: '{"a":1' } },
      'Invalid JSON arguments for tool add',
    ],
    [
      'an array',
      { index: 0, function: { name: 'add', arguments: '[1,2]' } },
      'Arguments for tool add must be a JSON object',
    ],
    [
      'null',
      { index: 0, function: { name: 'add', arguments: 'null' } },
      'Arguments for tool add must be a JSON object',
    ],
  ];
  for (const [name, fragment, message] of rows) {
    t.same(readTurn([call(fragment), '[DONE]']).end, [{ type: 'error', message }], name);
  }
});
