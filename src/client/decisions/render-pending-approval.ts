import type { ApprovalRecord } from '../../domain';

/**
 * What an approver must read before deciding a pending call. A record from a sub-agent (its
 * `workflowId` is not `shownFor`, the run whose status lists it) also says which run waits and
 * the command that decides it there (unless `commands: false`: an end user is not the operator).
 */
export function renderPendingApproval(
  record: ApprovalRecord,
  shownFor?: string,
  options: { commands?: boolean } = {},
): string {
  const roles = record.approverRoles.length ? ` · approvers: ${record.approverRoles.join(', ')}` : '';
  const lines = [
    `${record.callId}  ${record.toolName}  (waiting since ${record.requestedAt}, expires ${record.expiresAt}${roles})`,
    `  why: ${record.reason}`,
    `  arguments: ${JSON.stringify(record.arguments)}`,
  ];
  if (record.workflowId && record.workflowId !== shownFor) {
    const path = record.agentPath?.length ? ` (${record.agentPath.join(' › ')})` : '';
    const decide =
      options.commands === false
        ? ''
        : ` · decide with: thoughtline approve|reject ${record.workflowId} ${record.callId}`;
    lines.push(`  run: ${record.workflowId}${path}${decide}`);
  }
  return lines.join('\n');
}
