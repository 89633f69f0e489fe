import { createHash } from 'node:crypto';
import type { AgentClient } from '../../client/agent-client';
import { startOnce } from '../../client/start/start-once';
import { CallerAttribute, TenantAttribute, type AgentInputInit } from '../../domain';
import { ApiError } from '../api-error';
import type { Identity } from '../auth/identity';
import { personParts } from '../auth/person-key';

/**
 * The run id an Idempotency-Key names: the key with the caller who sent it (personParts: tenant,
 * id, how they signed in; never the body), hashed, so the same key from two callers names two runs
 * and nobody can reach, or learn of, another's. 128 bits of sha256, the same on every instance.
 */
export function idempotentRunId(identity: Identity, key: string): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([...personParts(identity), key]))
    .digest('hex');
  return `run-${digest.slice(0, 32)}`;
}

/**
 * Starts `input` once per caller and key: a repeat, while the first run lives or after it ended,
 * answers the first start's run whatever its own body says (bodies are not compared). A run under
 * that id this caller did not start (only something outside the API chooses ids) is refused, never
 * handed over.
 */
export async function startIdempotently(
  agents: AgentClient,
  identity: Identity,
  input: AgentInputInit,
  key: string,
): Promise<{ runId: string; duplicate: boolean }> {
  const started = await startOnce(agents, input, { workflowId: idempotentRunId(identity, key) });
  if (started.duplicate) await refuseOthersRun(agents, identity, started.runId);
  return started;
}

async function refuseOthersRun(agents: AgentClient, identity: Identity, runId: string): Promise<void> {
  const description = await agents.getHandle(runId).describe();
  const attributes = description.typedSearchAttributes;
  // Read from the run's own record, set at its start: current at once, unlike visibility.
  const mine =
    description.type === 'agentWorkflow' &&
    attributes.get(CallerAttribute) === identity.id &&
    attributes.get(TenantAttribute) === identity.tenant;
  if (!mine)
    throw new ApiError(
      'conflict',
      `The run id ${runId} this Idempotency-Key names is taken by a run you did not start; send another key.`,
    );
}
