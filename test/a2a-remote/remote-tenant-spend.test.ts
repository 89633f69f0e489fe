import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, useTool } from '../../src/activities/models/scripted-model';
import { tenantQuotaQuery, tenantQuotaWorkflowId } from '../../src/workflows/tenant-quota/tenant-quota-messages';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { startMinimalA2aServer, type MinimalA2aServer } from './minimal-a2a-server';

/**
 * A remote A2A agent's spend counts against the caller's tenant hourly limits, as a sub-agent's
 * own calls do: a tenant at $1 an hour whose run delegates to a remote agent that reports $3 stops
 * at its next call (cost_budget), the quota holds the $3, and the tenant's next run stops at once.
 * Before, the remote's spend reached the run's ledger only, and the tenant's hour never saw it.
 */
const env = useTestEnv();

let remote: MinimalA2aServer;
beforeAll(async () => {
  remote = await startMinimalA2aServer();
});
afterAll(() => remote.close());

describe("a remote agent's spend and the tenant's hourly limits", () => {
  it("a reported $3 against a $1-an-hour tenant: the run stops at its next call, the tenant's hour holds it", async () => {
    const tenant = `remote-spend-${randomUUID().slice(0, 8)}`;
    const scripted = createScriptedModel([
      { content: [useTool('remote_analyst', { task: 'Summarise the Q3 report' }, 'call_remote')] },
      { content: [useTool('finish', { result: 'done' }, 'call_finish')] },
      { content: [useTool('finish', { result: 'second done' }, 'call_finish_2')] },
    ]);
    const h = await createHarness(env, {
      tools: [],
      models: { scripted },
      tenantLimits: { tenants: { [tenant]: { costPerHourUsd: 1 } } },
      a2a: { allow: [remote.origin] },
    });
    void remote.started.then(() =>
      remote.release({
        kind: 'answer',
        text: 'Revenue grew 12%.',
        thoughtline: { runId: 'remote-run', costUsd: 3, usage: { inputTokens: 30_000, outputTokens: 2_000 } },
      }),
    );
    const caller = { id: 'u1', roles: [], tenant };
    const input = (task: string) => ({
      task,
      model: SCRIPTED_MODEL,
      requireThought: false,
      costBudgetUsd: 10,
      caller,
      agents: { remote_analyst: { description: 'Reads reports (remote)', a2a: { card: remote.cardUrl } } },
    });
    const { first, second, quota } = await h.worker.runUntil(async () => {
      const first = await (await h.agents.start(input('What does the Q3 report say?'))).result();
      const second = await (await h.agents.start(input('And now something else'))).result();
      const quota = await env.client.workflow.getHandle(tenantQuotaWorkflowId(tenant)).query(tenantQuotaQuery);
      return { first, second, quota };
    });
    expect(first.costUsd).toBeCloseTo(3, 6);
    expect(first.terminationReason).toBe('cost_budget');
    expect(first.finalAnswer).toMatch(new RegExp(`Tenant ${tenant} has spent \\$3\\.00 of its \\$1\\.00 per hour`));
    expect(quota.spentThisHourUsd).toBeGreaterThanOrEqual(3);
    expect(second.terminationReason).toBe('cost_budget');
    expect(second.modelCalls).toBe(0);
  });
});
