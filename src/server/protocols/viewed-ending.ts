import type { AgentResult, ViewerRole } from '../../shared';
import { viewResult } from '../../shared/chain-view';
import { runEnding, type RunEnding } from '../../shared/run-ending';
import { redactSecrets } from '../../shared/secret-patterns';
import { messageWithCauses } from '../../client/read-error-text';
import type { ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import type { RunFacts } from '../run-access';

/** An ended run as one caller may see it: its result in their view and lens (when it has one), and its ending. */
export interface ViewedEnding {
  ending: RunEnding;
  /** The result through `viewResult`; absent when Temporal ended the run without one. */
  result?: AgentResult;
}

/**
 * The ending of an ended run for the protocol doors (A2A, MCP, AG-UI): its result read from
 * history, passed through the caller's view and lens (`view`: the identity's default unless the
 * door resolved one), then `runEnding`; a run Temporal failed, cancelled, terminated or timed out
 * without a result speaks through Temporal's word and its failure message, redacted.
 * `facts` must say the run has ended (not running or continued).
 */
export async function viewedEnding(
  ctx: ApiContext,
  identity: Identity,
  facts: RunFacts,
  view: ViewerRole = ctx.viewFor(identity, undefined),
): Promise<ViewedEnding> {
  const handle = ctx.agents.getHandle(facts.workflowId);
  if (facts.state === 'completed') {
    const lens = await ctx.lensFor?.(identity, view, facts);
    const result = viewResult(await handle.result(), view, lens);
    return { ending: runEnding({ result }), result };
  }
  const execution = facts.state;
  if (execution === 'running' || execution === 'continued')
    throw new Error(`viewedEnding of run ${facts.workflowId}, which has not ended`);
  const failure = await handle.result().then(
    () => undefined,
    (err: unknown) => String(redactSecrets(messageWithCauses(err), [])),
  );
  return { ending: runEnding({ execution, ...(failure ? { failure } : {}) }) };
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
