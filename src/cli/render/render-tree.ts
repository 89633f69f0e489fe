import { subAgentTitle, totalTokens, type ApprovalRecord } from '../../domain';
import type { AgentTreeNode } from '../../client/chain/agent-tree';
import { renderSubBudget, subAgentSpend, subAgentState } from './render-sub-agent';
import { waitingRun } from '../../client/decisions/route-approval';
import { count, usd } from './terminal-style';
import { counted } from '../../domain/text/counted';

function state(node: AgentTreeNode): string {
  const { run, status } = node;
  // The parent's record says how an ended child ended; the child's status has no reason.
  const base =
    run && run.status !== 'running'
      ? subAgentState(run)
      : status
        ? `${status.status}${status.waitingFor ? ` (${status.waitingFor})` : ''}${status.cancelRequested ? ' · cancel requested' : ''}`
        : (run?.status ?? 'unknown');
  return node.error ? `${base} · not readable: ${node.error}` : base;
}

function facts(node: AgentTreeNode): string[] {
  const { run, status } = node;
  const out: string[] = [];
  if (status)
    out.push(
      `${status.iteration}/${counted(status.maxIterations, 'iteration')}`,
      counted(totalTokens(status.usage), 'token', { shown: count(totalTokens(status.usage)) }),
      usd(status.costUsd),
    );
  else if (run) {
    if (run.iterations !== undefined) out.push(counted(run.iterations, 'iteration'));
    const spend = subAgentSpend(run);
    if (spend) out.push(spend);
  }
  if (run) out.push(renderSubBudget(run.budget));
  if (status?.plan) out.push(`plan ${status.plan.completed}/${status.plan.total}`);
  return out;
}

/** Every pending record any node reports, under the run that waits; a parent's list covers an unreadable child. */
function approvalsByRun(root: AgentTreeNode): Map<string, ApprovalRecord[]> {
  const byRun = new Map<string, ApprovalRecord[]>();
  const visit = (node: AgentTreeNode): void => {
    for (const r of node.status?.pendingApprovals ?? []) {
      const run = waitingRun(r, node.workflowId);
      const list = byRun.get(run) ?? [];
      if (!list.some((x) => x.callId === r.callId)) byRun.set(run, [...list, r]);
    }
    node.children.forEach(visit);
  };
  visit(root);
  return byRun;
}

function lines(node: AgentTreeNode, head: string, rest: string, approvals: Map<string, ApprovalRecord[]>): string[] {
  const out = [
    `${head}${[`${node.run ? subAgentTitle(node.run) : (node.agentName ?? '(agent)')}  ${node.workflowId}  ${state(node)}`, ...facts(node)].join(' · ')}`,
  ];
  const under = `${rest}${node.children.length ? '│' : ' '}   `;
  for (const r of approvals.get(node.workflowId) ?? [])
    out.push(`${under}approval pending: ${r.toolName} (${r.callId})`);
  // A remote agent's run is on another server: where its chain is, as the parent linked it.
  const remote = node.run?.remote?.chain;
  if (remote && !remote.refused)
    out.push(`${under}remote chain: ${counted(remote.totalSteps, 'step')}${remote.url ? ` at ${remote.url}` : ''}`);
  node.children.forEach((child, i) => {
    const last = i === node.children.length - 1;
    out.push(...lines(child, `${rest}${last ? '└─ ' : '├─ '}`, `${rest}${last ? '   ' : '│  '}`, approvals));
  });
  return out;
}

/**
 * The delegation tree as indented lines: per run its agent, workflow id, state, iterations,
 * spend, sub-budget and plan progress, with the calls it waits on under it.
 */
export function renderTree(root: AgentTreeNode): string {
  return lines(root, '', '', approvalsByRun(root)).join('\n');
}
