import type { AgentResult, ViewerRole } from '../../domain';
import { viewResult } from '../../domain/chain/chain-view';
import { runEnding, type RunEnding } from '../../domain/run/run-ending';
import { redactSecretsInText } from '../../domain/secrets/secret-patterns';
import type { ViewLens } from '../../domain/visibility';
import type { AgentClient } from '../agent-client';
import { readErrorText } from '../errors/read-error-text';

/** A run's state as Temporal reports it, in every door's words. */
export type RunState = 'running' | 'completed' | 'failed' | 'cancelled' | 'terminated' | 'timed_out' | 'continued';

const STATES: Readonly<Record<string, RunState>> = {
  RUNNING: 'running',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
  TERMINATED: 'terminated',
  TIMED_OUT: 'timed_out',
  CONTINUED_AS_NEW: 'continued',
};

/** A Temporal execution status name (`RUNNING`, `CONTINUED_AS_NEW`, …) in our words; unknown ones read as running. */
export const runStateOf = (statusName: string | undefined): RunState =>
  (statusName !== undefined ? STATES[statusName] : undefined) ?? 'running';

/** What Temporal holds of an ended run, raw: its result, or its word when it gave none. Never shown as is. */
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
      (err: unknown) => readErrorText(err),
    );
  return { execution: state, ...(failure ? { failure } : {}) };
}

/** An ended run as one reader may see it: its ending, and its result in their view when it has one. */
export interface ViewedEnding {
  ending: RunEnding;
  /** The result through `viewResult`; absent when Temporal ended the run without one, or for `summaryOnly`. */
  result?: AgentResult;
}

/**
 * The one gate of an ending: the result through `viewResult` in `view` narrowed by `lens` first,
 * so the ending says no more than the chain does, then `runEnding`; Temporal's failure message
 * with secret-shaped text redacted. `summaryOnly`: a run shown as its summary (a sub-agent under
 * `subChains: summary`), its state and reason without its answer or error.
 */
export function endingInView(
  read: EndingRead,
  view: ViewerRole,
  lens: ViewLens | undefined,
  summaryOnly = false,
): ViewedEnding {
  if ('result' in read) {
    if (summaryOnly) return { ending: runEnding({ terminationReason: read.result.terminationReason }) };
    const result = viewResult(read.result, view, lens);
    return { ending: runEnding({ result }), result };
  }
  const failure = summaryOnly || !read.failure ? undefined : redactSecretsInText(read.failure);
  return { ending: runEnding({ execution: read.execution, ...(failure ? { failure } : {}) }) };
}
