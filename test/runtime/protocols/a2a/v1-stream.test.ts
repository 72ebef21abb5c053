/**
 * The 1.0 stream mapper: the task first, content as appends to one artifact, other messages
 * (reasoning steps) as working status updates carrying the step, and the terminal status once,
 * with the closing task's message unless the run completed.
 */
import t from 'tap';
import { agentMessage, type RunTask } from '../../../../src/runtime/protocols/a2a/task.js';
import { createV1StreamMapper } from '../../../../src/runtime/protocols/a2a/v1-stream.js';

const ids = { taskId: 'r', contextId: 's' };

t.test('reasoning steps are working status updates whose message is the step', async (t) => {
  const mapper = createV1StreamMapper({ ...ids, artifactId: 'art' });
  t.same(mapper.start(), {
    task: { id: 'r', contextId: 's', status: { state: 'TASK_STATE_SUBMITTED' } },
  });
  const step = {
    ...agentMessage({
      messageId: 'm2',
      contextId: 's',
      taskId: 'r',
      texts: [],
      metadata: { agno_content_category: 'reasoning', agno_event_type: 'reasoning_step' },
    }),
    parts: [{ kind: 'text' as const, text: 'think', metadata: { step_type: 'str' } }],
  };
  t.same(mapper.map(step), [
    {
      statusUpdate: {
        taskId: 'r',
        contextId: 's',
        status: {
          state: 'TASK_STATE_WORKING',
          message: {
            messageId: 'm2',
            contextId: 's',
            taskId: 'r',
            role: 'ROLE_AGENT',
            parts: [{ text: 'think', metadata: { step_type: 'str' } }],
            metadata: { agno_content_category: 'reasoning', agno_event_type: 'reasoning_step' },
          },
        },
        metadata: { agno_content_category: 'reasoning', agno_event_type: 'reasoning_step' },
      },
    },
  ]);
  const plain = agentMessage({ messageId: 'm3', contextId: 's', texts: ['x'] });
  t.match(
    mapper.map(plain),
    [{ statusUpdate: { status: { message: { parts: [{ text: 'x' }] } } } }],
    'a message without a category is not the answer',
  );
});

t.test('the terminal status goes out once, when the closing task arrives', async (t) => {
  const mapper = createV1StreamMapper({ ...ids, artifactId: 'art' });
  t.same(
    mapper.map({ kind: 'status-update', ...ids, status: { state: 'failed' }, final: true }),
    [],
    'held',
  );
  const task: RunTask = {
    kind: 'task',
    id: 'r',
    contextId: 's',
    status: { state: 'failed' },
    history: [agentMessage({ messageId: 'm', contextId: 's', texts: ['Error: boom'] })],
  };
  t.match(mapper.map(task), [
    {
      statusUpdate: {
        status: { state: 'TASK_STATE_FAILED', message: { parts: [{ text: 'Error: boom' }] } },
      },
    },
  ]);
  const bare = createV1StreamMapper({ ...ids, artifactId: 'art' });
  t.same(
    bare.map({ kind: 'task', id: 'r', contextId: 's', status: { state: 'completed' } }),
    [{ statusUpdate: { taskId: 'r', contextId: 's', status: { state: 'TASK_STATE_COMPLETED' } } }],
    'a completed run: no message (the artifact holds the answer)',
  );
});
