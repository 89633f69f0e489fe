import { userInfo } from 'node:os';
import type { Config } from '../../config';
import type { ApprovalRecord, Person } from '../../shared';
import type { AgentClient } from '../agent-client';
import { connect } from '../runtime';

/** The person the CLI acts for: flags first, then THOUGHTLINE_USER / THOUGHTLINE_ROLES, then the OS user. */
export function actingPerson(config: Readonly<Config>, flags: { as?: string; roles?: string }): Person {
  const roles = flags.roles !== undefined ? flags.roles.split(',').map((r) => r.trim()).filter(Boolean) : config.roles;
  return { id: flags.as ?? config.user ?? userInfo().username, roles };
}

/** One line per pending call, with what an approver must read before deciding. */
export function renderPendingApproval(record: ApprovalRecord): string {
  const roles = record.approverRoles.length ? ` · approvers: ${record.approverRoles.join(', ')}` : '';
  return [
    `${record.callId}  ${record.toolName}  (waiting since ${record.requestedAt}, expires ${record.expiresAt}${roles})`,
    `  why: ${record.reason}`,
    `  arguments: ${JSON.stringify(record.arguments)}`,
  ].join('\n');
}

/**
 * Picks the call: the one named, or the only one pending. A named call that is not pending is
 * still sent, so the run's validator explains (already decided, unknown id) in its own words.
 */
async function pickCall(agents: AgentClient, workflowId: string, callId: string | undefined): Promise<{ callId: string; record?: ApprovalRecord }> {
  const pending = await agents.pendingApprovals(workflowId);
  if (callId) {
    const record = pending.find((r) => r.callId === callId);
    return record ? { callId, record } : { callId };
  }
  if (pending.length === 1) return { callId: pending[0]!.callId, record: pending[0]! };
  throw new Error(pending.length === 0 ? `${workflowId} has no calls waiting for approval.` : `${workflowId} has ${pending.length} pending calls; name one:\n${pending.map(renderPendingApproval).join('\n')}`);
}

/** `approve <run> [call]` and `reject <run> [call] --reason`: shows what is decided, then sends the update. */
export async function decideCall(
  workflowId: string,
  callId: string | undefined,
  options: { approved: boolean; reason?: string; as?: string; roles?: string },
): Promise<ApprovalRecord> {
  const { agents, config } = await connect();
  try {
    if (!options.approved && !options.reason?.trim()) throw new Error('reject needs --reason: the agent reads it to decide what to do instead.');
    const { callId: chosen, record } = await pickCall(agents, workflowId, callId);
    if (record) process.stdout.write(`${renderPendingApproval(record)}\n`);
    const by = actingPerson(config, options);
    const decided = await agents.decide(workflowId, { callId: chosen, approved: options.approved, by, ...(options.reason ? { reason: options.reason } : {}) });
    process.stdout.write(`${decided.status} by ${by.id}: ${decided.toolName} (${decided.callId})\n`);
    return decided;
  } finally {
    await agents.client.connection.close();
  }
}
