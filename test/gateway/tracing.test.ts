/**
 * The tracing settings a config gives (with the standard OTEL_* variables as defaults), and the
 * caller's trace id the access log names when the gateway does not trace itself.
 */
import t from 'tap';
import { parseConfig } from '../../src/config/load.js';
import { inboundTraceIdOf, tracingSettingsOf } from '../../src/gateway/tracing.js';
import type { ConfigError } from '../../src/shared/problem.js';

function settings(telemetry: string, env: Record<string, string> = {}) {
  const loaded = parseConfig(`telemetry: ${telemetry}\n`, '/etc/scopegate/gateway.yaml', { env });
  return tracingSettingsOf(loaded.config, env);
}

t.test('tracing is off by default', async (t) => {
  t.equal(settings('{}'), null);
  t.equal(settings('{ tracing: false, otlp_endpoint: "http://collector:4318/v1/traces" }'), null);
});

t.test('the endpoint, service name and ratio: config, else OTEL_*, else defaults', async (t) => {
  const rows: [string, string, Record<string, string>, object][] = [
    [
      'defaults',
      '{ tracing: true }',
      {},
      {
        endpoint: 'http://localhost:4318/v1/traces',
        serviceName: 'scopegate',
        sampleRatio: 1,
      },
    ],
    [
      'OTEL_EXPORTER_OTLP_ENDPOINT gains /v1/traces',
      '{ tracing: true }',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_SERVICE_NAME: 'edge' },
      { endpoint: 'http://collector:4318/v1/traces', serviceName: 'edge' },
    ],
    [
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is taken as it is',
      '{ tracing: true }',
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/traces',
      },
      { endpoint: 'https://collector/traces' },
    ],
    [
      'the config wins',
      '{ tracing: true, otlp_endpoint: "http://mine:4318/v1/traces", service_name: gw, sample_ratio: 0.25 }',
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://env/traces', OTEL_SERVICE_NAME: 'env' },
      { endpoint: 'http://mine:4318/v1/traces', serviceName: 'gw', sampleRatio: 0.25 },
    ],
    [
      'a ratio from an ${ENV} text',
      '{ tracing: true, sample_ratio: "${RATIO}" }',
      { RATIO: '0.5' },
      { sampleRatio: 0.5 },
    ],
  ];
  for (const [name, telemetry, env, expected] of rows)
    t.match(settings(telemetry, env), expected, name);
});

t.test('bad telemetry keys are config problems naming the key', async (t) => {
  const rows: [string, string, string][] = [
    ['a ratio above 1', '{ sample_ratio: 1.5 }', 'telemetry.sample_ratio'],
    ['a ratio that is no number', '{ sample_ratio: half }', 'telemetry.sample_ratio'],
    [
      'an endpoint that is no http URL',
      '{ otlp_endpoint: "grpc://c:4317" }',
      'telemetry.otlp_endpoint',
    ],
  ];
  for (const [name, telemetry, key] of rows) {
    try {
      settings(telemetry);
      t.fail(name);
    } catch (err) {
      t.match((err as ConfigError).problems, [{ key }], name);
    }
  }
});

t.test("the caller's trace id: only from a well-formed traceparent", async (t) => {
  const id = '4bf92f3577b34da6a3ce929d0e0e4736';
  const rows: [string, string | string[] | undefined, string | null][] = [
    ['well-formed', `00-${id}-00f067aa0ba902b7-01`, id],
    ['absent', undefined, null],
    ['repeated', [`00-${id}-00f067aa0ba902b7-01`], null],
    ['another version', `01-${id}-00f067aa0ba902b7-01`, null],
    ['upper case', `00-${id.toUpperCase()}-00f067aa0ba902b7-01`, null],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, null],
    ['too short', `00-${id.slice(1)}-00f067aa0ba902b7-01`, null],
  ];
  for (const [name, value, expected] of rows) t.equal(inboundTraceIdOf(value), expected, name);
});
