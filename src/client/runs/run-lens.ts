import type { LoadedPolicy } from '../../governance/load-visibility-policy';
import type { ViewerRole } from '../../domain';
import { resolveViewLens, type ViewLens } from '../../domain/visibility/view-lens';

/** What a reader knows of a run to resolve the policy for it: its agent and tenant. */
export interface RunIdentity {
  agentName?: string;
  tenant?: string;
}

/** The lens for one run in one view, or undefined when there is no policy (today's views exactly). */
export type LensOfRun = (run: RunIdentity, role: ViewerRole) => ViewLens | undefined;

/** The lens maker for a loaded policy: each read resolves it for the run's agent and tenant. */
export function lensOfPolicy(loaded: LoadedPolicy | undefined): LensOfRun {
  return (run, role) =>
    loaded
      ? resolveViewLens(loaded.policy, {
          view: role,
          ...(run.agentName !== undefined ? { agent: run.agentName } : {}),
          ...(run.tenant !== undefined ? { tenant: run.tenant } : {}),
          ...(loaded.deployment !== undefined ? { deployment: loaded.deployment } : {}),
        })
      : undefined;
}

/** A chain's (or a chain head's) agent and tenant. */
export const identityOfChain = (chain: { agentName: string; caller?: { tenant?: string } }): RunIdentity => ({
  agentName: chain.agentName,
  ...(chain.caller?.tenant !== undefined ? { tenant: chain.caller.tenant } : {}),
});
