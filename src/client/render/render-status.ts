import type { AgentStatus } from '../../shared';
import { renderPendingApproval } from './render-pending-approval';
import { renderPlan } from './render-plan';
import { renderSubAgentRow } from './render-sub-agent';

/**
 * What `status` prints: the small record as JSON, then the plan as a checklist, the direct
 * sub-agents, the calls awaiting a decision anywhere in the tree, and any open question.
 */
export function renderStatus(workflowId: string, status: AgentStatus): string {
  const { pendingApprovals, openQuestion, plan, subAgents, ...rest } = status;
  const sections = [JSON.stringify(rest, null, 2)];
  if (plan) sections.push(renderPlan(plan));
  // Runs from before sub-agents existed answer without the field.
  if (subAgents?.length) sections.push([`Sub-agents (${subAgents.length}):`, ...subAgents.map((r) => `  ${renderSubAgentRow(r)}`)].join('\n'));
  sections.push(
    pendingApprovals.length
      ? `Pending approvals (${pendingApprovals.length}):\n${pendingApprovals.map((r) => renderPendingApproval(r, workflowId)).join('\n')}`
      : 'No calls awaiting approval.',
  );
  if (openQuestion) sections.push(`Open question (${openQuestion.callId}): ${openQuestion.question}\nAnswer with: thoughtline answer ${workflowId} "<text>"`);
  return `${sections.join('\n\n')}\n`;
}
