import type { ReasoningChain, ViewerRole } from '../../domain';
import type { StoredRun } from '../../domain/store';
import { isImportRunId, type ChainSource } from '../../domain/store';
import { readStoredPage, type StoredPage, type StoredPageRequest } from '../../client/store/read-stored-chain';
import { filterChainSteps } from '../../client/store/step-filter-match';
import { ApiError } from '../api-error';
import type { ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import { liveRead } from '../live-read';
import { runNotFound } from '../run-access';
import type { LensTarget } from '../policy/lens-for';

/** A chain read answered from the store, or why it was not (then the caller reads Temporal). */
export type StoreAnswer = { page: StoredPage; source: ChainSource } | { page?: undefined; source: ChainSource };

/** `source` as the chain routes take it. */
export type SourceAsked = 'store' | 'temporal' | 'auto';

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Reads `runId` from the store in `role`'s view when there is one and the request allows it. The
 * tenant is checked on the stored row (another tenant's run is the same 404 as an unknown one,
 * before anything of it is sent). A store that throws is named in `storeUnavailable`, and the
 * caller answers from Temporal; a store without the run, or behind on it, is not an error.
 * The id spaces never mix (isImportRunId): an import's id (`import:…`) is answered from an
 * imported row or is a 404 (503 when the store fails), never from Temporal; any other id is never
 * answered from an imported row, so a live run always reads as itself.
 */
export async function readFromStore(
  ctx: ApiContext,
  identity: Identity,
  runId: string,
  role: ViewerRole,
  source: SourceAsked,
  request: StoredPageRequest,
): Promise<StoreAnswer> {
  const temporal: ChainSource = { source: 'temporal' };
  const importId = isImportRunId(runId);
  if (!ctx.store || source === 'temporal') {
    if (importId) throw runNotFound();
    return { source: temporal };
  }
  let page;
  try {
    page = await readStoredPage(ctx.store, runId, role, request);
  } catch (err) {
    if (importId)
      throw new ApiError('unavailable', `The chain store (${ctx.store.kind}) could not be read now; retry shortly.`);
    return {
      source: {
        ...temporal,
        storeUnavailable: `The chain store (${ctx.store.kind}) could not be read (${message(err)}); answered from Temporal.`,
      },
    };
  }
  if (importId !== (page?.run.imported !== undefined)) page = undefined;
  if (!page) {
    if (importId) throw runNotFound();
    return { source: temporal };
  }
  if ((page.run.tenant ?? null) !== (identity.tenant ?? null)) throw runNotFound();
  return {
    page,
    source: {
      source: 'store',
      storedThroughStep: page.run.lastStep,
      ...(page.run.temporalGone ? { storeOnly: true } : {}),
      ...(page.run.imported ? { imported: page.run.imported } : {}),
    },
  };
}

/** What a lens needs of a stored run: its agent, tenant and parent. */
export const storedTarget = (run: StoredRun): LensTarget => ({
  agentName: run.agentName,
  ...(run.tenant ? { tenant: run.tenant } : {}),
  ...(run.parentRunId ? { parentRunId: run.parentRunId } : {}),
});

/**
 * The whole chain in `role`'s view from the store when it can answer, else from Temporal (tenant
 * checked either way), with the run a lens is made for.
 */
export async function readWholeChain(
  ctx: ApiContext,
  identity: Identity,
  runId: string,
  role: ViewerRole,
  source: SourceAsked,
): Promise<{ chain: ReasoningChain; source: ChainSource; target: LensTarget }> {
  const stored = await readFromStore(ctx, identity, runId, role, source, {});
  if (stored.page) return { chain: stored.page.chain, source: stored.source, target: storedTarget(stored.page.run) };
  const target = await ctx.accessRun(identity, runId);
  const chain = await liveRead(() => ctx.agents.chain(runId, role), ctx.queryTimeoutMs);
  return { chain, source: stored.source, target };
}

/**
 * The whole chain in `role`'s view after `readFromStore` answered `stored`: from the store when it
 * answered (and still does), else from Temporal. The caller has checked the run is theirs.
 */
export async function wholeChainAfterStore(
  ctx: ApiContext,
  runId: string,
  role: ViewerRole,
  stored: StoreAnswer,
): Promise<ReasoningChain> {
  if (stored.page && ctx.store) {
    const whole = await readStoredPage(ctx.store, runId, role, {}).catch(() => undefined);
    if (whole) return whole.chain;
  }
  if (isImportRunId(runId)) throw runNotFound();
  return liveRead(() => ctx.agents.chain(runId, role), ctx.queryTimeoutMs);
}

type PageRequest = Required<Pick<StoredPageRequest, 'afterStep' | 'limit'>> & Pick<StoredPageRequest, 'filter'>;

/** A page of a whole chain (in a view), filtered as the store's would be, counted as the chain route counts it. */
export function pageOfChain(
  whole: ReasoningChain,
  request: PageRequest,
): { chain: ReasoningChain; totalSteps: number; nextAfterStep?: number } {
  const chain = filterChainSteps(whole, request.filter);
  const after = chain.steps.filter((step) => step.stepNumber > request.afterStep);
  const page = after.slice(0, request.limit);
  const more = after.length > page.length;
  return {
    chain: { ...chain, steps: page },
    totalSteps: chain.steps.length,
    ...(more ? { nextAfterStep: page[page.length - 1]!.stepNumber } : {}),
  };
}
