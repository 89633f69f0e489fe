import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { billableActions } from '../src/client/runs/billable-actions';
import { AgentClient } from '../src/client/agent-client';
import { createOfflineModel } from '../src/offline/offline-model';
import { memoryWorkflowId, type AgentInputInit } from '../src/domain';
import { modelTimes } from '../src/domain/chain/model-times';
import { defineTool } from '../src/tools/define-tool';
import { createAgentWorker } from '../src/worker';
import type { BenchContext } from './lib/bench-context';
import { errorText, measurement, type FigureBody, type Measurement } from './lib/figure';

/** The one tool of every run: instant, so only what each option adds is counted. */
const orders = defineTool({
  name: 'lookup_order',
  description: "Look up an order's shipping status by its id",
  input: z.object({ order_id: z.string().min(3) }),
  execute: ({ order_id }) => ({ order_id, status: 'shipped on 3 May' }),
});

interface Variant {
  name: string;
  input: Partial<AgentInputInit>;
  /** Run twice with the same agent and tenant; the second run is the one counted. */
  second?: boolean;
}

const VARIANTS: readonly Variant[] = [
  { name: 'no plan', input: {} },
  { name: 'plan', input: { planning: { reflectEvery: 0 } } },
  { name: 'plan + observe', input: { planning: { reflectEvery: 0, observe: true } } },
  { name: 'plan + goal check', input: { planning: { reflectEvery: 0, goalCheck: true } } },
  { name: 'plan + memory, first run', input: { planning: { reflectEvery: 0, observe: true, memory: true } } },
  {
    name: 'plan + memory, a later run',
    input: { planning: { reflectEvery: 0, observe: true, memory: true } },
    second: true,
  },
  { name: 'plan + cache.plans, first run', input: { planning: { reflectEvery: 0 }, cache: { plans: true } } },
  {
    name: 'plan + cache.plans, a later run',
    input: { planning: { reflectEvery: 0 }, cache: { plans: true } },
    second: true,
  },
  {
    name: 'cache.tools, a later run',
    input: { cache: { tools: ['lookup_order'] } },
    second: true,
  },
];

/**
 * Figure 11: what seed 003's options cost in Temporal Cloud actions, counted from real histories
 * of one task ("What is the status of order A-1234?", one instant tool, the offline model) with
 * each option on. Memory's own workflow (its start, updates and idle timer) is counted too. Each
 * run's planning time and reasoning time per iteration (seed 003's targets: under 2 s and 1 s)
 * come from its chain (domain/chain/model-times.ts).
 */
export async function measureSeed003(ctx: BenchContext): Promise<FigureBody> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-seed-003-'));
  const taskQueue = `bench-seed-003-${randomUUID()}`;
  const errors: string[] = [];
  const rows: Measurement[] = [];
  const runs: Record<string, unknown>[] = [];
  try {
    const worker = await createAgentWorker({
      connection: ctx.nativeConnection,
      namespace: ctx.server.namespace,
      taskQueue,
      tools: [orders],
      models: { anthropic: createOfflineModel() },
      cacheFile: path.join(dir, 'cache.sqlite'),
      workflowBundle: { codePath: ctx.bundlePath },
    });
    await worker.runUntil(async () => {
      const agents = new AgentClient({ client: ctx.client, taskQueue });
      let plain: number | undefined;
      for (const variant of VARIANTS) {
        try {
          const caller = { id: 'bench', tenant: `bench-${randomUUID().slice(0, 8)}` };
          const init: AgentInputInit = {
            task: 'What is the status of order A-1234?',
            agentName: 'orders',
            caller,
            ...variant.input,
          };
          if (variant.second) await (await agents.start(init)).result();
          const handle = await agents.start(init);
          const result = await handle.result();
          const actions = billableActions(await handle.fetchHistory());
          const memory = variant.input.planning?.memory
            ? billableActions(await memoryHistory(ctx, caller.tenant))
            : undefined;
          plain ??= actions.total;
          ctx.log(`seed 003: ${variant.name}: ${actions.total} actions (${result.terminationReason})`);
          rows.push(
            measurement(`${variant.name}: billable actions of the run`, actions.total, 'actions', {
              note: `${actions.activities} activities; ${result.terminationReason}; +${actions.total - plain} on no plan`,
            }),
          );
          if (memory)
            rows.push(measurement(`${variant.name}: memory workflow's actions so far`, memory.total, 'actions'));
          // Seed 003's planning and per-iteration reasoning times, read from the chain: no extra action.
          const times = modelTimes(result.chain.steps);
          if (times.planningCalls > 0)
            rows.push(
              measurement(`${variant.name}: planning time`, times.planningMs, 'ms', {
                note: `${times.planningCalls} planner call(s), the model activity's own duration`,
              }),
            );
          rows.push(
            measurement(`${variant.name}: reasoning time per iteration`, times.reasoningPerIterationMs, 'ms', {
              note: `${times.reasoningIterations} iterations, slowest ${times.slowestIterationMs} ms`,
            }),
          );
          runs.push({ variant: variant.name, actions, memory, times, terminationReason: result.terminationReason });
        } catch (err) {
          errors.push(`${variant.name}: ${errorText(err)}`);
        }
      }
    });
  } catch (err) {
    errors.push(errorText(err));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return {
    measurements: rows,
    errors,
    details: {
      runs,
      counted: 'billableActions(history) of the counted run; memory: the memory workflow of the run’s tenant and agent',
    },
  };
}

/** The history of the memory workflow of this tenant's `orders` agent. */
const memoryHistory = (ctx: BenchContext, tenant: string) =>
  ctx.client.workflow.getHandle(memoryWorkflowId(tenant, 'orders')).fetchHistory();
