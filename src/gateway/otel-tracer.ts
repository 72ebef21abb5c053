/**
 * The OpenTelemetry SDK behind {@link RequestTracer}: loaded only when `telemetry.tracing` is on.
 * A request pays its spans: the server span and the upstream span are started live (the
 * upstream's `traceparent` needs the span's id); `authenticate` and `authorize` are written when
 * the response closes, from the times the pipeline noted. Spans are exported over OTLP/HTTP
 * (JSON) in batches, off the request path.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import type { RequestTrace, RequestTracer, TracingSettings } from './tracing.js';

const propagator = new W3CTraceContextPropagator();

/** `performance.now()` as the epoch milliseconds OpenTelemetry takes. */
function epochOf(now: number): number {
  return performance.timeOrigin + now;
}

/** Creates the tracer of a gateway instance. */
export function createRequestTracer(settings: TracingSettings): RequestTracer {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.endpoint }))],
  });
  const tracer = provider.getTracer('scopegate');
  return {
    begin: (headers, startedAt) => traceRequest(tracer, headers, startedAt),
    registerGlobal() {
      trace.setGlobalTracerProvider(provider);
      propagation.setGlobalPropagator(propagator);
    },
    shutdown: () => provider.shutdown(),
  };
}

function traceRequest(
  tracer: Tracer,
  headers: IncomingHttpHeaders,
  startedAt: number,
): RequestTrace {
  const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
  const server = tracer.startSpan(
    'HTTP',
    { kind: SpanKind.SERVER, startTime: epochOf(startedAt) },
    parent,
  );
  const inside = trace.setSpan(parent, server);
  let upstream: Span | null = null;
  return {
    traceId: server.spanContext().traceId,
    authStartedAt: Number.NaN,
    authEndedAt: Number.NaN,
    decidedAt: Number.NaN,
    upstreamHeaders() {
      upstream = tracer.startSpan('upstream', { kind: SpanKind.CLIENT }, inside);
      const carrier: Record<string, string> = {};
      propagator.inject(trace.setSpan(inside, upstream), carrier, defaultTextMapSetter);
      return carrier;
    },
    end(outcome) {
      const ended = epochOf(performance.now());
      if (!Number.isNaN(this.authStartedAt)) {
        child(tracer, inside, 'authenticate', this.authStartedAt, this.authEndedAt, {
          'scopegate.principal_type': outcome.principalType ?? 'none',
        });
      }
      if (!Number.isNaN(this.decidedAt)) {
        child(tracer, inside, 'authorize', this.authEndedAt, this.decidedAt, {
          'scopegate.decision': outcome.decision,
          'scopegate.reason': outcome.reason,
          'scopegate.required_scopes': [...outcome.requiredScopes],
        });
      }
      if (upstream !== null) {
        if (outcome.status >= 500) upstream.setStatus({ code: SpanStatusCode.ERROR });
        upstream.end(ended);
      }
      server.updateName(`${outcome.method} ${outcome.route}`);
      server.setAttributes({
        'http.request.method': outcome.method,
        'http.route': outcome.route,
        'http.response.status_code': outcome.status,
        'scopegate.decision': outcome.decision,
        'scopegate.principal_type': outcome.principalType ?? 'none',
        'scopegate.aborted': outcome.aborted,
        'scopegate.reason': outcome.reason,
        ...(outcome.userId === null ? {} : { 'enduser.id': outcome.userId }),
      });
      if (outcome.status >= 500) server.setStatus({ code: SpanStatusCode.ERROR });
      server.end(ended);
    },
  };
}

/** A finished child span of `parent`, from `start` to `end` (`performance.now()` values). */
function child(
  tracer: Tracer,
  parent: Context,
  name: string,
  start: number,
  end: number,
  attributes: Attributes,
): void {
  tracer.startSpan(name, { startTime: epochOf(start), attributes }, parent).end(epochOf(end));
}
