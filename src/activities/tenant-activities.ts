import { FailureType } from '../domain/run/failure-types';
import { Context } from '@temporalio/activity';
import {
  type Client,
  isGrpcServiceError,
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import {
  limitsFor,
  TenantLimitsConfig,
  type TenantLimits,
  type TenantLimitsConfigInit,
} from '../domain/identity/tenant-limits';
import {
  acquireTenantRunUpdate,
  leaseTenantTokensUpdate,
  releaseTenantRunUpdate,
  tenantQuotaWorkflowId,
  type AcquireTenantRunResult,
  type LeaseTenantTokensResult,
  type ReleaseTenantRunResult,
} from '../workflows/tenant-quota/tenant-quota-messages';
import type { TenantQuotaInput } from '../workflows/tenant-quota/tenant-quota-state';

export interface TenantActivityDeps {
  /** A Client on the worker's namespace; `new Client({ connection: nativeConnection, namespace })` works. */
  client: Client;
  limits: TenantLimitsConfigInit;
  /** Task queue the quota workflows run on: the agent worker's own. */
  taskQueue: string;
  /** Passed to quota workflows this worker starts; default 5 minutes. */
  reclaimEveryMs?: number;
}

/** Describes this many workflows at a time when looking for closed runs. */
const DESCRIBE_BATCH = 20;
const NOT_FOUND = 5;

/**
 * Activities that talk to a tenant's quota workflow, starting it on first use (update-with-start).
 * A tenant with no limits never touches Temporal. Safe to retry: acquire and release are
 * idempotent per workflowId, and a lease sent from an activity carries an update id that is
 * stable across that activity's attempts, so the server answers a retry with the first result.
 */
export function createTenantActivities(deps: TenantActivityDeps) {
  const config = TenantLimitsConfig.parse(deps.limits);
  const { client } = deps;

  async function updateWithStart<Req, Res>(
    tenant: string,
    update: UpdateDefinition<Res, [Req]>,
    req: Req,
    updateId?: string,
  ): Promise<Res> {
    const start = new WithStartWorkflowOperation<(input: TenantQuotaInput) => Promise<never>>('tenantQuotaWorkflow', {
      workflowId: tenantQuotaWorkflowId(tenant),
      taskQueue: deps.taskQueue,
      args: [
        {
          tenant,
          ...(deps.reclaimEveryMs !== undefined ? { reclaimEveryMs: deps.reclaimEveryMs } : {}),
        } satisfies TenantQuotaInput,
      ],
      workflowIdConflictPolicy: 'USE_EXISTING',
      // A tenant's quota lives for ever (continuing as new), so it follows the current worker
      // version instead of staying pinned to the build that started it, whose workers go away.
      versioningOverride: 'AUTO_UPGRADE',
      staticSummary: `Quota of tenant ${tenant}`,
    });
    try {
      return await client.workflow.executeUpdateWithStart(update, {
        args: [req],
        startWorkflowOperation: start,
        ...(updateId ? { updateId } : {}),
      });
    } catch (err) {
      throw classify(err);
    }
  }

  return {
    async acquireTenantRun(req: { tenant: string; workflowId: string }): Promise<AcquireTenantRunResult> {
      const limits = limitsFor(config, req.tenant);
      if (limits === undefined) return { granted: true, activeRuns: 0 };
      return updateWithStart(req.tenant, acquireTenantRunUpdate, { workflowId: req.workflowId, limits });
    },

    /** Tokens, and (when the tenant has those limits) calls per minute and USD per hour; see LeaseTenantTokensRequest. */
    async leaseTenantTokens(req: {
      tenant: string;
      workflowId: string;
      tokens: number;
      calls?: number;
      usd?: number;
      overspentUsd?: number;
    }): Promise<LeaseTenantTokensResult> {
      const limits: TenantLimits | undefined = limitsFor(config, req.tenant);
      if (limits === undefined) return { granted: req.tokens, usedThisHour: 0 };
      const { tenant: _tenant, ...request } = req;
      return updateWithStart(req.tenant, leaseTenantTokensUpdate, { ...request, limits }, leaseUpdateId());
    },

    async releaseTenantRun(req: {
      tenant: string;
      workflowId: string;
      unusedTokens: number;
      unusedCalls?: number;
      unusedUsd?: number;
      overspentUsd?: number;
    }): Promise<ReleaseTenantRunResult> {
      if (limitsFor(config, req.tenant) === undefined) return { released: false, returnedTokens: 0, activeRuns: 0 };
      const handle = client.workflow.getHandle(tenantQuotaWorkflowId(req.tenant));
      const { tenant: _tenant, ...request } = req;
      try {
        return await handle.executeUpdate(releaseTenantRunUpdate, { args: [request] });
      } catch (err) {
        // No quota workflow: nothing was ever acquired, so there is nothing to release.
        if (isNotFound(err)) return { released: false, returnedTokens: 0, activeRuns: 0 };
        throw classify(err);
      }
    },

    /** The ids among `workflowIds` whose latest run is not RUNNING (or that no longer exist). */
    async findClosedRuns(workflowIds: string[]): Promise<string[]> {
      const closed: string[] = [];
      for (let i = 0; i < workflowIds.length; i += DESCRIBE_BATCH) {
        const batch = workflowIds.slice(i, i + DESCRIBE_BATCH);
        const found = await Promise.all(batch.map(async (id) => ((await isRunning(client, id)) ? [] : [id])));
        closed.push(...found.flat());
      }
      return closed;
    },
  };
}

export type TenantActivities = ReturnType<typeof createTenantActivities>;

async function isRunning(client: Client, workflowId: string): Promise<boolean> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING';
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** Over a NativeConnection a missing workflow may surface as a raw gRPC NOT_FOUND instead of WorkflowNotFoundError. */
function isNotFound(err: unknown): boolean {
  return err instanceof WorkflowNotFoundError || (isGrpcServiceError(err) && err.code === NOT_FOUND);
}

/** The quota refused the message itself (validator or handler): retrying cannot help. */
function classify(err: unknown): unknown {
  if (err instanceof WorkflowUpdateFailedError) {
    return ApplicationFailure.create({
      type: FailureType.TenantQuotaRequestRejected,
      message: err.cause?.message ?? err.message,
      nonRetryable: true,
    });
  }
  return err;
}

/** Stable across attempts of the calling activity, unique per activity of a workflow run; none outside an activity. */
function leaseUpdateId(): string | undefined {
  const info = currentContext()?.info;
  if (info?.workflowExecution === undefined) return undefined;
  return `lease/${info.workflowExecution.runId}/${info.activityId}`;
}

function currentContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}
