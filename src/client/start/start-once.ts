import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { AgentInputInit } from '../../domain';
import type { AgentClient, StartOptions } from '../agent-client';

/**
 * Starts a run under an id derived from what identifies the request (a delivery, an idempotency
 * key), once: Temporal refuses an id used before, even by a closed run (REJECT_DUPLICATE), at no
 * action, so a repeat is `duplicate` and starts nothing. Whose run holds a duplicate's id is the
 * caller's to check. After the namespace's retention the old run is gone and the id starts again.
 */
export async function startOnce(
  agents: AgentClient,
  init: AgentInputInit,
  options: StartOptions & { workflowId: string },
): Promise<{ runId: string; duplicate: boolean }> {
  try {
    await agents.start(init, { ...options, once: true });
    return { runId: options.workflowId, duplicate: false };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { runId: options.workflowId, duplicate: true };
    throw err;
  }
}
