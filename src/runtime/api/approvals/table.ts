/**
 * Approvals in the runtime database, read and written asynchronously through the query layer
 * (database.ts, table.ts, page.ts): records of runs paused on tools that need one, and audit
 * records of tool calls. Resolving is one conditional UPDATE on the pending state, so of two
 * resolutions (from two processes, or two requests) exactly one is written. Stores what it is
 * given; it never filters by caller identity on its own (routes pass the owner) and never builds
 * HTTP shapes.
 */
import type { RowOf, RuntimeDatabase } from '../../store/database.js';
import { equals, pageOf } from '../../store/page.js';
import type { SessionType } from '../../store/records.js';
import { tableOf, type TableSpec } from '../../store/table.js';

/** An approval's state; only `pending` ones can be resolved. */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'cancelled';

/** One approval, as Agno's ApprovalResponse names its fields (times in epoch seconds). */
export interface ApprovalRecord {
  id: string;
  run_id: string;
  session_id: string;
  status: ApprovalStatus;
  source_type: SessionType;
  approval_type: 'required' | 'audit';
  /** Null for an audit record of a call that ran without pausing. */
  pause_type: 'confirmation' | 'user_input' | 'external_execution' | null;
  tool_name: string | null;
  tool_args: Record<string, unknown> | null;
  expires_at: number | null;
  agent_id: string | null;
  team_id: string | null;
  workflow_id: string | null;
  user_id: string | null;
  schedule_id: string | null;
  schedule_run_id: string | null;
  source_name: string | null;
  requirements: Record<string, unknown>[];
  context: Record<string, unknown>;
  resolution_data: Record<string, unknown> | null;
  resolved_by: string | null;
  resolved_at: number | null;
  run_status: string | null;
  created_at: number;
  updated_at: number;
}

/** The equality filters of `GET /approvals`; an absent one matches every row. */
export interface ApprovalFilter {
  readonly status?: string | undefined;
  readonly source_type?: string | undefined;
  readonly approval_type?: string | undefined;
  readonly pause_type?: string | undefined;
  readonly agent_id?: string | undefined;
  readonly team_id?: string | undefined;
  readonly workflow_id?: string | undefined;
  readonly user_id?: string | undefined;
  readonly schedule_id?: string | undefined;
  readonly run_id?: string | undefined;
}

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

/** The `approvals` table: the tool call, its context and the resolution are JSON. */
const APPROVALS: TableSpec<ApprovalRecord> = {
  name: 'approvals',
  key: 'id',
  columns: [
    'id',
    'run_id',
    'session_id',
    'status',
    'source_type',
    'approval_type',
    'pause_type',
    'tool_name',
    'tool_args',
    'expires_at',
    'agent_id',
    'team_id',
    'workflow_id',
    'user_id',
    'schedule_id',
    'schedule_run_id',
    'source_name',
    'requirements',
    'context',
    'resolution_data',
    'resolved_by',
    'resolved_at',
    'run_status',
    'created_at',
    'updated_at',
  ],
  json: ['tool_args', 'requirements', 'context', 'resolution_data'],
  seconds: ['created_at', 'updated_at'],
};

/** The approval store on an open, migrated database. */
export function createApprovalStore(database: RuntimeDatabase) {
  const { db } = database;
  const approvals = tableOf(database, APPROVALS);
  // Every filter of GET /approvals is an equality on the column of its name.
  const pages = pageOf<ApprovalRecord, ApprovalFilter, 'created_at'>(database, approvals, {
    filters: {
      status: equals('status'),
      source_type: equals('source_type'),
      approval_type: equals('approval_type'),
      pause_type: equals('pause_type'),
      agent_id: equals('agent_id'),
      team_id: equals('team_id'),
      workflow_id: equals('workflow_id'),
      user_id: equals('user_id'),
      schedule_id: equals('schedule_id'),
      run_id: equals('run_id'),
    },
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
