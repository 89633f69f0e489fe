import { executionInfoFromRaw } from '@temporalio/client/lib/helpers';
import type { z } from 'zod';
import {
  AgentAttribute,
  AgentVersionAttribute,
  CostAttribute,
  ExperimentAttribute,
  IterationAttribute,
  ModelAttribute,
  StatusAttribute,
  TenantAttribute,
  VariantAttribute,
} from '../../domain';
import type { AgentClient } from '../../client/agent-client';
import { ApiError } from '../api-error';
import type { RunEnding } from '../../domain/run/run-ending';
import type { ListRunsQuery, ListRunsResponse, RunEndingSummary, RunState } from '../api-schemas';
import { runStateOf } from '../run-access';
import { endingOfVisibility } from '../run-ending-read';
import type { Identity } from '../auth/identity';
import type { ViewerRole } from '../../domain';
import { runListFacts } from '../../client/runs/run-list-facts';
import { TerminationReason } from '../../domain/run/termination';

/** Termination reasons whose runs Temporal records completed while their ending's state is another (List Filters have no NOT). */
const FAILING = `${StatusAttribute.name} IN ('failure', 'error')`;
const CANCELLING = `${StatusAttribute.name} = 'cancelled'`;

/**
 * The visibility clause of each state as the API says it (the ending's state): a run the workflow
 * completed with a failing result carries its reason in `ThoughtlineStatus` (its last upsert).
 */
export const STATE_CLAUSE: Record<z.infer<typeof RunState>, string> = {
  running: `ExecutionStatus = 'Running'`,
  completed: `(ExecutionStatus = 'Completed' AND ${['failure', 'error', 'cancelled'].map((r) => `${StatusAttribute.name} != '${r}'`).join(' AND ')})`,
  failed: `(ExecutionStatus = 'Failed' OR (ExecutionStatus = 'Completed' AND ${FAILING}))`,
  cancelled: `(ExecutionStatus = 'Canceled' OR (ExecutionStatus = 'Completed' AND ${CANCELLING}))`,
  terminated: `ExecutionStatus = 'Terminated'`,
  timed_out: `ExecutionStatus = 'TimedOut'`,
  continued: `ExecutionStatus = 'ContinuedAsNew'`,
};

/**
 * A run whose ending upsert landed: `ThoughtlineModel` names the model that answered only from then
 * on (before, it may still hold the model the start asked for), as run-list-facts reads it.
 */
const ENDED_CLAUSE = `${StatusAttribute.name} IN (${TerminationReason.options.map((r) => `'${r}'`).join(', ')})`;

