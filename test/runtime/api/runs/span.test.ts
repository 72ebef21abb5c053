/**
 * A run's span: a child of the trace its request carries, ended with the run (its final status,
 * or an error when the engine throws); with no tracer provider registered, the run's events are
 * not wrapped at all.
 */
import { propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import t from 'tap';
import { spanned, startRunSpan } from '../../../../src/runtime/api/runs/span.js';

const FACTS = { kind: 'agent', entityId: 'a1', runId: 'r1', sessionId: 's1' } as const;
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

type Event = { readonly event: string; readonly [field: string]: unknown };

async function* events(
  fail: boolean,
  list: readonly Event[] = [{ event: 'RunStarted' }],
): AsyncGenerator<Event, { status: string }, void> {
  yield* list;
  if (fail) throw new Error('engine failed');
  return { status: 'COMPLETED' };
}

const tool = (id: string, name: string) => ({ tool: { tool_call_id: id, tool_name: name } });

async function drain<T, R>(source: AsyncGenerator<T, R, void>): Promise<{ seen: T[]; result: R }> {
  const seen: T[] = [];
  for (;;) {
    const step = await source.next();
    if (step.done === true) return { seen, result: step.value };
    seen.push(step.value);
  }
}

t.test('no provider registered: the events go through unwrapped', async (t) => {
  const source = events(false);
  const span = startRunSpan({ traceparent: TRACEPARENT }, FACTS);
  t.equal(spanned(source, span), source);
});

t.test('with a provider: a child of the request trace, ended with the run', async (t) => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  t.teardown(() => {
    trace.disable();
    propagation.disable();
  });
  const done = await drain(
    spanned(events(false), startRunSpan({ traceparent: TRACEPARENT }, FACTS)),
  );
  t.same(done, { seen: [{ event: 'RunStarted' }], result: { status: 'COMPLETED' } });
  await t.rejects(
    drain(spanned(events(true), startRunSpan({}, { ...FACTS, runId: 'r2' }))),
    /engine failed/,
  );
  const [completed, failed] = exporter.getFinishedSpans();
  t.equal(completed?.name, 'run agent');
  t.equal(completed?.spanContext().traceId, '4bf92f3577b34da6a3ce929d0e0e4736');
  t.equal(completed?.parentSpanContext?.spanId, '00f067aa0ba902b7');
  t.match(completed?.attributes, {
    'scopegate.run_id': 'r1',
    'scopegate.entity_id': 'a1',
    'scopegate.run_status': 'COMPLETED',
  });
  t.equal(failed?.parentSpanContext, undefined, 'no traceparent: a new trace');
  t.match(failed?.status, { code: 2, message: 'Error: engine failed' });
});

t.test('model requests and tool calls become child spans of the run', async (t) => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  t.teardown(() => trace.disable());
  const model = { model: 'echo', model_provider: 'offline' };
  const run = [
    { event: 'RunStarted', ...model },
    { event: 'ModelRequestStarted', ...model },
    { event: 'ModelRequestCompleted', input_tokens: 12, output_tokens: 3, total_tokens: 15 },
    { event: 'ModelRequestCompleted' },
    { event: 'ToolCallStarted', ...tool('c1', 'add') },
    { event: 'ToolCallCompleted', ...tool('c1', 'add') },
    { event: 'ToolCallStarted', ...tool('c2', 'nope') },
    { event: 'ToolCallCompleted', ...tool('c2', 'nope') },
    { event: 'ToolCallError', ...tool('c2', 'nope') },
    { event: 'ToolCallCompleted', ...tool('c9', 'never started') },
    { event: 'ToolCallStarted', ...tool('c3', 'pick_color') },
    { event: 'ModelRequestStarted', ...model },
    { event: 'RunPaused' },
  ];
  await drain(spanned(events(false, run), startRunSpan({}, FACTS)));
  const spans = exporter.getFinishedSpans();
  const runSpan = spans.find((s) => s.name === 'run agent');
  t.ok(runSpan);
  const children = spans.filter((s) => s !== runSpan);
  for (const child of children)
    t.equal(child.parentSpanContext?.spanId, runSpan?.spanContext().spanId, `${child.name}: child`);
  t.same(
    children.map((s) => [s.name, s.status.code]),
    [
      ['chat echo', 0],
      ['execute_tool add', 0],
      ['execute_tool nope', 2],
      ['chat echo', 0],
      ['execute_tool pick_color', 0],
    ],
    'ended in order; the paused run ends what it left open',
  );
  t.match(children[0]?.attributes, {
    'gen_ai.request.model': 'echo',
    'gen_ai.provider.name': 'offline',
    'gen_ai.usage.input_tokens': 12,
    'gen_ai.usage.output_tokens': 3,
  });
  t.notOk('gen_ai.usage.input_tokens' in (children[3]?.attributes ?? {}), 'no usage reported');
});

t.test('a run left by its consumer, or ending on a completed tool, ends every span', async (t) => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  t.teardown(() => trace.disable());
  const endsOnTool = [
    { event: 'ToolCallStarted', ...tool('c1', 'add') },
    { event: 'ToolCallCompleted', ...tool('c1', 'add') },
  ];
  await drain(spanned(events(false, endsOnTool), startRunSpan({}, FACTS)));
  const left = spanned(events(false, endsOnTool), startRunSpan({}, { ...FACTS, runId: 'r2' }));
  await left.next();
  await left.return({ status: 'CANCELLED' });
  t.same(
    exporter.getFinishedSpans().map((s) => s.name),
    ['execute_tool add', 'run agent', 'execute_tool add', 'run agent'],
  );
});
