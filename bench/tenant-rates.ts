import { randomUUID } from 'node:crypto';
import { billableActions } from '../src/client/runs/billable-actions';
import { AgentClient } from '../src/client/agent-client';
import type { TenantLimits } from '../src/domain/identity/tenant-limits';
import { tenantQuotaWorkflowId } from '../src/workflows/tenant-quota/tenant-quota-messages';
import { createAgentWorker } from '../src/worker';
import { benchRun, createBenchModel } from './lib/bench-model';
import type { BenchContext } from './lib/bench-context';
import { benchTool } from './lib/bench-tools';
import { BENCH_MODEL } from './lib/bench-worker';
import { errorText, measurement, type FigureBody, type Measurement } from './lib/figure';

/** Tool iterations of the counted run: 11 model calls and 10 tool calls. */
const ITERATIONS = 10;

interface Variant {
  name: string;
  /** undefined: a run without a tenant. */
  limits?: TenantLimits | 'none';
}

const VARIANTS: readonly Variant[] = [
  { name: 'no tenant' },
  { name: 'tenant without limits', limits: 'none' },
  { name: 'tokensPerHour', limits: { tokensPerHour: 1_000_000 } },
  { name: 'callsPerMinute 600 (chunks of 10)', limits: { callsPerMinute: 600 } },
  { name: 'callsPerMinute 60 (chunks of 6)', limits: { callsPerMinute: 60 } },
  { name: 'costPerHourUsd', limits: { costPerHourUsd: 10 } },
  {
    name: 'all limits',
    limits: { tokensPerHour: 1_000_000, tokensPerMinute: 1_000_000, callsPerMinute: 600, costPerHourUsd: 10 },
  },
];

/**
 * Figure 14: the Temporal actions tenant limits add to one run of 10 tool iterations (21 calls),
 * counted from real histories: the run's own (lease and release activities) and its tenant
 * quota workflow's (its start and the updates: acquire, each lease, release). Each tenant is new,
 * so its quota's history holds this run's actions only.
 */
export async function measureTenantRates(ctx: BenchContext): Promise<FigureBody> {
  const taskQueue = `bench-tenant-rates-${randomUUID()}`;
  const tenants = VARIANTS.map(() => `bench-rates-${randomUUID().slice(0, 8)}`);
  const limited = Object.fromEntries(
    VARIANTS.flatMap((v, i) => (v.limits && v.limits !== 'none' ? [[tenants[i]!, v.limits]] : [])),
  );
  const errors: string[] = [];
  const rows: Measurement[] = [];
  const runs: Record<string, unknown>[] = [];
  try {
    const worker = await createAgentWorker({
      connection: ctx.nativeConnection,
      namespace: ctx.server.namespace,
      taskQueue,
      tools: [benchTool(0)],
      models: { scripted: createBenchModel() },
      tenantLimits: { tenants: limited },
      workflowBundle: { codePath: ctx.bundlePath },
    });
    await worker.runUntil(async () => {
      const agents = new AgentClient({ client: ctx.client, taskQueue });
      for (const [i, variant] of VARIANTS.entries()) {
        try {
          const tenant = tenants[i]!;
          const handle = await agents.start({
            ...benchRun({ iterations: ITERATIONS }),
            model: BENCH_MODEL,
            maxIterations: ITERATIONS + 2,
            // The bench model calls tools without a thought, as the chain store's bench runs do.
            requireThought: false,
            ...(variant.limits ? { caller: { id: 'bench', roles: [], tenant } } : {}),
          });
          const result = await handle.result();
          if (result.toolCalls !== ITERATIONS)
            throw new Error(`made ${result.toolCalls} tool calls, not ${ITERATIONS} (${result.terminationReason})`);
          const run = billableActions(await handle.fetchHistory());
          const quota =
            variant.limits && variant.limits !== 'none'
              ? billableActions(await ctx.client.workflow.getHandle(tenantQuotaWorkflowId(tenant)).fetchHistory()).total
              : 0;
          ctx.log(`tenant rates: ${variant.name}: run ${run.total}, quota ${quota} (${result.terminationReason})`);
          rows.push(
            measurement(`${variant.name}: actions of the run + its quota`, run.total + quota, 'actions', {
              note: `run ${run.total} (${run.activities} activities), quota workflow ${quota}; ${result.terminationReason}`,
            }),
          );
          runs.push({ variant: variant.name, run, quota, terminationReason: result.terminationReason });
        } catch (err) {
          errors.push(`${variant.name}: ${errorText(err)}`);
        }
      }
    });
  } catch (err) {
    errors.push(errorText(err));
  }
  return {
    measurements: rows,
    errors,
    details: {
      runs,
      counted:
        "billableActions of the run's history plus its tenant quota workflow's (start and updates); one run of 10 tool iterations: 11 model calls and 10 tool calls",
    },
  };
}
