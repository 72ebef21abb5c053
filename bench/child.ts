/**
 * A benchmark server in its own process, so its CPU time is measured alone: `upstream` (answers
 * a small JSON), `plain` (a plain Node keep-alive proxy, no auth), or `gateway` (scopegate).
 * Speaks to bench/proxy.ts over IPC: ready{port} → start → stop → cpu{micros}.
 */
import { createServer, request, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../src/config/load.js';
import { assembleGateway } from '../src/gateway/assemble.js';
import { startGatewayServer } from '../src/gateway/server.js';
import { systemClock } from '../src/shared/clock.js';

type Message = { type: 'start' } | { type: 'stop' };

async function main(): Promise<void> {
  const role = process.argv[2];
  let port: number;
  if (role === 'upstream') {
    const body = JSON.stringify({ id: 'a1', name: 'Agent One', description: 'benchmark agent' });
    const server = createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  } else if (role === 'plain') {
    const target = new URL(process.argv[3] as string);
    const agent = new Agent({ keepAlive: true, maxSockets: 256 });
    const server = createServer((req, res) => {
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
          agent,
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  } else if (role === 'gateway') {
    const [configFile, configText] = [process.argv[3] as string, process.argv[4] as string];
    const loaded = parseConfig(configText, configFile, { env: {} });
    const assembly = await assembleGateway(loaded, { clock: systemClock });
    if (assembly.state === null) throw new Error(JSON.stringify(assembly.problems));
    const state = assembly.state;
    const server = await startGatewayServer(() => state, { host: '127.0.0.1', port: 0 });
    port = server.address().port;
  } else throw new Error(`unknown role ${role}`);

  let startedAt = process.cpuUsage();
  process.on('message', (message: Message) => {
    if (message.type === 'start') startedAt = process.cpuUsage();
    else {
      const used = process.cpuUsage(startedAt);
      process.send?.({ type: 'cpu', micros: used.user + used.system });
    }
  });
  // Exit cleanly on SIGINT so a --cpu-prof profile gets written.
  process.on('SIGINT', () => process.exit(0));
  process.send?.({ type: 'ready', port });
}

main().catch((err: unknown) => {
  process.stderr.write(String((err as Error).stack ?? err) + '\n');
  process.exit(1);
});
