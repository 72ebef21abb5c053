/**
 * `scopegate serve` with `telemetry.tracing`, as a real process: it says where its spans go (no
 * password printed), traces each request, and exports what it holds when it shuts down.
 */
import { join } from 'node:path';
import t from 'tap';
import { spawnScopegate, httpCall } from '../fixtures/child.js';
import { attribute, startOtlpReceiver } from '../fixtures/otlp-receiver.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';
import { contextHeader } from '../runtime/fixtures/runtime.js';

t.test('serve: spans of every request, exported by the time it exits', async (t) => {
  const up = await startRecordingUpstream();
  t.teardown(() => up.close());
  const receiver = await startOtlpReceiver(t);
  const endpoint = receiver.url.replace('http://', 'http://otel:s3cret@');
  const dir = t.testdir({
    'gateway.yaml': [
      'listen: { host: 127.0.0.1, port: 0 }',
      'admin: { host: 127.0.0.1, port: 0 }',
      `upstream: { url: "${up.url}", timeout_ms: 5000 }`,
      'policies: []',
      'auth:',
      '  security_key: a-root-key-for-tests',
      '  service_accounts: { enabled: false }',
      `telemetry: { tracing: true, otlp_endpoint: "${endpoint}", service_name: edge }`,
      '',
    ].join('\n'),
  });
  const served = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
  const tracing = await served.errLine(/^tracing: /);
  t.match(tracing, /^tracing: spans of edge to http:\/\/otel:\*\*\*@127\.0\.0\.1:\d+\/v1\/traces/);
  t.notMatch(tracing, 's3cret');
  const listening = await served.errLine(/^scopegate listening on /);
  const port = Number(/:(\d+), forwarding to /.exec(listening)?.[1]);
  const answer = await httpCall(`http://127.0.0.1:${port}/anything`, {
    headers: { authorization: 'Bearer a-root-key-for-tests' },
  });
  t.equal(answer.status, 200);
  served.child.kill('SIGTERM');
  await served.exited;
  const span = receiver.spans.find((s) => s.name.startsWith('GET '));
  t.ok(span, 'the request span was exported before the process ended');
  t.equal(attribute(span!, 'scopegate.principal_type'), 'security_key');
  t.ok(receiver.services.has('edge'));
});

t.test('runtime: a run continues the caller trace, as scopegate-runtime', async (t) => {
  const receiver = await startOtlpReceiver(t);
  const secret = 'runtime-tracing-identity-secret';
  const dir = t.testdir({
    'gateway.yaml': [
      'policies: []',
      'auth: { security_key: a-root-key-for-tests }',
      `upstream: { identity_secret: ${secret} }`,
      `telemetry: { tracing: true, otlp_endpoint: "${receiver.url}" }`,
      'runtime:',
      '  db: rt.db',
      '  agents:',
      '    - { id: helper, name: Helper }',
      '',
    ].join('\n'),
  });
  const child = spawnScopegate(t, [
    'runtime',
    '--config',
    join(dir, 'gateway.yaml'),
    '--port',
    '0',
  ]);
  t.match(await child.errLine(/^tracing: /), /^tracing: spans of scopegate-runtime to /);
  const line = await child.line(/^scopegate runtime listening on /);
  const url = /listening on (http:\/\/\S+)/.exec(line)?.[1] as string;
  const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const run = await httpCall(`${url}/agents/helper/runs`, {
    method: 'POST',
    headers: {
      ...contextHeader({}, secret),
      'content-type': 'application/x-www-form-urlencoded',
      traceparent: `00-${trace}-00f067aa0ba902b7-01`,
    },
    body: 'message=hi&stream=false',
  });
  t.equal(run.status, 200);
  child.child.kill('SIGTERM');
  await child.exited;
  const span = receiver.spans.find((s) => s.name === 'run agent');
  t.equal(span?.traceId, trace);
  t.equal(span?.parentSpanId, '00f067aa0ba902b7');
  t.ok(receiver.services.has('scopegate-runtime'));
});
