/**
 * A2A task shapes: run status → task state, a run as a Task, the bare,
 * failed and JSON-RPC envelopes.
 */
import t from 'tap';
import {
  agentMessage,
  bareTask,
  contentText,
  errorText,
  failedTask,
  jsonRpcResult,
  TASK_STATE_OF,
  taskOf,
} from '../../../../src/runtime/protocols/a2a/task.js';

t.test('each run status has its task state', async (t) => {
  t.same(TASK_STATE_OF, {
    PENDING: 'submitted',
    RUNNING: 'working',
    COMPLETED: 'completed',
    ERROR: 'failed',
    CANCELLED: 'canceled',
    PAUSED: 'input-required',
  });
});

t.test('a run as a Task: one agent message with its content and user', async (t) => {
  const run = {
    runId: 'r',
    sessionId: 's',
    status: 'COMPLETED',
    content: 'Echo: hi',
    userId: 'u',
  } as const;
  t.same(taskOf(run, 'm'), {
    kind: 'task',
    id: 'r',
    contextId: 's',
    status: { state: 'completed' },
    history: [
      {
        kind: 'message',
        messageId: 'm',
        role: 'agent',
        parts: [{ kind: 'text', text: 'Echo: hi' }],
        contextId: 's',
        taskId: 'r',
        metadata: { userId: 'u' },
      },
    ],
  });
  t.same(
    taskOf({ ...run, status: 'ERROR', content: 'boom', userId: null }, 'm').history,
    [
      {
        kind: 'message',
        messageId: 'm',
        role: 'agent',
        parts: [{ kind: 'text', text: 'boom' }],
        contextId: 's',
        taskId: 'r',
      },
    ],
    'an ERROR run: its message is the error text; no user, no metadata',
  );
  t.same(
    taskOf({ ...run, status: 'RUNNING', content: undefined }, 'm').history?.[0]?.parts,
    [],
    'a run without content yet has a message without parts',
  );
});

t.test('content as text', async (t) => {
  t.equal(contentText('x'), 'x');
  t.equal(contentText(''), '');
  t.equal(contentText(null), '');
  t.equal(contentText(undefined), '');
  t.equal(contentText({ a: 1 }), '{"a":1}');
  t.equal(contentText(3), '3');
});

t.test('an agent message drops empty texts; metadata only when given', async (t) => {
  t.same(agentMessage({ messageId: 'm', contextId: 's', texts: ['', 'a', 'b'] }), {
    kind: 'message',
    messageId: 'm',
    role: 'agent',
    parts: [
      { kind: 'text', text: 'a' },
      { kind: 'text', text: 'b' },
    ],
    contextId: 's',
  });
});

t.test('bare, failed and JSON-RPC shapes', async (t) => {
  t.same(bareTask('r', 's', 'canceled'), {
    kind: 'task',
    id: 'r',
    contextId: 's',
    status: { state: 'canceled' },
  });
  t.same(failedTask({ taskId: 'n', contextId: 's', messageId: 'm', error: 'disk full' }), {
    kind: 'task',
    id: 'n',
    contextId: 's',
    status: { state: 'failed' },
    history: [
      {
        kind: 'message',
        messageId: 'm',
        role: 'agent',
        parts: [{ kind: 'text', text: 'Error: disk full' }],
        contextId: 's',
      },
    ],
  });
  t.same(jsonRpcResult(1, { a: 1 }), { id: 1, jsonrpc: '2.0', result: { a: 1 } });
  t.same(Object.keys(jsonRpcResult('x', null)), ['id', 'jsonrpc', 'result'], 'id first');
});

t.test('what a thrown value says', async (t) => {
  t.equal(errorText(new Error('boom')), 'boom');
  t.equal(errorText('plain'), 'plain');
  t.equal(errorText(42), '42');
});
