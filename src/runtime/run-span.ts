/**
 * A run's OpenTelemetry span, continuing the trace of the request that started it (its
 * `traceparent`, which the gateway sets to its own upstream span). Written through the global
 * API only: unless the process registered a tracer provider (`scopegate serve` does when
 * `telemetry.tracing` is on), the span does not record and the run's events are not wrapped at
 * all.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { propagation, ROOT_CONTEXT, SpanStatusCode, trace, type Span } from '@opentelemetry/api';

const tracer = trace.getTracer('scopegate-runtime');

/** What names a run on its span. */
export interface RunSpanFacts {
  readonly kind: 'agent' | 'team' | 'workflow';
  readonly entityId: string;
  readonly runId: string;
  readonly sessionId: string;
}

/** Starts the span of a run, as a child of the trace the request `headers` carry (if any). */
export function startRunSpan(headers: IncomingHttpHeaders, facts: RunSpanFacts): Span {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  return tracer.startSpan(
    `run ${facts.kind}`,
    {
      attributes: {
        'scopegate.entity_kind': facts.kind,
        'scopegate.entity_id': facts.entityId,
        'scopegate.run_id': facts.runId,
        'scopegate.session_id': facts.sessionId,
      },
    },
    parent,
  );
}

/**
 * `source` with `span` ended when it ends (the run's final status as an attribute; a throw marks
 * the span as an error). A span that does not record leaves `source` as it is.
 */
export function spanned<T, R extends { readonly status: string }>(
  source: AsyncGenerator<T, R, void>,
  span: Span,
): AsyncGenerator<T, R, void> {
  return span.isRecording() ? follow(source, span) : source;
}

async function* follow<T, R extends { readonly status: string }>(
  source: AsyncGenerator<T, R, void>,
  span: Span,
): AsyncGenerator<T, R, void> {
  try {
    let step = await source.next();
    while (step.done !== true) {
      yield step.value;
      step = await source.next();
    }
    span.setAttribute('scopegate.run_status', step.value.status);
    return step.value;
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
    throw error;
  } finally {
    span.end();
  }
}
