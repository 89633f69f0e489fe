import type { ViewerRole } from '../../domain';
import { endingInView, readEnding, type ViewedEnding } from '../../client/ending/read-ending';
import type { ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import type { RunFacts } from '../run-access';

export type { ViewedEnding } from '../../client/ending/read-ending';

/**
 * The ending of an ended run for the protocol doors (A2A, MCP, AG-UI), through the one gate
 * (`readEnding` then `endingInView`) with the caller's view (`view`: the identity's default
 * unless the door resolved one) and lens. `facts` must say the run has ended.
 */
export async function viewedEnding(
  ctx: ApiContext,
  identity: Identity,
  facts: RunFacts,
  view: ViewerRole = ctx.viewFor(identity, undefined),
): Promise<ViewedEnding> {
  const read = await readEnding(ctx.agents, facts.workflowId, facts.state);
  if (!read) throw new Error(`viewedEnding of run ${facts.workflowId}, which has not ended`);
  const lens = 'result' in read ? await ctx.lensFor?.(identity, view, facts) : undefined;
  return endingInView(read, view, lens);
}

/** How long a door waits for Temporal to close a run whose end event it has seen. */
const CLOSE_WAIT_MS = 30_000;

/**
 * `viewedEnding` of a run a door was told has ended (its stream's end event, a terminal task):
 * the end event can come before Temporal closes the run (the worker publishes it from the last
 * workflow task), so a run still open is waited for (one long poll, at most CLOSE_WAIT_MS), then
 * read again. `known`: the run's facts when the door has them.
 */
export async function closedRunEnding(
  ctx: ApiContext,
  identity: Identity,
  runId: string,
  options: { known?: RunFacts; view?: ViewerRole } = {},
): Promise<ViewedEnding> {
  let facts = options.known ?? (await ctx.accessRun(identity, runId));
  if (facts.state === 'running' || facts.state === 'continued') {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      ctx.agents
        .getHandle(runId)
        .result()
        .catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS))),
    ]);
    clearTimeout(timer);
    facts = await ctx.accessRun(identity, runId);
  }
  return viewedEnding(ctx, identity, facts, options.view);
}
