/**
 * The record stage: route labels (patterns, never raw paths), decisions and reasons, the
 * access-log line builder, and the recorder on a real socket — exactly one record per response,
 * whether answered, refused, failing (error level) or cut off by the client.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createGatewayMetrics, type GatewayMetrics } from '../../../src/admin/metrics.js';
import { createPrincipal, type Principal } from '../../../src/auth/principal.js';
import { evaluateRequest, type Evaluation } from '../../../src/gateway/pipeline.js';
import { reject } from '../../../src/gateway/rejections.js';
import { writeRefusal } from '../../../src/gateway/respond.js';
import {
  accessLogEntryOf,
  accessLogOf,
  CLIENT_CLOSED_STATUS,
  createRequestRecorder,
  decisionOf,
  loggedPathOf,
  MAX_LOGGED_RAW_PATH,
  principalLabelOf,
  reasonOf,
  routeOf,
  type RequestRecord,
  type RequestRecorder,
} from '../../../src/gateway/stages/record.js';
import { createLogger, type Logger } from '../../../src/shared/log.js';
import {
  captureLog,
  parseMetrics,
  valueOf,
  type LogCapture,
} from '../../fixtures/observability.js';
import { compileFrom, grantsOf } from '../../fixtures/policy.js';

const policy = compileFrom(
  {
    'GET /agents/{agent_id}': ['agents:read'],
    'POST /agents/*/runs': ['agents:run'],
    'GET /config': ['config:read'],
  },
  { excluded: ['/health', '/public/**'] },
);
const state = { policy, rbacEnabled: true, grantsOf: (p: Principal) => grantsOf(p.scopes) };
const READER = createPrincipal({ type: 'jwt', userId: 'u-1', scopes: ['agents:read'] });

/** The decision stages' outcome for a request, with `caller` (null: no credential, 401). */
function evaluate(method: string, target: string, caller: Principal | null = READER): Evaluation {
  return evaluateRequest(state, method, target, () =>
    caller === null ? reject('SG_ERR_AUTH_MISSING') : { ok: true, value: caller },
  );
}

t.test('route: the matched pattern or a fixed word, never the raw path', async (t) => {
  const rows: [string, string, string, Principal | null, string][] = [
    ['allowed', 'GET', '/agents/a-1', READER, '/agents/*'],
    ['HEAD as GET', 'HEAD', '/agents/a-1?x=1', READER, '/agents/*'],
    ['denied 403', 'POST', '/agents/a-1/runs', READER, '/agents/*/runs'],
    ['refused 401 before authorize', 'GET', '/agents/secret-id', null, '/agents/*'],
    ['401 on an unmapped path', 'GET', '/nowhere/x', null, 'unmatched'],
    ['unmapped, allowed', 'GET', '/nowhere/x', READER, 'unmatched'],
    ['family floor, no pattern', 'GET', '/agents/a-1/extra', READER, 'unmatched'],
    ['malformed path', 'GET', '/agents/%2e%2e/x', READER, 'invalid_path'],
    ['exempt exact', 'POST', '/health', null, 'exempt:/health'],
    ['exempt glob', 'GET', '/public/a/b', null, 'exempt:/public/**'],
  ];
  for (const [name, method, target, caller, route] of rows) {
    t.equal(routeOf(policy, method, evaluate(method, target, caller), target), route, name);
  }
  // Never decided (the client left during authentication): derived from the target alone.
  t.equal(routeOf(policy, 'GET', null, '/agents/a-1'), '/agents/*', 'undecided, mapped');
  t.equal(routeOf(policy, 'GET', null, '/x//y'), 'invalid_path', 'undecided, malformed');
  t.equal(routeOf(policy, 'GET', null, '/health'), 'unmatched', 'undecided: exempt is unknown');
});

