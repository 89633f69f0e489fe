import { FailureType } from '../../domain/run/failure-types';
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  isCancellation,
  log,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { z } from 'zod';
import { activities } from '../activity-proxies';
import { readMessage } from '../core/read-message';
import {
  acquireTenantRunUpdate,
  AcquireTenantRunRequest,
  leaseTenantTokensUpdate,
  LeaseTenantTokensRequest,
  releaseTenantRunUpdate,
  ReleaseTenantRunRequest,
  tenantQuotaQuery,
} from './tenant-quota-messages';
import {
  acquireRun,
  dropClosedRuns,
  emptyTenantQuotaState,
  leaseTokens,
  readCarriedState,
  releaseRun,
  snapshotOf,
  TenantQuotaState,
  type TenantQuotaInput,
} from './tenant-quota-state';

/** How often, while runs hold slots, the quota looks for runs that closed without releasing (terminated). */
export const DEFAULT_RECLAIM_EVERY_MS = 5 * 60_000;
/** Updates handled before the quota continues as new (well under Temporal's 2,000 per run). */
export const DEFAULT_CONTINUE_AS_NEW_AFTER = 1_000;

/**
 * One per tenant (id from `tenantQuotaWorkflowId`): the durable owner of the tenant's run slots
 * and hourly token window. Deterministic: times are workflow time, the state lives in history and
 * continue-as-new input, so it is exact across worker restarts and deploys.
 */
export async function tenantQuotaWorkflow(input: TenantQuotaInput): Promise<never> {
  const reclaimEveryMs = input.reclaimEveryMs ?? DEFAULT_RECLAIM_EVERY_MS;
  const handOverAfter = input.continueAsNewAfter ?? DEFAULT_CONTINUE_AS_NEW_AFTER;
  let state = initialState(input);
  let handled = 0;

  /** Handlers are synchronous: each message applies whole, in history order. */
  const apply = <R>(step: { state: TenantQuotaState; result: R }): R => {
    handled++;
    state = step.state;
    return step.result;
  };
  // Validators refuse what does not parse (a refused update never reaches history); handlers parse
  // again, as replay runs them without the validator, and fail only the update if it does not.
  setHandler(
    acquireTenantRunUpdate,
    (raw) => {
      const req = readRequest(AcquireTenantRunRequest, raw);
      return apply(acquireRun(state, req.workflowId, req.limits, Date.now()));
    },
    { validator: (req) => void AcquireTenantRunRequest.parse(req) },
  );
  setHandler(
    leaseTenantTokensUpdate,
    (raw) => {
      const req = readRequest(LeaseTenantTokensRequest, raw);
      const { calls, usd, overspentUsd } = req;
      const ask = { ...(calls !== undefined ? { calls } : {}), ...(usd !== undefined ? { usd } : {}), overspentUsd };
      return apply(leaseTokens(state, req.workflowId, req.tokens, req.limits, Date.now(), ask));
    },
    { validator: (req) => void LeaseTenantTokensRequest.parse(req) },
  );
  setHandler(
    releaseTenantRunUpdate,
    (raw) => {
      const req = readRequest(ReleaseTenantRunRequest, raw);
      return apply(releaseRun(state, req.workflowId, req.unusedTokens, Date.now(), req));
    },
    { validator: (req) => void ReleaseTenantRunRequest.parse(req) },
  );
  setHandler(tenantQuotaQuery, () => snapshotOf(state, Date.now(), handled));

  const handOver = () => handled >= handOverAfter || workflowInfo().continueAsNewSuggested;
  // Every command below (timer, cancel, activity, continue-as-new) is issued only once all update
  // handlers have finished. Otherwise the order of "update completed" and the next command depends
  // on how the SDK batches jobs into activations, which differs between first run and replay (a
  // nondeterminism error, seen with SDK 1.24 when a run is replayed from the start).
  const settled = (wake: () => boolean) => () => wake() && allHandlersFinished();
  for (;;) {
    await condition(allHandlersFinished);
    if (handOver()) return continueAsNew<typeof tenantQuotaWorkflow>({ ...input, carried: state });
    if (state.activeRuns.length === 0) {
      await condition(settled(() => handOver() || state.activeRuns.length > 0));
    } else if (
      !(await condition(
        settled(() => handOver() || state.activeRuns.length === 0),
        reclaimEveryMs,
      ))
    ) {
      await condition(allHandlersFinished);
      await reclaimClosedRuns();
    }
  }

  /** Terminated runs never release: drop the slots of runs that are no longer RUNNING. */
  async function reclaimClosedRuns(): Promise<void> {
    const checked = state.activeRuns;
    try {
      const closed = await activities.findClosedRuns.executeWithOptions(
        { summary: 'Find runs that ended without releasing their slot' },
        [checked.map((r) => r.workflowId)],
      );
      state = dropClosedRuns(state, closed, checked);
      if (closed.length > 0) log.info('Reclaimed run slots of closed runs', { tenant: state.tenant, closed });
    } catch (err) {
      if (isCancellation(err)) throw err;
      // The next check retries; a failed check must never stop the quota.
      log.warn('Could not check for closed runs', { tenant: state.tenant, error: String(err) });
    }
  }
}

/** An update's payload in its handler: the parsed request, or an ApplicationFailure that fails only the update. */
function readRequest<T>(schema: z.ZodType<T>, raw: unknown): T {
  const request = readMessage(schema, raw);
  if (request === undefined)
    throw ApplicationFailure.nonRetryable('Malformed tenant quota request.', FailureType.MalformedMessage);
  return request;
}

function initialState(input: TenantQuotaInput): TenantQuotaState {
  if (input.carried === undefined) return emptyTenantQuotaState(input.tenant);
  // Version 1 (before the per-minute and spend windows) is read too: a quota continues across the upgrade.
  const read = readCarriedState(input.carried);
  if (read !== undefined) return read;
  const parsed = TenantQuotaState.safeParse(input.carried);
  throw ApplicationFailure.nonRetryable(
    `Carried tenant quota state does not parse: ${parsed.error?.message ?? 'unknown schema version'}`,
    FailureType.InvalidTenantQuotaState,
  );
}
