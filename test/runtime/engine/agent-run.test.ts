/**
 * runAgent with scripted models: what the offline model never does — throwing, several or
 * unknown tool calls in one turn, text beside tool calls, empty turns, reasoning at the end of a
 * turn or before an error — and the model-turn limit.
 */
import t from 'tap';
import { MAX_MODEL_TURNS, runAgent } from '../../../src/runtime/engine/agent-run.js';
import type { Model, ModelChunk, ModelMessage } from '../../../src/runtime/model/model.js';
import {
  CLIENT_TOOL,
  drain,
  makeAgent,
  makeScope,
  named,
  names,
  only,
} from './fixtures/harness.js';

/** A model that answers turn n with `turns(n, messages)`. */
function scripted(turns: (turn: number, messages: readonly ModelMessage[]) => ModelChunk[]): Model {
  let turn = 0;
  return {
    id: 'scripted',
    provider: 'test',
    name: 'Scripted',
    async *stream(messages) {
      yield* turns(turn++, messages);
    },
  };
}

/** A model whose stream throws `thrown` after one delta. */
function throwing(thrown: unknown): Model {
  return {
    id: 'thrower',
    provider: 'test',
    name: 'Thrower',
    async *stream() {
      yield { type: 'text', delta: 'partial' };
      throw thrown;
    },
  };
}

const text = (delta: string): ModelChunk => ({ type: 'text', delta });
const call = (id: string, name: string, args: Record<string, unknown> = {}): ModelChunk => ({
  type: 'tool_call',
  id,
  name,
  args,
});

t.test(
  'a model that throws an Error ends the run with RunError carrying its message',
  async (t) => {
    const { events, result } = await drain(
      runAgent(makeAgent(), makeScope('hi'), throwing(new Error('socket hang up'))),
    );
    t.same(names(events), ['RunStarted', 'ModelRequestStarted', 'RunContent', 'RunError']);
    t.equal(only(events, 'RunError')['content'], 'socket hang up');
    t.equal(result.status, 'ERROR');
    t.equal(result.text, 'socket hang up');
  },
);

t.test('a model that throws a non-Error is reported as its string', async (t) => {
  const { events } = await drain(runAgent(makeAgent(), makeScope('hi'), throwing('bad chunk')));
  t.equal(only(events, 'RunError')['content'], 'bad chunk');
});

t.test('a model that never stops calling tools fails at the turn limit', async (t) => {
  const model = scripted((n) => [call(`c${n}`, 'echo', { text: 'again' })]);
  const { events, result } = await drain(runAgent(makeAgent(), makeScope('loop'), model));
  t.equal(named(events, 'ModelRequestStarted').length, MAX_MODEL_TURNS);
  t.equal(named(events, 'ToolCallCompleted').length, MAX_MODEL_TURNS);
  t.same(events.at(-1), {
    ...events.at(-1),
    event: 'RunError',
    content: 'Model turn limit reached (10 turns)',
  });
  t.equal(result.status, 'ERROR');
});

t.test('one turn with text, server calls, an unknown call and a client call', async (t) => {
  const model = scripted((n, messages) =>
    n === 0
      ? [
          text('Working'),
          call('c1', 'add', { a: 1, b: 2 }),
          call('c2', 'made_up'),
          call('c3', 'pick_color'),
          call('c4', 'echo', { text: 'x' }),
        ]
      : [text(`saw ${messages.length} messages`)],
  );
  const agent = makeAgent({ tools: [CLIENT_TOOL] });
  const { events, result } = await drain(runAgent(agent, makeScope('go'), model));
  t.same(names(events), [
    'RunStarted',
    'ModelRequestStarted',
    'RunContent',
    'ModelRequestCompleted',
    'ToolCallStarted',
    'ToolCallCompleted',
    'ToolCallStarted',
    'ToolCallCompleted',
    'ToolCallError',
    'ToolCallStarted',
    'ToolCallCompleted',
    'RunPaused',
  ]);
  t.equal(only(events, 'ToolCallError')['error'], 'Unknown tool made_up');
  const paused = only(events, 'RunPaused');
  t.match(paused, {
    content: 'Working',
    tools: [{ tool_call_id: 'c3', external_execution_required: true }],
  });
  t.equal((paused['tools'] as unknown[]).length, 1);
  t.match(result.output['tools'], [
    { tool_call_id: 'c1', result: '3' },
    { tool_call_id: 'c2', tool_call_error: true },
    { tool_call_id: 'c3', result: null },
    { tool_call_id: 'c4', result: 'x' },
  ]);
  t.match(result.output['messages'], [
    { role: 'user' },
    {
      role: 'assistant',
      content: 'Working',
      tool_calls: [{ id: 'c1' }, { id: 'c2' }, { id: 'c3' }, { id: 'c4' }],
    },
    { role: 'tool', tool_call_id: 'c1' },
    { role: 'tool', tool_call_id: 'c2' },
    { role: 'tool', tool_call_id: 'c4' },
  ]);
  t.equal(result.pending?.requirements.length, 1);
});

