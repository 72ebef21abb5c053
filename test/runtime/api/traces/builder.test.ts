/**
 * The trace builder over real engine runs (offline model) and over hand-made events for the
 * cases the engine does not produce: span kinds, nesting, timings, status and output.
 */
import t from 'tap';
import type { RunEvent } from '../../../../src/runtime/engine/events.js';
import type { SpanRecord, TraceRecord } from '../../../../src/runtime/api/traces/records.js';
import {
  createTraceBuilder,
  spanIdOf,
  type TracedRun,
} from '../../../../src/runtime/api/traces/builder.js';
import { makeAgent, makeTeam, makeWorkflow, runToEnd } from '../../engine/fixtures/harness.js';

/** A clock that moves 5 ms each time it is read, from 1000. */
const tickingClock = () => {
  let now = 995;
  return { now: () => (now += 5) };
};

const RUN: TracedRun = {
  kind: 'agent',
  entityId: 'echoer',
  entityName: 'Echoer',
  runId: 'run-1',
  sessionId: 'sess-1',
  userId: 'alice',
  input: 'hi',
};

/** Traces a real run of `entity` on `message`. */
async function traceOf(
  entity: Parameters<typeof runToEnd>[0],
  message: string,
): Promise<TraceRecord> {
  const builder = createTraceBuilder(
    { ...RUN, kind: entity.kind, entityId: entity.id, entityName: entity.name, input: message },
    tickingClock(),
  );
  const { result } = await runToEnd(entity, message, { onEvent: (e) => builder.observe(e) });
  return builder.finish(result, 'trace-1');
}

