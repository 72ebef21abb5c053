/**
 * OpenTelemetry tracing of the requests the gateway serves (`telemetry.tracing`). Each request
 * gets one server span, named by its method and the matched route pattern (never the raw path),
 * continuing the caller's W3C `traceparent` and `tracestate`; its children are `authenticate`,
 * `authorize` and `upstream`, and the forwarded request carries the `upstream` span's context,
 * so the upstream's own spans join the trace. Spans go out over OTLP/HTTP (JSON) in batches, off
 * the request path.
 *
 * Off by default: no tracer exists, the OpenTelemetry SDK is not even loaded (otel-tracer.ts is
 * imported only when tracing is on), and a request pays one null check. This module holds what
 * the pipeline sees: the settings, the tracer's interface, and the caller's trace id for the log.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayConfig } from '../config/schema.js';

/** What the tracer is built from: `telemetry.*` with the `OTEL_*` defaults applied. */
export interface TracingSettings {
  /** The OTLP/HTTP traces URL. */
  readonly endpoint: string;
  readonly serviceName: string;
  /** Share of new traces recorded; a caller's decision (its sampled flag) is followed. */
  readonly sampleRatio: number;
}

/**
 * The tracing settings of a config, or null when tracing is off. `serviceName` is the last
 * default of `service.name`.
 */
export function tracingSettingsOf(
  config: GatewayConfig,
  env: Readonly<Record<string, string | undefined>>,
  serviceName = 'scopegate',
): TracingSettings | null {
  const { telemetry } = config;
  if (!telemetry.tracing) return null;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT'] || 'http://localhost:4318';
  return {
    endpoint:
      telemetry.otlp_endpoint ??
      (env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || `${base.replace(/\/+$/, '')}/v1/traces`),
    serviceName: telemetry.service_name ?? (env['OTEL_SERVICE_NAME'] || serviceName),
    sampleRatio: telemetry.sample_ratio,
  };
}

/** What a request came to, when its response closed (the record stage knows it). */
export interface TracedOutcome {
  readonly method: string;
  /** The route pattern (or `unmatched`, `exempt:…`, `invalid_path`). */
  readonly route: string;
  readonly status: number;
  readonly decision: string;
  /** The catalogue reason; `none` when the request ended before any was found. */
  readonly reason: string;
  readonly principalType: string | null;
  readonly userId: string | null;
  /** The scopes the route required; none when no decision was reached. */
  readonly requiredScopes: readonly string[];
  readonly aborted: boolean;
}

/** The span of one request, with the times the pipeline notes (`performance.now()`, NaN: never). */
export interface RequestTrace {
  /** The trace id (32 hex digits): the access log writes it. */
  readonly traceId: string;
  authStartedAt: number;
  authEndedAt: number;
  decidedAt: number;
  /**
   * Starts the `upstream` span and answers the headers that carry its context (`traceparent`,
   * and `tracestate` when the caller sent one).
   */
  upstreamHeaders(): Record<string, string>;
  /** Writes the child spans, sets the outcome's attributes and ends every span. */
  end(outcome: TracedOutcome): void;
}

/** The gateway instance's tracer: kept across reloads (changing `telemetry` needs a restart). */
export interface RequestTracer {
  /** Starts a request's server span from its headers. */
  begin(headers: IncomingHttpHeaders, startedAt: number): RequestTrace;
  /** Makes this the process's tracer provider, so the bundled runtime's spans go out too. */
  registerGlobal(): void;
  /** Exports what is still held and stops. */
  shutdown(): Promise<void>;
}

// A W3C traceparent: version 00, a trace id and a parent id, flags; ids not all zeros.
const TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * The trace id of a caller's `traceparent` when it is well-formed, so the access log can name the
 * trace even when the gateway itself does not trace; else null.
 */
export function inboundTraceIdOf(value: string | string[] | undefined): string | null {
  if (typeof value !== 'string') return null;
  const id = TRACEPARENT.exec(value)?.[1];
  return id === undefined || id === '00000000000000000000000000000000' ? null : id;
}
