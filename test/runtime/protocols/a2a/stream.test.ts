/**
 * Agno-style run events as A2A stream items: the working status-update at the
 * start, content deltas of the run's own voice, status-updates with metadata for tool, reasoning,
 * memory and workflow events, and the final status-update + Task for every way a run ends.
 */
import t from 'tap';
import {
  createStreamMapper,
  type StreamMapper,
} from '../../../../src/runtime/protocols/a2a/stream.js';
import type { Entity } from '../../../../src/runtime/api/runs/service.js';

const IDS = { taskId: 'run-1', contextId: 'ses-1', messageId: 'msg-1' } as const;

function mapper(kind: Entity['kind'] = 'agent'): StreamMapper {
  let n = 0;
  return createStreamMapper({ kind, ...IDS, newId: () => `new-${++n}` });
}

const working = (metadata?: Record<string, unknown>) => ({
  kind: 'status-update',
  taskId: 'run-1',
  contextId: 'ses-1',
  status: { state: 'working' },
  final: false,
  ...(metadata === undefined ? {} : { metadata }),
});

const delta = (text: string) => ({
  kind: 'message',
  messageId: 'msg-1',
  role: 'agent',
  parts: [{ kind: 'text', text }],
  contextId: 'ses-1',
  taskId: 'run-1',
  metadata: { agno_content_category: 'content' },
});

t.test('the top-level start is a working status-update; nested starts are not', async (t) => {
  for (const event of ['RunStarted', 'TeamRunStarted', 'WorkflowStarted']) {
    t.same(mapper().map({ event, nested_depth: 0 }), [working()], event);
    t.same(mapper().map({ event, nested_depth: 1 }), [], `${event} nested`);
  }
  t.same(mapper().map({ event: 'RunStarted' }), [working()], 'no depth means the top');
});

t.test('content deltas of the run’s own voice become Messages with one message id', async (t) => {
  const rows: {
    name: string;
    kind: Entity['kind'];
    event: Record<string, unknown>;
    out: unknown[];
  }[] = [
    {
      name: 'agent delta',
      kind: 'agent',
      event: { event: 'RunContent', content: 'a', nested_depth: 0 },
      out: [delta('a')],
    },
    {
      name: 'team delta',
      kind: 'team',
      event: { event: 'TeamRunContent', content: 'b', nested_depth: 0 },
      out: [delta('b')],
    },
    {
      name: 'team member delta',
      kind: 'team',
      event: { event: 'RunContent', content: 'c', nested_depth: 1 },
      out: [],
    },
    {
      name: 'workflow step agent delta',
      kind: 'workflow',
      event: { event: 'RunContent', content: 'd', nested_depth: 1 },
      out: [delta('d')],
    },
    {
      name: 'workflow step team delta',
      kind: 'workflow',
      event: { event: 'TeamRunContent', content: 'e', nested_depth: 1 },
      out: [delta('e')],
    },
    {
      name: 'workflow step team member delta',
      kind: 'workflow',
      event: { event: 'RunContent', content: 'f', nested_depth: 2 },
      out: [],
    },
    {
      name: 'empty delta',
      kind: 'agent',
      event: { event: 'RunContent', content: '', nested_depth: 0 },
      out: [],
    },
    {
      name: 'structured delta',
      kind: 'agent',
      event: { event: 'RunContent', content: { a: 1 }, nested_depth: 0 },
      out: [],
    },
  ];
  for (const row of rows) t.same(mapper(row.kind).map(row.event as never), row.out, row.name);
});

t.test('tool events carry the tool in their metadata', async (t) => {
  const tool = { tool_call_id: 'c1', tool_name: 'add', tool_args: { a: 1, b: 2 }, result: null };
  const rows = [
    { event: 'ToolCallStarted', type: 'tool_call_started' },
    { event: 'ToolCallCompleted', type: 'tool_call_completed' },
    { event: 'TeamToolCallStarted', type: 'tool_call_started' },
    { event: 'TeamToolCallCompleted', type: 'tool_call_completed' },
  ];
  for (const row of rows) {
    t.same(
      mapper().map({ event: row.event, tool, nested_depth: 2 }),
      [
        working({
          agno_event_type: row.type,
          tool_name: 'add',
          tool_call_id: 'c1',
          tool_args: '{"a":1,"b":2}',
        }),
      ],
      row.event,
    );
  }
  t.same(
    mapper().map({
      event: 'ToolCallStarted',
      tool: { tool_name: '', tool_call_id: '', tool_args: {} },
    }),
    [working({ agno_event_type: 'tool_call_started', tool_name: 'tool' })],
    'no name is "tool"; no id and empty args are left out',
  );
  t.same(mapper().map({ event: 'ToolCallCompleted', tool: { tool_args: null } }), [
    working({ agno_event_type: 'tool_call_completed', tool_name: 'tool' }),
  ]);
  t.same(
    mapper().map({ event: 'ToolCallCompleted' }),
    [working({ agno_event_type: 'tool_call_completed' })],
    'an event without its tool',
  );
});

