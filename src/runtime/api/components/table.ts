/**
 * Components: agents, teams and workflows defined through the API, each with numbered config
 * versions, in the runtime database, read and written asynchronously through the query layer
 * (database.ts, table.ts, page.ts). Stores what it is given; the rules (ids, stages, the current
 * version) live in the routes and the live catalogue.
 */
import type { RowOf, RuntimeDatabase } from '../../store/database.js';
import { equals, pageOf } from '../../store/page.js';
import type { SessionType } from '../../store/records.js';
import { tableOf, type Table, type TableSpec } from '../../store/table.js';

/** A component's kind. */
export type ComponentType = SessionType;

/** A config version's stage: a published one is immutable. */
export type ConfigStage = 'draft' | 'published';

/** One component. */
export interface ComponentRecord {
  component_id: string;
  component_type: ComponentType;
  name: string;
  description: string | null;
  /** The version in use; null when none was set. */
  current_version: number | null;
  metadata: Record<string, unknown> | null;
  /** Epoch seconds. */
  created_at: number;
  /** Epoch seconds. */
  updated_at: number;
}

/** One config version of a component. */
export interface ComponentConfigRecord {
  component_id: string;
  version: number;
  label: string | null;
  stage: ConfigStage;
  /** The entity definition (the schema of `runtime.agents[]`, `teams[]` or `workflows[]`). */
  config: Record<string, unknown>;
  notes: string | null;
  /** Epoch seconds. */
  created_at: number;
  /** Epoch seconds. */
  updated_at: number;
}

/** The components and their configs, on the database or inside one transaction. */
export type ComponentTables = ReturnType<typeof storeOn>;

/** The components of the runtime store. */
export type ComponentStore = ReturnType<typeof createComponentStore>;

declare module '../../store/database.js' {
  interface Database {
    components: RowOf<ComponentRecord, 'metadata'>;
    component_configs: RowOf<ComponentConfigRecord, 'config'>;
  }
}

/** The `components` table: metadata is JSON; a replace keeps `created_at`. */
const COMPONENTS: TableSpec<ComponentRecord> = {
  name: 'components',
  key: 'component_id',
  columns: [
    'component_id',
    'component_type',
    'name',
    'description',
    'current_version',
    'metadata',
    'created_at',
    'updated_at',
  ],
  json: ['metadata'],
  seconds: ['created_at', 'updated_at'],
  keepOnUpdate: ['created_at'],
};

/** The `component_configs` table, keyed by (component, version): the config is JSON. */
const CONFIGS: TableSpec<ComponentConfigRecord> = {
  name: 'component_configs',
  key: ['component_id', 'version'],
  columns: [
    'component_id',
    'version',
    'label',
    'stage',
    'config',
    'notes',
    'created_at',
    'updated_at',
  ],
  json: ['config'],
  seconds: ['created_at', 'updated_at'],
  keepOnUpdate: ['created_at'],
};

/** The component store on an open, migrated database. */
export function createComponentStore(database: RuntimeDatabase) {
  const components = tableOf(database, COMPONENTS);
  const configs = tableOf(database, CONFIGS);
  const pages = pageOf<ComponentRecord, { type?: ComponentType | undefined }, 'created_at'>(
    database,
    components,
    {
      filters: { type: equals('component_type') },
      sorts: ['created_at'],
      tieBreak: 'component_id',
      tieBreakOrder: 'asc',
    },
  );
  return Object.freeze({
    /** One page of components, newest first, optionally of one type, and how many match. */
    list: (type: ComponentType | null, page: number, limit: number) =>
      pages.page({ filters: { type: type ?? undefined }, page, limit }),
    ...storeOn(components, configs),
    /**
     * Runs `fn` in one transaction on the tables it is given (only their reads and writes are in
     * it; the store's own would wait for it to end): a throw rolls every write of it back.
     */
    transaction: <T>(fn: (tables: ComponentTables) => Promise<T>): Promise<T> =>
      database.db.transaction().execute((trx) => fn(storeOn(components.in(trx), configs.in(trx)))),
  });
}

/** The operations of the tables (on the database, or on one transaction). */
function storeOn(components: Table<ComponentRecord>, configs: Table<ComponentConfigRecord>) {
  return Object.freeze({
    /** Every component, oldest first (the order the catalogue lists them in). */
    all: () => components.find({}, ['created_at', 'component_id']),
    get: (componentId: string) => components.get(componentId),
    /** Insert or replace by id (replacing keeps its configs and `created_at`). */
    put: (component: ComponentRecord) => components.put(component),
    /** Delete the component and its configs; false when there was none. */
    delete: (componentId: string) => components.delete(componentId),
    /** Its configs, oldest version first. */
    configs: (componentId: string) => configs.find({ component_id: componentId }, ['version']),
    config: (componentId: string, version: number) => configs.get([componentId, version]),
    /** Insert or replace by (component, version), keeping `created_at`. */
    putConfig: (config: ComponentConfigRecord) => configs.put(config),
    /** False when there was none. */
    deleteConfig: (componentId: string, version: number) => configs.delete([componentId, version]),
  });
}
