/**
 * The gateway's HTTP server: wiring, listen and close only. Each request is served with the
 * state current when it arrived, so a reload never splits a request between two configs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { handleRequest, handleUpgrade, type GatewayState } from './pipeline.js';
import { reject } from './rejections.js';
import { writeRefusal, writeRefusalToSocket } from './respond.js';

/** A running gateway listener. */
export interface GatewayServer {
  readonly server: Server;
  /** The bound address (port 0 resolves here). */
  address(): AddressInfo;
  /**
   * Stops accepting, lets in-flight requests finish, and after `graceMs` cuts off whatever is
   * still open (a stream never ends by itself), so shutdown is always bounded.
   */
  close(graceMs?: number): Promise<void>;
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

/** Starts listening; the state (a getter, or a {@link StateSource}) is read once per request. */
export async function startGatewayServer(
  currentState: (() => GatewayState) | StateSource,
  listen: { readonly host: string; readonly port: number },
): Promise<GatewayServer> {
  const source: StateSource =
    typeof currentState === 'function'
      ? { acquire: currentState, release: () => undefined }
      : currentState;
  const server = createServer(
    { keepAliveTimeout: 65_000, headersTimeout: 66_000, requestTimeout: 0 },
    (req, res) => {
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
    },
  );
  // Upgraded connections (WebSockets) leave node's HTTP bookkeeping: kept here so that close()
  // can cut them off like any other connection once the grace period is over.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    address: () => server.address() as AddressInfo,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const cutOff = setTimeout(() => {
          server.closeAllConnections();
          for (const socket of upgraded) socket.destroy();
        }, graceMs);
        cutOff.unref();
        server.close(() => {
          clearTimeout(cutOff);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
