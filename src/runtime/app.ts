/**
 * The bundled agent runtime's Fastify app: the lifecycle (http/), then one register call per API
 * section and protocol; it does not listen (start.ts does). It holds no
 * authentication or authorization code: the gateway in front of it decides who may call what;
 * the runtime verifies the gateway's signature on the identity it injects, and confines data to it.
 */
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerA2ARoutes } from './protocols/a2a/routes.js';
import { buildCatalogue } from './catalogue/resolve.js';
import type { RuntimeSettings } from './catalogue/definitions.js';
import type { EngineDeps } from './engine/run.js';
import { registerAguiRoutes } from './protocols/agui/route.js';
import { registerApprovalRoutes } from './api/approvals/routes.js';
import { registerErrorHandler } from './http/errors.js';
import { registerIdentityCheck } from './http/identity-check.js';
import type { IdentityTokenCheck } from './http/identity-token.js';
import { liveCatalogueOf } from './catalogue/live.js';
import { createOutboundGuard, type OutboundGuard } from './outbound/guard.js';
import { registerRouteDocs } from './http/openapi.js';
import { registerValidation } from './http/validation.js';
import { registerOpenApiRoutes } from './http/openapi-routes.js';
import { registerCatalogueRoutes } from './api/entities/routes.js';
import { registerComponentRoutes } from './api/components/routes.js';
import { registerLearningRoutes } from './api/learnings/routes.js';
import { registerMemoryRoutes } from './api/memories/routes.js';
import { registerMetricsRoutes } from './api/metrics/routes.js';
import { registerEvalRoutes } from './api/evals/routes.js';
import { systemProbes, type EvalProbes } from './api/evals/performance.js';
import { registerKnowledgeRoutes } from './api/knowledge/routes.js';
import { registerRunRoutes } from './api/runs/routes.js';
import { registerScheduleRoutes } from './api/schedules/routes.js';
import { registerSessionRoutes } from './api/sessions/routes.js';
import { registerSystemRoutes } from './api/system/routes.js';
import { registerTraceRoutes } from './api/traces/routes.js';
import { createRunService } from './api/runs/service.js';
import { createScheduler, type Scheduler } from './api/schedules/scheduler.js';
import type { RuntimeStore } from './store/store.js';

/** The id of the runtime's one database, which the data routes' `db_id` must name. */
const DB_ID = 'runtime-db';

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
  registerValidation(app, DB_ID);
  // First: no route, parser or plugin sees a request before its caller is known.
  registerIdentityCheck(app, parts.identitySecret, parts.identityToken ?? null);
  void app.register(formbody);
  // Files are buffered into the body (run forms are small); the limits bound what one form holds.
  void app.register(multipart, {
    attachFieldsToBody: true,
    limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES, fields: 100 },
  });
  registerErrorHandler(app);
  // A known path asked with another method is 405, as FastAPI answers.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] as string;
    const known = METHODS.some((method) => app.findRoute({ method, url: path }) !== null);
    return known
      ? reply.code(405).send({ detail: 'Method Not Allowed' })
      : reply.code(404).send({ detail: 'Not Found' });
  });
  // The configured entities plus the components stored through the API, kept current.
  const live = liveCatalogueOf(parts.settings, parts.store.components);
  // The stored components are read before the first request any route sees (once).
  app.addHook('onRequest', () => live.load());
  const { catalogue } = live;
  registerCatalogueRoutes(app, catalogue, DB_ID, live);
  registerComponentRoutes(app, live, parts.store.components, parts.deps.clock);
  registerSystemRoutes(app, {
    settings: parts.settings,
    catalogue,
    store: parts.store,
    dbId: DB_ID,
    startedAt: parts.startedAt,
  });
  const runs = createRunService(parts.store, parts.deps);
  registerRunRoutes(app, catalogue, runs, parts.store);
  registerApprovalRoutes(app, { store: parts.store, runs, catalogue, clock: parts.deps.clock });
  registerSessionRoutes(app, parts.store, parts.deps);
  registerMemoryRoutes(app, parts.store.memories, parts.deps);
  registerLearningRoutes(app, parts.store.learnings, parts.deps);
  registerTraceRoutes(app, parts.store);
  registerMetricsRoutes(app, parts.store, DB_ID, parts.deps.clock);
  registerEvalRoutes(app, {
    catalogue,
    store: parts.store.evals,
    engine: parts.deps,
    probes: parts.evalProbes ?? systemProbes,
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
    dbId: DB_ID,
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
export function schedulerOf(parts: RuntimeParts): Scheduler {
  return createScheduler({
    store: parts.store.schedules,
    clock: parts.deps.clock,
    sleep: parts.deps.sleep,
    newId: parts.deps.newId,
    // The store's replica: the one its runs record, and the schedule runs it claims.
    replicaId: parts.store.replicaId,
  });
}