/** A value already checked against a quote-free charset or an enum, quoted for a visibility query. */
const quoted = (value: string): string => {
  if (/['"\\]/.test(value)) throw new Error('visibility value with a quote; the schema should have refused it');
  return `'${value}'`;
};

/**
 * The visibility query for a caller: built only from schema-checked values, always restricted to
 * agent runs started with Thoughtline's attributes (sub-agents carry none: they are reached
 * through their root) and to the caller's tenant, or to runs without one for a caller without one.
 */
export function visibilityQuery(identity: Identity, filters: z.infer<typeof ListRunsQuery>): string {
  const clauses = [`WorkflowType = 'agentWorkflow'`, `${AgentAttribute.name} IS NOT NULL`];
  clauses.push(
    identity.tenant ? `${TenantAttribute.name} = ${quoted(identity.tenant)}` : `${TenantAttribute.name} IS NULL`,
  );
  if (filters.tenant !== undefined) clauses.push(`${TenantAttribute.name} = ${quoted(filters.tenant)}`);
  if (filters.status !== undefined) clauses.push(STATE_CLAUSE[filters.status]);
  if (filters.reason !== undefined)
    clauses.push(`ExecutionStatus = 'Completed' AND ${StatusAttribute.name} = ${quoted(filters.reason)}`);
  if (filters.agent !== undefined) clauses.push(`${AgentAttribute.name} = ${quoted(filters.agent)}`);
  if (filters.agentVersion !== undefined)
    clauses.push(`${AgentVersionAttribute.name} = ${quoted(filters.agentVersion)}`);
  if (filters.experiment !== undefined) clauses.push(`${ExperimentAttribute.name} = ${quoted(filters.experiment)}`);
  if (filters.variant !== undefined) clauses.push(`${VariantAttribute.name} = ${quoted(filters.variant)}`);
  if (filters.model !== undefined)
    clauses.push(`${ModelAttribute.name} = ${quoted(filters.model)} AND ${ENDED_CLAUSE}`);
  if (filters.origin === 'schedule') clauses.push('TemporalScheduledById IS NOT NULL');
  if (filters.origin === 'experiment') clauses.push(`${ExperimentAttribute.name} IS NOT NULL`);
  // Numbers the schema parsed: written as numbers, never as text from the request.
  if (filters.minIterations !== undefined)
    clauses.push(`${IterationAttribute.name} >= ${Number(filters.minIterations)}`);
  if (filters.minCostUsd !== undefined) clauses.push(`${CostAttribute.name} >= ${Number(filters.minCostUsd)}`);
  if (filters.startedAfter !== undefined) clauses.push(`StartTime > ${quoted(filters.startedAfter)}`);
  if (filters.startedBefore !== undefined) clauses.push(`StartTime < ${quoted(filters.startedBefore)}`);
  return clauses.join(' AND ');
}

/** What a list item shows of an ending (never the answer or the error). */
function summaryOf(ending: RunEnding): z.infer<typeof RunEndingSummary> {
  const { state, terminationReason, label, tone, summary } = ending;
  return { state, ...(terminationReason ? { terminationReason } : {}), label, tone, summary };
}

/** Filtering by spend would show spend: not in a view that shows none (visibility's list and the store's). */
export function refuseSpendFilter(filters: z.infer<typeof ListRunsQuery>, view: ViewerRole): void {
  if (view === 'end_user' && filters.minCostUsd !== undefined)
    throw new ApiError('bad_request', "The end user's view shows no spend, so it cannot filter by it.", [
      { path: ['minCostUsd'], message: "not in the end user's view" },
    ]);
}

/** One page of the caller's runs, newest first as visibility orders them, in `view` (the end user's has no spend). */
export async function listRuns(
  agents: AgentClient,
  identity: Identity,
  filters: z.infer<typeof ListRunsQuery>,
  view: ViewerRole,
): Promise<z.infer<typeof ListRunsResponse>> {
  refuseSpendFilter(filters, view);
  const client = agents.client;
  const namespace = client.options.namespace;
  let response;
  try {
    response = await client.workflowService.listWorkflowExecutions({
      namespace,
      pageSize: filters.pageSize,
      query: visibilityQuery(identity, filters),
      ...(filters.pageToken ? { nextPageToken: Buffer.from(filters.pageToken, 'base64url') } : {}),
    });
  } catch (err) {
    // A page token the server cannot read is the caller's mistake; anything else is the server's.
    if (filters.pageToken && /token/i.test(String((err as Error).message)))
      throw new ApiError('bad_request', 'The pageToken is not one this server gave; start again without it.', [
        { path: ['pageToken'], message: 'unknown page token' },
      ]);
    throw err;
  }
  const runs = await Promise.all(
    (response.executions ?? []).map(async (raw) => {
      const info = await executionInfoFromRaw(raw, client.options.loadedDataConverter, raw, namespace);
      const tenant = info.typedSearchAttributes.get(TenantAttribute);
      const agentVersion = info.typedSearchAttributes.get(AgentVersionAttribute);
      const experiment = info.typedSearchAttributes.get(ExperimentAttribute);
      const variant = info.typedSearchAttributes.get(VariantAttribute);
      const task = info.memo?.task;
      const state = runStateOf(info.status.name);
      const ending = endingOfVisibility(state, info.typedSearchAttributes.get(StatusAttribute));
      // Spend is the operator's business, as in the CLI's `runs` and `status`.
      const { tokens, costUsd, ...facts } = runListFacts(info);
      const spend =
        view === 'end_user'
          ? {}
          : { ...(tokens !== undefined ? { tokens } : {}), ...(costUsd !== undefined ? { costUsd } : {}) };
      return {
        runId: info.workflowId,
        agentName: info.typedSearchAttributes.get(AgentAttribute) ?? 'agent',
        ...(agentVersion ? { agentVersion } : {}),
        ...(experiment && variant ? { experiment: { name: experiment, variant } } : {}),
        status: ending?.state ?? state,
        ...(ending ? { ending: summaryOf(ending) } : {}),
        task: typeof task === 'string' ? task : '',
        ...(tenant ? { tenant } : {}),
        startedAt: info.startTime.toISOString(),
        ...(info.closeTime ? { closedAt: info.closeTime.toISOString() } : {}),
        ...facts,
        ...spend,
      };
    }),
  );
  const next =
    response.nextPageToken && response.nextPageToken.length > 0
      ? Buffer.from(response.nextPageToken).toString('base64url')
      : undefined;
  return { runs, ...(next ? { nextPageToken: next } : {}) };
}
