import { WorkflowNotFoundError } from '@temporalio/client';
import { AgentAttribute, ExperimentAttribute, TenantAttribute, VariantAttribute } from '../domain';
import type { AgentClient } from '../client/agent-client';
import { readRunInput } from '../client/runs/read-run-input';
import { ApiError } from './api-error';
import type { Identity } from './auth/identity';
import type { RunAccess } from './server-context';
import { originOfMemo, type RunOrigin } from '../domain/run/run-origin';

import { runStateOf, type RunState } from '../client/ending/read-ending';
export { runStateOf, type RunState } from '../client/ending/read-ending';

/** What the server knows of a run once it is the caller's: its tenant, its agent and its state now. */
export interface RunFacts extends RunAccess {
  agentName: string;
  state: RunState;
  /** What started the run when no person did directly (a schedule, a webhook delivery); from its memo. */
  origin?: RunOrigin;
  /** The live experiment and variant the run was assigned, once it recorded them (its search attributes). */
  experiment?: { name: string; variant: string };
}

/** The same answer for an unknown run and another tenant's: nobody learns which ids exist. */
export const runNotFound = (): ApiError =>
  new ApiError('not_found', 'No run with this id is visible to you; check the id (GET /v1/runs lists yours).');

/** Tenants of runs already read, by Temporal run: a run's input never changes, so the cache is never stale. */
const CACHE_LIMIT = 10_000;

/**
 * `accessRun` for the server: the run's tenant from the `ThoughtlineTenant` search attribute when
 * the run was started with it (marked by `ThoughtlineAgent`), else from the `caller` in the first
 * event of its current Temporal run, decoded with the client's data converter (a sub-agent's
 * input carries its root's caller, a continued run's its own). Anything but an agent run is 404.
 */
export function createRunAccess(agents: AgentClient): (identity: Identity, workflowId: string) => Promise<RunFacts> {
  const cache = new Map<string, { tenant?: string; agentName: string }>();
  const client = agents.client;

  const fromHistory = async (workflowId: string, runId: string): Promise<{ tenant?: string; agentName: string }> => {
    const record = (await readRunInput(client, workflowId, runId)) as {
      agentName?: unknown;
      caller?: { tenant?: unknown };
    };
    const tenant =
      typeof record.caller?.tenant === 'string' && record.caller.tenant !== '' ? record.caller.tenant : undefined;
    return {
      agentName: typeof record.agentName === 'string' ? record.agentName : 'agent',
      ...(tenant ? { tenant } : {}),
    };
  };

  return async (identity, workflowId) => {
    let description;
    try {
      description = await agents.getHandle(workflowId).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw runNotFound();
      throw err;
    }
    if (description.type !== 'agentWorkflow') throw runNotFound();
    const key = `${workflowId}\u0000${description.runId}`;
    let known = cache.get(key);
    if (!known) {
      const agentName = description.typedSearchAttributes.get(AgentAttribute);
      const tenant = description.typedSearchAttributes.get(TenantAttribute);
      known =
        agentName !== undefined
          ? { agentName, ...(tenant ? { tenant } : {}) }
          : await fromHistory(workflowId, description.runId);
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
      cache.set(key, known);
    }
    if ((known.tenant ?? null) !== (identity.tenant ?? null)) throw runNotFound();
    const parent = description.parentExecution?.workflowId;
    const origin = originOfMemo(description.memo);
    // Read on every request, not cached: the run upserts them after it starts.
    const experiment = description.typedSearchAttributes.get(ExperimentAttribute);
    const variant = description.typedSearchAttributes.get(VariantAttribute);
    return {
      workflowId,
      agentName: known.agentName,
      ...(parent ? { parentRunId: parent } : {}),
      state: runStateOf(description.status.name),
      ...(origin ? { origin } : {}),
      ...(experiment && variant ? { experiment: { name: experiment, variant } } : {}),
      ...(known.tenant ? { tenant: known.tenant } : {}),
    };
  };
}
