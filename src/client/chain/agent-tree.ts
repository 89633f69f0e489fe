import type { AgentStatus, SubAgentRun } from '../../domain';
import { readErrorText } from '../errors/read-error-text';

/** One run of a delegation tree, with what its own `status` query says. */
export interface AgentTreeNode {
  workflowId: string;
  /** From the parent's record for a child; for the root, from its chain when that could be read. */
  agentName?: string;
  /** The child as its parent records it (sub-budget, spend, how it ended); absent for the root. */
  run?: SubAgentRun;
  /** Absent when the run could not be read, or never started (a refused delegation). */
  status?: AgentStatus;
  /** Why the run could not be read; its own children are then unknown. */
  error?: string;
  children: AgentTreeNode[];
}

/** How the walk reads a run; AgentClient passes its queries, tests pass fakes. */
export interface AgentTreeReaders {
  status(workflowId: string): Promise<AgentStatus>;
  agentName?(workflowId: string): Promise<string>;
}

/**
 * Walks the tree down from `rootId` through each status's `subAgents`, siblings in parallel. A
 * child that cannot be read shows its error in its node; only the root's failure fails the walk.
 */
export async function loadAgentTree(rootId: string, readers: AgentTreeReaders): Promise<AgentTreeNode> {
  const status = await readers.status(rootId);
  const agentName = await readers.agentName?.(rootId).catch(() => undefined);
  const seen = new Set([rootId]);
  return {
    workflowId: rootId,
    ...(agentName ? { agentName } : {}),
    status,
    children: await loadChildren(status, readers, seen),
  };
}

function loadChildren(status: AgentStatus, readers: AgentTreeReaders, seen: Set<string>): Promise<AgentTreeNode[]> {
  // Runs from before sub-agents existed answer without the field.
  return Promise.all((status.subAgents ?? []).map((run) => loadChild(run, readers, seen)));
}

async function loadChild(run: SubAgentRun, readers: AgentTreeReaders, seen: Set<string>): Promise<AgentTreeNode> {
  const node: AgentTreeNode = { workflowId: run.workflowId, agentName: run.agentName, run, children: [] };
  // A refused child never started; a run listed twice is shown once, so a bad record cannot loop.
  if (run.status === 'refused' || seen.has(run.workflowId)) return node;
  seen.add(run.workflowId);
  try {
    const status = await readers.status(run.workflowId);
    return { ...node, status, children: await loadChildren(status, readers, seen) };
  } catch (err) {
    return { ...node, error: readErrorText(err) };
  }
}
