import type { CacheHit, CacheRequest } from '../../domain';
import { cacheKey, type CacheKind } from './cache-key';
import type { CachedEntry, RunCache } from './run-cache';

/**
 * A result of `kind` stored for this tenant and request within the run's time-to-live, with the
 * hit the chain records; undefined on a miss. Never throws: a request that has no key is a miss.
 */
export function lookupCached(
  cache: RunCache,
  req: CacheRequest,
  kind: CacheKind,
  name: string,
  request: unknown,
  now: () => number = Date.now,
): { value: unknown; hit: CacheHit } | undefined {
  let key: string;
  try {
    key = cacheKey(req.tenant, kind, name, request);
  } catch {
    return undefined;
  }
  const entry = cache.get(key, req.ttlMs);
  return entry && { value: entry.value, hit: hitOf(kind, entry, now()) };
}

/** The hit the chain records for an entry read at `at` (epoch ms): which run stored it, when, and how old it is. */
export function hitOf(kind: CacheKind, entry: CachedEntry, at: number): CacheHit {
  return {
    kind,
    fromRun: entry.fromRun.slice(0, 256),
    storedAt: new Date(entry.storedAt).toISOString(),
    ageMs: Math.max(0, Math.floor(at - entry.storedAt)),
  };
}

/** Stores a result for later runs of the same tenant; false when it is not kept (too big, no key, store down). */
export function storeCached(
  cache: RunCache,
  req: CacheRequest,
  kind: CacheKind,
  name: string,
  request: unknown,
  value: unknown,
  fromRun: string,
): boolean {
  let key: string;
  try {
    key = cacheKey(req.tenant, kind, name, request);
  } catch {
    return false;
  }
  return cache.put(key, value, fromRun, req.ttlMs, { kind, tenant: req.tenant, name });
}
