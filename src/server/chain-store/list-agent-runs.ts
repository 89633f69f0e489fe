import { isImportRunId } from '../../domain/store/import-run-id';
import type { AgentClient } from '../../client/agent-client';

/** Every agent run running now (Temporal visibility: a list, no action). */
export const RUNNING_QUERY = "WorkflowType = 'agentWorkflow' AND ExecutionStatus = 'Running'";

/** Agent runs closed at or after `since`. */
export const sinceQuery = (since: Date): string =>
  `WorkflowType = 'agentWorkflow' AND CloseTime >= '${since.toISOString()}'`;

/** Every agent run Temporal lists, running or closed, newest first. */
export const ALL_QUERY = "WorkflowType = 'agentWorkflow'";

/**
 * The workflow ids a visibility query lists, each once (a continued run lists a closed Temporal run
 * per handover), never one in the imports' id space (isImportRunId: such a workflow was not started
 * by Thoughtline, and the store keeps that space for imports).
 */
export async function* listAgentRuns(agents: AgentClient, query: string): AsyncGenerator<string> {
  const seen = new Set<string>();
  for await (const info of agents.client.workflow.list({ query })) {
    if (seen.has(info.workflowId) || isImportRunId(info.workflowId)) continue;
    seen.add(info.workflowId);
    yield info.workflowId;
  }
}
