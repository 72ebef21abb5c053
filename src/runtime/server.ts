/**
 * The bundled agent runtime's HTTP server (Fastify): wiring and listen/close only. It holds no
 * authentication or authorization code: the gateway in front of it decides who may call what;
 * the runtime verifies the gateway's signature on the identity it injects, and confines data to it.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { registerA2ARoutes } from './a2a/routes.js';
import { buildCatalogue } from './catalogue.js';
import type { RuntimeSettings } from './definitions.js';
import type { EngineDeps } from './engine/run.js';
import { registerAguiRoutes } from './agui/route.js';
import { registerApprovalRoutes } from './routes/approvals.js';
import { HttpError } from './errors.js';
import { registerIdentityCheck } from './identity-check.js';
import { createIdentityTokenCheck, type IdentityTokenCheck } from './identity-token.js';
import { createLiveCatalogue } from './live-catalogue.js';
import { createOutboundGuard, type OutboundGuard } from './outbound/guard.js';
import { registerRouteDocs } from './http/openapi.js';
import { registerOpenApiRoutes } from './openapi/routes.js';
import { registerCatalogueRoutes } from './routes/catalogue.js';
import { registerComponentRoutes } from './routes/components.js';
import { registerLearningRoutes } from './routes/learnings.js';
import { registerMemoryRoutes } from './routes/memories.js';
import { registerMetricsRoutes } from './routes/metrics.js';
import { registerEvalRoutes } from './routes/evals.js';
import { systemProbes, type EvalProbes } from './evals/performance.js';
import { registerKnowledgeRoutes } from './routes/knowledge.js';
import { registerRunRoutes } from './routes/runs.js';
import { registerScheduleRoutes } from './routes/schedules.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { registerSystemRoutes } from './routes/system.js';
import { registerTraceRoutes } from './routes/traces.js';
import { createRunService } from './run-service.js';
import { createScheduler, type Scheduler } from './schedules/scheduler.js';
import { createIntervalTimer, type SchedulerTimer } from './schedules/timer.js';
import { openRuntimeStore, type RuntimeStore } from './store/store.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Bounds of a multipart run form. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_FILES = 10;

/** Everything a runtime app serves from. */
export interface RuntimeParts {
  /** Validated settings whose entities resolve (see {@link buildCatalogue}). */
  readonly settings: RuntimeSettings;
  readonly store: RuntimeStore;
  readonly deps: EngineDeps;
  readonly startedAt: Date;
  /** Time and memory of performance evals; the process's own when absent. */
  readonly evalProbes?: EvalProbes;
  /** The scheduler the schedule routes trigger through (default: one never started). */
  readonly scheduler?: Scheduler;
  /**
   * The guard every outbound fetch goes through (default: one over the settings'
   * `knowledge.fetch.allow_hosts` and the system resolver). The app destroys it when it closes.
   */
  readonly outbound?: OutboundGuard;
  /**
   * The secret the gateway signs `x-auth-context` with: a request whose context does not verify,
   * or that has none, is refused 401 (only `GET /health` answers without). `null` with an
   * identity-token check: the token alone proves the context. `null` without one only for the
   * development switch: contexts are then believed unsigned and their absence means anonymous.
   */
  readonly identitySecret: string | null;
  /**
   * The check of the gateway's identity token (`runtime.identity_token`): a request is admitted
   * only when a token verifies and binds its context (besides the signature, with a secret).
   * Absent or null: none.
   */
  readonly identityToken?: IdentityTokenCheck | null;
}

