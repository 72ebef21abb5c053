/**
 * The gateway listener: listen on port 0, serve each request with the state current when it
 * arrived, close, refuse a port in use, and answer an unexpected pipeline throw with a clean 500.
 */
import { createServer, request, Agent, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { parseConfig } from '../../src/config/load.js';
import { assembleGateway } from '../../src/gateway/assemble.js';
import type { GatewayState } from '../../src/gateway/pipeline.js';
import { startGatewayServer } from '../../src/gateway/server.js';
import { startRecordingUpstream, type RecordingUpstream } from '../fixtures/upstream.js';

const KEY = 'server-test-security-key';

/** A state forwarding to `upstreamUrl`, authenticated by the security key {@link KEY}. */
async function stateFor(t: Test, upstreamUrl: string): Promise<GatewayState> {
  const dir = t.testdir({});
  const text = [
    `upstream: { url: "${upstreamUrl}", timeout_ms: 5000 }`,
    'auth:',
    `  security_key: ${KEY}`,
    '  service_accounts: { enabled: false }',
  ].join('\n');
  const loaded = parseConfig(text, join(dir, 'gateway.yaml'), { env: {} });
  const assembly = await assembleGateway(loaded, { clock: { now: () => Date.now() } });
  if (assembly.state === null) throw new Error(JSON.stringify(assembly.problems));
  const state = assembly.state;
  t.teardown(() => state.upstream.pool.destroy());
  return state;
}

async function upstream(t: Test): Promise<RecordingUpstream> {
  const up = await startRecordingUpstream();
  t.teardown(() => up.close());
  return up;
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = { authorization: `Bearer ${KEY}` },
  agent: Agent | false = false,
): Promise<Answer> {
  return new Promise((resolve, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

t.test('starts on port 0, serves, and closes', async (t) => {
  const up = await upstream(t);
  const state = await stateFor(t, up.url);
  const server = await startGatewayServer(() => state, { host: '127.0.0.1', port: 0 });
  const { port, address } = server.address();
  t.ok(port > 0, 'port 0 resolved to a real port');
  t.equal(address, '127.0.0.1');
  t.equal(server.server.listening, true);

  const ok = await get(port, '/config?x=1');
  t.equal(ok.status, 200);
  t.equal(up.received[0]?.url, '/config?x=1');
  t.match(ok.headers['x-request-id'], /^[0-9a-f-]{36}$/);

  const refused = await get(port, '/config', {});
  t.equal(refused.status, 401, 'the pipeline answers a refusal itself');

  await server.close();
  t.equal(server.server.listening, false);
  await t.rejects(get(port, '/config'), { code: 'ECONNREFUSED' }, 'nothing listens any more');
});

t.test('close() does not wait for idle keep-alive connections', async (t) => {
  const up = await upstream(t);
  const state = await stateFor(t, up.url);
  const server = await startGatewayServer(() => state, { host: '127.0.0.1', port: 0 });
  const agent = new Agent({ keepAlive: true });
  t.teardown(() => agent.destroy());
  const answer = await get(server.address().port, '/config', undefined, agent);
  t.equal(answer.status, 200);
  // The keep-alive socket is idle in the agent's pool now; close() must still resolve.
  await server.close();
  t.equal(server.server.listening, false);
});

t.test('each request is served with the state current when it arrived', async (t) => {
  const first = await upstream(t);
  const second = await upstream(t);
  const states = [await stateFor(t, first.url), await stateFor(t, second.url)];
  let current = 0;
  const server = await startGatewayServer(() => states[current] as GatewayState, {
    host: '127.0.0.1',
    port: 0,
  });
  t.teardown(() => server.close());
  const { port } = server.address();
  t.equal((await get(port, '/a')).status, 200);
  current = 1;
  t.equal((await get(port, '/b')).status, 200);
  t.same(
    first.received.map((r) => r.url),
    ['/a'],
  );
  t.same(
    second.received.map((r) => r.url),
    ['/b'],
  );
});

t.test('a port in use rejects the start', async (t) => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => taken.close(() => r())));
  const { port } = taken.address() as AddressInfo;
  const up = await upstream(t);
  const state = await stateFor(t, up.url);
  await t.rejects(
    startGatewayServer(() => state, { host: '127.0.0.1', port }),
    {
      code: 'EADDRINUSE',
    },
  );
});

t.test('an unexpected throw inside the pipeline is a 500 Internal gateway error', async (t) => {
  const up = await upstream(t);
  const good = await stateFor(t, up.url);
  const broken: GatewayState = {
    ...good,
    chain: {
      tokenCache: null,
      authenticate: () => {
        throw new Error('a bug in an authenticator');
      },
    },
  };
  const server = await startGatewayServer(() => broken, { host: '127.0.0.1', port: 0 });
  t.teardown(() => server.close());
  const answer = await get(server.address().port, '/config', { 'x-request-id': 'req-500' });
  t.equal(answer.status, 500);
  t.same(JSON.parse(answer.body), { detail: 'Internal gateway error' });
  t.equal(answer.headers['content-type'], 'application/json');
  t.equal(answer.headers['cache-control'], 'no-store');
  t.notOk(answer.headers['www-authenticate']);
  t.notMatch(answer.body, /a bug in an authenticator/, 'no error text reaches the caller');
  t.equal(up.received.length, 0, 'nothing was forwarded');
});

t.test(
  'an unexpected throw while deciding an upgrade is a 500 on the socket, never a 101',
  async (t) => {
    const up = await upstream(t);
    const good = await stateFor(t, up.url);
    const broken: GatewayState = {
      ...good,
      chain: {
        tokenCache: null,
        authenticate: () => {
          throw new Error('a bug in an authenticator');
        },
      },
    };
    const server = await startGatewayServer(() => broken, { host: '127.0.0.1', port: 0 });
    t.teardown(() => server.close());
    const answer = await new Promise<Answer>((resolve, fail) => {
      const req = request({
        host: '127.0.0.1',
        port: server.address().port,
        path: '/ws',
        headers: { connection: 'Upgrade', upgrade: 'websocket' },
        agent: false,
      });
      req.on('upgrade', () => fail(new Error('upgraded')));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      req.on('error', fail);
      req.end();
    });
    t.equal(answer.status, 500);
    t.same(JSON.parse(answer.body), { detail: 'Internal gateway error' });
    t.equal(answer.headers.connection, 'close');
    t.equal(up.received.length, 0, 'nothing was forwarded');
  },
);
