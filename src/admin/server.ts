/**
 * The admin listener, separate from the gateway's: `GET /metrics` (Prometheus
 * text), `GET /healthz` (the process is up), `GET /readyz` (ready to serve) and
 * `GET /.well-known/jwks.json` (the identity-token public keys; 404 when off). Nothing else: any
 * other path is 404, any other method 405. Never authenticates: bind it to loopback or a private
 * network (`admin.host`).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Readiness } from './health.js';

/** What the admin listener serves from. */
export interface AdminSources {
  /** The gateway instance's registry (kept across reloads). */
  readonly registry: Registry;
  readonly readiness: Readiness;
  /**
   * The serving state's identity-token keys, whose JWK Set (public keys only) is published; null
   * when `upstream.identity_token` is off.
   */
  readonly identityKeys?:
    (() => { jwks(): { readonly keys: readonly object[] } } | null | undefined) | undefined;
}

/** A running admin listener. */
export interface AdminServer {
  readonly server: Server;
  /** The bound address (port 0 resolves here). */
  address(): AddressInfo;
  /** Stops accepting and closes every connection (scrapes are short; nothing to drain). */
  close(): Promise<void>;
}

const ALLOW = 'GET, HEAD';

function writeBody(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  extra: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, {
    'cache-control': 'no-store',
    ...extra,
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function writeJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  value: unknown,
  extra: Readonly<Record<string, string>> = {},
): void {
  writeBody(req, res, status, 'application/json', JSON.stringify(value), extra);
}

type Route = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

function routesOf(sources: AdminSources): ReadonlyMap<string, Route> {
  return new Map<string, Route>([
    [
      '/metrics',
      async (req, res) => {
        const text = await sources.registry.metrics();
        writeBody(req, res, 200, sources.registry.contentType, text);
      },
    ],
    ['/healthz', (req, res) => writeJson(req, res, 200, { status: 'ok' })],
    [
      '/.well-known/jwks.json',
      (req, res) => {
        const jwks = sources.identityKeys?.()?.jwks() ?? null;
        if (jwks === null) {
          writeJson(req, res, 404, { detail: 'Not Found: upstream.identity_token is not enabled' });
          return;
        }
        // Short: a verifier sees a rotated-in key within a minute (it also refetches on an
        // unknown kid).
        writeBody(req, res, 200, 'application/jwk-set+json', JSON.stringify(jwks), {
          'cache-control': 'public, max-age=60',
        });
      },
    ],
    [
      '/readyz',
      async (req, res) => {
        const report = await sources.readiness();
        writeJson(req, res, report.ready ? 200 : 503, {
          ...(report.ready
            ? { status: 'ready' }
            : { status: 'not_ready', failing: report.failing }),
          // Parts that are down without making the gateway unready, named in the body.
          ...(report.degraded.length > 0 ? { degraded: report.degraded } : {}),
          checks: report.checks,
        });
      },
    ],
  ]);
}

/** Starts the admin listener on `listen` (port 0 picks a free port). */
export async function startAdminServer(
  sources: AdminSources,
  listen: { readonly host: string; readonly port: number },
): Promise<AdminServer> {
  const routes = routesOf(sources);
  const server = createServer((req, res) => {
    const url = req.url as string;
    const query = url.indexOf('?');
    const route = routes.get(query === -1 ? url : url.slice(0, query));
    if (route === undefined) {
      writeJson(req, res, 404, {
        detail:
          'Not Found: the admin listener serves /metrics, /healthz, /readyz and /.well-known/jwks.json',
      });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      writeJson(req, res, 405, { detail: `Method Not Allowed: use ${ALLOW}` }, { allow: ALLOW });
      return;
    }
    Promise.resolve(route(req, res)).catch(() =>
      writeJson(req, res, 500, { detail: 'Internal admin listener error' }),
    );
  });
  // `once` rejects with the 'error' (EADDRINUSE, …) should listening fail.
  await once(server.listen(listen.port, listen.host), 'listening');
  return {
    server,
    address: () => server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
