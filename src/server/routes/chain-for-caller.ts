import type { ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import { chainInLens, subChainShown, withoutSteps } from '../policy/apply-lens';
import { readWholeChain } from './store-read';

/**
 * The whole chain in the caller's view, narrowed by their lens (a sub-agent shown as its summary
 * has no steps), from the store when it has the run, else from Temporal: what the summary, the
 * timeline and a comparison of two runs read.
 */
export async function chainForCaller(
  ctx: ApiContext,
  identity: Identity,
  runId: string,
  query: { view?: string | undefined; source: 'store' | 'temporal' | 'auto'; details: boolean },
) {
  const view = ctx.viewFor(identity, query.view);
  const { chain, source, target } = await readWholeChain(ctx, identity, runId, view, query.source);
  const lens = await ctx.lensFor?.(identity, view, target, { details: query.details });
  const shown = subChainShown(lens, target);
  const viewed = chainInLens(chain, view, lens);
  return { chain: shown === 'summary' ? withoutSteps(viewed) : viewed, source, view };
}
