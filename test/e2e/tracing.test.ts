/**
 * End to end: `telemetry.tracing` through a real gateway in front of the bundled runtime, with a
 * loopback OTLP/HTTP receiver. A request carrying a caller's `traceparent` makes one trace: the
 * gateway's server span (a child of the caller's span), its authenticate, authorize and upstream
 * children, and the runtime's run span under the upstream span. A forged token gives a server
 * span and an authenticate span only, and nothing reaches the runtime.
 */
import { propagation, trace } from '@opentelemetry/api';
import t, { type Test } from 'tap';
import { createGatewayMetrics } from '../../src/admin/metrics.js';
import { createRequestTracer } from '../../src/gateway/otel-tracer.js';
import { createLogger } from '../../src/shared/log.js';
import { bearer, closedPortUrl, send } from '../fixtures/e2e.js';
import { startGateway } from '../fixtures/gateway.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { captureLog } from '../fixtures/observability.js';
import { attribute, startOtlpReceiver, type OtlpSpan } from '../fixtures/otlp-receiver.js';
import { E2E_IDENTITY_SECRET, runtimeDir, runtimeIn } from '../fixtures/runtime-stack.js';
import { createTestClock, goodToken, TEST_SERVICE_ID } from '../fixtures/tokens.js';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;

const RUNTIME = { os_id: 'traced', db: 'runtime.db', agents: [{ id: 'a1', name: 'Agent One' }] };

async function tracedStack(t: Test, upstreamUrl?: string, accounts = false) {
  const receiver = await startOtlpReceiver(t);
  const tracer = createRequestTracer({
    endpoint: receiver.url,
    serviceName: 'scopegate-test',
    sampleRatio: 1,
  });
  // As serve does: the bundled runtime's spans go through the same provider.
  tracer.registerGlobal();
  t.teardown(() => {
    trace.disable();
    propagation.disable();
  });
  const runtime = await runtimeIn(t, RUNTIME, runtimeDir(t));
  const log = captureLog();
  const gateway = await startGateway(t, {
    upstreamUrl: upstreamUrl ?? runtime.url,
    upstream: { identity_secret: E2E_IDENTITY_SECRET },
    clock: createTestClock(),
    files: { 'rs.pem': RSA_KEY.publicPem },
    telemetry: { metrics: createGatewayMetrics(), log: createLogger({ destination: log }), tracer },
    yaml: [
      `service_id: ${TEST_SERVICE_ID}`,
      'cors: { allowed_origins: ["https://app.example"] }',
      'auth:',
      '  algorithm: RS256',
      '  verification_keys: ["file:rs.pem"]',
      '  authorization: true',
      `  service_accounts: { enabled: ${accounts}, store: "sqlite:sa.db" }`,
    ].join('\n'),
  });
  return { receiver, tracer, gateway, log };
}

t.test('one trace from the caller through the gateway to the run', async (t) => {
  const { receiver, tracer, gateway, log } = await tracedStack(t);
  const token = await goodToken({ sub: 'user-9', scopes: ['agents:run'] });
  const answer = await send(gateway.url, {
    method: 'POST',
    path: '/agents/a1/runs',
    headers: {
      ...bearer(token),
      'content-type': 'application/x-www-form-urlencoded',
      traceparent: TRACEPARENT,
    },
    body: new URLSearchParams({ message: 'hello', stream: 'false' }).toString(),
  });
  t.equal(answer.status, 200);
  // Exports what the batch holds (the run span ended before the response did).
  await tracer.shutdown();
  const spans = receiver.spans.filter((s) => s.traceId === CALLER_TRACE);
  const named = (name: string): OtlpSpan => {
    const span = spans.find((s) => s.name === name);
    if (span === undefined) throw new Error(`no span ${name} in ${spans.map((s) => s.name)}`);
    return span;
  };
  const server = named('POST /agents/*/runs');
  t.equal(server.parentSpanId, CALLER_SPAN, "the server span continues the caller's span");
  t.equal(server.kind, 2, 'SERVER');
  t.match(
    {
      decision: attribute(server, 'scopegate.decision'),
      reason: attribute(server, 'scopegate.reason'),
      principal: attribute(server, 'scopegate.principal_type'),
      status: attribute(server, 'http.response.status_code'),
      route: attribute(server, 'http.route'),
      user: attribute(server, 'enduser.id'),
    },
    {
      decision: 'allow',
      reason: 'scopes_satisfied',
      principal: 'jwt',
      status: 200,
      route: '/agents/*/runs',
      user: 'user-9',
    },
  );
  for (const name of ['authenticate', 'authorize', 'upstream'])
    t.equal(named(name).parentSpanId, server.spanId, `${name} is a child of the server span`);
  t.same(attribute(named('authorize'), 'scopegate.required_scopes'), {
    values: [{ stringValue: 'agents:run' }],
  });
  const run = named('run agent');
  t.equal(run.parentSpanId, named('upstream').spanId, "the run continues the gateway's trace");
  t.equal(attribute(run, 'scopegate.run_status'), 'COMPLETED');
  const chat = spans.find((s) => s.name.startsWith('chat '));
  t.equal(chat?.parentSpanId, run.spanId, 'the model request is a child of the run');
  t.ok(receiver.services.has('scopegate-test'));
  const line = log.lines().find((l) => l['msg'] === 'request completed');
  t.equal(line?.['trace_id'], CALLER_TRACE, 'the access log names the trace');
});