t.test('decision and reason', async (t) => {
  const allowed = evaluate('GET', '/agents/a-1');
  const denied = evaluate('POST', '/agents/a-1/runs');
  const unauthenticated = evaluate('GET', '/agents/a-1', null);
  const exempt = evaluate('GET', '/health', null);
  const malformed = evaluate('GET', '/a/../b');
  t.equal(decisionOf(allowed, true), 'allow');
  t.equal(decisionOf(denied, true), 'deny');
  t.equal(decisionOf(unauthenticated, true), 'deny');
  t.equal(decisionOf(malformed, true), 'deny');
  t.equal(decisionOf(exempt, true), 'exempt');
  t.equal(decisionOf(null, false), 'abort', 'the client left before a decision');
  t.equal(decisionOf(null, true), 'deny', 'answered without a decision (an internal error)');
  for (const code of [
    'SG_ERR_BODY_IDLE_TIMEOUT',
    'SG_ERR_BODY_TIMEOUT',
    'SG_ERR_IN_FLIGHT_LIMIT',
    'SG_ERR_UPSTREAM_BUSY',
  ] as const) {
    t.equal(decisionOf(allowed, true, reject(code)), 'deny', `allowed, then refused: ${code}`);
  }
  t.equal(
    decisionOf(allowed, true, reject('SG_ERR_UPSTREAM_TIMEOUT')),
    'allow',
    'an upstream failure leaves the decision as it was',
  );

  t.equal(reasonOf(undefined, allowed), 'scopes_satisfied');
  t.equal(reasonOf(undefined, denied), 'insufficient_scope');
  t.equal(reasonOf(undefined, unauthenticated), 'credential_missing');
  t.equal(reasonOf(undefined, malformed), 'path_dot_segment');
  t.equal(reasonOf(undefined, exempt), 'excluded_route');
  t.equal(reasonOf(undefined, null), null);
  t.equal(
    reasonOf(reject('SG_ERR_UPSTREAM_UNREACHABLE'), allowed),
    'upstream_unreachable',
    'the refusal written wins over the decision',
  );
  t.equal(reasonOf(reject('SG_ERR_INTERNAL'), null), 'internal_error');
  const undecided: Evaluation = { ...allowed, decision: null };
  t.equal(reasonOf(undefined, undecided), null);
});

t.test('the logged path: as forwarded, never the query; raw targets bounded', async (t) => {
  t.equal(loggedPathOf(evaluate('GET', '/agents/a%20b/?access_token=secret'), ''), '/agents/a%20b');
  const target = '/a/../b?token=secret';
  t.equal(loggedPathOf(evaluate('GET', target), target), '/a/../b');
  t.equal(loggedPathOf(null, '/agents/x?access_token=secret'), '/agents/x');
  t.equal(loggedPathOf(null, '/agents/x'), '/agents/x');
  const long = '/' + 'a'.repeat(5000);
  t.equal(loggedPathOf(null, long).length, MAX_LOGGED_RAW_PATH);
});

t.test('the access-log entry: identifiers and outcomes only', async (t) => {
  const record: RequestRecord = {
    requestId: 'req-1',
    clientAddress: '203.0.113.9',
    clientCert: null,
    trace: null,
    traceId: null,
    method: 'GET',
    target: '/agents/a-1?access_token=secret',
    startedAt: 0,
    evaluation: evaluate('GET', '/agents/a-1?access_token=secret'),
    sentAt: 1,
    answeredAt: 2,
  };
  const facts = {
    status: 200,
    decision: 'allow' as const,
    route: '/agents/*',
    reason: 'scopes_satisfied',
    durationMs: 3.14159265,
    upstreamMs: 1.0004,
    aborted: false,
  };
  t.same(accessLogEntryOf(record, facts), {
    req_id: 'req-1',
    client_ip: '203.0.113.9',
    method: 'GET',
    route: '/agents/*',
    path: '/agents/a-1',
    status: 200,
    decision: 'allow',
    reason: 'scopes_satisfied',
    principal_type: 'jwt',
    user_id: 'u-1',
    latency_ms: 3.142,
    upstream_latency_ms: 1,
    aborted: false,
  });
  t.match(
    accessLogEntryOf(
      { ...record, evaluation: { ...(record.evaluation as Evaluation), a2aMethod: 'GetTask' } },
      facts,
    ),
    { route: '/agents/*', a2a_method: 'GetTask' },
    'an A2A JSON-RPC call names its method',
  );
  const denied = accessLogEntryOf(
    { ...record, evaluation: evaluate('POST', '/agents/a-1/runs') },
    { ...facts, status: 403, decision: 'deny', reason: 'insufficient_scope' },
  );
  t.match(
    denied,
    { status: 403, required_scopes: ['agents:run'], held_scopes: ['agents:read'] },
    'a deny for missing scopes names what was required and what the caller held',
  );
  t.notOk('required_scopes' in accessLogEntryOf(record, facts), 'only on such a deny');
  const clientCert = { subject: 'O=Example,CN=worker', fingerprint256: 'AB:CD' };
  t.match(
    accessLogEntryOf({ ...record, clientCert }, facts),
    { client_cert_subject: 'O=Example,CN=worker', client_cert_fingerprint256: 'AB:CD' },
    'a verified client certificate is named',
  );
  t.notOk('client_cert_subject' in accessLogEntryOf(record, facts), 'only over mutual TLS');
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  t.match(accessLogEntryOf({ ...record, traceId }, facts), { trace_id: traceId }, 'a trace id');
  t.notOk('trace_id' in accessLogEntryOf(record, facts), 'only with a trace');
  const anonymous = accessLogEntryOf(
    { ...record, evaluation: null },
    { ...facts, upstreamMs: null, aborted: true },
  );
  t.match(anonymous, {
    principal_type: null,
    user_id: null,
    upstream_latency_ms: null,
    aborted: true,
  });
});

