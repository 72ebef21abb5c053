/**
 * Forwarded headers through a real gateway on loopback: a client's X-Forwarded-*, Forwarded and
 * X-Real-IP never reach the upstream (or an A2A card) unless its peer is in
 * `listen.trusted_proxies`; behind a trusted proxy, the client address X-Forwarded-For names is
 * what the service-account failure throttle counts and the access log writes as `client_ip`.
 */
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { WebSocket, WebSocketServer } from 'ws';
import type { IncomingHttpHeaders } from 'node:http';
import {
  assertForwarded,
  assertRefused,
  bearer,
  INVALID_TOKEN_CHALLENGE,
  send,
  startPair,
  yamlOf,
} from '../fixtures/e2e.js';
import { startGateway } from '../fixtures/gateway.js';
import { captureTelemetry } from '../fixtures/observability.js';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';
import { caller, MANAGE, mintAccount, startAccountsPair } from '../fixtures/service-accounts.js';
import { createTestClock, goodToken } from '../fixtures/tokens.js';

const INVALID_SA = {
  status: 401,
  detail: 'Invalid or expired service account token',
  challenge: INVALID_TOKEN_CHALLENGE,
};
const THROTTLED = {
  status: 429,
  detail: 'Too many failed service account look-ups from this address; try again later',
  challenge: null,
};

/** A well-formed service-account token that no account has. */
const badToken = (i: number): string => `svc_pat_${String(i).padStart(43, 'x')}`;

/** What a client sends to claim another origin and another address. */
const SPOOFED = {
  'x-forwarded-for': '198.51.100.66',
  'x-forwarded-host': 'attacker.example',
  'x-forwarded-proto': 'https',
  'x-forwarded-port': '443',
  'x-forwarded-prefix': '/evil',
  x_forwarded_host: 'attacker.example',
  forwarded: 'for=198.51.100.66;host=attacker.example;proto=https',
  'x-real-ip': '198.51.100.66',
};

t.test('behind a trusted loopback proxy, two clients have their own failure budgets', async (t) => {
  const { telemetry, log } = captureTelemetry();
  const pair = await startAccountsPair(t, {
    listen: { trusted_proxies: ['127.0.0.1/32'] },
    telemetry,
  });
  const jwt = await caller([...MANAGE, 'config:read']);
  const account = await mintAccount(t, pair, jwt, {
    name: 'valid',
    scopes: [{ scope: 'config:read' }],
  });
  const clientA = { 'x-forwarded-for': '203.0.113.10' };
  const clientB = { 'x-forwarded-for': '203.0.113.20' };
  for (let i = 1; i <= 20; i++) {
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: { ...clientA, ...bearer(badToken(i)) } },
      INVALID_SA,
    );
  }
  await assertRefused(
    t,
    pair,
    { path: '/config', headers: { ...clientA, ...bearer(badToken(21)) } },
    THROTTLED,
  );
  await assertRefused(
    t,
    pair,
    { path: '/config', headers: { ...clientB, ...bearer(badToken(22)) } },
    INVALID_SA,
  );
  await assertRefused(t, pair, { path: '/config', headers: bearer(badToken(23)) }, INVALID_SA);
  // The right-most address that is not a trusted proxy is the client, whatever is left of it.
  await assertRefused(
    t,
    pair,
    {
      path: '/config',
      headers: { 'x-forwarded-for': '203.0.113.20, 203.0.113.10', ...bearer(badToken(24)) },
    },
    THROTTLED,
  );
  // A valid token from the throttled client still passes (a throttled address gets one store
  // look-up a second: the refused guess above used this second's), and the upstream hears of it.
  pair.clock.advance(1000);
  const { received } = await assertForwarded(t, pair, {
    path: '/config',
    headers: { ...clientA, 'x-forwarded-host': 'public.example', ...bearer(account.token) },
  });
  t.equal(received.headers['x-forwarded-for'], '203.0.113.10, 127.0.0.1', 'the peer appended');
  t.equal(received.headers['x-forwarded-host'], 'public.example', "the proxy's host kept");
  t.equal(received.headers['x-forwarded-proto'], 'http', 'none sent: the inbound protocol');

  const lines = await log.count(26);
  const forwarded = lines.filter((line) => line['path'] === '/config');
  t.same(
    forwarded.map((line) => [line['status'], line['client_ip']]),
    [
      ...Array.from({ length: 20 }, () => [401, '203.0.113.10']),
      [429, '203.0.113.10'],
      [401, '203.0.113.20'],
      [401, '127.0.0.1'],
      [429, '203.0.113.10'],
      [200, '203.0.113.10'],
    ],
    'the access log names each client',
  );
});

t.test(
  'with no trusted proxy, a client cannot escape the throttle by changing X-Forwarded-For',
  async (t) => {
    const pair = await startAccountsPair(t);
    for (let i = 1; i <= 20; i++) {
      await assertRefused(
        t,
        pair,
        {
          path: '/config',
          headers: { 'x-forwarded-for': `203.0.113.${i}`, ...bearer(badToken(i)) },
        },
        INVALID_SA,
      );
    }
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: { 'x-forwarded-for': '198.51.100.1', ...bearer(badToken(21)) } },
      THROTTLED,
    );
  },
);