t.test('text across turns accumulates into the run content', async (t) => {
  const model = scripted((n) =>
    n === 0 ? [text('Let me check.'), call('c1', 'echo', { text: 'ok' })] : [text(' Done.')],
  );
  const { result, events } = await drain(runAgent(makeAgent(), makeScope('go'), model));
  t.equal(result.output['content'], 'Let me check. Done.');
  t.equal(only(events, 'RunCompleted')['content'], 'Let me check. Done.');
});

t.test('an empty turn completes with empty content and no time to first token', async (t) => {
  const model = scripted(() => []);
  const { events, result } = await drain(runAgent(makeAgent(), makeScope('hi'), model));
  t.same(names(events), [
    'RunStarted',
    'ModelRequestStarted',
    'ModelRequestCompleted',
    'RunContentCompleted',
    'RunCompleted',
  ]);
  t.notOk('time_to_first_token' in only(events, 'ModelRequestCompleted'));
  t.equal(result.output['content'], '');
  t.notOk('time_to_first_token' in (result.output['metrics'] as object));
});

t.test('a usage chunk replaces the counted tokens of its turn and is no first token', async (t) => {
  const usage: ModelChunk = { type: 'usage', inputTokens: 40, outputTokens: 7, reasoningTokens: 3 };
  const model = scripted((n) =>
    n === 0 ? [usage, call('c1', 'echo', { text: 'x' })] : [usage, usage],
  );
  const { events, result } = await drain(runAgent(makeAgent(), makeScope('hi'), model));
  t.same(names(events), [
    'RunStarted',
    'ModelRequestStarted',
    'ModelRequestCompleted',
    'ToolCallStarted',
    'ToolCallCompleted',
    'ModelRequestStarted',
    'ModelRequestCompleted',
    'RunContentCompleted',
    'RunCompleted',
  ]);
  for (const completed of named(events, 'ModelRequestCompleted')) {
    t.match(completed, {
      input_tokens: 40,
      output_tokens: 7,
      total_tokens: 47,
      reasoning_tokens: 3,
    });
  }
  t.notOk(
    'time_to_first_token' in named(events, 'ModelRequestCompleted')[1]!,
    'a turn of usage only has no first token',
  );
  t.match(result.output['metrics'], {
    input_tokens: 80,
    output_tokens: 14,
    total_tokens: 94,
    reasoning_tokens: 6,
  });
});

t.test('reasoning that ends the turn is completed at the end of the turn', async (t) => {
  const model = scripted((n) =>
    n === 0
      ? [{ type: 'reasoning', delta: 'hmm' }, call('c1', 'echo', { text: 'x' })]
      : [{ type: 'reasoning', delta: 'so' }],
  );
  const { events, result } = await drain(runAgent(makeAgent(), makeScope('hi'), model));
  t.same(names(events), [
    'RunStarted',
    'ModelRequestStarted',
    'ReasoningStarted',
    'ReasoningContentDelta',
    'ReasoningCompleted',
    'ModelRequestCompleted',
    'ToolCallStarted',
    'ToolCallCompleted',
    'ModelRequestStarted',
    'ReasoningStarted',
    'ReasoningContentDelta',
    'ReasoningCompleted',
    'ModelRequestCompleted',
    'RunContentCompleted',
    'RunCompleted',
  ]);
  t.equal(result.output['reasoning_content'], 'hmmso');
});

t.test('reasoning followed by an error closes the reasoning first', async (t) => {
  const model = scripted(() => [
    { type: 'reasoning', delta: 'hmm' },
    { type: 'error', message: 'quota' },
  ]);
  const { events } = await drain(runAgent(makeAgent(), makeScope('hi'), model));
  t.same(names(events).slice(-3), ['ReasoningContentDelta', 'ReasoningCompleted', 'RunError']);
});
