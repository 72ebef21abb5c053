/**
 * The gateway executor against a real HTTP server standing in for the gateway: the run
 * endpoints are started as background forms with the internal token and polled to a terminal
 * status (bounded by the clock); other endpoints are called once with JSON; every failure is an
 * outcome, never a throw, and never carries the token.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createGatewayExecutor } from '../../../../src/runtime/api/schedules/gateway-executor.js';
import type { ScheduleRecord } from '../../../../src/runtime/api/schedules/table.js';
import { closedPortUrl } from '../../../fixtures/e2e.js';
import { createTestClock, TEST_NOW } from '../../../fixtures/tokens.js';

const TOKEN = 'secret-internal-token';

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  type: string | undefined;
  body: string;
}

type Handler = (req: Seen, res: ServerResponse) => void;

/** A server answering with `handlers` in turn (the last one forever); what it saw. */
async function fakeGateway(t: Test, ...handlers: Handler[]) {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const s = {
        method: req.method as string,
        url: req.url as string,
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body,
      };
      seen.push(s);
      (handlers.length > 1 ? (handlers.shift() as Handler) : (handlers[0] as Handler))(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
}

const json =
  (status: number, body: unknown): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

function schedule(overrides: Partial<ScheduleRecord> = {}): ScheduleRecord {
  return {
    id: 's',
    name: 's',
    description: null,
    method: 'POST',
    endpoint: '/agents/a1/runs',
    payload: { message: 'hi', session_state: { a: 1 }, stream: 'true' },
    cron_expr: '* * * * *',
    timezone: 'UTC',
    timeout_seconds: 30,
    max_retries: 0,
    retry_delay_seconds: 1,
    enabled: true,
    next_run_at: TEST_NOW,
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
    ...overrides,
  };
}

function executor(url: string, clock = createTestClock(), step = 0) {
  return createGatewayExecutor({
    url,
    token: TOKEN,
    clock,
    sleep: async () => clock.advance(step),
    pollIntervalMs: 5,
  });
}

const signal = new AbortController().signal;
const STARTED = { run_id: 'r1', session_id: 's1', status: 'RUNNING' };

t.test('a run endpoint: background form, polled until COMPLETED', async (t) => {
  const gw = await fakeGateway(
    t,
    json(202, STARTED),
    json(200, { ...STARTED, status: 'RUNNING' }),
    json(200, { ...STARTED, status: 'COMPLETED', content: 'Echo: hi', events: [] }),
  );
  const outcome = await executor(gw.url)(schedule(), signal);
  t.same(outcome, {
    status: 'success',
    error: null,
    requirements: null,
    statusCode: 200,
    runId: 'r1',
    sessionId: 's1',
    output: { status: 'COMPLETED', content: 'Echo: hi' },
  });
  t.same(gw.seen[0], {
    method: 'POST',
    url: '/agents/a1/runs',
    auth: `Bearer ${TOKEN}`,
    type: 'application/x-www-form-urlencoded',
    body: 'message=hi&session_state=%7B%22a%22%3A1%7D&stream=false&background=true',
  });
  t.match(gw.seen[1], {
    method: 'GET',
    url: '/agents/a1/runs/r1?session_id=s1',
    auth: `Bearer ${TOKEN}`,
  });
  t.equal(gw.seen.length, 3);
});

t.test('terminal statuses: PAUSED is paused, anything else failed', async (t) => {
  const paused = await fakeGateway(
    t,
    json(200, { ...STARTED, status: 'PAUSED', requirements: [{ id: 'q' }] }),
  );
  t.match(await executor(paused.url)(schedule(), signal), {
    status: 'paused',
    requirements: [{ id: 'q' }],
    output: { status: 'PAUSED', content: null },
  });
  const pausedBare = await fakeGateway(t, json(200, { ...STARTED, status: 'PAUSED' }));
  t.match(await executor(pausedBare.url)(schedule(), signal), {
    status: 'paused',
    requirements: null,
  });
  const errored = await fakeGateway(t, json(200, { ...STARTED, status: 'ERROR', content: 'bad' }));
  t.match(await executor(errored.url)(schedule(), signal), {
    status: 'failed',
    error: 'Run ended with status ERROR',
    output: { status: 'ERROR', content: 'bad' },
  });
});

t.test('run failures: refused start, no ids, refused poll, timeout', async (t) => {
  const refused = await fakeGateway(t, json(403, { detail: 'Insufficient permissions' }));
  t.match(await executor(refused.url)(schedule(), signal), {
    status: 'failed',
    statusCode: 403,
    error: 'Insufficient permissions',
  });
  const shapeless = await fakeGateway(t, json(422, { detail: [{ loc: ['body', 'message'] }] }));
  t.match(await executor(shapeless.url)(schedule(), signal), {
    error: '[{"loc":["body","message"]}]',
  });
  const plain = await fakeGateway(t, (_r, res) => res.writeHead(500).end('oops'));
  t.match(await executor(plain.url)(schedule(), signal), { statusCode: 500, error: 'HTTP 500' });
  const noIds = await fakeGateway(t, json(200, { status: 'RUNNING' }));
  t.match(await executor(noIds.url)(schedule(), signal), {
    error: 'The run route answered without run_id and session_id',
  });
  const lost = await fakeGateway(t, json(202, STARTED), json(404, { detail: 'Run not found' }));
  t.match(await executor(lost.url)(schedule(), signal), {
    status: 'failed',
    statusCode: 404,
    runId: 'r1',
    sessionId: 's1',
    error: 'Run not found',
  });
  const slow = await fakeGateway(t, json(202, STARTED));
  t.match(await executor(slow.url, createTestClock(), 10_000)(schedule(), signal), {
    status: 'failed',
    runId: 'r1',
    error: 'Run r1 did not finish within 30 seconds',
  });
});

t.test('other endpoints: called once with JSON; 2xx is success', async (t) => {
  const gw = await fakeGateway(t, json(200, { ok: true }), json(500, { detail: 'no' }), (_r, res) =>
    res.writeHead(204).end(),
  );
  const run = executor(gw.url);
  t.same(await run(schedule({ endpoint: '/memories', method: 'PUT', payload: { a: 1 } }), signal), {
    status: 'success',
    statusCode: 200,
    runId: null,
    sessionId: null,
    error: null,
    output: { ok: true },
    requirements: null,
  });
  t.match(gw.seen[0], {
    method: 'PUT',
    url: '/memories',
    type: 'application/json',
    body: '{"a":1}',
  });
  t.match(
    await run(schedule({ method: 'GET', endpoint: '/agents/a1/runs', payload: null }), signal),
    {
      status: 'failed',
      statusCode: 500,
      error: 'no',
    },
  );
  t.match(gw.seen[1], { method: 'GET', type: undefined, body: '' });
  t.match(await run(schedule({ method: 'DELETE', endpoint: '/x', payload: null }), signal), {
    status: 'success',
    statusCode: 204,
    output: null,
  });
});

t.test('an unreachable gateway is a failed outcome without the token', async (t) => {
  const outcome = await executor(await closedPortUrl())(schedule(), signal);
  t.match(outcome, { status: 'failed', statusCode: null, error: /^Gateway request failed: / });
  t.notMatch(JSON.stringify(outcome), TOKEN);
});

t.test('defaults: a run answered at once is not polled; no payload is an empty form', async (t) => {
  const gw = await fakeGateway(
    t,
    json(200, { ...STARTED, status: 'COMPLETED' }),
    json(200, STARTED),
  );
  const run = createGatewayExecutor({
    url: gw.url,
    token: TOKEN,
    clock: createTestClock(),
    sleep: async () => {},
  });
  t.match(await run(schedule({ payload: null }), signal), { status: 'success' });
  t.equal(gw.seen[0]?.body, 'stream=false&background=true');
  const noStatus = await fakeGateway(t, json(200, { run_id: 'r1', session_id: 's1' }));
  t.match(await executor(noStatus.url)(schedule(), signal), {
    status: 'failed',
    error: 'Run ended with status undefined',
    output: { status: null, content: null },
  });
});