t.test('the access log of a config: off, or the logger at log.level', async (t) => {
  const capture = captureLog();
  const root = createLogger({ destination: capture });
  t.equal(accessLogOf(null, { level: 'info', access: true }), null, 'no logger');
  t.equal(accessLogOf(root, { level: 'info', access: false }), null, 'access: false');
  const debug = accessLogOf(root, { level: 'debug', access: true }) as Logger;
  debug.debug('written at debug');
  const warn = accessLogOf(root, { level: 'warn', access: true }) as Logger;
  warn.info('not written at warn');
  t.same(
    capture.lines().map((l) => l['msg']),
    ['written at debug'],
  );
});

/** A front server whose handler starts a record, then does what the test says. */
async function serveWith(
  t: Test,
  recorder: RequestRecorder,
  handle: (req: IncomingMessage, res: ServerResponse, record: RequestRecord) => void,
): Promise<{ port: number; arrived: Promise<void> }> {
  let markArrived: () => void = () => {};
  const arrived = new Promise<void>((r) => (markArrived = r));
  const server = createServer((req, res) => {
    const record = recorder.begin(req, res, {
      requestId: 'req-test',
      clientAddress: '198.51.100.4',
      clientCert: null,
    });
    handle(req, res, record);
    markArrived();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { port: (server.address() as AddressInfo).port, arrived };
}

/** Sends a request and reads the whole answer (or what arrived before it was cut off). */
function call(port: number, method: string, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

function recorderWith(level: 'info' | 'warn' = 'info'): {
  recorder: RequestRecorder;
  metrics: GatewayMetrics;
  log: LogCapture;
} {
  const metrics = createGatewayMetrics();
  const log = captureLog();
  const logger = createLogger({ level, destination: log });
  return { recorder: createRequestRecorder(policy, metrics, logger), metrics, log };
}

t.test('an answered request: one info line, counted once, timed upstream', async (t) => {
  const { recorder, metrics, log } = recorderWith();
  const { port } = await serveWith(t, recorder, (req, res, record) => {
    record.evaluation = evaluate('GET', req.url as string);
    record.sentAt = performance.now();
    record.answeredAt = record.sentAt + 2;
    res.end('ok');
  });
  t.equal(await call(port, 'GET', '/agents/a-1?access_token=secret'), 200);
  const [line, ...more] = await log.count(1);
  t.match(line, {
    level: 'info',
    msg: 'request completed',
    req_id: 'req-test',
    client_ip: '198.51.100.4',
    method: 'GET',
    route: '/agents/*',
    path: '/agents/a-1',
    status: 200,
    decision: 'allow',
    reason: 'scopes_satisfied',
    principal_type: 'jwt',
    user_id: 'u-1',
    latency_ms: Number,
    upstream_latency_ms: 2,
    aborted: false,
  });
  t.same(more, []);
  t.notMatch(log.text(), 'secret');
  const samples = parseMetrics(await metrics.registry.metrics());
  const labels = { method: 'GET', route: '/agents/*', status: '200', decision: 'allow' };
  t.equal(valueOf(t, samples, 'scopegate_requests_total', labels), 1);
  t.equal(
    valueOf(t, samples, 'scopegate_upstream_duration_seconds_count', { route: '/agents/*' }),
    1,
  );
});

t.test('a refusal: its reason, an auth failure when authentication refused', async (t) => {
  const { recorder, metrics, log } = recorderWith();
  const { port } = await serveWith(t, recorder, (req, res, record) => {
    const evaluation = evaluate('GET', req.url as string, req.url === '/config' ? READER : null);
    record.evaluation = evaluation;
    writeRefusal(res, evaluation.refusal ?? reject('SG_ERR_INTERNAL'));
  });
  t.equal(await call(port, 'GET', '/agents/a-1'), 401);
  t.equal(await call(port, 'GET', '/config'), 403);
  const lines = await log.count(2);
  t.match(lines, [
    { level: 'info', status: 401, decision: 'deny', reason: 'credential_missing' },
    {
      level: 'info',
      status: 403,
      decision: 'deny',
      reason: 'insufficient_scope',
      route: '/config',
    },
  ]);
  const samples = parseMetrics(await metrics.registry.metrics());
  t.equal(
    valueOf(t, samples, 'scopegate_auth_failures_total', { reason: 'credential_missing' }),
    1,
    'the 401 is an auth failure; the 403 is not',
  );
});

t.test('a 5xx is an error line; at level warn only error lines are written', async (t) => {
  const { recorder, metrics, log } = recorderWith('warn');
  const { port } = await serveWith(t, recorder, (req, res, record) => {
    record.evaluation = evaluate('GET', req.url as string);
    if (req.url === '/agents/down') writeRefusal(res, reject('SG_ERR_UPSTREAM_UNREACHABLE'));
    else res.end('ok');
  });
  t.equal(await call(port, 'GET', '/agents/up'), 200);
  t.equal(await call(port, 'GET', '/agents/down'), 502);
  const [line] = await log.count(1);
  t.match(line, {
    level: 'error',
    status: 502,
    decision: 'allow',
    reason: 'upstream_unreachable',
    route: '/agents/*',
  });
  const samples = parseMetrics(await metrics.registry.metrics());
  const base = { method: 'GET', route: '/agents/*', decision: 'allow' };
  t.equal(valueOf(t, samples, 'scopegate_requests_total', { ...base, status: '200' }), 1);
  t.equal(valueOf(t, samples, 'scopegate_requests_total', { ...base, status: '502' }), 1);
  t.equal(log.lines().length, 1, 'the 200 was counted but not logged');
});

t.test('no logger: metrics only', async (t) => {
  const metrics = createGatewayMetrics();
  const recorder = createRequestRecorder(policy, metrics, null);
  let closed: () => void = () => {};
  const done = new Promise<void>((r) => (closed = r));
  const { port } = await serveWith(t, recorder, (_req, res) => {
    res.on('close', closed); // after the recorder's own listener
    res.end('ok');
  });
  await call(port, 'GET', '/agents/a-1');
  await done;
  const samples = parseMetrics(await metrics.registry.metrics());
  t.equal(
    valueOf(t, samples, 'scopegate_requests_total', {
      method: 'GET',
      route: '/agents/*',
      status: '200',
      decision: 'deny',
    }),
    1,
    'answered without an evaluation',
  );
});

t.test('a client that leaves before any answer: 499, abort, recorded once', async (t) => {
  const { recorder, metrics, log } = recorderWith();
  const { port, arrived } = await serveWith(t, recorder, () => {});
  const req = request({ host: '127.0.0.1', port, path: '/agents/a-1', agent: false });
  req.on('error', () => {});
  req.end();
  await arrived;
  req.destroy();
  const [line] = await log.count(1);
  t.match(line, {
    level: 'info',
    msg: 'request aborted',
    status: CLIENT_CLOSED_STATUS,
    decision: 'abort',
    route: '/agents/*',
    path: '/agents/a-1',
    reason: null,
    aborted: true,
  });
  const samples = parseMetrics(await metrics.registry.metrics());
  t.equal(
    valueOf(t, samples, 'scopegate_requests_total', {
      method: 'GET',
      route: '/agents/*',
      status: '499',
      decision: 'abort',
    }),
    1,
  );
});

t.test('a response cut off mid-stream keeps its status and is marked aborted', async (t) => {
  const { recorder, log } = recorderWith();
  const { port } = await serveWith(t, recorder, (req, res, record) => {
    record.evaluation = evaluate('GET', req.url as string);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: first\n\n');
  });
  const cut = new Promise<void>((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/agents/a-1', agent: false }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', () => {});
    req.end();
  });
  await cut;
  const [line] = await log.count(1);
  t.match(line, { status: 200, decision: 'allow', aborted: true, msg: 'request aborted' });
});

t.test('the principal label: the kind of principal, __scheduler__, or none', async (t) => {
  const evaluation = (principal: Principal | null) =>
    ({ refusal: null, normalized: null, exempt: false, principal, decision: null }) as const;
  t.equal(principalLabelOf(null), 'none', 'never evaluated');
  t.equal(principalLabelOf(evaluation(null)), 'none', 'refused before authentication');
  t.equal(principalLabelOf(evaluation(createPrincipal({ type: 'internal' }))), '__scheduler__');
  for (const type of ['jwt', 'service_account', 'security_key', 'anonymous'] as const) {
    t.equal(principalLabelOf(evaluation(createPrincipal({ type }))), type);
  }
});
