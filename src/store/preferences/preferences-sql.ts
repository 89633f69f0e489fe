import type { ViewerPreferences } from '../../shared/visibility';
import type { SqlExecutor } from '../sql-driver';
import type { StoreTables } from '../store-schema';

/** A person's saved preferences, or undefined when none are saved (or what is saved no longer parses). */
export async function readPreferences(
  db: SqlExecutor,
  tables: StoreTables,
  identityId: string,
): Promise<ViewerPreferences | undefined> {
  void db;
  void tables;
  void identityId;
  throw new Error('readPreferences: not built yet (issue 51 contract).');
}

/** Replaces a person's saved preferences. */
export async function writePreferences(
  db: SqlExecutor,
  tables: StoreTables,
  identityId: string,
  preferences: ViewerPreferences,
  now: Date,
): Promise<void> {
  void db;
  void tables;
  void identityId;
  void preferences;
  void now;
  throw new Error('writePreferences: not built yet (issue 51 contract).');
}