t.test('reasoning, memory and workflow events are working status-updates', async (t) => {
  const rows: { event: Record<string, unknown>; metadata: Record<string, unknown> }[] = [
    { event: { event: 'ReasoningStarted' }, metadata: { agno_event_type: 'reasoning_started' } },
    {
      event: { event: 'TeamReasoningCompleted', content: 'x' },
      metadata: { agno_event_type: 'reasoning_completed' },
    },
    {
      event: { event: 'MemoryUpdateStarted' },
      metadata: { agno_event_type: 'memory_update_started' },
    },
    {
      event: { event: 'TeamMemoryUpdateCompleted' },
      metadata: { agno_event_type: 'memory_update_completed' },
    },
    {
      event: { event: 'StepStarted', step_name: 's', step_index: 0 },
      metadata: { agno_event_type: 'workflow_step_started', step_name: 's' },
    },
    {
      event: { event: 'StepCompleted', step_name: 's', content: 'x' },
      metadata: { agno_event_type: 'workflow_step_completed', step_name: 's' },
    },
    {
      event: { event: 'StepError', step_name: 's', error: 'boom' },
      metadata: { agno_event_type: 'workflow_step_error', step_name: 's', error: 'boom' },
    },
    {
      event: { event: 'StepError', step_name: null },
      metadata: { agno_event_type: 'workflow_step_error' },
    },
    {
      event: { event: 'LoopExecutionStarted', step_name: 'l', max_iterations: 3 },
      metadata: { agno_event_type: 'loop_execution_started', step_name: 'l', max_iterations: 3 },
    },
    {
      event: { event: 'LoopIterationStarted', step_name: 'l', iteration: 0, max_iterations: 3 },
      metadata: {
        agno_event_type: 'loop_iteration_started',
        step_name: 'l',
        iteration: 0,
        max_iterations: 3,
      },
    },
    {
      event: {
        event: 'LoopIterationCompleted',
        step_name: 'l',
        iteration: 1,
        should_continue: false,
      },
      metadata: {
        agno_event_type: 'loop_iteration_completed',
        step_name: 'l',
        iteration: 1,
        should_continue: false,
      },
    },
    {
      event: { event: 'LoopExecutionCompleted', step_name: 'l', total_iterations: 2 },
      metadata: {
        agno_event_type: 'loop_execution_completed',
        step_name: 'l',
        total_iterations: 2,
      },
    },
    {
      event: { event: 'ParallelExecutionStarted', step_name: 'p', parallel_step_count: 2 },
      metadata: {
        agno_event_type: 'parallel_execution_started',
        step_name: 'p',
        parallel_step_count: 2,
      },
    },
    {
      event: { event: 'ParallelExecutionCompleted', step_name: 'p', parallel_step_count: 2 },
      metadata: {
        agno_event_type: 'parallel_execution_completed',
        step_name: 'p',
        parallel_step_count: 2,
      },
    },
    {
      event: { event: 'ConditionExecutionStarted', step_name: 'c', condition_result: true },
      metadata: {
        agno_event_type: 'condition_execution_started',
        step_name: 'c',
        condition_result: true,
      },
    },
    {
      event: {
        event: 'ConditionExecutionCompleted',
        step_name: 'c',
        condition_result: false,
        executed_steps: 0,
      },
      metadata: {
        agno_event_type: 'condition_execution_completed',
        step_name: 'c',
        condition_result: false,
        executed_steps: 0,
      },
    },
    {
      event: { event: 'RouterExecutionStarted', step_name: 'r', selected_steps: ['a'] },
      metadata: {
        agno_event_type: 'router_execution_started',
        step_name: 'r',
        selected_steps: ['a'],
      },
    },
    {
      event: {
        event: 'RouterExecutionCompleted',
        step_name: 'r',
        selected_steps: ['a'],
        executed_steps: 1,
      },
      metadata: {
        agno_event_type: 'router_execution_completed',
        step_name: 'r',
        selected_steps: ['a'],
        executed_steps: 1,
      },
    },
    {
      event: { event: 'StepsExecutionStarted', step_name: 'g', steps_count: 2 },
      metadata: { agno_event_type: 'steps_execution_started', step_name: 'g', steps_count: 2 },
    },
    {
      event: {
        event: 'StepsExecutionCompleted',
        step_name: 'g',
        steps_count: 2,
        executed_steps: 2,
      },
      metadata: {
        agno_event_type: 'steps_execution_completed',
        step_name: 'g',
        steps_count: 2,
        executed_steps: 2,
      },
    },
  ];
  for (const row of rows) {
    t.same(
      mapper('workflow').map(row.event as never),
      [working(row.metadata)],
      row.event.event as string,
    );
  }
});

