import type { Client } from '@temporalio/client';

/** Every Temporal run of one agent run (continue-as-new makes several), oldest first. */
export async function runIdsOf(client: Client, workflowId: string): Promise<string[]> {
  const runs: Array<{ runId: string; startTime: Date }> = [];
  for await (const run of client.workflow.list({ query: `WorkflowId = "${workflowId.replace(/"/g, '\\"')}"` })) {
    runs.push({ runId: run.runId, startTime: run.startTime });
  }
  return runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime()).map((r) => r.runId);
}
