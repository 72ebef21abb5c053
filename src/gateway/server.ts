/**
 * The gateway's HTTP server: wiring, listen and close only. Each request is served with the
 * state current when it arrived, so a reload never splits a request between two configs.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { handleRequest, handleUpgrade, type GatewayState } from './pipeline.js';
import { reject } from './rejections.js';
import { writeRefusal, writeRefusalToSocket } from './respond.js';
import type { TlsServerOptions } from './tls.js';

/** What a drain did. */
export interface DrainReport {
  /** Requests in flight when the drain began. */
  readonly inFlight: number;
  /** Requests still unfinished at the bound: their connections were closed under them. */
  readonly cutOff: number;
  /**
   * Other connections still open at the bound (upgraded ones, half-sent requests, TLS handshakes
   * never finished), closed too.
   */
  readonly otherConnections: number;
}

/** A running gateway listener. */
export interface GatewayServer {
  readonly server: Server;
  /** The bound address (port 0 resolves here). */
  address(): AddressInfo;
  /** Requests whose responses have not finished yet. */
  inFlight(): number;
  /** Whether {@link GatewayServer.close} was called (readiness: not ready while draining). */
  draining(): boolean;
  /**
   * Drains: stops accepting connections, closes idle keep-alive connections at once, lets
   * in-flight requests finish (streams included) and answers any request that still arrives on
   * an open connection with `Connection: close`; after `graceMs` it closes whatever is still
   * open, so shutdown is always bounded. Resolves when the last connection closed.
   */
  close(graceMs?: number): Promise<DrainReport>;
}

/**
 * Where requests get their state when a reload can replace it (config/reload.ts `StateSlot`):
 * `acquire` once when a request arrives, `release` with the same state once it is done, so a
 * replaced state is closed only after its last request.
 */
export interface StateSource {
  acquire(): GatewayState;
  release(state: GatewayState): void;
}

/**
 * Starts listening; the state (a getter, or a {@link StateSource}) is read once per request.
 * With `tls` the listener is HTTPS (`node:https`); its secure context can be replaced later
 * with `server.setSecureContext` (new connections only).
 */
export async function startGatewayServer(
  currentState: (() => GatewayState) | StateSource,
  listen: { readonly host: string; readonly port: number },
  tls: TlsServerOptions | null = null,
): Promise<GatewayServer> {
  const source: StateSource =
    typeof currentState === 'function'
      ? { acquire: currentState, release: () => undefined }
      : currentState;
  // Every open connection, with the number of its responses not finished yet: the drain closes
  // a connection as soon as its last response is done, and counts what it cuts off.
  const open = new Map<Socket, number>();
  let draining = false;
  let inFlight = 0;
  // headersTimeout bounds a request's head (Node checks it every 30 s). requestTimeout stays 0:
  // Node's own 408 would bypass the refusal catalogue and the record stage, so request bodies are
  // bounded by the gateway's own watch instead (body-watch.ts: listen.body_idle_timeout_ms and
  // listen.body_timeout_ms), which also aborts the upstream request.
  const timeouts = { keepAliveTimeout: 65_000, headersTimeout: 66_000, requestTimeout: 0 };
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    inFlight += 1;
    // Every socket was registered by the 'connection' listener before its first request.
    open.set(socket, (open.get(socket) as number) + 1);
    // Merged into whatever the response's own writeHead sets: the client learns not to reuse
    // this connection, and Node closes it after the response.
    if (draining) res.setHeader('connection', 'close');
    res.once('close', () => {
      inFlight -= 1;
      const left = open.get(socket);
      if (left === undefined) return;
      open.set(socket, left - 1);
      // A keep-alive response that began before the drain: close once it is written out.
      if (draining && left === 1) socket.destroySoon();
    });
    const state = source.acquire();
    handleRequest(state, req, res).then(
      () => source.release(state),
      () => {
        // The pipeline answers every expected failure itself; reaching here is a bug, and the
        // caller still gets a well-formed 500 (or a cut-off stream) instead of a hanging socket.
        writeRefusal(res, reject('SG_ERR_INTERNAL'));
        source.release(state);
      },
    );
  };
  // An https.Server is an http.Server (a tls.Server) with the same events; requests arrive on
  // the TLS socket, so that is the one registered (after its handshake).
  const server: Server =
    tls === null
      ? createServer(timeouts, serve)
      : (createHttpsServer({ ...timeouts, ...tls }, serve) as unknown as Server);
  server.on(tls === null ? 'connection' : 'secureConnection', (socket: Socket) => {
    open.set(socket, 0);
    socket.once('close', () => open.delete(socket));
  });
  // Under TLS, every TCP connection too, from its accept: one whose handshake never finishes
  // (a client that connects and sends nothing) is in no other list, and would otherwise hold
  // the drain open until Node's 120-second handshake timeout.
  const accepted = new Set<Socket>();
  if (tls !== null) {
    server.on('connection', (socket: Socket) => {
      accepted.add(socket);
      socket.once('close', () => accepted.delete(socket));
    });
  }
  // An upgraded connection (WebSocket) stays in `open` with no unfinished response: the drain
  // counts it among the other connections and closes it at the bound.
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    // Held like a request's: a reload closes a replaced state only after its upgrades were decided.
    const state = source.acquire();
    handleUpgrade(state, req, socket, head).then(
      () => source.release(state),
      () => {
        writeRefusalToSocket(socket, reject('SG_ERR_INTERNAL'));
        source.release(state);
      },
    );
  });
  // `once` rejects with the 'error' (EADDRINUSE, …) should listening fail.
  await once(server.listen(listen.port, listen.host), 'listening');
  return {
    server,
    address: () => server.address() as AddressInfo,
    inFlight: () => inFlight,
    draining: () => draining,
    close: (graceMs = 10_000) =>
      new Promise<DrainReport>((resolve) => {
        draining = true;
        const atStart = inFlight;
        let cutOff = 0;
        let otherConnections = 0;
        const bound = setTimeout(() => {
          // Each TLS connection in `open` has its TCP connection in `accepted`: the rest of
          // `accepted` are still in their handshake.
          otherConnections += Math.max(0, accepted.size - open.size);
          // A socket leaves `open` on 'close', which comes before any timer after its destroy.
          for (const [socket, unfinished] of open) {
            if (unfinished > 0) cutOff += unfinished;
            else otherConnections += 1;
            socket.destroy();
          }
          for (const socket of accepted) socket.destroy();
        }, graceMs);
        bound.unref();
        server.close(() => {
          clearTimeout(bound);
          resolve({ inFlight: atStart, cutOff, otherConnections });
        });
        server.closeIdleConnections();
      }),
  };
}