t.test('a forged token: server and authenticate spans, nothing forwarded', async (t) => {
  const { receiver, tracer, gateway } = await tracedStack(t);
  const answer = await send(gateway.url, {
    path: '/agents',
    headers: { authorization: 'Bearer not-a-token', traceparent: TRACEPARENT },
  });
  t.equal(answer.status, 401);
  await tracer.shutdown();
  const names = receiver.spans.filter((s) => s.traceId === CALLER_TRACE).map((s) => s.name);
  t.same(names.sort(), ['GET /agents', 'authenticate']);
  const server = receiver.spans.find((s) => s.name === 'GET /agents') as OtlpSpan;
  t.equal(attribute(server, 'scopegate.decision'), 'deny');
  t.equal(attribute(server, 'http.response.status_code'), 401);
});

t.test('an excluded route: no authentication spans; a failed upstream: error status', async (t) => {
  const { receiver, tracer, gateway } = await tracedStack(t, await closedPortUrl());
  const open = await send(gateway.url, { path: '/health', headers: { traceparent: TRACEPARENT } });
  t.equal(open.status, 502, 'excluded, forwarded, and the upstream is down');
  await tracer.shutdown();
  const spans = receiver.spans.filter((s) => s.traceId === CALLER_TRACE);
  t.same(spans.map((s) => s.name).sort(), ['GET exempt:/health', 'upstream']);
  for (const span of spans) t.equal(span.status?.code, 2, `${span.name}: error status`);
  const server = spans.find((s) => s.name === 'GET exempt:/health') as OtlpSpan;
  t.equal(attribute(server, 'scopegate.decision'), 'exempt');
  t.equal(attribute(server, 'scopegate.principal_type'), 'none');
});

t.test('a CORS preflight the gateway answers: one server span, no reason', async (t) => {
  const { receiver, tracer, gateway } = await tracedStack(t);
  const preflight = await send(gateway.url, {
    method: 'OPTIONS',
    path: '/agents',
    headers: {
      origin: 'https://app.example',
      'access-control-request-method': 'GET',
      traceparent: TRACEPARENT,
    },
  });
  t.equal(preflight.status, 204, 'an allowed origin');
  await tracer.shutdown();
  const spans = receiver.spans.filter((s) => s.traceId === CALLER_TRACE);
  t.same(
    spans.map((s) => s.name),
    ['OPTIONS unmatched'],
  );
  t.equal(attribute(spans[0] as OtlpSpan, 'scopegate.reason'), 'none');
});

t.test('a service-account token, checked against its store: the same spans', async (t) => {
  const { receiver, tracer, gateway } = await tracedStack(t, undefined, true);
  const admin = await goodToken({ sub: 'ops', scopes: ['service_accounts:write', 'agents:read'] });
  const minted = await send(gateway.url, {
    method: 'POST',
    path: '/service-accounts',
    headers: { ...bearer(admin), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'worker', scopes: [{ scope: 'agents:read' }] }),
  });
  t.equal(minted.status, 201, minted.body);
  const token = (JSON.parse(minted.body) as { token: string }).token;
  const answer = await send(gateway.url, {
    path: '/agents',
    headers: { ...bearer(token), traceparent: TRACEPARENT },
  });
  t.equal(answer.status, 200);
  await tracer.shutdown();
  const spans = receiver.spans.filter((s) => s.traceId === CALLER_TRACE);
  const authenticate = spans.find((s) => s.name === 'authenticate') as OtlpSpan;
  t.equal(attribute(authenticate, 'scopegate.principal_type'), 'service_account');
  t.ok(spans.some((s) => s.name === 'authorize'));
});
