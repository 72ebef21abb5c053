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
import { spanned, startRunSpan } from '../../src/runtime/run-span.js';

const FACTS = { kind: 'agent', entityId: 'a1', runId: 'r1', sessionId: 's1' } as const;
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

async function* events(fail: boolean): AsyncGenerator<string, { status: string }, void> {
  yield 'started';
  if (fail) throw new Error('engine failed');
  return { status: 'COMPLETED' };
}

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
  t.same(done, { seen: ['started'], result: { status: 'COMPLETED' } });
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
