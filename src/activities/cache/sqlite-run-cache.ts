import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { loadNodeSqlite } from './load-node-sqlite';
import {
  DEFAULT_MAX_CACHE_BYTES,
  DEFAULT_MAX_CACHE_ENTRIES,
  MAX_CACHED_VALUE_BYTES,
  type CacheLabel,
  type CachedEntry,
  type RunCache,
} from './run-cache';

/** The run cache's file: the one configured (THOUGHTLINE_CACHE_FILE, `cacheFile`), else `.thoughtline/cache.sqlite` under the working directory. */
export function runCacheFile(configured: string | undefined): string {
  return configured ?? path.join(process.cwd(), '.thoughtline', 'cache.sqlite');
}

export interface SqliteRunCacheOptions {
  /** Epoch milliseconds; injected by tests. Default Date.now. */
  now?: () => number;
  /** Entries kept; past it the oldest go. Default DEFAULT_MAX_CACHE_ENTRIES. */
  maxEntries?: number;
  /** Bytes of values kept; past it the oldest go. Default DEFAULT_MAX_CACHE_BYTES. */
  maxBytes?: number;
  /** Largest value kept. Default MAX_CACHED_VALUE_BYTES. */
  maxValueBytes?: number;
  /** How long a query waits for another worker's write to finish before it counts as a miss. Default 1 s. */
  busyTimeoutMs?: number;
  /** Told when the store cannot be read or written (the call then runs as if uncached). Default silent. */
  onError?: (err: unknown) => void;
}

/**
 * A RunCache in one SQLite file (Node's built-in `node:sqlite`, nothing to compile). In WAL mode,
 * so the workers of one machine share it: readers never wait for a writer, and a writer waits at
 * most `busyTimeoutMs` for another, after which the call is simply not cached. Queries run on the
 * activity's thread: each is a lookup or write of one row by its primary key, with values bounded
 * to 256 KiB, so its deadline is the busy timeout (a worker thread per query, as the SQL tool's
 * arbitrary queries need, would cost more than the lookup).
 */
export function openSqliteRunCache(file: string, options: SqliteRunCacheOptions = {}): RunCache {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_CACHE_ENTRIES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_CACHE_BYTES;
  const maxValueBytes = options.maxValueBytes ?? MAX_CACHED_VALUE_BYTES;
  const onError = options.onError ?? (() => {});
  const db = openRunCacheDatabase(file, options.busyTimeoutMs ?? 1_000);
  const select = db.prepare(
    'SELECT value, from_run, stored_at FROM run_cache WHERE key = ? AND expires_at > ? AND stored_at >= ?',
  );
  const upsert = db.prepare(
    `INSERT INTO run_cache (key, value, bytes, from_run, stored_at, expires_at, kind, tenant, name)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, bytes = excluded.bytes,
       from_run = excluded.from_run, stored_at = excluded.stored_at, expires_at = excluded.expires_at,
       kind = excluded.kind, tenant = excluded.tenant, name = excluded.name`,
  );
  const labelled = db.prepare(
    `SELECT key, name, stored_at FROM run_cache WHERE kind = ? AND tenant = ? AND expires_at > ? AND stored_at >= ?
     ORDER BY stored_at DESC, key DESC LIMIT ?`,
  );
  const expired = db.prepare('DELETE FROM run_cache WHERE expires_at <= ?');
  const totals = db.prepare('SELECT COUNT(*) AS entries, COALESCE(SUM(bytes), 0) AS bytes FROM run_cache');
  const oldest = db.prepare(
    'DELETE FROM run_cache WHERE key IN (SELECT key FROM run_cache ORDER BY stored_at ASC, key ASC LIMIT ?)',
  );

  return {
    get(key, maxAgeMs) {
      try {
        const at = now();
        const row = select.get(key, at, at - maxAgeMs) as
          { value: string; from_run: string; stored_at: number } | undefined;
        if (!row) return undefined;
        const entry: CachedEntry = { value: JSON.parse(row.value), fromRun: row.from_run, storedAt: row.stored_at };
        return entry;
      } catch (err) {
        onError(err);
        return undefined;
      }
    },
    put(key, value, fromRun, ttlMs, label) {
      try {
        const json = JSON.stringify(value);
        if (json === undefined) return false;
        const bytes = Buffer.byteLength(json, 'utf8');
        if (bytes > maxValueBytes || bytes > maxBytes) return false;
        const at = now();
        db.exec('BEGIN IMMEDIATE');
        try {
          expired.run(at);
          upsert.run(key, json, bytes, fromRun, at, at + ttlMs, ...labelColumns(label));
          evict(totals, oldest, maxEntries, maxBytes);
          db.exec('COMMIT');
        } catch (err) {
          db.exec('ROLLBACK');
          throw err;
        }
        return true;
      } catch (err) {
        onError(err);
        return false;
      }
    },
    latest(kind, tenant, maxAgeMs, limit) {
      try {
        const at = now();
        const rows = labelled.all(kind, tenant ?? '', at, at - maxAgeMs, Math.max(0, Math.floor(limit))) as Array<{
          key: string;
          name: string;
          stored_at: number;
        }>;
        return rows.map((r) => ({ key: r.key, name: r.name, storedAt: r.stored_at }));
      } catch (err) {
        onError(err);
        return [];
      }
    },
    deleteExpired() {
      try {
        return Number(expired.run(now()).changes);
      } catch (err) {
        onError(err);
        return 0;
      }
    },
    close() {
      if (db.isOpen) db.close();
    },
  };
}

