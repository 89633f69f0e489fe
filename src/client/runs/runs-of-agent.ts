import type { Client } from '@temporalio/client';
import { AgentAttribute, AgentVersionAttribute } from '../../domain';

export interface AgentRunListing {
  workflowId: string;
  startTime: Date;
  status: string;
  /** The definition's version, once the run recorded it (at start for an inline definition, else at its first upsert). */
  agentVersion?: string;
}

const quoted = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * Runs of agent `agent` (by `ThoughtlineAgent`), of one version when `version` is given (by
 * `ThoughtlineAgentVersion`), newest first; at most `limit` (default 100). Listing is eventually
 * consistent: a run that just started or just recorded its version may show a moment later.
 */
export async function runsOfAgent(
  client: Client,
  agent: string,
  options: { version?: string; limit?: number } = {},
): Promise<AgentRunListing[]> {
  const limit = options.limit ?? 100;
  const clauses = [`WorkflowType = 'agentWorkflow'`, `${AgentAttribute.name} = ${quoted(agent)}`];
  if (options.version !== undefined) clauses.push(`${AgentVersionAttribute.name} = ${quoted(options.version)}`);
  const runs = new Map<string, AgentRunListing>();
  for await (const run of client.workflow.list({ query: clauses.join(' AND ') })) {
    if (runs.has(run.workflowId)) continue;
    const version = run.typedSearchAttributes.get(AgentVersionAttribute);
    runs.set(run.workflowId, {
      workflowId: run.workflowId,
      startTime: run.startTime,
      status: run.status.name,
      ...(version !== undefined ? { agentVersion: version } : {}),
    });
    if (runs.size >= limit) break;
  }
  return [...runs.values()].sort((a, b) => b.startTime.getTime() - a.startTime.getTime());
}
