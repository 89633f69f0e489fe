import { useCallback, useState } from 'react';
import type { ApprovalDecisionBody, ApprovalRecord } from './api-types';
import { ThoughtlineApiError } from './thoughtline-api-error';
import { useThoughtline } from './thoughtline-provider';
import { useRun } from './use-run';

/**
 * The calls of a run that wait for a person, and `approve` / `reject` through `POST
 * /v1/runs/{id}/approvals/{callId}`. `pending` is always the server's list: a decision shows once
 * the run reports it (the hook reads the run again after each answer), never before.
 */
export function useApprovals(runId: string | undefined) {
  const client = useThoughtline();
  const { run, refresh, error: readError } = useRun(runId);
  const [deciding, setDeciding] = useState<string>();
  const [error, setError] = useState<ThoughtlineApiError>();
  const pending: readonly ApprovalRecord[] = (run?.pendingApprovals ?? []).filter((a) => a.status === 'pending');

  const decide = useCallback(
    async (callId: string, decision: Omit<ApprovalDecisionBody, 'argumentsHash'>): Promise<void> => {
      const record = pending.find((a) => a.callId === callId);
      if (!runId || !record) {
        setError(new ThoughtlineApiError(409, 'conflict', `No pending approval ${callId} on this run.`));
        return;
      }
      setDeciding(callId);
      setError(undefined);
      try {
        const body: ApprovalDecisionBody = { ...decision, argumentsHash: record.argumentsHash };
        await client.request('POST', `/v1/runs/${encodeURIComponent(runId)}/approvals/${encodeURIComponent(callId)}`, {
          body,
        });
      } catch (err) {
        setError(err instanceof ThoughtlineApiError ? err : new ThoughtlineApiError(0, 'unreachable', String(err)));
      } finally {
        setDeciding(undefined);
        refresh();
      }
    },
    [client, runId, pending, refresh],
  );

  return {
    pending,
    /** The call whose decision is on its way to the server. */
    deciding,
    error: error ?? readError,
    approve: (callId: string, note?: string) => decide(callId, { approved: true, ...(note ? { reason: note } : {}) }),
    /** The reason is required: the agent reads it to decide what to do instead. */
    reject: (callId: string, reason: string) => decide(callId, { approved: false, reason }),
  };
}