/** Builds the Fastify app (not listening). */
export function buildRuntimeApp(parts: RuntimeParts): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
  // Before any route: the route-schema compilers and the hook the OpenAPI document is built from.
  registerRouteDocs(app);
  // First: no route, parser or plugin sees a request before its caller is known.
  registerIdentityCheck(app, parts.identitySecret, parts.identityToken ?? null);
  void app.register(formbody);
  // Files are buffered into the body (run forms are small); the limits bound what one form holds.
  void app.register(multipart, {
    attachFieldsToBody: true,
    limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES, fields: 100 },
  });
  app.setErrorHandler((error: unknown, _request, reply) => {
    if (error instanceof HttpError) return reply.code(error.status).send({ detail: error.detail });
    // Fastify's own client errors (a body that does not parse, one too large) keep their status.
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return reply.code(status).send({ detail: (error as Error).message });
    }
    return reply.code(500).send({ detail: 'Internal runtime error' });
  });
  // A known path asked with another method is 405, as FastAPI answers.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] as string;
    const known = METHODS.some((method) => app.findRoute({ method, url: path }) !== null);
    return known
      ? reply.code(405).send({ detail: 'Method Not Allowed' })
      : reply.code(404).send({ detail: 'Not Found' });
  });
  // The configured entities plus the components stored through the API, kept current.
  const live = createLiveCatalogue(parts.settings, parts.store.components);
  const { catalogue } = live;
  registerCatalogueRoutes(app, catalogue, 'runtime-db', live);
  registerComponentRoutes(app, live, parts.store.components, parts.deps.clock);
  registerSystemRoutes(app, {
    settings: parts.settings,
    catalogue,
    store: parts.store,
    dbId: 'runtime-db',
    startedAt: parts.startedAt,
  });
  const runs = createRunService(parts.store, parts.deps);
  registerRunRoutes(app, catalogue, runs, parts.store);
  registerApprovalRoutes(app, { store: parts.store, runs, catalogue, clock: parts.deps.clock });
  registerSessionRoutes(app, parts.store, 'runtime-db', parts.deps);
  registerMemoryRoutes(app, parts.store.memories, 'runtime-db', parts.deps);
  registerLearningRoutes(app, parts.store.learnings, 'runtime-db', parts.deps);
  registerTraceRoutes(app, parts.store, 'runtime-db');
  registerMetricsRoutes(app, parts.store, 'runtime-db', parts.deps.clock);
  registerEvalRoutes(app, {
    catalogue,
    store: parts.store.evals,
    engine: parts.deps,
    probes: parts.evalProbes ?? systemProbes,
    dbId: 'runtime-db',
  });
  registerScheduleRoutes(app, {
    store: parts.store.schedules,
    scheduler: parts.scheduler ?? schedulerOf(parts),
    clock: parts.deps.clock,
    newId: parts.deps.newId,
  });
  const outbound =
    parts.outbound ??
    createOutboundGuard({ allowHosts: parts.settings.knowledge.fetch.allow_hosts });
  registerKnowledgeRoutes(app, {
    settings: parts.settings.knowledge,
    store: parts.store.knowledge,
    dbId: 'runtime-db',
    clock: parts.deps.clock,
    outbound: outbound.dispatcher,
  });
  // After the knowledge routes' own hook, which cancels their fetches first.
  app.addHook('onClose', () => outbound.close());
  registerA2ARoutes(app, {
    prefix: parts.settings.a2a_prefix,
    catalogue,
    runs,
    store: parts.store,
    newId: parts.deps.newId,
  });
  // No agent and no `agui` setting: no AG-UI interface, as Agno mounts none (404 Not Found).
  if (catalogue.agui !== null) {
    registerAguiRoutes(app, {
      entity: catalogue.agui,
      runs,
      store: parts.store,
      newId: parts.deps.newId,
    });
  }
  registerOpenApiRoutes(app);
  return app;
}

/** A scheduler over the parts' store and deps, not started, with no executor. */
function schedulerOf(parts: RuntimeParts): Scheduler {
  return createScheduler({
    store: parts.store.schedules,
    clock: parts.deps.clock,
    sleep: parts.deps.sleep,
    newId: parts.deps.newId,
  });
}

/** A listening runtime. */
export interface RunningRuntime {
  readonly url: string;
  readonly store: RuntimeStore;
  /**
   * The schedule runner, ticking on the runtime's timer; it records runs as failed until an
   * executor is attached (`scopegate serve` attaches the gateway's).
   */
  readonly scheduler: Scheduler;
  /**
   * Refuses outbound fetches to `port` on every loopback and local address: `scopegate serve`
   * passes the gateway's listeners (the runtime's own port is refused from the start).
   */
  refuseFetchesTo(port: number): void;
  close(): Promise<void>;
}

/**
 * Validates the `runtime:` section, opens its database, and listens (loopback unless told
 * otherwise). `dir` is the config's folder, the base of the database path.
 */
export async function startRuntime(options: {
  readonly settings: unknown;
  readonly dir: string;
  readonly host: string;
  readonly port: number;
  readonly clock: Clock;
  /** What drives the scheduler's ticks (default: a real interval, every 10 s). */
  readonly scheduleTimer?: SchedulerTimer;
  /** Ports of this process's other listeners, never fetched (more: `refuseFetchesTo`). */
  readonly ownPorts?: readonly number[];
  /** See {@link RuntimeParts.identitySecret}. */
  readonly identitySecret: string | null;
}): Promise<RunningRuntime> {
  const built = buildCatalogue(options.settings);
  if (built.catalogue === null || built.settings === null) {
    throw new Error(`invalid runtime settings:\n  ${built.problems.join('\n  ')}`);
  }
  // Before the store opens: a JWK Set file that cannot be read stops the start with nothing open.
  const tokenSettings = built.settings.identity_token;
  const identityToken =
    tokenSettings === null
      ? null
      : createIdentityTokenCheck(tokenSettings, { clock: options.clock, dir: options.dir });
  const store = openRuntimeStore(
    built.settings.db === ':memory:' ? ':memory:' : resolve(options.dir, built.settings.db),
  );
  const parts: RuntimeParts = {
    settings: built.settings,
    store,
    deps: {
      clock: options.clock,
      newId: randomUUID,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    },
    startedAt: new Date(options.clock.now()),
    identitySecret: options.identitySecret,
    identityToken,
  };
  const scheduler = schedulerOf(parts);
  const outbound = createOutboundGuard({
    allowHosts: built.settings.knowledge.fetch.allow_hosts,
    ownPorts: options.ownPorts ?? [],
  });
  const app = buildRuntimeApp({ ...parts, scheduler, outbound });
  let address: string;
  try {
    address = await app.listen({ host: options.host, port: options.port });
  } catch (err) {
    store.close();
    throw err;
  }
  // The runtime never fetches itself, whatever allow_hosts opens.
  outbound.refusePort((app.server.address() as AddressInfo).port);
  scheduler.start(options.scheduleTimer ?? createIntervalTimer());
  return {
    url: address,
    store,
    scheduler,
    refuseFetchesTo: (port) => outbound.refusePort(port),
    close: async () => {
      // Executions in flight are aborted and recorded before the store closes.
      await scheduler.close();
      await app.close();
      store.close();
    },
  };
}
