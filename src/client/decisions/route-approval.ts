import type { ApprovalRecord } from '../../domain';
import { renderPendingApproval } from './render-pending-approval';

/** Where a decision goes: the run that waits, which may be a sub-agent of the run named. */
export type ApprovalRoute =
  { kind: 'send'; workflowId: string; callId: string; record?: ApprovalRecord } | { kind: 'refuse'; message: string };

/** The run a record waits in; a run's own records may leave `workflowId` out. */
export const waitingRun = (record: ApprovalRecord, namedRun: string): string => record.workflowId ?? namedRun;

/**
 * Picks the call to decide among the pending records of `namedRun`'s tree: the one named, or the
 * only one pending. A named call nobody lists still goes to the named run, so its validator
 * explains (already decided, unknown id) in its own words. The same call id pending in two runs
 * is refused: only naming the run can tell them apart.
 */
export function routeApproval(
  namedRun: string,
  pending: readonly ApprovalRecord[],
  options: { callId?: string | undefined; verb?: 'approve' | 'reject' } = {},
): ApprovalRoute {
  const { callId, verb = 'approve' } = options;
  if (callId === undefined) {
    const only = pending[0];
    if (pending.length === 1 && only)
      return { kind: 'send', workflowId: waitingRun(only, namedRun), callId: only.callId, record: only };
    return {
      kind: 'refuse',
      message:
        pending.length === 0
          ? `${namedRun} has no calls waiting for approval.`
          : `${namedRun} has ${pending.length} pending calls; name one:\n${pending.map((r) => renderPendingApproval(r, namedRun)).join('\n')}`,
    };
  }
  const byRun = new Map<string, ApprovalRecord>();
  for (const r of pending)
    if (r.callId === callId && !byRun.has(waitingRun(r, namedRun))) byRun.set(waitingRun(r, namedRun), r);
  const matches = [...byRun.entries()];
  const [first] = matches;
  if (!first) return { kind: 'send', workflowId: namedRun, callId };
  if (matches.length === 1) return { kind: 'send', workflowId: first[0], callId, record: first[1] };
  const suffix = verb === 'reject' ? ' --reason TEXT' : '';
  const lines = matches.map(
    ([run, r]) =>
      `  thoughtline ${verb} ${run} ${callId}${suffix}    (${r.agentPath?.length ? `${r.agentPath.join(' › ')}: ` : ''}${r.toolName})`,
  );
  return {
    kind: 'refuse',
    message: `${callId} is pending in ${matches.length} runs; name the run that waits:\n${lines.join('\n')}`,
  };
}
