/**
 * Starting the bundled runtime: settings → identity-token check → store → app → listen → the
 * scheduler's ticks; and closing it in the reverse order.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../shared/clock.js';
import { buildRuntimeApp, schedulerOf, type RuntimeParts } from './app.js';
import { buildCatalogue } from './catalogue/resolve.js';
import { createIdentityTokenCheck } from './http/identity-token.js';
import { createOutboundGuard } from './outbound/guard.js';
import type { Scheduler } from './api/schedules/scheduler.js';
import { createIntervalTimer, type SchedulerTimer } from './api/schedules/timer.js';
import { startReplicaLease } from './api/runs/lease.js';
import { connectRuntimeStore, processReplicaId, type RuntimeStore } from './store/store.js';

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

/** How many runtimes this process has started. */
let started = 0;

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
  /**
   * What drives the scheduler's ticks (default: a real interval, every
   * `runtime.schedules.tick_seconds`).
   */
  readonly scheduleTimer?: SchedulerTimer;
  /**
   * This runtime's name among replicas on one database: the PostgreSQL connections' and the
   * schedule runs' it claims (default: `<hostname>:<pid>`).
   */
  readonly replicaId?: string;
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
  // A second runtime in one process (tests, a restart in place) is a replica of its own.
  const replicaId =
    options.replicaId ??
    (++started === 1 ? processReplicaId() : `${processReplicaId()}:${started}`);
  const store = await connectRuntimeStore(built.settings.db, { dir: options.dir, replicaId });
  const leaseSeconds = built.settings.lease_seconds;
  // Before the runtime serves: its heartbeat is in the database before any run of its is.
  const lease = await startReplicaLease(store, {
    replicaId,
    leaseSeconds,
    clock: options.clock,
    timer: createIntervalTimer((leaseSeconds * 1000) / 3),
  }).catch(
    // A database that opened but cannot be written (a race no test times): nothing stays open.
    /* c8 ignore next 4 */
    async (err: unknown) => {
      await store.close();
      throw err;
    },
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
    await lease.close();
    await store.close();
    throw err;
  }
  // The runtime never fetches itself, whatever allow_hosts opens.
  outbound.refusePort((app.server.address() as AddressInfo).port);
  scheduler.start(
    options.scheduleTimer ?? createIntervalTimer(built.settings.schedules.tick_seconds * 1000),
  );
  return {
    url: address,
    store,
    scheduler,
    refuseFetchesTo: (port) => outbound.refusePort(port),
    close: async () => {
      // Executions in flight are aborted and recorded before the store closes.
      await scheduler.close();
      await app.close();
      // After every run here has finished: no run is left RUNNING as this runtime's.
      await lease.close();
      await store.close();
    },
  };
}
