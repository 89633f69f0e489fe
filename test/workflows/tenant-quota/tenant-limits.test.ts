import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { tenantQuotaQuery, tenantQuotaWorkflowId } from '../../../src/workflows/tenant-quota/tenant-quota-messages';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { slowTool, testTools } from '../../helpers/test-tools';

const env = useTestEnv();

describe('per-tenant limits, enforced by the tenant quota workflow', () => {
  it('a run over the concurrent-run limit ends at once with the reason; the slot frees when the first run ends', async () => {
    const tenant = `acme-${randomUUID().slice(0, 8)}`;
    const events: string[] = [];
    const scripted = createScriptedModel([
      { content: [say('Working.'), useTool('slow_job', {}, 'toolu_s1')] },
      { content: [useTool('finish', { result: 'first done' }, 'toolu_s2')] },
      { content: [useTool('finish', { result: 'third done' }, 'toolu_s3')] },
    ]);
    const h = await createHarness(env, {
      tools: [slowTool(events, { ms: 3_000 })],
      models: { scripted },
      tenantLimits: { tenants: { [tenant]: { maxConcurrentRuns: 1 } } },
    });
    const caller = { id: 'u1', roles: [], tenant };
    const { first, second, third, quota } = await h.worker.runUntil(async () => {
      const one = await h.agents.start({ task: 'Run the slow job', model: SCRIPTED_MODEL, caller });
      for (let i = 0; i < 100 && !events.includes('started'); i++) await new Promise((r) => setTimeout(r, 50));
      const second = await (await h.agents.start({ task: 'Also run', model: SCRIPTED_MODEL, caller })).result();
      const first = await one.result();
      const third = await (await h.agents.start({ task: 'Now there is room', model: SCRIPTED_MODEL, caller })).result();
      const quota = await env.client.workflow.getHandle(tenantQuotaWorkflowId(tenant)).query(tenantQuotaQuery);
      return { first, second, third, quota };
    });
    expect(second.terminationReason).toBe('error');
    expect(second.error).toMatch(new RegExp(`Tenant "${tenant}" is at its limit of 1 concurrent run`));
    expect(second.modelCalls).toBe(0);
    expect(second.chain.steps.some((s) => s.type === 'thinking' && s.thought.startsWith('Refused:'))).toBe(true);
    expect(first).toMatchObject({ success: true, finalAnswer: 'first done' });
    expect(third).toMatchObject({ success: true, finalAnswer: 'third done' });
    expect(quota.activeRuns).toEqual([]);
  });

  it("when the tenant's hourly tokens are spent the run ends with token_budget and says when tokens free up", async () => {
    const tenant = `beta-${randomUUID().slice(0, 8)}`;
    // A call needs its projected input plus max_tokens (2,048): more than the tenant's whole hour.
    const scripted = createScriptedModel([]);
    const h = await createHarness(env, {
      tools: testTools().tools,
      models: { scripted },
      tenantLimits: { tenants: { [tenant]: { tokensPerHour: 2_500 } } },
    });
    const caller = { id: 'u1', roles: [], tenant };
    const { first, second } = await h.worker.runUntil(async () => {
      const first = await (await h.agents.start({ task: 'Look up a', model: SCRIPTED_MODEL, caller })).result();
      const second = await (await h.agents.start({ task: 'Look up b', model: SCRIPTED_MODEL, caller })).result();
      return { first, second };
    });
    expect(first.terminationReason).toBe('token_budget');
    expect(first.finalAnswer).toMatch(
      new RegExp(
        `Tenant "${tenant}" has used 2500 of its 2500 tokens this hour; tokens free up from \\d{4}-\\d\\d-\\d\\dT`,
      ),
    );
    expect(first.modelCalls).toBe(0);
    scripted.verify();
    expect(second.terminationReason).toBe('token_budget');
    expect(second.modelCalls).toBe(0);
  });
});
