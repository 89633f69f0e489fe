import type { Client } from '@temporalio/client';
import { billableActions } from '../../src/client/runs/billable-actions';

/** Temporal Cloud's list price for actions, at the first volume tier (docs.temporal.io/cloud/pricing). */
export const USD_PER_MILLION_ACTIONS = 50;

/** Billable actions of every execution of one workflow id, newest back through each continue-as-new. */
export async function actionsOfWorkflow(client: Client, workflowId: string): Promise<number> {
  let total = 0;
  for (let runId: string | undefined = undefined, first = true; first || runId; first = false) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    total += billableActions(history).total;
    runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return total;
}

/** Actions per 1,000 iterations, from two runs of different lengths (the fixed start costs cancel). */
export async function actionsPerThousandIterations(
  client: Client,
  shorter: { id: string; iterations: number },
  longer: { id: string; iterations: number },
): Promise<{ actions: number; usd: number }> {
  const a = await actionsOfWorkflow(client, shorter.id);
  const b = await actionsOfWorkflow(client, longer.id);
  const actions = ((b - a) / (longer.iterations - shorter.iterations)) * 1000;
  return { actions, usd: (actions / 1e6) * USD_PER_MILLION_ACTIONS };
}
