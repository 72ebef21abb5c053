/**
 * Runs left RUNNING by a runtime that stopped (killed, its machine lost) are marked failed by
 * another. Each runtime renews its heartbeat every third of the lease; on the same rhythm each
 * tries to take or renew the lease 'sweeper', and the one holding it marks failed every RUNNING
 * run of a runtime whose heartbeat is older than the lease (or that has none). The failing write
 * is conditional on the run still being RUNNING as that runtime's, so a run that finished or was
 * continued elsewhere meanwhile is left as it is. Never throws from its timer.
 */
import type { Clock } from '../../../shared/clock.js';
import type { SchedulerTimer } from '../schedules/timer.js';
import type { RuntimeStore } from '../../store/store.js';
import { stoppedReplicaMessage, type StoppedReplicas } from './replicas.js';

/** The name of the lease whose holder sweeps. */
export const SWEEPER_LEASE = 'sweeper';

/** One runtime's heartbeat and share of the sweeping. */
export type ReplicaLease = Awaited<ReturnType<typeof startReplicaLease>>;

/** What {@link startReplicaLease} takes. */
export interface LeaseOptions {
  /** This runtime's id (its heartbeat row, the lease holder). */
  readonly replicaId: string;
  /** `runtime.lease_seconds`. */
  readonly leaseSeconds: number;
  readonly clock: Clock;
  /** Drives the rounds: every third of the lease in production, by hand in tests. */
  readonly timer: SchedulerTimer;
  /** Told of a round's failure (the database unreachable); the next round tries again. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Marks failed the RUNNING runs left by an earlier runtime of this id (it stopped: this one has
 * only just started), beats once, then starts the rounds.
 *
 * @throws when the database cannot be written at start (start-up stops)
 */
export async function startReplicaLease(store: RuntimeStore, options: LeaseOptions) {
  const { replicaId, clock } = options;
  const leaseMs = options.leaseSeconds * 1000;
  const onError = options.onError ?? (() => {});
  let held = false;

  /**
   * Stores the runs and schedule runs of the stopped runtimes `of` picks as failed, each run
   * while it is still RUNNING as its runtime's.
   */
  async function fail(of: StoppedReplicas): Promise<void> {
    for (const run of await store.replicas.orphanedRuns(of)) {
      await store.replicas.failOrphanedRun(run, stoppedReplicaMessage(run.replicaId), clock.now());
    }
    await store.replicas.failOrphanedScheduleRuns(of, clock.now());
  }

  await fail({ replicaId });
  await store.replicas.beat(replicaId, clock.now());

  async function round(): Promise<void> {
    try {
      const now = clock.now();
      await store.replicas.beat(replicaId, now);
      held = await store.replicas.takeLease(SWEEPER_LEASE, replicaId, now, now + leaseMs);
      if (held) await fail({ staleBefore: now - leaseMs });
    } catch (error) {
      held = false;
      onError(error);
    }
  }

  // One round at a time: a tick while one is under way joins it.
  let current: Promise<void> | null = null;
  const tick = (): Promise<void> =>
    (current ??= round().then(() => {
      current = null;
    }));
  const stop = options.timer.start(() => void tick());
  let closing: Promise<void> | null = null;
  return {
    /** One round now: beat, take or renew the lease, sweep if held. Never throws. */
    round: tick,
    /** Whether the last round held the sweeper lease. */
    holdsLease: (): boolean => held,
    /**
     * Stops the rounds, waits for the one under way, and forgets this runtime's heartbeat: call
     * it once this runtime's runs are finished.
     */
    close: (): Promise<void> =>
      (closing ??= (async () => {
        stop();
        await current;
        try {
          await store.replicas.leave(replicaId);
        } catch (error) {
          onError(error);
        }
      })()),
  };
}
