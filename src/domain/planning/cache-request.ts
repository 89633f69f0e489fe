import { z } from 'zod';
import { MAX_CACHE_TTL_MS, type RunCacheSettings } from './run-cache-settings';
import { runTenant } from './run-tenant';

/** What of a run's input caching reads (AgentInput's fields, named here so tool-spec.ts can import this file without a cycle). */
export interface CachingInput {
  caller?: { tenant?: string | undefined } | undefined;
  cache?: RunCacheSettings | undefined;
}

/** What of a tool's spec or definition caching reads. */
export interface CachingTool {
  name: string;
  type: string;
  effects?: string | undefined;
}

/**
 * What a call carries when its run lets the worker reuse a stored result (`cache` in AgentInput):
 * whose entries it may read and write, and the oldest entry it accepts. Absent on every call of a
 * run without `cache`, so those calls record what they always did.
 */
export const CacheRequest = z.object({
  /** The run's tenant; absent for a run without one, which is not the tenant called `default` (cache-key.ts). */
  tenant: z.string().min(1).max(256).optional(),
  ttlMs: z.number().int().positive().max(MAX_CACHE_TTL_MS),
});
export type CacheRequest = z.infer<typeof CacheRequest>;

const withTenant = (input: CachingInput, ttlMs: number): CacheRequest => {
  const tenant = runTenant(input);
  return tenant === undefined ? { ttlMs } : { tenant, ttlMs };
};

/**
 * Why a tool's results are never reused, or undefined when they may be. A `once` tool changes the
 * world on each call (a payment, an email): reusing its result would skip the effect. An `llm` tool
 * is charged to the run by the workflow from its result, and model replies have their own switch
 * (`cache.model`). Any other tool the run lists is the run's statement that its result may be reused.
 */
export function uncacheableReason(spec: Omit<CachingTool, 'name'>): string | undefined {
  if (spec.effects === 'once') return "its effects are 'once' (each call changes something)";
  if (spec.type === 'llm') return "it is an 'llm' tool (model replies are cached with cache.model)";
  return undefined;
}

/** What a call of this tool carries for the worker's cache, or undefined when the run does not cache it. */
export function toolCacheRequest(input: CachingInput, spec: CachingTool): CacheRequest | undefined {
  const cache = input.cache;
  if (!cache || !cache.tools.includes(spec.name) || uncacheableReason(spec)) return undefined;
  return withTenant(input, cache.ttlMs);
}

/** What a model call carries for the worker's cache, or undefined when the run does not cache model replies. */
export function modelCacheRequest(input: CachingInput): CacheRequest | undefined {
  const cache = input.cache;
  return cache?.model ? withTenant(input, cache.ttlMs) : undefined;
}

/** What a plan lookup carries, or undefined when the run does not reuse plans. */
export function planCacheRequest(input: CachingInput): CacheRequest | undefined {
  const cache = input.cache;
  return cache?.plans ? withTenant(input, cache.ttlMs) : undefined;
}
