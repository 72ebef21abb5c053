/**
 * Opens the service-account store `auth.service_accounts.store` names, on its engine: a SQLite
 * file, or a Postgres database shared by replicas.
 */
import type { StoreLocation } from '../../shared/store-location.js';
import { openPostgresStore } from './postgres-store.js';
import { BUSY_TIMEOUT_MS, openSqliteStore } from './sqlite-store.js';
import type { ServiceAccountStore } from './store.js';

/** How a store is opened. */
export interface OpenStoreSettings {
  readonly location: StoreLocation;
  /** This gateway's name among replicas (Postgres application_name). */
  readonly replicaId: string;
  /** Pool size of a Postgres store (`cluster.pool_max`). */
  readonly poolMax: number;
  /**
   * `serve`: a Postgres server that cannot be reached yet is transient (the store opens
   * unavailable and keeps trying). `cli`: it is an error; SQLite statements then also wait a
   * moment for another connection's lock, as a command has nothing else on its event loop.
   */
  readonly mode: 'serve' | 'cli';
}

/**
 * Opens (creating and migrating where needed) the store.
 *
 * @throws {ServiceAccountStoreError} naming the store's printable location
 */
export function openServiceAccountStore(settings: OpenStoreSettings): Promise<ServiceAccountStore> {
  const { location } = settings;
  if (location.kind === 'sqlite') {
    return openSqliteStore(location.path, {
      busyTimeoutMs: settings.mode === 'cli' ? BUSY_TIMEOUT_MS : 0,
    });
  }
  return openPostgresStore(location.url, {
    replicaId: settings.replicaId,
    poolMax: settings.poolMax,
    unreachable: settings.mode === 'serve' ? 'retry' : 'fail',
  });
}
