/**
 * HTTP+JSON (protobuf JSON) answers: tasks, send wrappers and stream frames as RestTransport
 * reads them.
 */
import t from 'tap';
import {
  restSendResponse,
  restStreamResponse,
  restTask,
} from '../../../../src/runtime/protocols/a2a/rest.js';
import { bareTask, taskOf } from '../../../../src/runtime/protocols/a2a/task.js';

const run = {
  runId: 'r',
  sessionId: 's',
  status: 'COMPLETED',
  content: 'Echo: hi',
  userId: 'u',
} as const;

t.test('a task in protobuf JSON', async (t) => {
  t.same(restTask(taskOf(run, 'm')), {
    id: 'r',
    contextId: 's',
    status: { state: 'TASK_STATE_COMPLETED' },
    history: [
      {
        messageId: 'm',
        contextId: 's',
        taskId: 'r',
        role: 'ROLE_AGENT',
        content: [{ text: 'Echo: hi' }],
        metadata: { userId: 'u' },
      },
    ],
  });
  const states = [
    ['submitted', 'TASK_STATE_SUBMITTED'],
    ['working', 'TASK_STATE_WORKING'],
    ['completed', 'TASK_STATE_COMPLETED'],
    ['failed', 'TASK_STATE_FAILED'],
    ['canceled', 'TASK_STATE_CANCELLED'],
    ['input-required', 'TASK_STATE_INPUT_REQUIRED'],
  ] as const;
  for (const [state, proto] of states) {
    t.same(
      restTask(bareTask('r', 's', state)),
      { id: 'r', contextId: 's', status: { state: proto } },
      state,
    );
  }
  t.same(restSendResponse(bareTask('r', 's', 'working')), {
    task: { id: 'r', contextId: 's', status: { state: 'TASK_STATE_WORKING' } },
  });
});

t.test('stream frames: {statusUpdate}, {message}, {task}', async (t) => {
  t.same(
    restStreamResponse({
      kind: 'status-update',
      taskId: 'r',
      contextId: 's',
      status: { state: 'working' },
      final: false,
    }),
    {
      statusUpdate: {
        taskId: 'r',
        contextId: 's',
        status: { state: 'TASK_STATE_WORKING' },
        final: false,
      },
    },
  );
  t.same(
    restStreamResponse({
      kind: 'status-update',
      taskId: 'r',
      contextId: 's',
      status: { state: 'canceled' },
      final: true,
      metadata: { reason: 'x' },
    }),
    {
      statusUpdate: {
        taskId: 'r',
        contextId: 's',
        status: { state: 'TASK_STATE_CANCELLED' },
        final: true,
        metadata: { reason: 'x' },
      },
    },
  );
  t.same(
    restStreamResponse({
      kind: 'message',
      messageId: 'm',
      role: 'agent',
      parts: [{ kind: 'text', text: 'a' }],
      contextId: 's',
    }),
    { message: { messageId: 'm', contextId: 's', role: 'ROLE_AGENT', content: [{ text: 'a' }] } },
  );
  t.same(restStreamResponse(bareTask('r', 's', 'failed')), {
    task: { id: 'r', contextId: 's', status: { state: 'TASK_STATE_FAILED' } },
  });
});
