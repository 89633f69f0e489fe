import type { AgentStatus } from '../../domain';
import type { ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import { liveRead } from '../live-read';
import { statusInLens } from '../policy/apply-lens';
import type { RunFacts } from '../run-access';

/**
 * The status of a running run for the protocol doors, through the one gate: the `status` query in
 * the caller's default view (viewStatus), then narrowed by their lens (the policy's tenant fields,
 * hidden calls, sub-agents), as GET /v1/runs/{id} shows it. A live read, bounded by the server's
 * query timeout. `facts` from `ctx.accessRun` for this caller.
 */
export async function viewedStatus(ctx: ApiContext, identity: Identity, facts: RunFacts): Promise<AgentStatus> {
  const view = ctx.viewFor(identity, undefined);
  const [raw, lens] = await Promise.all([
    liveRead(() => ctx.agents.status(facts.workflowId, view), ctx.queryTimeoutMs),
    ctx.lensFor?.(identity, view, facts),
  ]);
  return statusInLens(raw, view, lens);
}
