/**
 * Runs in the runtime database, read and written asynchronously through the query layer
 * (database.ts, table.ts). Each run belongs to a stored session and goes with it. A change of
 * status another process could race is a conditional UPDATE on the status read.
 */
import type { Insertable } from 'kysely';
import type { RunRow, RuntimeDatabase } from '../../store/database.js';
import type { RunRecord, RunStatus } from '../../store/records.js';
import { tableOf, type TableSpec } from '../../store/table.js';

declare module '../../store/database.js' {
  interface Database {
    run_cancels: { run_id: string; requested_at: number };
  }
}

/** The `runs` table (its internal `seq` keeps the order runs were first stored in). */
const RUNS: TableSpec<RunRecord> = {
  name: 'runs',
  key: 'run_id',
  columns: [
    'run_id',
    'session_id',
    'session_type',
    'component_id',
    'parent_run_id',
    'user_id',
    'status',
    'input',
    'output',
    'checkpoint',
    'created_at',
    'updated_at',
  ],
  json: ['output', 'checkpoint'],
  seconds: ['created_at', 'updated_at'],
};

/**
 * The run store on an open, migrated database. `replicaId` names the runtime this store serves:
 * a run it inserts, or moves on from a status, is recorded as that runtime's (runs/lease.ts
 * fails the RUNNING runs of a runtime that stopped).
 */
export function createRunStore(database: RuntimeDatabase, replicaId: string) {
  const table = tableOf(database, RUNS);
  /** The run's row as this replica's. */
  const rowOf = (run: RunRecord): Insertable<RunRow> => ({
    ...(table.toRow(run) as Insertable<RunRow>),
    replica_id: replicaId,
  });
  return Object.freeze({
    /**
     * Insert or replace by `run_id`.
     *
     * @throws when `run.session_id` names no stored session (a foreign key violation)
     */
    putRun: (run: RunRecord) => table.put(run),
    /**
     * Insert a new run, recorded as this store's replica's; `false`, and nothing written, when its
     * id is already taken.
     */
    async insertRun(run: RunRecord): Promise<boolean> {
      const result = await database.db
        .insertInto('runs')
        .values(rowOf(run))
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return result.numInsertedOrUpdatedRows === 1n;
    },
    /**
     * Store `run` in place of the stored run of its id only while that run's status is still
     * `from` (a compare-and-set), recorded as this store's replica's from now on: `false`, and
     * nothing written, when it has changed or is gone.
     */
    async replaceRun(run: RunRecord, from: RunStatus): Promise<boolean> {
      const { run_id: runId, ...changes } = rowOf(run);
      const result = await database.db
        .updateTable('runs')
        .set(changes)
        .where('run_id', '=', runId)
        .where('status', '=', from)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    /** Store `run` in place of the stored run of its id; `false` when it is gone. */
    updateRun: (run: RunRecord) => table.update(run),
    /** The run, or `null` when there is none with this id. */
    getRun: (runId: string) => table.get(runId),
    /** The session's runs, oldest first (same second: first stored first); `[]` for no session. */
    async listRuns(sessionId: string): Promise<RunRecord[]> {
      const rows = await database.db
        .selectFrom('runs')
        .selectAll()
        .where('session_id', '=', sessionId)
        .orderBy('created_at')
        .orderBy('seq')
        .execute();
      return rows.map((row) => table.fromRow(row));
    },
    /**
     * Records that a cancel was asked for `runId` at `at` (epoch seconds), for the runtime that
     * runs it, whichever it is, now or when it starts; asking again keeps the first time.
     */
    async requestCancel(runId: string, at: number): Promise<void> {
      await database.db
        .insertInto('run_cancels')
        .values({ run_id: runId, requested_at: at })
        .onConflict((oc) => oc.column('run_id').doNothing())
        .execute();
    },
    /** Which of `runIds` a cancel was asked for (in no particular order). */
    async cancelsAmong(runIds: readonly string[]): Promise<string[]> {
      if (runIds.length === 0) return [];
      const rows = await database.db
        .selectFrom('run_cancels')
        .select('run_id')
        .where('run_id', 'in', runIds)
        .execute();
      return rows.map((row) => row.run_id);
    },
    /** Forgets the cancels asked for before `before` (epoch seconds); how many. */
    async pruneCancels(before: number): Promise<number> {
      const result = await database.db
        .deleteFrom('run_cancels')
        .where('requested_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  });
}

/** The runs of the runtime store. */
export type RunStore = ReturnType<typeof createRunStore>;
