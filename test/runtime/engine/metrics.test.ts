/**
 * Metrics: whitespace tokens of the prompt and the answer (or a provider's reported usage),
 * durations in seconds, zeros left out.
 */
import t from 'tap';
import {
  addTokens,
  metricsDict,
  NO_TOKENS,
  reportedTokens,
  turnTokens,
} from '../../../src/runtime/engine/metrics.js';

t.test('turnTokens counts prompt words in and text, reasoning and tool calls out', async (t) => {
  const tokens = turnTokens(
    [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'add two numbers' },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'c', name: 'add', args: { a: 1, b: 2 } }],
        reasoning: 'ignored in the prompt',
      },
      { role: 'assistant', content: 'so far', toolCalls: [], reasoning: null },
      {
        role: 'tool',
        content: '3',
        toolCallId: 'c',
        toolName: 'add',
        toolArgs: {},
        toolCallError: false,
      },
    ],
    {
      text: 'Tool add returned: 3',
      reasoning: 'think hard',
      calls: [{ id: 'd', name: 'echo', args: { text: 'a b' } }],
    },
  );
  // in: 2 + 3 + ("add" + '{"a":1,"b":2}') 2 + 2 + 1 = 10; out: 4 + 2 + ("echo" + '{"text":"a' 'b"}') 3 = 9
  t.same(tokens, { input_tokens: 10, output_tokens: 9, total_tokens: 19, reasoning_tokens: 2 });
});

t.test('reportedTokens takes a provider usage as is; total is input + output', async (t) => {
  t.same(reportedTokens({ inputTokens: 42, outputTokens: 17, reasoningTokens: 5 }), {
    input_tokens: 42,
    output_tokens: 17,
    total_tokens: 59,
    reasoning_tokens: 5,
  });
});

t.test('addTokens sums field-wise', async (t) => {
  const one = { input_tokens: 1, output_tokens: 2, total_tokens: 3, reasoning_tokens: 4 };
  t.same(addTokens(one, one), {
    input_tokens: 2,
    output_tokens: 4,
    total_tokens: 6,
    reasoning_tokens: 8,
  });
  t.same(addTokens(NO_TOKENS, one), one);
});

t.test('metricsDict: seconds, zeros omitted, model details when a model ran', async (t) => {
  const tokens = { input_tokens: 5, output_tokens: 3, total_tokens: 8, reasoning_tokens: 0 };
  t.same(
    metricsDict(tokens, { durationMs: 1500, timeToFirstTokenMs: 250 }, { id: 'm', provider: 'p' }),
    {
      input_tokens: 5,
      output_tokens: 3,
      total_tokens: 8,
      time_to_first_token: 0.25,
      duration: 1.5,
      details: {
        model: [{ id: 'm', provider: 'p', input_tokens: 5, output_tokens: 3, total_tokens: 8 }],
      },
    },
  );
  t.same(metricsDict(NO_TOKENS, { durationMs: 0, timeToFirstTokenMs: null }, null), {});
});