/** A span by name (the first one). */
function span(trace: TraceRecord, name: string): SpanRecord {
  const found = trace.spans.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no span ${name}`);
  return found;
}

/** `span`'s parent's name. */
const parentName = (trace: TraceRecord, s: SpanRecord): string | undefined =>
  trace.spans.find((p) => p.span_id === s.parent_span_id)?.name;

const ADD = {
  name: 'add',
  description: 'Adds.',
  parameters: { type: 'object', properties: {} },
  external_execution: false,
};

t.test(
  'an agent run with a tool: root AGENT, an LLM span per model request, a TOOL span',
  async (t) => {
    const trace = await traceOf(makeAgent({ tools: [ADD] }), '/tool add {"a":1,"b":2}');
    t.same(
      trace.spans.map((s) => [s.type, s.name, parentName(trace, s) ?? null]),
      [
        ['AGENT', 'Echoer.run', null],
        ['LLM', 'offline-echo.invoke', 'Echoer.run'],
        ['TOOL', 'add', 'Echoer.run'],
        ['LLM', 'offline-echo.invoke', 'Echoer.run'],
      ],
    );
    t.match(trace, {
      trace_id: 'trace-1',
      name: 'Echoer.run',
      status: 'OK',
      error_count: 0,
      input: '/tool add {"a":1,"b":2}',
      output: 'Tool add returned: 3',
      error: null,
      run_id: 'run-1',
      session_id: 'sess-1',
      user_id: 'alice',
      agent_id: 'echoer',
      team_id: null,
      workflow_id: null,
    });
    const tool = span(trace, 'add');
    t.match(tool, {
      status: 'OK',
      input: '{"a":1,"b":2}',
      output: '3',
      metadata: { tool_name: 'add', parameters: { a: 1, b: 2 } },
    });
    const [first, second] = trace.spans.filter((s) => s.type === 'LLM') as [SpanRecord, SpanRecord];
    t.equal(first.output, null, 'a turn that only calls a tool has no text');
    t.equal(second.output, 'Tool add returned: 3');
    t.match(first.metadata, { model: 'offline-echo', model_provider: 'offline', input_tokens: 3 });
    t.equal(trace.spans[0]?.span_id, spanIdOf('trace-1', 0));
    t.match(trace.spans[0]?.span_id, /^[0-9a-f]{16}$/);
    // Timings come from the builder's clock: every span inside the root, each one ending after it starts.
    const root = trace.spans[0] as SpanRecord;
    t.equal(root.start_ms, 1000);
    for (const s of trace.spans) {
      t.ok(s.start_ms >= root.start_ms && s.end_ms <= root.end_ms && s.end_ms > s.start_ms, s.name);
    }
    t.equal(trace.start_ms, root.start_ms);
    t.equal(trace.end_ms, root.end_ms);
  },
);

t.test('a team run: members nest under the delegation tool call that ran them', async (t) => {
  const team = makeTeam([makeAgent({ id: 'm1', name: 'M1' }), makeAgent({ id: 'm2', name: 'M2' })]);
  const trace = await traceOf(team, 'hi');
  t.same(
    trace.spans.map((s) => [s.type, s.name, parentName(trace, s) ?? null]),
    [
      ['TEAM', 'Crew.run', null],
      ['TOOL', 'delegate_task_to_member', 'Crew.run'],
      ['AGENT', 'M1.run', 'delegate_task_to_member'],
      ['LLM', 'offline-echo.invoke', 'M1.run'],
      ['TOOL', 'delegate_task_to_member', 'Crew.run'],
      ['AGENT', 'M2.run', 'delegate_task_to_member'],
      ['LLM', 'offline-echo.invoke', 'M2.run'],
    ],
  );
  t.match(span(trace, 'M1.run'), {
    status: 'OK',
    output: 'Echo: hi',
    metadata: { agent_id: 'm1' },
  });
  t.match(trace, { team_id: 'crew', agent_id: null, output: 'Echo: hi\n\nEcho: hi', status: 'OK' });
});

t.test('a workflow run: each step is a child span holding its executor', async (t) => {
  const flow = makeWorkflow([
    { name: 's1', executor: makeAgent() },
    { name: 's2', executor: makeTeam([makeAgent({ id: 'm1', name: 'M1' })]) },
  ]);
  const trace = await traceOf(flow, 'hi');
  t.same(
    trace.spans.map((s) => [s.type, s.name, parentName(trace, s) ?? null]),
    [
      ['WORKFLOW', 'Flow.run', null],
      ['WORKFLOW', 's1', 'Flow.run'],
      ['AGENT', 'Echoer.run', 's1'],
      ['LLM', 'offline-echo.invoke', 'Echoer.run'],
      ['WORKFLOW', 's2', 'Flow.run'],
      ['TEAM', 'Crew.run', 's2'],
      ['TOOL', 'delegate_task_to_member', 'Crew.run'],
      ['AGENT', 'M1.run', 'delegate_task_to_member'],
      ['LLM', 'offline-echo.invoke', 'M1.run'],
    ],
  );
  t.match(span(trace, 's1'), {
    step_type: 'Step',
    output: 'Echo: hi',
    metadata: { step_index: 0 },
  });
  t.match(span(trace, 'Crew.run'), { metadata: { team_id: 'crew' } });
  t.match(trace, { workflow_id: 'flow', agent_id: null, status: 'OK', output: 'Echo: Echo: hi' });
});

t.test('an error run is ERROR with the message, its open spans closed', async (t) => {
  const trace = await traceOf(makeAgent(), '/error boom');
  t.match(trace, { status: 'ERROR', error: 'boom', output: null, error_count: 1 });
  t.match(trace.spans[0], { status: 'ERROR', error: 'boom', output: null });
  const llm = trace.spans[1] as SpanRecord;
  t.match(llm, { type: 'LLM', status: 'OK' });
  t.equal(llm.end_ms, trace.end_ms, 'the model request left open ends with the run');
});

t.test('a failing step fails its span and the workflow', async (t) => {
  const flow = makeWorkflow([{ name: 's1', executor: makeAgent() }]);
  const trace = await traceOf(flow, '/error step broke');
  t.match(span(trace, 's1'), { status: 'ERROR', error: 'step broke', output: null });
  t.match(span(trace, 'Echoer.run'), { status: 'ERROR', error: 'step broke' });
  t.match(trace, { status: 'ERROR', error: 'step broke', error_count: 3 });
});

t.test('a failing tool call is an ERROR span in an OK trace', async (t) => {
  const trace = await traceOf(makeAgent({ tools: [{ ...ADD, name: 'fail' }] }), '/tool fail {}');
  t.match(span(trace, 'fail'), {
    status: 'ERROR',
    error: 'fail: this tool always fails',
    output: null,
  });
  t.match(trace, { status: 'OK', error_count: 1 });
});

t.test('an engine that throws gives an ERROR trace with the message', async (t) => {
  const builder = createTraceBuilder(RUN, tickingClock());
  builder.observe({ event: 'RunStarted', run_id: 'run-1', model: 'm', model_provider: 'p' });
  const trace = builder.fail('Error: checkpoint unreadable', 'trace-2');
  t.match(trace, { status: 'ERROR', error: 'Error: checkpoint unreadable', output: null });
  t.same(trace.spans[0]?.metadata, { run_id: 'run-1', model: 'm', model_provider: 'p' });
});

t.test('hand-made events: fallbacks and events out of place', async (t) => {
  const builder = createTraceBuilder({ ...RUN, kind: 'team', entityName: 'Crew' }, tickingClock());
  const events: RunEvent[] = [
    { event: 'TeamRunContinued', run_id: 'run-1' },
    { event: 'SomethingElse', run_id: 'run-1' },
    { event: 'ModelRequestCompleted', run_id: 'run-1' },
    { event: 'RunContent', run_id: 'run-1', content: 'stray' },
    { event: 'ModelRequestStarted', run_id: 'run-1' },
    { event: 'TeamRunContent', run_id: 'run-1', content: { not: 'text' } },
    { event: 'ModelRequestCompleted', run_id: 'run-1', input_tokens: 'x' },
    { event: 'ToolCallStarted', run_id: 'run-1' },
    { event: 'ToolCallCompleted', run_id: 'run-1', tool: { tool_call_id: 'nope' } },
    { event: 'StepStarted', run_id: 'run-1', step_id: 'st' },
    { event: 'StepCompleted', run_id: 'run-1', step_id: 'nope' },
    { event: 'TeamRunStarted', run_id: 'member', parent_run_id: 'run-1' },
    { event: 'TeamRunError', run_id: 'member', content: 'member broke' },
    { event: 'RunCompleted', run_id: 'unknown' },
    { event: 'TeamRunCompleted', run_id: 'run-1', content: 'done' },
    { event: 'WorkflowError', run_id: 'run-1', error: { code: 1 } },
    { event: 'RunStarted', run_id: 'orphan', agent_name: 'Orphan' },
    { event: 'RunContinued', run_id: 'orphan' },
    { event: 'ToolCallStarted', run_id: 'ghost', tool: { tool_call_id: 'c1', tool_name: 'echo' } },
  ];
  for (const event of events) builder.observe(event);
  const trace = builder.finish({ status: 'ERROR', output: { content: { answer: 42 } } }, 't');
  t.same(
    trace.spans.map((s) => [s.type, s.name, s.status]),
    [
      ['TEAM', 'Crew.continue_run', 'ERROR'],
      ['LLM', 'model.invoke', 'OK'],
      ['TOOL', 'tool', 'OK'],
      ['WORKFLOW', 'step', 'OK'],
      ['TEAM', 'member.run', 'ERROR'],
      ['AGENT', 'Orphan.run', 'OK'],
      ['TOOL', 'echo', 'OK'],
    ],
  );
  const root = trace.spans[0]?.span_id;
  t.equal(trace.spans[5]?.parent_span_id, root, 'a run with no known parent nests under the root');
  t.equal(trace.spans[6]?.parent_span_id, root, 'a tool of an unknown run nests under the root');
  t.equal(trace.spans[1]?.output, null, 'only text deltas count as model output');
  t.equal(trace.spans[1]?.metadata, null);
  t.equal(trace.spans[2]?.input, '{}');
  t.match(trace.spans[4], {
    error: 'member broke',
    metadata: { run_id: 'member', team_id: undefined },
  });
  t.match(trace, { team_id: 'echoer', error: '{"code":1}', output: null });
});

t.test('an ERROR outcome without an error event takes the content as the error', async (t) => {
  const builder = createTraceBuilder({ ...RUN, kind: 'workflow' }, tickingClock());
  builder.observe({ event: 'WorkflowStarted', run_id: 'run-1' });
  const trace = builder.finish({ status: 'ERROR', output: {} }, 't');
  t.match(trace, { status: 'ERROR', error: null, output: null, workflow_id: 'echoer' });
  const ok = createTraceBuilder(RUN, tickingClock()).finish({ status: 'PAUSED', output: {} }, 't');
  t.match(ok, { status: 'OK', output: null });
});
