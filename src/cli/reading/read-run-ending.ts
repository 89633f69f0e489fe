import type { AgentClient } from '../../client/agent-client';
import { endingInView, readEnding, runStateOf } from '../../client/ending/read-ending';
import { identityOfChain } from '../../client/runs/run-lens';
import type { ViewerRole } from '../../domain';
import type { RunEnding } from '../../domain/run/run-ending';

/**
 * How a run ended, in `role`'s view (and the policy's lens for it, when the client has one),
 * through the one gate every door uses (`readEnding`, `endingInView`). Undefined while it runs.
 */
export async function readRunEnding(
  agents: AgentClient,
  workflowId: string,
  role: ViewerRole,
): Promise<RunEnding | undefined> {
  const { status } = await agents.getHandle(workflowId).describe();
  const read = await readEnding(agents, workflowId, runStateOf(status.name));
  if (!read) return undefined;
  const lens = 'result' in read ? agents.lensOf(identityOfChain(read.result.chain), role) : undefined;
  return endingInView(read, role, lens).ending;
}