/**
 * The cache's database, its table made or brought up to date: the label columns (kind, tenant,
 * name) came later, so a file made before has them added, NULL on its older rows. Shared by the
 * worker's cache and the CLI's review of it (run-cache-review.ts).
 */
export function openRunCacheDatabase(file: string, busyTimeoutMs: number): DatabaseSync {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db: DatabaseSync = new (loadNodeSqlite(`The run cache at ${file}`).DatabaseSync)(file);
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  db.exec('PRAGMA journal_mode = WAL');
  // A cache may lose its last writes on a power cut (never its consistency, in WAL mode): no fsync per write.
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS run_cache (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    from_run TEXT NOT NULL,
    stored_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  )`);
  const columns = new Set(
    (db.prepare('PRAGMA table_info(run_cache)').all() as Array<{ name: string }>).map((c) => c.name),
  );
  // tenant: the storing run's, '' for a run without one (never a tenant's name: runTenant reads '' as none).
  for (const column of ['kind', 'tenant', 'name'])
    if (!columns.has(column)) db.exec(`ALTER TABLE run_cache ADD COLUMN ${column} TEXT`);
  // With `bytes`, the bound check after each write (COUNT, SUM of bytes) reads this index, not every value.
  db.exec('CREATE INDEX IF NOT EXISTS run_cache_stored_at ON run_cache (stored_at, bytes)');
  db.exec('CREATE INDEX IF NOT EXISTS run_cache_expires_at ON run_cache (expires_at)');
  // A similar-goal lookup reads a tenant's newest plans by label (RunCache.latest).
  db.exec('CREATE INDEX IF NOT EXISTS run_cache_label ON run_cache (kind, tenant, stored_at)');
  return db;
}

/** The label's columns (kind, tenant, name): NULL when an entry has none, '' for the tenant of a run without one. */
function labelColumns(label: CacheLabel | undefined): [string | null, string | null, string | null] {
  return label ? [label.kind, label.tenant ?? '', label.name.slice(0, 1_000)] : [null, null, null];
}

/** Deletes the oldest entries until the table is within both bounds. */
function evict(totals: StatementSync, oldest: StatementSync, maxEntries: number, maxBytes: number): void {
  for (;;) {
    const { entries, bytes } = totals.get() as { entries: number; bytes: number };
    if (entries <= maxEntries && bytes <= maxBytes) return;
    // Past the entry bound, all the surplus at once; past the byte bound only, one at a time.
    oldest.run(Math.max(1, entries - maxEntries));
  }
}
