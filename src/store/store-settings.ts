import path from 'node:path';

/** Where the chain store lives: nowhere, an embedded SQLite file (one machine), or PostgreSQL (several servers). */
export type StoreSettings = { kind: 'off' } | { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** The store `serve` and `thoughtline store` keep when THOUGHTLINE_STORE is unset. */
export const DEFAULT_STORE_FILE = path.join('.thoughtline', 'store.sqlite');

/** Days the store keeps an ended run's chain by default, whatever Temporal's retention. */
export const DEFAULT_STORE_RETENTION_DAYS = 400;
export const MAX_STORE_RETENTION_DAYS = 3_650;

/** The forms THOUGHTLINE_STORE (and `--store`) accepts, for error messages. */
export const STORE_SETTING_FORMS =
  '"off", "sqlite:PATH" (or a path ending in .sqlite/.db), or "postgres://…" / "postgresql://…"';

/**
 * THOUGHTLINE_STORE (or `--store`) read once at the edge. One setting picks the store: unset means
 * the default SQLite file under `cwd`; `off` means none. Anything not positively recognised is
 * refused with the accepted forms, never guessed at.
 */
export function parseStoreSetting(value: string | undefined, cwd: string = process.cwd()): StoreSettings {
  const text = value?.trim() ?? '';
  if (text === '') return { kind: 'sqlite', file: path.resolve(cwd, DEFAULT_STORE_FILE) };
  if (text === 'off') return { kind: 'off' };
  if (text.startsWith('postgres://') || text.startsWith('postgresql://')) return { kind: 'postgres', url: text };
  if (text.startsWith('sqlite:')) {
    const file = text.slice('sqlite:'.length);
    if (file === '') throw new Error(`THOUGHTLINE_STORE "sqlite:" names no file; use ${STORE_SETTING_FORMS}.`);
    return { kind: 'sqlite', file: path.resolve(cwd, file) };
  }
  if (/\.(sqlite3?|db)$/.test(text)) return { kind: 'sqlite', file: path.resolve(cwd, text) };
  throw new Error(`THOUGHTLINE_STORE "${text}" is not a store; use ${STORE_SETTING_FORMS}.`);
}

/** THOUGHTLINE_STORE_RETENTION_DAYS: a whole number of days from 1 to 3,650 (default 400). */
export function parseStoreRetentionDays(value: string | undefined): number {
  const text = value?.trim() ?? '';
  if (text === '') return DEFAULT_STORE_RETENTION_DAYS;
  const days = Number(text);
  if (!Number.isInteger(days) || days < 1 || days > MAX_STORE_RETENTION_DAYS)
    throw new Error(
      `THOUGHTLINE_STORE_RETENTION_DAYS must be a whole number of days from 1 to ${MAX_STORE_RETENTION_DAYS}; got "${text}".`,
    );
  return days;
}
