/**
 * A benchmark server in its own process, so its CPU time is measured alone:
 * - `upstream`: answers GET with a small JSON document and POST /agui with an SSE stream of
 *   {@link SSE_EVENTS} events;
 * - `plain`: a bare Node proxy (node:http server + keep-alive agent, no auth);
 * - `floor <upstream> <public key file>`: the least a Node JWT proxy can pay — node:http, one
 *   `node:crypto` RS256 check per token not seen before (verified tokens remembered), a fixed
 *   401, undici's `Pool.dispatch` to the upstream; no claims, scopes, log, metrics or limits;
 * - `gateway <config file> [<checkout folder>]`: scopegate run exactly as `scopegate serve
 *   --config <file>` runs it, from this checkout or the one named (same function, so the real access log goes to this process's stdout and the real metrics
 *   registry is scraped on the admin port).
 * Speaks to the bench over IPC: ready{port, adminPort} → start → started → stop → cpu{micros}.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, request, Agent, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Pool } from 'undici';

/** Events in the upstream's SSE answer to POST /agui (the scenario's stream of 10 events). */
const SSE_EVENTS = 10;

type Message = { type: 'start' } | { type: 'stop' };

/** Writes the SSE answer one event per turn of the event loop, as a streaming run would. */
function streamEvents(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let sent = 0;
  const next = (): void => {
    sent++;
    const data = JSON.stringify({
      type: 'TEXT_MESSAGE_CONTENT',
      messageId: 'm1',
      delta: `w${sent}`,
    });
    res.write(`event: TEXT_MESSAGE_CONTENT\ndata: ${data}\n\n`);
    if (sent < SSE_EVENTS) setImmediate(next);
    else res.end();
  };
  next();
}

async function listen(server: ReturnType<typeof createServer>): Promise<number> {
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function upstream(): Promise<number> {
  const body = JSON.stringify({ id: 'a1', name: 'Agent One', description: 'benchmark agent' });
  return listen(
    createServer((req, res) => {
      if (req.method === 'POST') {
        req.resume();
        req.on('end', () => streamEvents(res));
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    }),
  );
}

function plain(upstreamUrl: string): Promise<number> {
  const target = new URL(upstreamUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return listen(
    createServer((req, res) => {
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
          res.writeHead(up.statusCode as number, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(upstream);
    }),
  );
}

/** Whether `token` is a compact JWS whose RS256 signature `key` verifies. */
function rs256Valid(token: string, key: KeyObject): boolean {
  const dot = token.lastIndexOf('.');
  return (
    dot > 0 &&
    verify(
      'sha256',
      Buffer.from(token.slice(0, dot)),
      key,
      Buffer.from(token.slice(dot + 1), 'base64url'),
    )
  );
}

/** Tokens the floor remembers as verified; the set starts over when it is full. */
const FLOOR_REMEMBERED = 100_000;
const REFUSED = Buffer.from('{"detail":"Invalid token"}');

function floor(upstreamUrl: string, publicKeyFile: string): Promise<number> {
  const key = createPublicKey(readFileSync(publicKeyFile));
  const verified = new Set<string>();
  const pool = new Pool(upstreamUrl, { connections: 256 });
  return listen(
    createServer((req, res) => {
      // Every bench request has one; a missing header reads as "undefined", which never verifies.
      const token = String(req.headers.authorization).slice('Bearer '.length);
      if (!verified.has(token)) {
        if (!rs256Valid(token, key)) {
          res.writeHead(401, {
            'content-type': 'application/json',
            'content-length': REFUSED.length,
            'www-authenticate': 'Bearer',
          });
          res.end(REFUSED);
          return;
        }
        /* c8 ignore next: the bench sends fewer distinct tokens than this */
        if (verified.size === FLOOR_REMEMBERED) verified.clear();
        verified.add(token);
      }
      const headers: Record<string, string | string[]> = {};
      for (const name in req.headers) {
        if (name !== 'connection' && name !== 'host') headers[name] = req.headers[name] as string;
      }
      pool.dispatch(
        {
          path: req.url as string,
          method: req.method as string,
          headers,
          body: req.method === 'GET' ? null : req,
        },
        {
          onRequestStart() {},
          onResponseStart(_controller, status, upstreamHeaders) {
            const { connection: _c, 'keep-alive': _k, ...rest } = upstreamHeaders;
            res.writeHead(status, rest as Record<string, string>);
          },
          onResponseData(_controller, chunk) {
            res.write(chunk);
          },
          onResponseEnd() {
            res.end();
          },
          /* c8 ignore next 3: the bench's upstream never fails */
          onResponseError() {
            res.destroy();
          },
        },
      );
    }),
  );
}

/**
 * Runs `scopegate serve` (from this checkout, or from the checkout folder `tree` when given: the
 * bench's baseline); resolves with its listener and admin ports once both are up.
 */
async function gateway(
  configFile: string,
  tree: string | undefined,
): Promise<{ port: number; adminPort: number }> {
  // Loaded here only: the other roles stay small processes.
  const { serve } = (await import(
    tree === undefined ? '../src/cli/serve.js' : pathToFileURL(join(tree, 'src/cli/serve.ts')).href
  )) as typeof import('../src/cli/serve.js');
  return new Promise((resolve) => {
    let port = 0;
    // serve's lines for a person (where it listens among them) go to standard error; its
    // standard output is the access log alone.
    const print = (line: string): void => {
      const listening = /^scopegate listening on .*:(\d+), forwarding/.exec(line);
      const admin = /^admin listening on .*:(\d+) /.exec(line);
      if (listening !== null) port = Number(listening[1]);
      if (admin !== null) resolve({ port, adminPort: Number(admin[1]) });
      process.stderr.write(line + '\n');
    };
    const io = { out: print, err: print, env: {} };
    // serve returns on SIGINT/SIGTERM once drained (or at once, non-zero, when it cannot
    // start); exiting then writes a --cpu-prof profile.
    void serve(['--config', configFile], io).then((code) => process.exit(code));
  });
}

async function main(
  role: string | undefined,
  arg: string,
  arg2: string | undefined,
): Promise<void> {
  let ports: { port: number; adminPort?: number };
  if (role === 'upstream') ports = { port: await upstream() };
  else if (role === 'plain') ports = { port: await plain(arg) };
  else if (role === 'floor') ports = { port: await floor(arg, arg2 as string) };
  else if (role === 'gateway') ports = await gateway(arg, arg2);
  else throw new Error(`unknown bench child role ${role}`);
  if (role !== 'gateway') process.on('SIGINT', () => process.exit(0));
  /* c8 ignore next: only when the bench died without stopping its children */
  process.on('disconnect', () => process.exit(1));

  let startedAt = process.cpuUsage();
  // Always forked with an IPC channel.
  const send = (message: unknown): boolean => process.send!(message);
  process.on('message', (message: Message) => {
    if (message.type === 'start') {
      startedAt = process.cpuUsage();
      send({ type: 'started' });
    } else {
      const used = process.cpuUsage(startedAt);
      send({ type: 'cpu', micros: used.user + used.system });
    }
  });
  send({ type: 'ready', ...ports });
}

main(process.argv[2], process.argv[3] as string, process.argv[4]).catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
