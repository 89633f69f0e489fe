import type { AgentClient } from '../client/agent-client';
import { identityOfChain } from '../client/run-lens';
import { readErrorText } from '../client/read-error-text';
import type { ViewerRole } from '../shared';
import { viewResult } from '../shared/chain-view';
import { runEnding, type RunEnding } from '../shared/run-ending';

/**
 * How a run ended, in `role`'s view (and the policy's lens for it, when the client has one):
 * `runEnding` of its result passed through `viewResult`, or of Temporal's word when the workflow
 * ended without one (failed, cancelled, terminated, timed out). Undefined while it runs.
 */
export async function readRunEnding(
  agents: AgentClient,
  workflowId: string,
  role: ViewerRole,
): Promise<RunEnding | undefined> {
  const handle = agents.getHandle(workflowId);
  const { status } = await handle.describe();
  switch (status.name) {
    case 'COMPLETED': {
      const result = await handle.result();
      return runEnding({ result: viewResult(result, role, agents.lensOf(identityOfChain(result.chain), role)) });
    }
    case 'FAILED': {
      const failure = await handle.result().then(
        () => undefined,
        (err: unknown) => readErrorText(err),
      );
      return runEnding({ execution: 'failed', ...(failure ? { failure } : {}) });
    }
    case 'CANCELLED':
      return runEnding({ execution: 'cancelled' });
    case 'TERMINATED':
      return runEnding({ execution: 'terminated' });
    case 'TIMED_OUT':
      return runEnding({ execution: 'timed_out' });
    default:
      return undefined;
  }
}
