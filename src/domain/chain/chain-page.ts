import type { ReasoningChain } from './chain';

/** Most steps one page of the `chain` query may ask for. */
export const MAX_CHAIN_PAGE_STEPS = 5_000;

/** A page of a chain: the steps numbered after `afterStep` (default 0), at most `limit` of them (default all). */
export interface ChainPage {
  afterStep?: number;
  limit?: number;
}

/**
 * Reads a page from a query argument: absent means the whole chain. Anything else that is not
 * exactly a page (unknown keys, fractions, negative or oversized numbers) is refused with the reason.
 */
export function queryPage(value: unknown): ChainPage | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new Error('A chain page must be an object { afterStep?, limit? }.');
  const page: ChainPage = {};
  for (const [key, raw] of Object.entries(value)) {
    if (key !== 'afterStep' && key !== 'limit')
      throw new Error(`A chain page has no "${key}"; it takes afterStep and limit.`);
    if (raw === undefined) continue;
    const min = key === 'limit' ? 1 : 0;
    const max = key === 'limit' ? MAX_CHAIN_PAGE_STEPS : Number.MAX_SAFE_INTEGER;
    if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max)
      throw new Error(`A chain page's ${key} must be a whole number from ${min} to ${max}.`);
    page[key] = raw;
  }
  return page;
}

/** The chain with only the page's steps (every other field as it is). */
export function chainPage(chain: ReasoningChain, page: ChainPage | undefined): ReasoningChain {
  if (!page) return chain;
  const after = page.afterStep ?? 0;
  const from = chain.steps.findIndex((s) => s.stepNumber > after);
  const steps = from < 0 ? [] : chain.steps.slice(from, page.limit === undefined ? undefined : from + page.limit);
  return { ...chain, steps };
}
