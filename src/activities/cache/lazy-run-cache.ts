import type { RunCache } from './run-cache';

/**
 * A RunCache opened on its first use, so a worker whose runs never ask for caching never creates
 * its file. A store that fails to open is reported once, and every call is then a miss (the calls
 * run as if uncached); it is not tried again until the worker restarts.
 */
export function lazyRunCache(open: () => RunCache, onError: (err: unknown) => void = () => {}): RunCache {
  let cache: RunCache | undefined;
  let failed = false;
  const opened = (): RunCache | undefined => {
    if (cache || failed) return cache;
    try {
      cache = open();
    } catch (err) {
      failed = true;
      onError(err);
    }
    return cache;
  };
  return {
    get: (key, maxAgeMs) => opened()?.get(key, maxAgeMs),
    put: (key, value, fromRun, ttlMs, label) => opened()?.put(key, value, fromRun, ttlMs, label) ?? false,
    latest: (kind, tenant, maxAgeMs, limit) => opened()?.latest(kind, tenant, maxAgeMs, limit) ?? [],
    deleteExpired: () => opened()?.deleteExpired() ?? 0,
    close: () => cache?.close(),
  };
}
