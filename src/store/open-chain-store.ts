import type { ChainStore } from './chain-store';
import { openPostgresDriver } from './sql/postgres-driver';
import { SqlChainStore, type SqlChainStoreOptions } from './sql/sql-chain-store';
import { openSqliteDriver } from './sql/sqlite-driver';
import type { StoreSettings } from './store-settings';

/**
 * The store `settings` name, opened and migrated: undefined when the store is off. A SQLite file's
 * folder is created. Rejects when the database cannot be reached or migrated (the caller decides
 * whether that stops it: a store is never the source of truth).
 */
export async function openChainStore(
  settings: StoreSettings,
  options: SqlChainStoreOptions = {},
): Promise<ChainStore | undefined> {
  if (settings.kind === 'off') return undefined;
  const driver = settings.kind === 'sqlite' ? openSqliteDriver(settings.file) : openPostgresDriver(settings.url);
  const store = new SqlChainStore(driver, options);
  try {
    await store.migrate();
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}