t.test('from an untrusted peer, spoofed forwarding headers never reach the upstream', async (t) => {
  const rows: { name: string; listen?: Record<string, unknown> }[] = [
    { name: 'trusted_proxies empty' },
    { name: 'the peer outside trusted_proxies', listen: { trusted_proxies: ['10.0.0.0/8'] } },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const { telemetry, log } = captureTelemetry();
      const pair = await startPair(t, {
        yaml: yamlOf({ auth: { security_key: 's3cret', service_accounts: { enabled: false } } }),
        telemetry,
        ...(row.listen === undefined ? {} : { listen: row.listen }),
      });
      const { received } = await assertForwarded(t, pair, {
        path: '/config',
        headers: { ...SPOOFED, authorization: 's3cret' },
      });
      const gatewayHost = new URL(pair.gateway.url).host;
      t.equal(received.headers['x-forwarded-for'], '127.0.0.1', 'the socket peer alone');
      t.equal(received.headers['x-forwarded-host'], gatewayHost, "the request's Host");
      t.equal(received.headers['x-forwarded-proto'], 'http', 'the inbound protocol');
      for (const name of ['forwarded', 'x-real-ip', 'x-forwarded-port', 'x-forwarded-prefix']) {
        t.equal(received.headers[name], undefined, `${name} removed`);
      }
      t.notMatch(received.rawHeaders.join('\n'), /attacker\.example|198\.51\.100\.66/i);
      t.notOk(
        received.rawHeaders.some((name, i) => i % 2 === 0 && /^x_forwarded/i.test(name)),
        'the underscore spelling is removed too',
      );
      const [line] = await log.count(1);
      t.match(line, { path: '/config', status: 200, client_ip: '127.0.0.1' });
    });
  }
});

const RUNTIME = {
  os_id: 'e2e-forwarded',
  db: 'runtime.db',
  agents: [{ id: 'a1', name: 'Agent One', description: 'Echoes.' }],
};

/** Fetches agent a1's card through the gateway with these extra headers. */
async function cardThrough(
  gatewayUrl: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string; url: unknown }> {
  const token = await goodToken({ scopes: ['agents:read'] });
  const answer = await send(gatewayUrl, {
    path: '/a2a/agents/a1/.well-known/agent-card.json',
    headers: { ...headers, ...bearer(token) },
  });
  return {
    status: answer.status,
    text: answer.body,
    url: (answer.json as { url?: unknown } | undefined)?.url,
  };
}

t.test('an A2A card fetched through the gateway names only trusted origins', async (t) => {
  await t.test('from an untrusted peer: the gateway, never X-Forwarded-Host', async (t) => {
    const { gateway } = await startRuntimeStack(t, RUNTIME);
    const card = await cardThrough(gateway.url, SPOOFED);
    t.equal(card.status, 200);
    t.equal(card.url, `${gateway.url}/a2a/agents/a1/v1`);
    t.notMatch(card.text, /attacker\.example|https:/);
  });
  await t.test('behind a trusted proxy: its public host and protocol', async (t) => {
    const { gateway } = await startRuntimeStack(t, RUNTIME, [], {
      trusted_proxies: ['127.0.0.1'],
    });
    const card = await cardThrough(gateway.url, {
      'x-forwarded-host': 'public.example',
      'x-forwarded-proto': 'https',
    });
    t.equal(card.status, 200);
    t.equal(card.url, 'https://public.example/a2a/agents/a1/v1');
  });
});

/** A `ws` echo server on port 0 that records the headers of each upgrade it accepted. */
async function startEchoUpstream(t: Test): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (socket, req) => {
    seen.push(req.headers);
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  t.teardown(
    () =>
      new Promise<void>((r) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`, seen };
}

t.test('a WebSocket upgrade gets the same forwarding headers', async (t) => {
  const upstream = await startEchoUpstream(t);
  const gateway = await startGateway(t, {
    upstreamUrl: upstream.url,
    clock: createTestClock(),
    yaml: yamlOf({ auth: { security_key: 's3cret', service_accounts: { enabled: false } } }),
  });
  const ws = new WebSocket(`${gateway.url.replace(/^http/, 'ws')}/ws/echo`, {
    headers: { ...SPOOFED, authorization: 's3cret' },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.close();
  const [seen] = upstream.seen;
  t.equal(seen?.['x-forwarded-for'], '127.0.0.1');
  t.equal(seen?.['x-forwarded-host'], new URL(gateway.url).host);
  t.equal(seen?.['x-forwarded-proto'], 'http');
  for (const name of ['forwarded', 'x-real-ip', 'x-forwarded-port', 'x-forwarded-prefix']) {
    t.equal(seen?.[name], undefined, `${name} removed`);
  }
  t.notMatch(JSON.stringify(seen), /attacker\.example|198\.51\.100\.66/);
});
