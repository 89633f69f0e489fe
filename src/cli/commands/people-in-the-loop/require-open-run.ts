import type { AgentClient } from '../../../client/agent-client';

/** What a person asked of a run that has ended: said plainly, instead of Temporal's own text. */
export class RunEndedError extends Error {
  override readonly name = 'RunEndedError';
}

/** "completed: success", "failed", "cancelled", "timed out": how the run ended, as far as can be read. */
async function howItEnded(agents: AgentClient, workflowId: string, temporalStatus: string): Promise<string> {
  const status = temporalStatus.toLowerCase().replace('_', ' ');
  if (temporalStatus !== 'COMPLETED') return status;
  // The agent's own reason (a graceful cancel completes too); unreadable without the run's keys.
  const reason = await agents
    .getHandle(workflowId)
    .result()
    .then(
      (r) => r.terminationReason,
      () => undefined,
    );
  return reason ? `${status}: ${reason}` : status;
}

/** Throws RunEndedError when the run is no longer running; `nothingTo` is the verb refused ("steer"). */
export async function refuseIfEnded(agents: AgentClient, workflowId: string, nothingTo: string): Promise<void> {
  const { status } = await agents.getHandle(workflowId).describe();
  if (status.name === 'RUNNING') return;
  throw new RunEndedError(
    `run ${workflowId} has ended (${await howItEnded(agents, workflowId, status.name)}); nothing to ${nothingTo}.`,
  );
}

/**
 * Sends a message to a running run. Checked before, and again after a failure, since the run may
 * end in between: then the person reads that it ended, not Temporal's "already completed".
 */
export async function sendToOpenRun<T>(
  agents: AgentClient,
  workflowId: string,
  nothingTo: string,
  send: () => Promise<T>,
): Promise<T> {
  await refuseIfEnded(agents, workflowId, nothingTo);
  try {
    return await send();
  } catch (err) {
    await refuseIfEnded(agents, workflowId, nothingTo);
    throw err;
  }
}