t.test('a reasoning step with text is a reasoning Message of its own id', async (t) => {
  const m = mapper();
  t.same(
    m.map({ event: 'ReasoningStep', reasoning_content: 'think', content_type: 'ReasoningStep' }),
    [
      {
        kind: 'message',
        messageId: 'new-1',
        role: 'agent',
        parts: [{ kind: 'text', text: 'think', metadata: { step_type: 'ReasoningStep' } }],
        contextId: 'ses-1',
        taskId: 'run-1',
        metadata: { agno_content_category: 'reasoning', agno_event_type: 'reasoning_step' },
      },
    ],
  );
  t.match(m.map({ event: 'TeamReasoningStep', reasoning_content: 'more' }), [
    { messageId: 'new-2', parts: [{ text: 'more', metadata: { step_type: 'str' } }] },
  ]);
  t.same(m.map({ event: 'ReasoningStep', reasoning_content: '' }), [], 'no text, no message');
  t.same(m.map({ event: 'ReasoningStep' }), []);
});

t.test('events with no A2A counterpart map to nothing', async (t) => {
  for (const event of [
    'ModelRequestStarted',
    'RunContentCompleted',
    'ReasoningContentDelta',
    'RunCompleted',
    'RunError',
    'RunPaused',
    'StepExecutorPaused',
    'TeamStepStarted',
    'CustomEvent',
  ]) {
    t.same(mapper().map({ event, nested_depth: 0 }), [], event);
  }
});

const final = (state: string, metadata?: Record<string, unknown>) => ({
  kind: 'status-update',
  taskId: 'run-1',
  contextId: 'ses-1',
  status: { state },
  final: true,
  ...(metadata === undefined ? {} : { metadata }),
});

const finalTask = (state: string, texts: string[], metadata?: Record<string, unknown>) => ({
  kind: 'task',
  id: 'run-1',
  contextId: 'ses-1',
  status: { state },
  history: [
    {
      kind: 'message',
      messageId: 'msg-1',
      role: 'agent',
      parts: texts.map((text) => ({ kind: 'text', text })),
      contextId: 'ses-1',
      taskId: 'run-1',
      ...(metadata === undefined ? {} : { metadata }),
    },
  ],
});

t.test('the end of a run: its state, then the Task with the full content', async (t) => {
  const metrics = { input_tokens: 1 };
  t.same(mapper().finish({ status: 'COMPLETED', content: 'Echo: hi', metrics }), [
    final('completed'),
    finalTask('completed', ['Echo: hi'], { metrics }),
  ]);
  t.same(
    mapper().finish({ status: 'COMPLETED', content: '', metrics: undefined }),
    [final('completed'), finalTask('completed', [])],
    'no content, no metrics',
  );
  t.same(
    mapper().finish({ status: 'ERROR', content: 'model down', metrics }),
    [final('failed'), finalTask('failed', ['model down'])],
    'a RunError ends failed (ours), its message the error text',
  );
  t.same(
    mapper().finish({ status: 'PAUSED', content: '', metrics }),
    [final('input-required', { agno_event_type: 'run_paused' }), finalTask('input-required', [])],
    'a paused run waits on the client: input-required',
  );
  const pending = [
    { tool_call_id: 'c1', tool_name: 'echo', tool_args: {}, waits_for: 'confirmation' },
  ];
  t.same(
    mapper().finish({ status: 'PAUSED', content: '', metrics, pending })[0],
    final('input-required', { agno_event_type: 'run_paused', pending }),
    'the calls it waits on, when there are any',
  );
});

t.test('a cancelled run: canceled with the reason, its partial content and a notice', async (t) => {
  const m = mapper();
  t.same(
    m.map({ event: 'RunCancelled', reason: 'member', nested_depth: 1 }),
    [],
    'nested: ignored',
  );
  t.same(
    m.map({ event: 'TeamRunCancelled', reason: 'Run run-1 was cancelled', nested_depth: 0 }),
    [],
  );
  const cancelled = { agno_event_type: 'run_cancelled' };
  t.same(m.finish({ status: 'CANCELLED', content: '1 2', metrics: {} }), [
    final('canceled', { ...cancelled, reason: 'Run run-1 was cancelled' }),
    finalTask('canceled', ['1 2', 'Run was cancelled: Run run-1 was cancelled'], cancelled),
  ]);
  t.same(
    mapper().finish({ status: 'CANCELLED', content: '', metrics: {} }),
    [final('canceled', cancelled), finalTask('canceled', ['Run was cancelled'], cancelled)],
    'without a cancel event: no reason',
  );
});

t.test('a run that threw: failed, `Error: …`', async (t) => {
  t.same(mapper().fail('disk full'), [final('failed'), finalTask('failed', ['Error: disk full'])]);
});
