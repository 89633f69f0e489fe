import type { TenantUsage, UsageTotals } from '../../domain/store';
import type { SqlExecutor, SqlRow } from '../sql/sql-driver';
import { utcTime } from '../queries/step-row';
import type { StoreTables } from '../sql/store-schema';

/** The model a costed step is billed to when neither it, its call nor its tool names one. */
export const UNKNOWN_MODEL = '(unknown)';

type ModelUsage = TenantUsage['byModel'][number];

/**
 * One tenant's runs started in [from, to): totals, by agent and by model, in two indexed reads.
 *
 * Runs, tokens and cost come from the runs table (`tenant, started_at` index), whose sums the
 * store recomputes from the steps on every write: the same figures `/v1/usage` reports, and each
 * run's own ledger (AgentResult `usage` and `costUsd`). A run counts once, sub-agent runs included
 * (each is billed its own steps).
 *
 * Calls and the by-model split need the steps. A model call is a `tool_call` step with a
 * step-level `model` (set on model calls only). A tool call is any other `tool_call` step except
 * the loop's own control calls (finish, give up, plan updates, refused or unrun calls), which are
 * `custom` calls whose result took 0 ms; like the ledger's `toolCalls`, then, but a question to a
 * person, a repeat answered from the run's cache and a call an approver rejected still count.
 * The `tool` column cannot tell these apart (a model call's tool is its model, an LLM tool's its
 * own name), so the JSON is read, but only of call steps, of steps that carry tokens or cost, and
 * of the results of `custom` calls: other tool results, the large rows, are never parsed. A costed
 * step (a model's reply) is billed to its call's model, found by call id on the
 * (run_id, call_id, type) index, so a provider answering with a dated model name does not split
 * one call across two rows; failing that to its own model, then its tool.
 */
export async function tenantUsage(
  db: SqlExecutor,
  tables: StoreTables,
  tenant: string,
  from: string,
  to: string,
): Promise<TenantUsage> {
  const range = [tenant, utcTime(from), utcTime(to)];
  const agentRows = await db.query(
    `SELECT agent_name, count(*) AS runs, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
       sum(cost_usd) AS cost_usd
     FROM ${tables.runs} WHERE tenant = ? AND started_at >= ? AND started_at < ?
     GROUP BY agent_name ORDER BY agent_name`,
    range,
  );
  const json = (alias: string, ...path: string[]) => db.dialect.jsonField(`${alias}.step_json`, path);
  // One row per call step or costed step, then grouped: a subquery per row, never a join that could repeat it.
  const modelRows = await db.query(
    `SELECT agent_name, model, sum(is_call) AS calls, sum(is_control) AS control_calls,
       count(DISTINCT run_id) AS runs, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
       sum(cost_usd) AS cost_usd
     FROM (
       SELECT r.agent_name AS agent_name, s.run_id AS run_id, s.input_tokens AS input_tokens,
         s.output_tokens AS output_tokens, s.cost_usd AS cost_usd,
         CASE WHEN s.type = 'tool_call' THEN 1 ELSE 0 END AS is_call,
         CASE WHEN s.type = 'tool_call' THEN ${json('s', 'model')}
           ELSE COALESCE(
             (SELECT ${json('c', 'model')} FROM ${tables.steps} c
               WHERE c.run_id = s.run_id AND c.call_id = s.call_id AND c.type = 'tool_call' LIMIT 1),
             ${json('s', 'model')}, s.tool, '${UNKNOWN_MODEL}')
         END AS model,
         CASE WHEN s.type = 'tool_call' AND ${json('s', 'toolCall', 'toolType')} = 'custom' AND EXISTS (
             SELECT 1 FROM ${tables.steps} o
             WHERE o.run_id = s.run_id AND o.call_id = s.call_id AND o.type = 'tool_result'
               AND CAST(${json('o', 'toolResult', 'durationMs')} AS TEXT) = '0')
           THEN 1 ELSE 0 END AS is_control
       FROM ${tables.runs} r
       JOIN ${tables.steps} s ON s.run_id = r.run_id
       WHERE r.tenant = ? AND r.started_at >= ? AND r.started_at < ?
         AND (s.type = 'tool_call' OR s.cost_usd > 0 OR s.input_tokens > 0 OR s.output_tokens > 0)
     ) u
     GROUP BY agent_name, model`,
    range,
  );
  return fold(tenant, range[1]!, range[2]!, agentRows, modelRows);
}

/** The two reads as a TenantUsage (PostgreSQL gives sums of BIGINT as strings: read with Number). */
function fold(tenant: string, from: string, to: string, agentRows: SqlRow[], modelRows: SqlRow[]): TenantUsage {
  const calls = new Map<string, { modelCalls: number; toolCalls: number }>();
  const byModel = new Map<string, ModelUsage>();
  for (const row of modelRows) {
    const agent = String(row.agent_name);
    const counts = calls.get(agent) ?? { modelCalls: 0, toolCalls: 0 };
    calls.set(agent, counts);
    const spend = spendOf(row);
    const isModel = row.model !== null && row.model !== undefined;
    if (isModel) counts.modelCalls += Number(row.calls);
    else counts.toolCalls += Number(row.calls) - Number(row.control_calls);
    // Tool calls without a model carry no spend; any that did is billed as unknown, never dropped.
    if (!isModel && spend.inputTokens + spend.outputTokens === 0 && spend.costUsd === 0) continue;
    const model = isModel ? String(row.model) : UNKNOWN_MODEL;
    const sum = byModel.get(model) ?? { model, runs: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
    // One run has one agent: runs per (agent, model) add up to runs per model.
    sum.runs += Number(row.runs);
    if (isModel) sum.modelCalls += Number(row.calls);
    addSpend(sum, spend);
    byModel.set(model, sum);
  }
  const byAgent = agentRows.map((row) => {
    const agentName = String(row.agent_name);
    return {
      agentName,
      runs: Number(row.runs),
      ...(calls.get(agentName) ?? { modelCalls: 0, toolCalls: 0 }),
      ...spendOf(row),
    };
  });
  const totals: UsageTotals = { runs: 0, modelCalls: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  for (const { agentName: _agent, ...agent } of byAgent) {
    totals.runs += agent.runs;
    totals.modelCalls += agent.modelCalls;
    totals.toolCalls += agent.toolCalls;
    addSpend(totals, agent);
  }
  const models = [...byModel.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  return { tenant, from, to, totals, byAgent, byModel: models };
}

type Spend = Pick<UsageTotals, 'inputTokens' | 'outputTokens' | 'costUsd'>;

const spendOf = (row: SqlRow): Spend => ({
  inputTokens: Number(row.input_tokens),
  outputTokens: Number(row.output_tokens),
  costUsd: Number(row.cost_usd),
});

function addSpend(sum: Spend, spend: Spend): void {
  sum.inputTokens += spend.inputTokens;
  sum.outputTokens += spend.outputTokens;
  sum.costUsd += spend.costUsd;
}
