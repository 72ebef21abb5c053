/**
 * Eval runs in the runtime's SQLite file. Stores what it is given: the
 * routes run the evaluations, shape the responses and choose the filters; every caller value
 * reaches SQL as a bound parameter only.
 */
import type { SessionType } from '../../store/records.js';
import type { SqliteDatabase, SqliteStatement } from '../../store/sqlite.js';

/** The kinds of evaluation (Agno's `EvalType`). */
export const EVAL_TYPES = ['accuracy', 'agent_as_judge', 'performance', 'reliability'] as const;

/** One kind of evaluation. */
export type EvalType = (typeof EVAL_TYPES)[number];

/** One stored eval run. */
export interface EvalRunRecord {
  run_id: string;
  eval_type: EvalType;
  name: string | null;
  agent_id: string | null;
  team_id: string | null;
  workflow_id: string | null;
  model_id: string | null;
  model_provider: string | null;
  evaluated_component_name: string | null;
  eval_data: Record<string, unknown>;
  eval_input: Record<string, unknown> | null;
  /** Epoch seconds. */
  created_at: number;
  /** Epoch seconds. */
  updated_at: number;
}

/** The columns GET /eval-runs may sort by; any other `sort_by` is ignored by the route. */
export const EVAL_SORTS = ['created_at', 'updated_at', 'name', 'eval_type'] as const;

/** Filters, sort and page of {@link EvalStore.list}; an absent filter filters nothing. */
export interface EvalQuery {
  agentId?: string;
  teamId?: string;
  workflowId?: string;
  modelId?: string;
  /** Only runs that name a component of this kind (its id column is not NULL). */
  componentType?: SessionType;
  /** Only runs of one of these kinds. */
  evalTypes?: readonly EvalType[];
  /** 1-based; 0 and below mean 1. */
  page: number;
  /** Rows per page, at least 1. */
  limit: number;
  sortBy: (typeof EVAL_SORTS)[number];
  sortOrder: 'asc' | 'desc';
}

/** The eval runs of the runtime store. */
export interface EvalStore {
  /** Insert or replace by `run_id`. */
  put(record: EvalRunRecord): void;
  /** The eval run, or `null` when there is none with this id. */
  get(runId: string): EvalRunRecord | null;
  /** One page of the runs matching every given filter, and how many match in all. */
  list(query: EvalQuery): { rows: EvalRunRecord[]; total: number };
  /** Renames the run and stamps `updated_at`; the run as it now is, or null when there is none. */
  rename(runId: string, name: string, updatedAt: number): EvalRunRecord | null;
  /** Deletes the named runs in one transaction (unknown ids are skipped); how many went. */
  delete(runIds: readonly string[]): number;
}

interface EvalRunRow extends Omit<EvalRunRecord, 'eval_data' | 'eval_input'> {
  eval_data: string;
  eval_input: string | null;
}

const COLUMNS = [
  'run_id',
  'eval_type',
  'name',
  'agent_id',
  'team_id',
  'workflow_id',
  'model_id',
  'model_provider',
  'evaluated_component_name',
  'eval_data',
  'eval_input',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof EvalRunRow)[];

/**
 * Every filter is one fixed term that is true when its parameter is NULL, so one SQL text serves
 * every combination; the eval types arrive as one JSON array.
 */
const WHERE = `
  WHERE (@agentId IS NULL OR agent_id = @agentId)
    AND (@teamId IS NULL OR team_id = @teamId)
    AND (@workflowId IS NULL OR workflow_id = @workflowId)
    AND (@modelId IS NULL OR model_id = @modelId)
    AND (@componentType IS NULL
      OR (@componentType = 'agent' AND agent_id IS NOT NULL)
      OR (@componentType = 'team' AND team_id IS NOT NULL)
      OR (@componentType = 'workflow' AND workflow_id IS NOT NULL))
    AND (@evalTypes IS NULL OR eval_type IN (SELECT value FROM json_each(@evalTypes)))`;

const fromRow = (row: EvalRunRow): EvalRunRecord => ({
  ...row,
  eval_data: JSON.parse(row.eval_data) as Record<string, unknown>,
  eval_input:
    row.eval_input === null ? null : (JSON.parse(row.eval_input) as Record<string, unknown>),
});

/** Prepares the eval-run statements on an open, migrated database. */
export function createEvalStore(db: SqliteDatabase): EvalStore {
  const put = db.prepare(
    `INSERT INTO eval_runs (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})
     ON CONFLICT (run_id) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'run_id')
       .map((c) => `${c} = excluded.${c}`)
       .join(', ')}`,
  );
  const get = db.prepare('SELECT * FROM eval_runs WHERE run_id = ?');
  const rename = db.prepare('UPDATE eval_runs SET name = ?, updated_at = ? WHERE run_id = ?');
  const remove = db.prepare('DELETE FROM eval_runs WHERE run_id = ?');
  const count = db.prepare(`SELECT count(*) AS total FROM eval_runs ${WHERE}`);
  const pages = new Map<string, SqliteStatement>();
  for (const column of EVAL_SORTS) {
    for (const order of ['ASC', 'DESC']) {
      // run_id breaks ties so consecutive pages never overlap or skip a row.
      pages.set(
        `${column} ${order}`,
        db.prepare(
          `SELECT * FROM eval_runs ${WHERE} ORDER BY ${column} ${order}, run_id ${order}
           LIMIT @limit OFFSET @offset`,
        ),
      );
    }
  }
  // One read transaction, so `total` always matches the rows of the page.
  const read = db.transaction((page: SqliteStatement, params: Record<string, unknown>) => ({
    rows: (page.all(params) as EvalRunRow[]).map(fromRow),
    total: (count.get(params) as { total: number }).total,
  }));
  const deleteMany = db.transaction((runIds: readonly string[]): number =>
    runIds.reduce((n, id) => n + remove.run(id).changes, 0),
  );

  const getRun = (runId: string): EvalRunRecord | null => {
    const row = get.get(runId) as EvalRunRow | undefined;
    return row === undefined ? null : fromRow(row);
  };

  return Object.freeze({
    put(record) {
      put.run({
        ...record,
        eval_data: JSON.stringify(record.eval_data),
        eval_input: record.eval_input === null ? null : JSON.stringify(record.eval_input),
      });
    },
    get: getRun,
    list(query) {
      const { limit } = query;
      const page = pages.get(`${query.sortBy} ${query.sortOrder.toUpperCase()}`);
      if (page === undefined) {
        throw new RangeError(`unsupported sort: ${query.sortBy} ${query.sortOrder}`);
      }
      return read(page, {
        agentId: query.agentId ?? null,
        teamId: query.teamId ?? null,
        workflowId: query.workflowId ?? null,
        modelId: query.modelId ?? null,
        componentType: query.componentType ?? null,
        evalTypes: query.evalTypes === undefined ? null : JSON.stringify(query.evalTypes),
        limit,
        // Capped so that an absurd page is merely past the end rather than beyond SQLite's int64.
        offset: Math.min((Math.max(query.page, 1) - 1) * limit, Number.MAX_SAFE_INTEGER),
      });
    },
    rename(runId, name, updatedAt) {
      return rename.run(name, updatedAt, runId).changes === 0 ? null : getRun(runId);
    },
    delete: (runIds) => deleteMany(runIds),
  } satisfies EvalStore);
}
