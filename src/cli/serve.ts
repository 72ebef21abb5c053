/**
 * `scopegate serve [--config gateway.yaml] [--port N] [--admin-port N]`: start the gateway and run
 * until SIGTERM/SIGINT.
 * Argv and process wiring only; the gateway itself is assembled in gateway/. Standard output
 * carries the JSON log alone (one object per line, for log shippers); every line written for a
 * person (where it listens, the development token, warnings, shutdown) goes to standard error.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createReadiness } from '../admin/health.js';
import { createGatewayMetrics } from '../admin/metrics.js';
import { startAdminServer, type AdminServer } from '../admin/server.js';
import { mintToken } from '../auth/jwt/mint.js';
import type { ConfigOverrides } from '../config/load.js';
import { createStateSlot } from '../config/reload.js';
import { assembleGateway } from '../gateway/assemble.js';
import { generationOf, resourcesOf, startGatewayReloader } from '../gateway/generation.js';
import { startGatewayServer, type DrainReport } from '../gateway/server.js';
import type { Telemetry } from '../gateway/stages/record.js';
import { reloadSecureContext, tlsFilesOf } from '../gateway/tls.js';
import type { RunningRuntime } from '../runtime/start.js';
import { systemClock } from '../shared/clock.js';
import { createLogger } from '../shared/log.js';
import { formatProblem } from '../shared/problem.js';
import type { JwksFetchResult } from '../auth/chain.js';
import type { Command, CommandIo } from './io.js';
import { DEFAULT_CONFIG, loadOrReport, reportProblems, runtimeSettingsOf } from './load.js';
import { untilSignal } from './signals.js';
import { startTracer } from './tracer.js';
import { CONFIG_HELP, defineCommand, helpRequested, usageOf } from './usage.js';

/** `scopegate serve`'s options. */
export const SERVE = defineCommand({
  usage: 'serve [options]',
  summary:
    'Start the gateway, its admin listener and (with upstream.embedded) the bundled runtime;\n' +
    'reload the config on SIGHUP or when a watched file changes; drain on SIGTERM or SIGINT.',
  options: {
    config: { type: 'string', short: 'c', default: DEFAULT_CONFIG },
    port: { type: 'string', short: 'p' },
    'admin-port': { type: 'string' },
  },
  help: {
    config: CONFIG_HELP,
    port: { value: 'N', text: 'listen on this port, over listen.port (0: any free port)' },
    'admin-port': {
      value: 'N',
      text: 'the admin listener on this port, over admin.port (0: any free port)',
    },
  },
});

/** A `--port` value: an integer from 0 to 65535, or null. */
function portOf(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port <= 65535 ? port : null;
}

/**
 * The command line's values over the file's, or the option that is not a port. They are applied
 * to every load (start-up and reloads), so a reload never sees the listeners as changed.
 */
function overridesOf(values: {
  readonly port?: string | undefined;
  readonly 'admin-port'?: string | undefined;
}): ConfigOverrides | string {
  const given: [string, string | undefined][] = [
    ['--port', values.port],
    ['--admin-port', values['admin-port']],
  ];
  for (const [name, text] of given) {
    if (text !== undefined && portOf(text) === null)
      return `${name} must be an integer from 0 to 65535, not "${text}"`;
  }
  return {
    listenPort: values.port === undefined ? undefined : (portOf(values.port) as number),
    adminPort:
      values['admin-port'] === undefined ? undefined : (portOf(values['admin-port']) as number),
  };
}

/** The id of the first configured agent, for the example `curl`. */
function firstAgentId(runtime: unknown): string | null {
  const agents = (runtime as { agents?: unknown } | null)?.agents;
  const first = Array.isArray(agents) ? (agents[0] as { id?: unknown } | undefined) : undefined;
  return typeof first?.id === 'string' ? first.id : null;
}

/** The host to show in an example URL: a wildcard listen address is reached on loopback. */
function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** The line that ends a drain: how many requests were in flight, and how many were cut off. */
function drainSummary(report: DrainReport, graceMs: number): string {
  const { inFlight, cutOff, otherConnections } = report;
  const head = `scopegate: drained ${inFlight} in-flight request(s)`;
  if (cutOff === 0 && otherConnections === 0) return `${head}, none cut off`;
  return (
    `${head}: ${cutOff} request(s) and ${otherConnections} other connection(s) ` +
    `cut off at the ${graceMs} ms bound`
  );
}

