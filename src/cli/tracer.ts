/**
 * Tracing for the commands that serve (`serve`, `runtime`): the OpenTelemetry tracer of the
 * process, started from the config's `telemetry` section, or none.
 */
import type { GatewayConfig } from '../config/schema.js';
import { tracingSettingsOf, type RequestTracer } from '../gateway/tracing.js';
import { printableUrl } from '../shared/store-location.js';
import type { CommandIo } from './io.js';

/**
 * The tracer when `telemetry.tracing` is on (the OpenTelemetry SDK is loaded only then),
 * registered for the whole process so the bundled runtime's spans join the same traces.
 * `serviceName` is the default `service.name` (after `telemetry.service_name` and
 * `OTEL_SERVICE_NAME`).
 */
export async function startTracer(
  config: GatewayConfig,
  io: CommandIo,
  serviceName: string,
): Promise<RequestTracer | null> {
  const settings = tracingSettingsOf(config, io.env, serviceName);
  if (settings === null) return null;
  const { createRequestTracer } = await import('../gateway/otel-tracer.js');
  const tracer = createRequestTracer(settings);
  tracer.registerGlobal();
  io.err(
    `tracing: spans of ${settings.serviceName} to ${printableUrl(settings.endpoint)} ` +
      `(sample ratio ${settings.sampleRatio})`,
  );
  return tracer;
}
