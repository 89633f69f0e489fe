import { createHash } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { AgentInputConflictError } from '../../../client/errors/agent-input-conflict-error';
import { ApiError } from '../../api-error';
import type { ApiContext } from '../../api-route';
import type { Identity } from '../../auth/identity';
import type { CatalogAgent } from '../../catalog/agent-catalog';
import { personParts } from '../../auth/person-key';
import { protocolRunInput } from '../../protocols/protocol-run-input';

/**
 * The workflow id of the run a message starts: the same for the same sender (personParts), agent
 * and message id, on every server instance, and never another sender's. A retried send finds it.
 */
export function a2aWorkflowId(identity: Identity, agent: string, messageId: string): string {
  const key = JSON.stringify([...personParts(identity), agent, messageId]);
  return `a2a-${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * Starts the agent's run for a message, or finds the one an earlier send of the same message
 * started (running or ended: a closed workflow id could otherwise be started again).
 */
export async function startOrFindRun(
  ctx: ApiContext,
  identity: Identity,
  agent: CatalogAgent,
  messageId: string,
  text: string,
): Promise<{ runId: string; started: boolean }> {
  const runId = a2aWorkflowId(identity, agent.name, messageId);
  const existing = await ctx.accessRun(identity, runId).then(
    () => true,
    (err: unknown) => {
      if (err instanceof ApiError && err.code === 'not_found') return false;
      throw err;
    },
  );
  if (existing) return { runId, started: false };
  try {
    await ctx.agents.start(protocolRunInput(ctx, identity, agent, text, { allowQuestions: true }), {
      workflowId: runId,
    });
    return { runId, started: true };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) {
      await ctx.accessRun(identity, runId);
      return { runId, started: false };
    }
    if (err instanceof AgentInputConflictError) throw new ApiError('bad_request', err.message);
    throw err;
  }
}
