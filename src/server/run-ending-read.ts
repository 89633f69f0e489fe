import { StatusAttribute, type AgentResult, type ViewerRole } from '../shared';
import { viewResult } from '../shared/chain-view';
import { runEnding, type RunEnding } from '../shared/run-ending';
import { redactSecrets } from '../shared/secret-patterns';
import { TerminationReason } from '../shared/termination';
import type { ViewLens } from '../shared/visibility';
import type { AgentClient } from '../client/agent-client';
import { runStateOf, type RunState } from './run-access';

/** What the server read of an ended run, raw: its result, or Temporal's word when it gave none. Never sent as is. */
export type EndingRead =
  { result: AgentResult } | { execution: 'failed' | 'cancelled' | 'terminated' | 'timed_out'; failure?: string };

/**
 * Reads how a run in `state` ended: its result (observations put back) when it completed, else
 * Temporal's failure message; undefined while it runs. One history read, no worker.
 */
export async function readEnding(
  agents: AgentClient,
  workflowId: string,
  state: RunState,
): Promise<EndingRead | undefined> {
  if (state === 'running' || state === 'continued') return undefined;
  if (state === 'completed') return { result: await agents.result(workflowId) };
  const failure = await agents
    .getHandle(workflowId)
    .result()
    .then(
      () => undefined,
      (err: unknown) => causeMessage(err),
    );
  return { execution: state, ...(failure ? { failure } : {}) };
}

/** The innermost message of a Temporal failure ("Workflow execution failed" says nothing). */
function causeMessage(err: unknown): string | undefined {
  let at: unknown = err;
  while (at instanceof Error && at.cause instanceof Error) at = at.cause;
  return at instanceof Error && at.message !== '' ? at.message : undefined;
}

/**
 * The ending as `view` narrowed by `lens` shows it: the result through `viewResult` first, so it
 * says no more than the chain does; Temporal's failure message with secret-shaped text redacted.
 * `summaryOnly`: a run shown as its summary (a sub-agent under `subChains: summary`), its state
 * and reason without its answer or error.
 */
export function endingInView(
  read: EndingRead,
  view: ViewerRole,
  lens: ViewLens | undefined,
  summaryOnly = false,
): RunEnding {
  if ('result' in read)
    return summaryOnly
      ? runEnding({ terminationReason: read.result.terminationReason })
      : runEnding({ result: viewResult(read.result, view, lens) });
  const failure = summaryOnly || !read.failure ? undefined : redactSecrets(read.failure);
  return runEnding({ execution: read.execution, ...(failure ? { failure } : {}) });
}

/**
 * The ending a list knows without reading the result: Temporal's state, and for a completed run
 * the termination reason the workflow's last upsert left in `ThoughtlineStatus`. Undefined while
 * it runs, or for a completed run recorded before that upsert (its status stays `completed`).
 */
export function endingOfVisibility(state: RunState, statusAttribute: string | undefined): RunEnding | undefined {
  if (state === 'running' || state === 'continued') return undefined;
  if (state !== 'completed') return runEnding({ execution: state });
  const reason = TerminationReason.safeParse(statusAttribute);
  return reason.success ? runEnding({ terminationReason: reason.data }) : undefined;
}

/** What `describe` or a visibility listing says of a run, for its ending's state. */
interface Described {
  status: { name: string };
  typedSearchAttributes: { get(key: typeof StatusAttribute): string | undefined };
}

/**
 * A run's state as the API says it (its ending's, once ended) and its termination reason, from
 * its description alone: what the chain store keeps and `store check` compares.
 */
export function stateOfDescription(description: Described): { state: RunState; terminationReason?: TerminationReason } {
  const state = runStateOf(description.status.name);
  const ending = endingOfVisibility(state, description.typedSearchAttributes.get(StatusAttribute));
  if (!ending) return { state };
  return { state: ending.state, ...(ending.terminationReason ? { terminationReason: ending.terminationReason } : {}) };
}
