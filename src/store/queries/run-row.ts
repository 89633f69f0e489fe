import type { ChainStatus } from '../../domain';
import { RunImport, type StoredRun, type StoredRunState } from '../../domain/store';
import type { TerminationReason } from '../../domain/run/termination';
import type { SqlRow } from '../sql/sql-driver';

/** The run columns a StoredRun is read from (every read selects these). */
export const RUN_COLUMNS =
  'run_id, agent_name, task, tenant, caller_id, parent_run_id, root_run_id, state, termination_reason, chain_status, started_at, ' +
  'ended_at, step_count, last_step, hidden_steps, cost_usd, input_tokens, output_tokens, tools, complete, ' +
  'temporal_gone, behind_since, stored_at, imported_json, iterations, model, duration_ms, total_tokens';

const text = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : String(value);
const optional = <K extends string>(key: K, value: unknown): Partial<Record<K, string>> => {
  const found = text(value);
  return found === undefined ? {} : ({ [key]: found } as Record<K, string>);
};

/** A run row as the wire's StoredRun (PostgreSQL gives BIGINT sums as strings: numbers are read with Number). */
export function storedRunOf(row: SqlRow): StoredRun {
  return {
    runId: String(row.run_id),
    agentName: String(row.agent_name),
    task: String(row.task),
    ...optional('tenant', row.tenant),
    ...optional('callerId', row.caller_id),
    ...optional('parentRunId', row.parent_run_id),
    rootRunId: String(row.root_run_id),
    state: String(row.state) as StoredRunState,
    ...(optional('terminationReason', row.termination_reason) as { terminationReason?: TerminationReason }),
    chainStatus: String(row.chain_status) as ChainStatus,
    startedAt: String(row.started_at),
    ...optional('endedAt', row.ended_at),
    stepCount: Number(row.step_count),
    lastStep: Number(row.last_step),
    hiddenSteps: Number(row.hidden_steps),
    costUsd: Number(row.cost_usd),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    ...(row.iterations === null || row.iterations === undefined ? {} : { iterations: Number(row.iterations) }),
    ...optional('model', row.model),
    ...(row.duration_ms === null || row.duration_ms === undefined ? {} : { durationMs: Number(row.duration_ms) }),
    tools: JSON.parse(String(row.tools)) as string[],
    complete: Number(row.complete) === 1,
    temporalGone: Number(row.temporal_gone) === 1,
    ...optional('behindSince', row.behind_since),
    storedAt: String(row.stored_at),
    ...importOf(row.imported_json),
  };
}

/** The import mark, when the row has one that reads; a mark that does not read is left out, never thrown. */
function importOf(value: unknown): { imported?: RunImport } {
  const json = text(value);
  if (json === undefined) return {};
  try {
    const parsed = RunImport.safeParse(JSON.parse(json));
    return parsed.success ? { imported: parsed.data } : {};
  } catch {
    return {};
  }
}
