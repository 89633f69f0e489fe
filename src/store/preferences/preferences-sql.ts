import { ViewerPreferences } from '../../domain/visibility';
import type { SqlExecutor } from '../sql/sql-driver';
import type { StoreTables } from '../sql/store-schema';

/**
 * A person's saved preferences, or undefined when none are saved. A row that no longer parses (a
 * field renamed since, a hand edit) reads as none: a person then sees their role's view, which a
 * preference could only have narrowed.
 */
export async function readPreferences(
  db: SqlExecutor,
  tables: StoreTables,
  identityId: string,
): Promise<ViewerPreferences | undefined> {
  const rows = await db.query(`SELECT preferences_json FROM ${tables.preferences} WHERE identity_id = ?`, [identityId]);
  const text = rows[0]?.preferences_json;
  if (typeof text !== 'string') return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = ViewerPreferences.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Replaces a person's saved preferences (one row per identity id). */
export async function writePreferences(
  db: SqlExecutor,
  tables: StoreTables,
  identityId: string,
  preferences: ViewerPreferences,
  now: Date,
): Promise<void> {
  const json = JSON.stringify(ViewerPreferences.parse(preferences));
  await db.run(
    `INSERT INTO ${tables.preferences} (identity_id, preferences_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (identity_id) DO UPDATE SET preferences_json = excluded.preferences_json, updated_at = excluded.updated_at`,
    [identityId, json, now.toISOString()],
  );
}
