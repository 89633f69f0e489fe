import type { ViewerRole } from '../../domain';
import type { RunSearch, RunSearchResult } from '../../domain/store';
import type { ChainStore } from '../../store/chain-store';
import { hitsInLens } from '../../client/store/hits-in-lens';
import type { ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import { storedTarget } from '../routes/store-read';

/**
 * A search's hits as the caller's lens allows, run by run (each run's agent and tenant make its
 * lens, with the caller's preferences unless `details`). Without a policy or preferences, the hits as found.
 */
export async function searchInLens(
  ctx: ApiContext,
  store: ChainStore,
  identity: Identity,
  role: ViewerRole,
  search: RunSearch,
  found: RunSearchResult,
  details: boolean,
): Promise<RunSearchResult> {
  return hitsInLens(store, role, search, found, async (run) =>
    ctx.lensFor?.(identity, role, storedTarget(run), { details }),
  );
}
