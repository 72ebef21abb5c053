/**
 * Components: agents, teams and workflows defined through the API, each
 * with numbered config versions, in the runtime's SQLite file. Stores what it is given; the
 * rules (ids, stages, the current version) live in the routes and the live catalogue.
 */
import type { SessionType } from '../../store/records.js';
import type { SqliteDatabase } from '../../store/sqlite.js';

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

/** The components of the runtime store. */
export interface ComponentStore {
  /** One page of components, newest first, optionally of one type, and how many match. */
  list(
    type: ComponentType | null,
    page: number,
    limit: number,
  ): { rows: ComponentRecord[]; total: number };
  /** Every component, oldest first (the order the catalogue lists them in). */
  all(): ComponentRecord[];
  get(componentId: string): ComponentRecord | null;
  /** Insert or replace by id (replacing keeps its configs). */
  put(component: ComponentRecord): void;
  /** Delete the component and its configs; false when there was none. */
  delete(componentId: string): boolean;
  /** Its configs, oldest version first. */
  configs(componentId: string): ComponentConfigRecord[];
  config(componentId: string, version: number): ComponentConfigRecord | null;
  /** Insert or replace by (component, version). */
  putConfig(config: ComponentConfigRecord): void;
  /** False when there was none. */
  deleteConfig(componentId: string, version: number): boolean;
  /** Runs `fn` in one transaction: a throw rolls every write of it back. */
  transaction<T>(fn: () => T): T;
}

interface ComponentRow extends Omit<ComponentRecord, 'metadata'> {
  metadata: string | null;
}

interface ConfigRow extends Omit<ComponentConfigRecord, 'config'> {
  config: string;
}

const fromComponentRow = (row: ComponentRow): ComponentRecord => ({
  ...row,
  metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
});

const fromConfigRow = (row: ConfigRow): ComponentConfigRecord => ({
  ...row,
  config: JSON.parse(row.config) as Record<string, unknown>,
});

/** Prepares the component statements on an open, migrated database. */
export function createComponentStore(db: SqliteDatabase): ComponentStore {
  const page = db.prepare(
    `SELECT * FROM components WHERE @type IS NULL OR component_type = @type
     ORDER BY created_at DESC, component_id LIMIT @limit OFFSET @offset`,
  );
  const count = db.prepare(
    'SELECT count(*) AS n FROM components WHERE @type IS NULL OR component_type = @type',
  );
  const all = db.prepare('SELECT * FROM components ORDER BY created_at, component_id');
  const get = db.prepare('SELECT * FROM components WHERE component_id = ?');
  const put = db.prepare(
    `INSERT INTO components (component_id, component_type, name, description, current_version,
       metadata, created_at, updated_at)
     VALUES (@component_id, @component_type, @name, @description, @current_version, @metadata,
       @created_at, @updated_at)
     ON CONFLICT (component_id) DO UPDATE SET component_type = excluded.component_type,
       name = excluded.name, description = excluded.description,
       current_version = excluded.current_version, metadata = excluded.metadata,
       updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM components WHERE component_id = ?');
  const configs = db.prepare(
    'SELECT * FROM component_configs WHERE component_id = ? ORDER BY version',
  );
  const config = db.prepare(
    'SELECT * FROM component_configs WHERE component_id = ? AND version = ?',
  );
  const putConfig = db.prepare(
    `INSERT INTO component_configs (component_id, version, label, stage, config, notes,
       created_at, updated_at)
     VALUES (@component_id, @version, @label, @stage, @config, @notes, @created_at, @updated_at)
     ON CONFLICT (component_id, version) DO UPDATE SET label = excluded.label,
       stage = excluded.stage, config = excluded.config, notes = excluded.notes,
       updated_at = excluded.updated_at`,
  );
  const removeConfig = db.prepare(
    'DELETE FROM component_configs WHERE component_id = ? AND version = ?',
  );
  return Object.freeze({
    list(type, pageNumber, limit) {
      const rows = page.all({ type, limit, offset: (pageNumber - 1) * limit }) as ComponentRow[];
      const { n } = count.get({ type }) as { n: number };
      return { rows: rows.map(fromComponentRow), total: n };
    },
    all: () => (all.all() as ComponentRow[]).map(fromComponentRow),
    get(componentId) {
      const row = get.get(componentId) as ComponentRow | undefined;
      return row === undefined ? null : fromComponentRow(row);
    },
    put(component) {
      put.run({
        ...component,
        metadata: component.metadata === null ? null : JSON.stringify(component.metadata),
      });
    },
    delete: (componentId) => remove.run(componentId).changes > 0,
    configs: (componentId) => (configs.all(componentId) as ConfigRow[]).map(fromConfigRow),
    config(componentId, version) {
      const row = config.get(componentId, version) as ConfigRow | undefined;
      return row === undefined ? null : fromConfigRow(row);
    },
    putConfig(record) {
      putConfig.run({ ...record, config: JSON.stringify(record.config) });
    },
    deleteConfig: (componentId, version) => removeConfig.run(componentId, version).changes > 0,
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
  } satisfies ComponentStore);
}
