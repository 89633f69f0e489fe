import type { ViewerRole } from '../../domain';
import { resolveViewLens, type ViewLens, type ViewerPreferences } from '../../domain/visibility';
import type { LoadedPolicy } from '../../governance';
import type { ChainStore } from '../../store/chain-store';
import type { Identity } from '../auth/identity';
import { preferencesKey } from './preferences-key';

/** The run a lens is made for: its agent, tenant, and parent when it is a sub-agent's own run. */
export interface LensTarget {
  /** The run's `agentName` (absent only where a context knows no more than the run's tenant). */
  agentName?: string;
  tenant?: string;
  /** Set when the run was started by another run (a sub-agent's own run). */
  parentRunId?: string;
}

/** Makes the lens for one viewer of one run; undefined means today's views exactly (no policy, no preferences). */
export type LensFor = (
  identity: Identity,
  view: ViewerRole,
  target: LensTarget,
  options?: { details?: boolean },
) => Promise<ViewLens | undefined>;

/**
 * The server's one way to a lens: the policy `serve` loaded, the run's agent and tenant, this
 * deployment, and the person's saved preferences unless they asked for details (`?details=true`
 * drops the preference layer, never the policy). A store that cannot be read costs the
 * preferences, never the policy: preferences only ever narrow.
 */
export function createLensFor(
  loaded: LoadedPolicy | undefined,
  store: ChainStore | undefined,
  log: (line: string) => void,
): LensFor {
  return async (identity, view, target, options = {}) => {
    const preferences = options.details ? undefined : await readPreferences(store, identity, log);
    if (!loaded && !preferences) return undefined;
    return resolveViewLens(loaded?.policy, {
      view,
      ...(target.agentName ? { agent: target.agentName } : {}),
      ...(target.tenant ? { tenant: target.tenant } : {}),
      ...(loaded?.deployment ? { deployment: loaded.deployment } : {}),
      ...(preferences ? { preferences } : {}),
    });
  };
}

async function readPreferences(
  store: ChainStore | undefined,
  identity: Identity,
  log: (line: string) => void,
): Promise<ViewerPreferences | undefined> {
  if (!store) return undefined;
  try {
    return await store.readPreferences(preferencesKey(identity));
  } catch (err) {
    log(`viewer preferences of ${identity.id} could not be read (${(err as Error).message}); showing the role's view`);
    return undefined;
  }
}
