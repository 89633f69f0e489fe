import type { Client } from '@temporalio/client';
import type { z } from 'zod';
import { AgentAttribute, StatusAttribute, TenantAttribute } from '../../domain';
import type { RunEnding } from '../../domain/run/run-ending';
import type { RunState } from '../../server/api-schemas';
import { STATE_CLAUSE } from '../../server/routes/list-runs';
import { endingOfVisibility } from '../../server/run-ending-read';
import { runStateOf } from '../../client/ending/read-ending';
import { runListFacts, type RunListFacts } from '../../client/runs/run-list-facts';

/** What `runs` narrows by; each value was checked by the command (a state of RunState, a name without quotes). */
export interface RunFilters {
  state?: z.infer<typeof RunState>;
  agent?: string;
  tenant?: string;
  limit: number;
}

/** One run as `runs` lists it: everything from Temporal's visibility, no query to a worker. */
export interface RunRow extends RunListFacts {
  runId: string;
  agentName: string;
  state: string;
  /** How it ended (the ending's state, reason and summary, as `status` says it); absent while it runs. */
  ending?: Pick<RunEnding, 'state' | 'terminationReason' | 'label' | 'summary'>;
  /** What a running run waits for, as its last upsert said (`waiting_approval`, `awaiting_budget`, …). */
  waiting?: string;
  tenant?: string;
  task: string;
  startedAt: string;
  closedAt?: string;
}

/** A value the command checked against a quote-free charset, quoted for a visibility query. */
const quoted = (value: string): string => `'${value}'`;

/** The visibility query: root agent runs (sub-agents carry no ThoughtlineAgent: they are read through their root). */
export function runsQuery(filters: RunFilters): string {
  const clauses = [`WorkflowType = 'agentWorkflow'`, `${AgentAttribute.name} IS NOT NULL`];
  if (filters.state !== undefined) clauses.push(STATE_CLAUSE[filters.state]);
  if (filters.agent !== undefined) clauses.push(`${AgentAttribute.name} = ${quoted(filters.agent)}`);
  if (filters.tenant !== undefined) clauses.push(`${TenantAttribute.name} = ${quoted(filters.tenant)}`);
  return clauses.join(' AND ');
}

/** Statuses a running run's last upsert may leave that say it waits for someone. */
const WAITING = new Set(['waiting_approval', 'awaiting_budget', 'waiting_input']);

/**
 * The newest `limit` runs that match, newest first as visibility orders them: one ListWorkflowExecutions
 * page per 100 rows, no Temporal action and no query per row. Listing is eventually consistent: a run
 * that just started or ended may show a moment later, or in its previous state.
 */
export async function listRuns(client: Client, filters: RunFilters): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  if (filters.limit === 0) return rows;
  for await (const info of client.workflow.list({
    query: runsQuery(filters),
    pageSize: Math.min(filters.limit, 100),
  })) {
    const attributes = info.typedSearchAttributes;
    const state = runStateOf(info.status.name);
    const status = attributes.get(StatusAttribute);
    const ending = endingOfVisibility(state, status);
    const tenant = attributes.get(TenantAttribute);
    const task = info.memo?.['task'];
    rows.push({
      runId: info.workflowId,
      agentName: attributes.get(AgentAttribute) ?? 'agent',
      state: ending?.state ?? state,
      ...(ending
        ? {
            ending: {
              state: ending.state,
              ...(ending.terminationReason ? { terminationReason: ending.terminationReason } : {}),
              label: ending.label,
              summary: ending.summary,
            },
          }
        : {}),
      ...(state === 'running' && status && WAITING.has(status) ? { waiting: status } : {}),
      ...runListFacts(info),
      ...(tenant ? { tenant } : {}),
      task: typeof task === 'string' ? task : '',
      startedAt: info.startTime.toISOString(),
      ...(info.closeTime ? { closedAt: info.closeTime.toISOString() } : {}),
    });
    if (rows.length >= filters.limit) break;
  }
  return rows;
}
