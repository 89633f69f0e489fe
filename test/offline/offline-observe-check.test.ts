import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOfflineModel } from '../../src/offline/offline-model';
import { defineTool } from '../../src/tools/define-tool';
import { thinkingSteps } from '../helpers/chain-helpers';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';

const env = useTestEnv();

const orders = defineTool({
  name: 'lookup_order',
  description: "Look up an order's shipping status by its id",
  input: z.object({ order_id: z.string().min(3).describe('The order id, e.g. "A-1234"') }),
  execute: ({ order_id }) => ({ order_id, status: order_id === 'A-1234' ? 'shipped on 3 May' : 'unknown order' }),
});

let h: AgentHarness;
let running: Promise<void> | undefined;
beforeAll(async () => {
  h = await createHarness(env, { tools: [orders], models: { anthropic: createOfflineModel() } });
  running = h.worker.run();
});
afterAll(async () => {
  h?.worker.shutdown();
  await running;
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
