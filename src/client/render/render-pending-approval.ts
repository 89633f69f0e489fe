import type { ApprovalRecord } from '../../shared';

/**
 * What an approver must read before deciding a pending call. A record from a sub-agent (its
 * `workflowId` is not `shownFor`, the run whose status lists it) also says which run waits and
 * the command that decides it there.
 */
export function renderPendingApproval(record: ApprovalRecord, shownFor?: string): string {
  const roles = record.approverRoles.length ? ` · approvers: ${record.approverRoles.join(', ')}` : '';
  const lines = [
    `${record.callId}  ${record.toolName}  (waiting since ${record.requestedAt}, expires ${record.expiresAt}${roles})`,
    `  why: ${record.reason}`,
    `  arguments: ${JSON.stringify(record.arguments)}`,
  ];
  if (record.workflowId && record.workflowId !== shownFor) {
    const path = record.agentPath?.length ? ` (${record.agentPath.join(' › ')})` : '';
    lines.push(`  run: ${record.workflowId}${path} · decide with: thoughtline approve|reject ${record.workflowId} ${record.callId}`);
  }
  return lines.join('\n');
}
