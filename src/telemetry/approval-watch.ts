import type { RunEvent } from '../domain/run/run-event';

/**
 * Tool calls waiting for approval, as the run events this worker publishes show them. A parent
 * shows its sub-agents' requests too: they are keyed by the run that waits, so each counts once.
 * Only this worker's view: requests made before it started, or on another worker, are not seen.
 */
export function createApprovalWatch() {
  const waiting = new Set<string>();
  return {
    observe(event: RunEvent): void {
      if (event.type === 'approval') {
        const key = `${event.approval.workflowId ?? event.runId}\n${event.approval.callId}`;
        if (event.approval.status === 'pending') waiting.add(key);
        else waiting.delete(key);
      } else if (event.type === 'end') {
        for (const key of waiting) if (key.startsWith(`${event.runId}\n`)) waiting.delete(key);
      }
    },
    count: (): number => waiting.size,
  };
}
