import fs from 'node:fs';
import type { CacheKind } from './cache-key';
import { openRunCacheDatabase } from './sqlite-run-cache';

/*
 * A person's review of a worker's run cache (`thoughtline cache list|delete`): the entries one
 * tenant's runs stored (runs without a tenant by default), with the run that stored each and when,
 * and forgetting one or all. Node side; reads the SQLite file the worker writes. Entries stored
 * before entries were labelled have no tenant on record: they are never listed, and expire with
 * their time-to-live (at most 7 days).
 */

/** Entries one listing returns, newest first. */
export const MAX_LISTED_CACHE_ENTRIES = 500;

/** Whose entries: a tenant's, or (no `tenant`) those of runs without one; of one kind, or all. */
export interface CacheOwner {
  tenant?: string | undefined;
  kind?: CacheKind | undefined;
}

export interface CacheEntrySummary {
  key: string;
  kind: CacheKind;
  /** The tool's name, the model provider's, or a plan's goal key. */
  name: string;
  tenant?: string;
  fromRun: string;
  storedAt: string;
  expiresAt: string;
  bytes: number;
  /** The stored plan, for an entry of kind `plan` (what a later run reads quoted). */
  plan?: unknown;
}

interface Row {
  key: string;
  kind: CacheKind;
  name: string;
  tenant: string;
  from_run: string;
  stored_at: number;
  expires_at: number;
  bytes: number;
  value: string | null;
}

const WHERE = 'kind IS NOT NULL AND tenant = ? AND (? IS NULL OR kind = ?) AND expires_at > ?';

/** The owner's live entries, newest first; none when the file does not exist. */
export function listRunCache(file: string, owner: CacheOwner, now: number = Date.now()): CacheEntrySummary[] {
  if (!fs.existsSync(file)) return [];
  const db = openRunCacheDatabase(file, 1_000);
  try {
    const rows = db
      .prepare(
        `SELECT key, kind, name, tenant, from_run, stored_at, expires_at, bytes,
           CASE WHEN kind = 'plan' THEN value END AS value
         FROM run_cache WHERE ${WHERE} ORDER BY stored_at DESC, key ASC LIMIT ?`,
      )
      .all(...params(owner, now), MAX_LISTED_CACHE_ENTRIES) as unknown as Row[];
    return rows.map((r) => ({
      key: r.key,
      kind: r.kind,
      name: r.name,
      ...(r.tenant !== '' ? { tenant: r.tenant } : {}),
      fromRun: r.from_run,
      storedAt: new Date(r.stored_at).toISOString(),
      expiresAt: new Date(r.expires_at).toISOString(),
      bytes: r.bytes,
      ...(r.value !== null ? { plan: JSON.parse(r.value) as unknown } : {}),
    }));
  } finally {
    db.close();
  }
}

/** Forgets the owner's entries with these keys, or all of them; how many went. A key of another owner is left alone. */
export function forgetRunCache(
  file: string,
  owner: CacheOwner,
  which: { keys: readonly string[] } | { all: true },
  now: number = Date.now(),
): number {
  if (!fs.existsSync(file)) return 0;
  const db = openRunCacheDatabase(file, 1_000);
  try {
    if ('all' in which)
      return Number(db.prepare(`DELETE FROM run_cache WHERE ${WHERE}`).run(...params(owner, now)).changes);
    const one = db.prepare(`DELETE FROM run_cache WHERE key = ? AND ${WHERE}`);
    let gone = 0;
    for (const key of new Set(which.keys)) gone += Number(one.run(key, ...params(owner, now)).changes);
    return gone;
  } finally {
    db.close();
  }
}

const params = (owner: CacheOwner, now: number): Array<string | number | null> => [
  owner.tenant ?? '',
  owner.kind ?? null,
  owner.kind ?? null,
  now,
];
