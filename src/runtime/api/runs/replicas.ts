/**
 * The runtimes sharing one database, as the database sees them: each runtime's heartbeat, named
 * leases one runtime holds at a time, and the RUNNING runs of a runtime that stopped. Every write
 * another runtime could race is one conditional statement. Times here are epoch milliseconds;
 * a run's `updated_at` stays in epoch seconds.
 */
import { sql } from 'kysely';
import type { RuntimeDatabase } from '../../store/database.js';

/** Around a stopped runtime's id, the error its runs are stored with. */
const STOPPED = ['the runtime replica ', ' running it stopped'] as const;

/** The error a run (or schedule run) of a stopped runtime is stored with. */
export const stoppedReplicaMessage = (replicaId: string): string =>
  `${STOPPED[0]}${replicaId}${STOPPED[1]}`;

declare module '../../store/database.js' {
  interface Database {
    runtime_replicas: { replica_id: string; started_at: number; heartbeat_at: number };
    runtime_leases: { name: string; holder: string; expires_at: number };
  }
}

/** A RUNNING run whose runtime has stopped, as read. */
export interface OrphanedRun {
  readonly runId: string;
  /** The runtime that stored it as RUNNING. */
  readonly replicaId: string;
  /** Its output as read (the failed run keeps it, with the error). */
  readonly output: Record<string, unknown>;
}

/** The stopped runtimes a sweep picks: by a heartbeat older than `staleBefore`, or by id. */
export type StoppedReplicas = { readonly staleBefore: number } | { readonly replicaId: string };

/** The replica store on an open, migrated database. */
export function createReplicaStore(database: RuntimeDatabase) {
  const { db, dialect } = database;
  return Object.freeze({
    /** Records that `replicaId` is alive at `at`; its first beat records `at` as its start too. */
    async beat(replicaId: string, at: number): Promise<void> {
      await db
        .insertInto('runtime_replicas')
        .values({ replica_id: replicaId, started_at: at, heartbeat_at: at })
        .onConflict((conflict) =>
          conflict
            .column('replica_id')
            .doUpdateSet((eb) => ({ heartbeat_at: eb.ref('excluded.heartbeat_at') })),
        )
        .execute();
    },
    /** Forgets `replicaId` (a runtime closing); `false` when it had no row. */
    async leave(replicaId: string): Promise<boolean> {
      const result = await db
        .deleteFrom('runtime_replicas')
        .where('replica_id', '=', replicaId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    /**
     * Takes the lease `name` for `holder` until `until`, or renews it, in one conditional write:
     * only when no one holds it, when it expired before `now`, or when `holder` holds it already.
     *
     * @returns whether `holder` holds the lease now
     */
    async takeLease(name: string, holder: string, now: number, until: number): Promise<boolean> {
      const result = await db
        .insertInto('runtime_leases')
        .values({ name, holder, expires_at: until })
        .onConflict((conflict) =>
          conflict
            .column('name')
            .doUpdateSet((eb) => ({
              holder: eb.ref('excluded.holder'),
              expires_at: eb.ref('excluded.expires_at'),
            }))
            .where((eb) =>
              eb.or([
                eb('runtime_leases.holder', '=', holder),
                eb('runtime_leases.expires_at', '<', now),
              ]),
            ),
        )
        .executeTakeFirst();
      return result.numInsertedOrUpdatedRows === 1n;
    },
    /**
     * The RUNNING runs recorded as a runtime's whose heartbeat is older than `staleBefore` or
     * that has none; or the RUNNING runs recorded as `replicaId`'s, whatever its heartbeat (a
     * runtime starting again under the id of one that died). Runs that record no runtime (stored
     * before runtimes recorded theirs) are never among them.
     */
    async orphanedRuns(of: StoppedReplicas): Promise<OrphanedRun[]> {
      const rows = await db
        .selectFrom('runs')
        .leftJoin('runtime_replicas', 'runtime_replicas.replica_id', 'runs.replica_id')
        .select(['runs.run_id', 'runs.replica_id', 'runs.output'])
        .where('runs.status', '=', 'RUNNING')
        .where((eb) =>
          'staleBefore' in of
            ? eb.and([
                eb('runs.replica_id', 'is not', null),
                eb.or([
                  eb('runtime_replicas.heartbeat_at', 'is', null),
                  eb('runtime_replicas.heartbeat_at', '<', of.staleBefore),
                ]),
              ])
            : eb('runs.replica_id', '=', of.replicaId),
        )
        .orderBy('runs.seq')
        .execute();
      return rows.map((row) => ({
        runId: row.run_id,
        replicaId: row.replica_id as string,
        output: dialect.jsonFromColumn(row.output) as Record<string, unknown>,
      }));
    },
    /**
     * Stores `run` as failed with `message` at `now`, as a run whose engine failed is stored, in
     * one UPDATE only while it is still RUNNING as its runtime's: `false`, and nothing written,
     * when it finished, was continued by another runtime, or is gone meanwhile.
     */
    async failOrphanedRun(run: OrphanedRun, message: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('runs')
        .set({
          status: 'ERROR',
          output: dialect.jsonToColumn({
            ...run.output,
            status: 'ERROR',
            content: message,
          }) as string,
          checkpoint: null,
          updated_at: Math.floor(now / 1000),
        })
        .where('run_id', '=', run.runId)
        .where('status', '=', 'RUNNING')
        .where('replica_id', '=', run.replicaId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    /**
     * Stores as failed, in one UPDATE, the schedule runs still `running` that a runtime picked as
     * `orphanedRuns` picks them claimed, each with {@link stoppedReplicaMessage} of its claimant,
     * completed at `now`. Schedule runs that record no claimant are never among them.
     *
     * @returns how many were failed
     */
    async failOrphanedScheduleRuns(of: StoppedReplicas, now: number): Promise<number> {
      const result = await db
        .updateTable('schedule_runs')
        .set({
          status: 'failed',
          completed_at: Math.floor(now / 1000),
          error: sql<string>`${STOPPED[0]} || claimed_by || ${STOPPED[1]}`,
        })
        .where('status', '=', 'running')
        .where((eb) =>
          'staleBefore' in of
            ? eb.and([
                eb('claimed_by', 'is not', null),
                eb(
                  'claimed_by',
                  'not in',
                  eb
                    .selectFrom('runtime_replicas')
                    .select('replica_id')
                    .where('heartbeat_at', '>=', of.staleBefore),
                ),
              ])
            : eb('claimed_by', '=', of.replicaId),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  });
}

/** The runtimes of the database. */
export type ReplicaStore = ReturnType<typeof createReplicaStore>;