/** Logs `auth.jwks_url` fetch failures, and the first success after one. */
function jwksFetchLogger(io: CommandIo): (result: JwksFetchResult, detail: string) => void {
  let failing = false;
  return (result, detail) => {
    if (result === 'error') io.err(`scopegate: auth.jwks_url: fetch failed (${detail})`);
    else if (failing) io.err('scopegate: auth.jwks_url: fetched again');
    failing = result === 'error';
  };
}

export const serve: Command = async (args, io) => {
  if (helpRequested(args)) {
    io.out(usageOf(SERVE));
    return 0;
  }
  const { values } = parseArgs({ args: [...args], options: SERVE.options, strict: true });
  const overrides = overridesOf(values);
  if (typeof overrides === 'string') {
    io.err(`scopegate serve: ${overrides}`);
    io.err(usageOf(SERVE));
    return 2;
  }
  const loaded = loadOrReport(values.config, io, overrides);
  if (loaded === null) {
    io.err('the gateway did not start');
    return 1;
  }
  const { config } = loaded;
  // upstream.embedded: the bundled runtime listens where upstream.url points, on loopback only.
  // Any process on the machine can reach that port, so the runtime believes only contexts signed
  // with a key the gateway holds: the configured one, or one made for this process (never
  // printed, kept by every reload; changing the configured one needs a restart).
  let runtime: RunningRuntime | null = null;
  const identitySecret = config.upstream.embedded
    ? (config.upstream.identity_secret ?? randomBytes(32).toString('hex'))
    : undefined;
  if (identitySecret !== undefined) {
    const target = new URL(config.upstream.url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
      io.err(
        `error: ${loaded.file} upstream.url: with upstream.embedded the runtime listens on loopback only; use http://127.0.0.1:<port>`,
      );
      io.err('the gateway did not start');
      return 1;
    }
    try {
      // Loaded only when embedded: a gateway in front of another upstream never holds the
      // runtime's modules (a third of the heap, and old-generation GC work, for nothing).
      const { startRuntime } = await import('../runtime/start.js');
      runtime = await startRuntime({
        settings: runtimeSettingsOf(config),
        dir: loaded.dir,
        host,
        port: Number(target.port || 80),
        clock: systemClock,
        identitySecret,
      });
    } catch (err) {
      io.err(`error: ${loaded.file} runtime: ${(err as Error).message}`);
      io.err('the gateway did not start');
      return 1;
    }
    io.err(`bundled runtime listening on ${runtime.url} (loopback only)`);
    if (config.auth.internal_service_token === null) {
      io.err(
        'bundled runtime: schedules cannot run: auth.internal_service_token is not set ' +
          '(due runs are recorded as failed)',
      );
    }
  }
  // One registry and one logger for the life of the process (reloads keep them).
  const log = createLogger({ level: config.log.level });
  const tracer = await startTracer(config, io, 'scopegate');
  const telemetry: Telemetry = {
    metrics: createGatewayMetrics({ processMetrics: true }),
    log,
    tracer,
  };
  const jwks = { onFetch: jwksFetchLogger(io) };
  const assembly = await assembleGateway(loaded, {
    clock: systemClock,
    jwks,
    telemetry,
    identitySecret,
  });
  for (const warning of assembly.warnings) io.err(`warning: ${formatProblem(warning)}`);
  if (assembly.state === null) {
    reportProblems(loaded.file, assembly.problems, io);
    io.err('the gateway did not start');
    await runtime?.close();
    return 1;
  }
  const state = assembly.state;
  // Requests hold the state they arrived with; a reload swaps the slot (docs/reload.md).
  const slot = createStateSlot(state, resourcesOf);
  let server: Awaited<ReturnType<typeof startGatewayServer>>;
  try {
    server = await startGatewayServer(slot, config.listen, assembly.tls ?? null);
  } catch (err) {
    await slot.close();
    await runtime?.close();
    // e.g. "listen EADDRINUSE: address already in use 127.0.0.1:8080"
    io.err(`error: ${loaded.file} listen: ${(err as Error).message}`);
    io.err('the gateway did not start');
    return 1;
  }
  const tlsFiles = tlsFilesOf(config, loaded.dir);
  // Ready for SIGHUP before the banner: whoever reads `listening` may reload at once.
  const reloader = await startGatewayReloader({
    slot,
    initial: generationOf(loaded, assembly, state),
    clock: systemClock,
    env: io.env,
    jwks,
    identitySecret,
    overrides,
    // Its lines are for a person too: standard output is the JSON log's.
    log: { ...io, out: io.err },
    signals: ['SIGHUP'],
    onReload: (result) => {
      telemetry.metrics.countConfigReload(result);
      // listen.tls is restart-only, its files' content is not: new connections get the new
      // certificate. A file that does not read or parse keeps the running one.
      if (tlsFiles !== null) reloadSecureContext(server.server, tlsFiles, io);
    },
  });
  telemetry.metrics.watchStores(() => slot.current());
  let admin: AdminServer;
  try {
    admin = await startAdminServer(
      {
        registry: telemetry.metrics.registry,
        readiness: createReadiness({ current: () => slot.current(), clock: systemClock }),
        identityKeys: () => slot.current().identityKeys,
      },
      config.admin,
    );
  } catch (err) {
    await reloader.close();
    await server.close();
    await slot.close();
    await runtime?.close();
    io.err(`error: ${loaded.file} admin: ${(err as Error).message}`);
    io.err('the gateway did not start');
    return 1;
  }
  const { port } = server.address();
  // The bundled runtime never fetches the gateway's own listeners, whatever allow_hosts opens.
  runtime?.refuseFetchesTo(port);
  runtime?.refuseFetchesTo(admin.address().port);
  const base = `${tlsFiles === null ? 'http' : 'https'}://${displayHost(config.listen.host)}:${port}`;
  // Scheduled runs go through this gateway, authenticated as `__scheduler__`.
  const internalToken = config.auth.internal_service_token;
  if (runtime !== null && internalToken !== null) {
    const { createGatewayExecutor } = await import('../runtime/api/schedules/gateway-executor.js');
    runtime.scheduler.attach(
      createGatewayExecutor({
        url: base,
        token: internalToken,
        clock: systemClock,
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      }),
    );
  }
  io.err(
    `scopegate listening on ${config.listen.host}:${port}, forwarding to ${config.upstream.url}`,
  );
  io.err(
    `admin listening on ${config.admin.host}:${admin.address().port} (/metrics, /healthz, /readyz)`,
  );
  if (assembly.devKeys !== null) {
    const token = await mintToken(
      { privateKey: assembly.devKeys.privateKey, kid: assembly.devKeys.kid },
      {
        sub: 'dev-admin',
        scopes: [config.auth.admin_scope],
        ttlSeconds: 12 * 3600,
        audience: config.service_id,
      },
      systemClock,
    );
    io.err('');
    io.err(
      `development keys: ${assembly.devKeys.path}${assembly.devKeys.created ? ' (created)' : ''}`,
    );
    io.err('admin token (development only, valid 12 h):');
    io.err(`  export TOKEN=${token}`);
    io.err(`  curl -H "Authorization: Bearer $TOKEN" ${base}/agents`);
    const demo = firstAgentId(config.runtime);
    if (config.upstream.embedded && demo !== null) {
      io.err('stream a run:');
      io.err(
        `  curl -N -H "Authorization: Bearer $TOKEN" -d message=hello ${base}/agents/${demo}/runs`,
      );
    }
    io.err('');
  }
  const signal = await untilSignal(['SIGTERM', 'SIGINT']);
  // Stop accepting first, then say so: once the line is out, new connections are refused.
  const graceMs = config.listen.shutdown_grace_ms;
  const drained = server.close(graceMs);
  io.err(`scopegate: ${signal}, closing`);
  await reloader.close();
  io.err(drainSummary(await drained, graceMs));
  // After the drain: /healthz keeps answering (and /readyz says not ready) while requests finish.
  await admin.close();
  await slot.close();
  await runtime?.close();
  // Last: the spans of the requests drained above go out before the process ends.
  await tracer?.shutdown();
  return 0;
};
