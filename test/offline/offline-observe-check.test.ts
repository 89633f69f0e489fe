import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOfflineModel } from '../../src/offline/offline-model';
import type { AgentResult } from '../../src/domain';
import { defineTool } from '../../src/tools/define-tool';
import { thinkingSteps } from '../helpers/chain-helpers';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';

/**
 * Seed 003 on the offline model with the real planner, observer, goal check, memory workflow and
 * run cache (no probe workflows).
 */
const env = useTestEnv();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'offline-observe-check-'));

const orders = defineTool({
  name: 'lookup_order',
  description: "Look up an order's shipping status by its id",
  input: z.object({ order_id: z.string().min(3).describe('The order id, e.g. "A-1234"') }),
  execute: ({ order_id }) => ({ order_id, status: order_id === 'A-1234' ? 'shipped on 3 May' : 'unknown order' }),
});

let h: AgentHarness;
let running: Promise<void> | undefined;
beforeAll(async () => {
  h = await createHarness(env, {
    tools: [orders],
    models: { anthropic: createOfflineModel() },
    cacheFile: path.join(dir, 'cache.sqlite'),
  });
  running = h.worker.run();
});
afterAll(async () => {
  h?.worker.shutdown();
  await running;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the offline model with the observer and the goal check (seed 003)', () => {
  it('observes each action, learns from its result, and passes the goal check once every task is done', async () => {
    const handle = await h.agents.start({
      task: 'What is the status of order A-1234?',
      maxIterations: 10,
      planning: { observe: true, goalCheck: true },
    });
    const result = await handle.result();
    expect(result).toMatchObject({ success: true, terminationReason: 'success' });
    const observed = thinkingSteps(result.chain.steps, 'observation');
    expect(observed.length).toBeGreaterThanOrEqual(1);
    expect(observed[0]?.observation).toMatchObject({ success: true, taskId: 't1' });
    expect(observed[0]?.observation?.learned).toContain('shipped on 3 May');
    expect(result.plan?.learnings?.[0]?.text).toContain('lookup_order returned');
    const checks = thinkingSteps(result.chain.steps, 'goal_check');
    expect(checks.at(-1)?.goalCheck).toMatchObject({ met: true });
    expect(result.finalAnswer).toContain('shipped on 3 May');
  });
});

const run = async (init: Parameters<AgentHarness['agents']['start']>[0]) => {
  const handle = await h.agents.start(init);
  return { ...(await handle.result()), workflowId: handle.workflowId } as AgentResult & { workflowId: string };
};

describe('seed 003: learnings kept across runs, plans reused', () => {
  it('a later run of the same agent and tenant reads what an earlier one learnt; another tenant reads nothing', async () => {
    const agentName = `orders-${randomUUID().slice(0, 8)}`;
    const planning = { observe: true, memory: true, reflectEvery: 0 };
    const caller = { id: 'ada', tenant: 'acme' };
    const first = await run({ task: 'What is the status of order A-1234?', agentName, planning, caller });
    expect(first.success).toBe(true);
    expect(thinkingSteps(first.chain.steps, 'memory')[0]?.thought).toContain('no learnings yet');
    const learnt = first.plan?.learnings?.map((l) => l.text) ?? [];
    expect(learnt.join('\n')).toContain('shipped on 3 May');

    const second = await run({ task: 'Is order A-1234 shipped?', agentName, planning, caller });
    const recalled = thinkingSteps(second.chain.steps, 'memory')[0];
    expect(recalled?.thought).toContain('shipped on 3 May');
    expect(recalled?.thought).toContain(first.workflowId);
    // The recalled learnings are the plan's first ones, marked with the run they came from.
    expect(second.plan?.learnings?.[0]).toMatchObject({ fromRun: first.workflowId });

    const other = await run({
      task: 'Is order A-1234 shipped?',
      agentName,
      planning,
      caller: { id: 'bob', tenant: 'globex' },
    });
    const otherMemory = thinkingSteps(other.chain.steps, 'memory')[0];
    expect(otherMemory?.thought).toContain('no learnings yet');
    expect(JSON.stringify(other.chain.steps)).not.toContain(first.workflowId);
  });

  it('a similar goal reuses the plan of an earlier run, as a visible step saying where it came from', async () => {
    const tenant = `t-${randomUUID().slice(0, 8)}`;
    const caller = { id: 'ada', tenant };
    const first = await run({
      task: 'Check the shipping status of order A-1234',
      planning: { reflectEvery: 0 },
      cache: { plans: true },
      caller,
    });
    expect(first.plan?.source).toBe('model');
    const second = await run({
      task: 'check the SHIPPING status of order A-1234!',
      planning: { reflectEvery: 0 },
      cache: { plans: true },
      caller,
    });
    expect(second.plan?.source).toBe('cached');
    const planStep = thinkingSteps(second.chain.steps, 'plan')[0];
    expect(planStep?.cacheHit).toMatchObject({ kind: 'plan', fromRun: first.workflowId });
    expect(planStep?.cacheHit?.ageMs).toBeGreaterThanOrEqual(0);
    // No planner call: the only model calls are the loop's own (the first run's filter finds its planner call).
    const plannerCalls = (result: AgentResult) =>
      result.chain.steps.filter(
        (s) =>
          s.type === 'tool_call' &&
          s.toolCall.toolType === 'llm' &&
          /\bplan\b/.test(JSON.stringify(s.toolCall.arguments)),
      );
    expect(plannerCalls(first).length).toBeGreaterThanOrEqual(1);
    expect(plannerCalls(second)).toHaveLength(0);
    expect(second.success).toBe(true);
  });
});
