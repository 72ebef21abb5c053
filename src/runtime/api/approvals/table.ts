/**
 * Approvals in the runtime's SQLite file: records of runs paused on tools
 * that need one, and audit records of tool calls. Stores what it is given; it never filters by
 * caller identity on its own (routes pass the owner) and never builds HTTP shapes.
 */
import type { SessionType } from '../../store/records.js';
import type { SqliteDatabase } from '../../store/sqlite.js';

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

/** The approvals of the runtime store. */
export interface ApprovalStore {
  /** Inserts a new approval; false, and nothing written, when its id is taken. */
  insert(approval: ApprovalRecord): boolean;
  get(id: string): ApprovalRecord | null;
  /** One page of the approvals matching every filter, newest first, and how many match. */
  list(
    filter: ApprovalFilter,
    page: number,
    limit: number,
  ): { rows: ApprovalRecord[]; total: number };
  /** How many approvals are pending, of one user when `userId` is given. */
  countPending(userId: string | undefined): number;
  /** The run's pending approval, if it has one. */
  pendingForRun(runId: string): ApprovalRecord | null;
  /** Resolves the approval if it is still pending; false (nothing written) otherwise. */
  resolve(id: string, resolution: ApprovalResolution): boolean;
  /**
   * Mirrors the run's status into its approvals; a CANCELLED run's pending approvals become
   * `cancelled`, since nothing is left to approve.
   */
  setRunStatus(runId: string, runStatus: string, at: number): void;
  /** False when there was none. */
  delete(id: string): boolean;
}

const COLUMNS = [
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
] as const satisfies readonly (keyof ApprovalRecord)[];

/** The columns `GET /approvals` filters on, each `@col IS NULL OR col = @col`. */
const FILTERS = [
  'status',
  'source_type',
  'approval_type',
  'pause_type',
  'agent_id',
  'team_id',
  'workflow_id',
  'user_id',
  'schedule_id',
  'run_id',
] as const satisfies readonly (keyof ApprovalFilter)[];

type ApprovalRow = Omit<
  ApprovalRecord,
  'tool_args' | 'requirements' | 'context' | 'resolution_data'
> & {
  tool_args: string | null;
  requirements: string;
  context: string;
  resolution_data: string | null;
};

const jsonOrNull = (value: unknown): string | null =>
  value === null ? null : JSON.stringify(value);

const parseOrNull = <T>(text: string | null): T | null =>
  text === null ? null : (JSON.parse(text) as T);

function fromRow(row: ApprovalRow): ApprovalRecord {
  return {
    ...row,
    tool_args: parseOrNull(row.tool_args),
    requirements: JSON.parse(row.requirements) as Record<string, unknown>[],
    context: JSON.parse(row.context) as Record<string, unknown>,
    resolution_data: parseOrNull(row.resolution_data),
  };
}

/** Prepares the approval statements on an open, migrated database. */
export function createApprovalStore(db: SqliteDatabase): ApprovalStore {
  // One statement for every combination of filters: a NULL parameter switches its filter off,
  // so the SQL text never depends on a value.
  const where = FILTERS.map((c) => `(@${c} IS NULL OR ${c} = @${c})`).join(' AND ');
  const page = db.prepare(
    `SELECT * FROM approvals WHERE ${where} ORDER BY created_at DESC, id LIMIT @limit OFFSET @offset`,
  );
  const count = db.prepare(`SELECT count(*) AS n FROM approvals WHERE ${where}`);
  const countPending = db.prepare(
    `SELECT count(*) AS n FROM approvals WHERE status = 'pending' AND (@user IS NULL OR user_id = @user)`,
  );
  const insert = db.prepare(
    `INSERT INTO approvals (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})
     ON CONFLICT (id) DO NOTHING`,
  );
  const get = db.prepare('SELECT * FROM approvals WHERE id = ?');
  const pendingForRun = db.prepare(
    `SELECT * FROM approvals WHERE run_id = ? AND status = 'pending' ORDER BY created_at DESC LIMIT 1`,
  );
  const resolve = db.prepare(
    `UPDATE approvals SET status = @status, resolved_by = @resolvedBy,
       resolution_data = @resolutionData, resolved_at = @at, updated_at = @at
     WHERE id = @id AND status = 'pending'`,
  );
  const setRunStatus = db.prepare(
    `UPDATE approvals SET run_status = @runStatus, updated_at = @at,
       status = CASE WHEN status = 'pending' AND @runStatus = 'CANCELLED' THEN 'cancelled'
                     ELSE status END
     WHERE run_id = @runId`,
  );
  const remove = db.prepare('DELETE FROM approvals WHERE id = ?');
  const filterParams = (filter: ApprovalFilter): Record<string, string | null> =>
    Object.fromEntries(FILTERS.map((c) => [c, filter[c] ?? null]));

  return Object.freeze({
    insert(approval) {
      const row: ApprovalRow = {
        ...approval,
        tool_args: jsonOrNull(approval.tool_args),
        requirements: JSON.stringify(approval.requirements),
        context: JSON.stringify(approval.context),
        resolution_data: jsonOrNull(approval.resolution_data),
      };
      return insert.run(row).changes === 1;
    },
    get(id) {
      const row = get.get(id) as ApprovalRow | undefined;
      return row === undefined ? null : fromRow(row);
    },
    list(filter, pageNumber, limit) {
      const params = filterParams(filter);
      const rows = page.all({
        ...params,
        limit,
        offset: (pageNumber - 1) * limit,
      }) as ApprovalRow[];
      const { n } = count.get(params) as { n: number };
      return { rows: rows.map(fromRow), total: n };
    },
    countPending(userId) {
      return (countPending.get({ user: userId ?? null }) as { n: number }).n;
    },
    pendingForRun(runId) {
      const row = pendingForRun.get(runId) as ApprovalRow | undefined;
      return row === undefined ? null : fromRow(row);
    },
    resolve(id, resolution) {
      return (
        resolve.run({
          id,
          status: resolution.status,
          resolvedBy: resolution.resolvedBy,
          resolutionData: jsonOrNull(resolution.resolutionData),
          at: resolution.at,
        }).changes === 1
      );
    },
    setRunStatus(runId, runStatus, at) {
      setRunStatus.run({ runId, runStatus, at });
    },
    delete: (id) => remove.run(id).changes > 0,
  } satisfies ApprovalStore);
}
