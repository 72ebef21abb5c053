/**
 * Eval runs in the runtime database, read and written asynchronously through the query layer
 * (database.ts, table.ts, page.ts). Stores what it is given: the routes run the evaluations,
 * shape the responses and choose the filters; every caller value reaches SQL as a bound
 * parameter only.
 */
import type { RowOf, RuntimeDatabase } from '../../store/database.js';
import { equals, oneOf, pageOf, type Page, type PageParams } from '../../store/page.js';
import type { SessionType } from '../../store/records.js';
import { tableOf, type TableSpec } from '../../store/table.js';

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

/** A sort column of {@link EVAL_SORTS}. */
export type EvalSort = (typeof EVAL_SORTS)[number];

/** Filters, sort and page of the store's `list`; an absent (or undefined) filter filters nothing. */
export interface EvalQuery extends PageParams<EvalSort> {
  agentId?: string | undefined;
  teamId?: string | undefined;
  workflowId?: string | undefined;
  modelId?: string | undefined;
  /** Only runs that name a component of this kind (its id column is not NULL). */
  componentType?: SessionType | undefined;
  /** Only runs of one of these kinds. */
  evalTypes?: readonly EvalType[] | undefined;
}

/** The eval runs of the runtime store. */
export type EvalStore = ReturnType<typeof createEvalStore>;

/** The `eval_runs` table: the eval's data and input are JSON, times epoch seconds. */
const EVAL_RUNS: TableSpec<EvalRunRecord> = {
  name: 'eval_runs',
  key: 'run_id',
  columns: [
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
  ],
  json: ['eval_data', 'eval_input'],
  seconds: ['created_at', 'updated_at'],
};

declare module '../../store/database.js' {
  interface Database {
    eval_runs: RowOf<EvalRunRecord, 'eval_data' | 'eval_input'>;
  }
}

/** The id column of each kind of component an eval run may name. */
const COMPONENT_COLUMNS = {
  agent: 'agent_id',
  team: 'team_id',
  workflow: 'workflow_id',
} as const satisfies Record<SessionType, keyof EvalRunRecord>;

/** The filters of the store's `list`, by name and value. */
type EvalFilters = Omit<EvalQuery, keyof PageParams<EvalSort>>;

/** The eval-run store on an open, migrated database. */
export function createEvalStore(database: RuntimeDatabase) {
  const { db } = database;
  const table = tableOf(database, EVAL_RUNS);
  const pages = pageOf<EvalRunRecord, EvalFilters, EvalSort>(database, table, {
    filters: {
      agentId: equals('agent_id'),
      teamId: equals('team_id'),
      workflowId: equals('workflow_id'),
      modelId: equals('model_id'),
      // A run names a component of a kind when that kind's id column is set.
      componentType: (kind, eb) => eb(COMPONENT_COLUMNS[kind], 'is not', null),
      evalTypes: oneOf('eval_type'),
    },
    sorts: EVAL_SORTS,
    tieBreak: 'run_id',
  });
  return Object.freeze({
    /** Insert or replace by `run_id`. */
    put: (record: EvalRunRecord): Promise<void> => table.put(record),
    get: (runId: string): Promise<EvalRunRecord | null> => table.get(runId),
    /** One page of the runs matching every given filter, and how many match in all. */
    list({ page, limit, sortBy, sortOrder, ...filters }: EvalQuery): Promise<Page<EvalRunRecord>> {
      // Refused at once (not as a rejection), naming the order too, as before the layer.
      if (!EVAL_SORTS.includes(sortBy)) {
        throw new RangeError(`unsupported sort: ${sortBy} ${sortOrder}`);
      }
      return pages.page({ filters, sortBy, sortOrder, page, limit });
    },
    /** Renames the run and stamps `updated_at`; the run as it now is, or null when there is none. */
    rename: (runId: string, name: string, updatedAt: number): Promise<EvalRunRecord | null> =>
      table.patch(runId, { name, updated_at: updatedAt }),
    /** Deletes the named runs in one transaction (unknown ids are skipped); how many went. */
    delete: (runIds: readonly string[]): Promise<number> =>
      db.transaction().execute((trx) => table.in(trx).deleteAll(runIds)),
  });
}
