/**
 * Message dicts: the fields of each role, nulls and empty tool-call lists left out.
 */
import t from 'tap';
import { messageDict } from '../../../src/runtime/engine/messages.js';

const base = { from_history: false, stop_after_tool_call: false };

t.test('system and user messages', async (t) => {
  t.same(messageDict({ id: 'm1', createdAt: 5, message: { role: 'user', content: 'hi' } }), {
    id: 'm1',
    role: 'user',
    content: 'hi',
    ...base,
    created_at: 5,
  });
  t.match(messageDict({ id: 'm0', createdAt: 5, message: { role: 'system', content: 'sys' } }), {
    role: 'system',
    content: 'sys',
  });
});

t.test('an assistant message with tool calls and no content', async (t) => {
  t.same(
    messageDict({
      id: 'm2',
      createdAt: 5,
      message: {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'c1', name: 'add', args: { a: 1 } }],
        reasoning: 'sum it',
      },
    }),
    {
      id: 'm2',
      role: 'assistant',
      ...base,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }],
      reasoning_content: 'sum it',
      created_at: 5,
    },
  );
});

t.test('an assistant answer leaves out empty tool calls and null reasoning', async (t) => {
  t.same(
    messageDict({
      id: 'm3',
      createdAt: 5,
      message: { role: 'assistant', content: 'done', toolCalls: [], reasoning: null },
    }),
    { id: 'm3', role: 'assistant', content: 'done', ...base, created_at: 5 },
  );
});

t.test('a tool result', async (t) => {
  t.same(
    messageDict({
      id: 'm4',
      createdAt: 5,
      message: {
        role: 'tool',
        content: '3',
        toolCallId: 'c1',
        toolName: 'add',
        toolArgs: { a: 1 },
        toolCallError: false,
      },
    }),
    {
      id: 'm4',
      role: 'tool',
      content: '3',
      ...base,
      tool_call_id: 'c1',
      tool_name: 'add',
      tool_args: { a: 1 },
      tool_call_error: false,
      created_at: 5,
    },
  );
});
