/** Placeholder until the Postgres store lands. */
import type { ServiceAccountStore } from './store.js';

export interface PostgresStoreOptions {
  readonly replicaId: string;
  readonly poolMax?: number;
  readonly unreachable?: 'retry' | 'fail';
}

export function openPostgresStore(
  _url: string,
  _options: PostgresStoreOptions,
): Promise<ServiceAccountStore> {
  return Promise.reject(new Error('not yet'));
}
