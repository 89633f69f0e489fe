import type { CacheHit, CacheRequest } from '../../domain';
import { similarity, textFingerprint } from '../../domain/text/similarity';
import { hitOf } from './cached-result';
import { cacheKey } from './cache-key';
import type { RunCache } from './run-cache';

/** Stored plans of a tenant scored per lookup: the newest this many (a bound on the work, not on the store). */
export const MAX_SIMILAR_PLAN_CANDIDATES = 200;

/**
 * The plan stored for the most similar goal at least `threshold` alike (text/similarity.ts over the
 * goal keys' words), with the same tools and tenant, within the time-to-live; ties go to the
 * newest. Its hit says how alike. Undefined when none is (or the store cannot be read). Worker side.
 */
export function lookupSimilarPlan(
  cache: RunCache,
  req: CacheRequest,
  goalKey: string,
  tools: readonly string[],
  threshold: number,
  now: () => number = Date.now,
): { value: unknown; hit: CacheHit } | undefined {
  const goal = textFingerprint(goalKey);
  let best: { key: string; alike: number } | undefined;
  for (const candidate of cache.latest('plan', req.tenant, req.ttlMs, MAX_SIMILAR_PLAN_CANDIDATES)) {
    // The same tools (and tenant) exactly: the entry's key is the one this name would have with this run's tools.
    if (cacheKey(req.tenant, 'plan', candidate.name, tools) !== candidate.key) continue;
    const alike = similarity(goal, textFingerprint(candidate.name));
    // Newest first: only a strictly more alike goal replaces the best, so ties keep the newest.
    if (alike >= threshold && (!best || alike > best.alike)) best = { key: candidate.key, alike };
  }
  if (!best) return undefined;
  const entry = cache.get(best.key, req.ttlMs);
  return entry && { value: entry.value, hit: { ...hitOf('plan', entry, now()), similarity: best.alike } };
}
