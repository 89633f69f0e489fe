import { z } from 'zod';

/** The longest a cached entry may live: a week. */
export const MAX_CACHE_TTL_MS = 7 * 24 * 3_600_000;
export const MAX_CACHED_TOOLS = 64;

/**
 * Opt-in reuse across runs (seed 002's and 003's caching): tool results, model replies and plans,
 * keyed by the request (and the run's tenant, never shared across tenants), for `ttlMs`. A hit is
 * a visible step saying which run stored it and how old it is.
 */
export const RunCacheSettings = z.object({
  ttlMs: z.number().int().positive().max(MAX_CACHE_TTL_MS).default(3_600_000),
  /** Tools whose results may be reused; a tool not named here always runs. */
  tools: z.array(z.string().min(1).max(128)).max(MAX_CACHED_TOOLS).default([]),
  /** Reuse model replies to the same request. */
  model: z.boolean().default(false),
  /** Reuse the plan made for a similar goal with the same tools. */
  plans: z.boolean().default(false),
});
export type RunCacheSettings = z.infer<typeof RunCacheSettings>;
