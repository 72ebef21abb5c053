/**
 * Approvals in the runtime database, read and written asynchronously through the query layer
 * (database.ts, table.ts, page.ts): records of runs paused on tools that need one, and audit
 * records of tool calls. Resolving is one conditional UPDATE on the pending state, so of two
 * resolutions (from two processes, or two requests) exactly one is written. Stores what it is
 * given; it never filters by caller identity on its own (routes pass the owner) and never builds
 * HTTP shapes.
 */
import type { RowOf, RuntimeDatabase } from '../../store/database.js';
import { equals, pageOf, type PageSpec } from '../../store/page.js';
import type { z } from 'zod';
import { approvalSchema, listApprovalsQuery } from './schemas.js';
import { tableOf, type TableSpec } from '../../store/table.js';

/**
 * One approval, as Agno's ApprovalResponse names its fields (times in epoch seconds); its answer
 * is the record itself.
 */
export type ApprovalRecord = z.output<typeof approvalSchema>;

/** The equality filters of `GET /approvals`, each on its column; an absent one matches all. */
export type ApprovalFilter = Omit<z.output<typeof listApprovalsQuery>, 'page' | 'limit'>;

/** A decision on a pending approval. */
export interface ApprovalResolution {
  readonly status: 'approved' | 'rejected';
  readonly resolvedBy: string | null;
  readonly resolutionData: Record<string, unknown> | null;
  /** Epoch seconds. */
  readonly at: number;
}

declare module '../../store/database.js' {
  interface Database {
    approvals: RowOf<ApprovalRecord, 'tool_args' | 'requirements' | 'context' | 'resolution_data'>;
  }
}

/** The `approvals` table, a column per field: tool call, context and resolution are JSON. */
const APPROVALS: TableSpec<ApprovalRecord> = {
  name: 'approvals',
  key: 'id',
  columns: Object.keys(approvalSchema.shape) as (keyof ApprovalRecord)[],
  json: ['tool_args', 'requirements', 'context', 'resolution_data'],
  seconds: ['created_at', 'updated_at'],
};

/** The filters of `GET /approvals`: its query but the page. */
const FILTERS = Object.keys(listApprovalsQuery.omit({ page: true, limit: true }).shape);

/** The approval store on an open, migrated database. */
export function createApprovalStore(database: RuntimeDatabase) {
  const { db } = database;
  const approvals = tableOf(database, APPROVALS);
  const pages = pageOf<ApprovalRecord, ApprovalFilter, 'created_at'>(database, approvals, {
    // Every filter of GET /approvals is an equality on the column of its name.
    filters: Object.fromEntries(FILTERS.map((name) => [name, equals(name)])) as PageSpec<
      ApprovalFilter,
      'created_at'
    >['filters'],
    sorts: ['created_at'],
    tieBreak: 'id',
    tieBreakOrder: 'asc',
  });
  return Object.freeze({
    /** Inserts a new approval; false, and nothing written, when its id is taken. */
    insert: (approval: ApprovalRecord) => approvals.insert(approval),
    get: (id: string) => approvals.get(id),
    /** One page of the approvals matching every filter, newest first, and how many match. */
    list: (filters: ApprovalFilter, page: number, limit: number) =>
      pages.page({ filters, page, limit }),
    /** How many approvals are pending, of one user when `userId` is given. */
    async countPending(userId: string | undefined): Promise<number> {
      const { n } = await db
        .selectFrom('approvals')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'pending')
        .$if(userId !== undefined, (qb) => qb.where('user_id', '=', userId as string))
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    /** The run's pending approval, if it has one. */
    async pendingForRun(runId: string): Promise<ApprovalRecord | null> {
      const row = await db
        .selectFrom('approvals')
        .selectAll()
        .where('run_id', '=', runId)
        .where('status', '=', 'pending')
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row === undefined ? null : approvals.fromRow(row);
    },
    /**
     * Resolves the approval if it is still pending (a compare-and-set on the status); false, and
     * nothing written, when it is not (resolved meanwhile, or gone).
     */
    resolve: (id: string, resolution: ApprovalResolution) =>
      approvals.change(
        id,
        {
          status: resolution.status,
          resolved_by: resolution.resolvedBy,
          resolution_data: resolution.resolutionData,
          resolved_at: resolution.at,
          updated_at: resolution.at,
        },
        { status: 'pending' },
      ),
    /**
     * Mirrors the run's status into its approvals; a CANCELLED run's pending approvals become
     * `cancelled`, since nothing is left to approve.
     */
    async setRunStatus(runId: string, runStatus: string, at: number): Promise<void> {
      await db
        .updateTable('approvals')
        .set((eb) => ({
          run_status: runStatus,
          updated_at: at,
          // One statement: a pending approval of a cancelled run is cancelled with it.
          ...(runStatus === 'CANCELLED'
            ? {
                status: eb
                  .case()
                  .when('status', '=', 'pending')
                  .then('cancelled' as const)
                  .else(eb.ref('status'))
                  .end(),
              }
            : {}),
        }))
        .where('run_id', '=', runId)
        .execute();
    },
    /** False when there was none. */
    delete: (id: string) => approvals.delete(id),
  });
}

/** The approvals of the runtime store. */
export type ApprovalStore = ReturnType<typeof createApprovalStore>;
