import { randomUUID } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import type { TenantLimits } from '../../../src/domain/identity/tenant-limits';
import { cancelSignal } from '../../../src/workflows/messages';
import { tenantQuotaQuery, tenantQuotaWorkflowId } from '../../../src/workflows/tenant-quota/tenant-quota-messages';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv, type TestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';
import { createTimeSkippingEnv } from '../../helpers/time-skipping-env';

const EventType = temporal.api.enums.v1.EventType;
const env = useTestEnv();

/**
 * The wait for a per-minute window runs on the time-skipping server: the run's minute passes in
 * workflow time while the test awaits the result, not in real time. The other cases (no wait, or a
 * cancel during one) stay on the suite's dev server.
 */
let skipping: TestWorkflowEnvironment;
const skippingEnv = (): TestEnv => ({
  client: skipping.client,
  nativeConnection: skipping.nativeConnection,
  namespace: skipping.namespace ?? 'default',
});
beforeAll(async () => {
  skipping = await createTimeSkippingEnv();
});
afterAll(async () => skipping?.teardown());

/** A lookup, then the answer: two model calls and one tool call. */
const lookupThenFinish = (id: string) => [
  { content: [say('Looking it up.'), useTool('lookup', { key: 'alpha' }, `toolu_${id}1`)] },
  { content: [useTool('finish', { result: 'alpha=50' }, `toolu_${id}2`)] },
];

/** One run of `lookupThenFinish` for a tenant with `limits` on `server`, with its history's timers and the quota's state after. */
async function runFor(limits: TenantLimits | undefined, turns = lookupThenFinish('r'), server: TestEnv = env) {
  const tenant = `rates-${randomUUID().slice(0, 8)}`;
  const scripted = createScriptedModel(turns);
  const h = await createHarness(server, {
    tools: testTools().tools,
    models: { scripted },
    tenantLimits: { tenants: limits ? { [tenant]: limits } : {} },
  });
  const caller = { id: 'u1', roles: [], tenant };
  return h.worker.runUntil(async () => {
    const handle = await h.agents.start({ task: 'Look up alpha', model: SCRIPTED_MODEL, caller });
    const result = await handle.result();
    const history = await server.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const events = history.events ?? [];
    const timers = events.filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED).length;
    const leases = events
      .map((e) => e.activityTaskScheduledEventAttributes)
      .filter((a) => a?.activityType?.name === 'leaseTenantTokens')
      .map((a) => defaultPayloadConverter.fromPayload(a!.input!.payloads![0]!));
    const quota = limits
      ? await server.client.workflow.getHandle(tenantQuotaWorkflowId(tenant)).query(tenantQuotaQuery)
      : undefined;
    return { tenant, result, timers, leases, quota, scripted };
  });
}

const rateNotes = (result: Awaited<ReturnType<typeof runFor>>['result']) =>
  result.chain.steps.filter((s) => s.type === 'thinking' && s.purpose === 'rate_limit');

describe('tenant rate and cost limits, enforced before each model and tool call', () => {
  it('a tenant at its calls per minute waits visibly (one timer) until the window frees, then proceeds to success', async () => {
    // One call a minute... two: the first model call and the lookup fill the minute; the second model call waits.
    const { tenant, result, timers, quota, scripted } = await runFor(
      { callsPerMinute: 2 },
      lookupThenFinish('r'),
      skippingEnv(),
    );
    expect(result).toMatchObject({ success: true, finalAnswer: 'alpha=50' });
    scripted.verify();
    const notes = rateNotes(result);
    expect(notes).toHaveLength(1);
    const note = notes[0];
    expect(note?.type === 'thinking' && note.thought).toMatch(
      new RegExp(`^Waiting for tenant ${tenant}'s limit of 2 calls per minute; continuing at \\d{4}-\\d\\d-\\d\\dT`),
    );
    expect(note?.visibility.level).toBe('full');
    expect(timers).toBe(1);
    // The minute was waited out in workflow time (the first two calls count until a minute after
    // them), and no more: the timer fired when the window freed.
    expect(result.executionTimeMs).toBeGreaterThanOrEqual(60_000);
    expect(result.executionTimeMs).toBeLessThan(120_000);
    expect(quota?.activeRuns).toEqual([]);
    expect(quota?.callsThisMinute).toBeLessThanOrEqual(2);
  });

  it("with onRateLimit 'stop' the run ends with token_budget and names the limit, the call recorded as not run", async () => {
    const { tenant, result, timers } = await runFor({ callsPerMinute: 1, onRateLimit: 'stop' });
    expect(result.terminationReason).toBe('token_budget');
    expect(result.finalAnswer).toMatch(
      new RegExp(
        `Tenant "${tenant}" is at its limit of 1 call per minute \\(room again at .*\\); its onRateLimit is 'stop'`,
      ),
    );
    expect(rateNotes(result)).toHaveLength(0);
    expect(timers).toBe(0);
    const notRun = result.chain.steps.find((s) => s.type === 'tool_result' && s.toolResult.outcome === 'not_run');
    expect(notRun).toBeDefined();
  });

  it('a model call that needs more tokens than the tenant may use in a minute stops the run at once instead of waiting', async () => {
    // A call needs its projected input plus max_tokens (2,048): more than the whole minute.
    const { tenant, result, timers } = await runFor({ tokensPerMinute: 1_000 }, []);
    expect(result.terminationReason).toBe('token_budget');
    expect(result.finalAnswer).toMatch(
      new RegExp(`needs \\d+ tokens, more than tenant "${tenant}"'s limit of 1000 tokens per minute`),
    );
    expect(result.modelCalls).toBe(0);
    expect(timers).toBe(0);
  });

  it('at the hourly cost cap the run stops with cost_budget, naming the tenant, its spend and the cap', async () => {
    const turns = lookupThenFinish('c');
    const expensive = [{ ...turns[0]!, costUsd: 0.06 }, turns[1]!];
    const { tenant, result, quota } = await runFor({ costPerHourUsd: 0.05 }, expensive);
    expect(result.terminationReason).toBe('cost_budget');
    expect(result.finalAnswer).toMatch(
      new RegExp(
        `Tenant ${tenant} has spent \\$0\\.06 of its \\$0\\.05 per hour; spend frees up from \\d{4}-\\d\\d-\\d\\dT`,
      ),
    );
    expect(result.modelCalls).toBe(1);
    expect(quota?.spentThisHourUsd).toBe(0.06);
  });

  it('a tenant without these limits leases once, as before (tokens only), and records no wait', async () => {
    const { result, timers, leases } = await runFor({ tokensPerHour: 100_000 });
    expect(leases).toEqual([{ tenant: expect.any(String), workflowId: expect.any(String), tokens: 20_000 }]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'alpha=50' });
    expect(rateNotes(result)).toHaveLength(0);
    expect(timers).toBe(0);
  });

  it('a cancel during the wait ends the run as cancelled, well before the window frees', async () => {
    const tenant = `rates-${randomUUID().slice(0, 8)}`;
    const h = await createHarness(env, {
      tools: testTools().tools,
      models: { scripted: createScriptedModel(lookupThenFinish('x')) },
      tenantLimits: { tenants: { [tenant]: { callsPerMinute: 1 } } },
    });
    const { result, ms } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'Look up alpha',
        model: SCRIPTED_MODEL,
        caller: { id: 'u1', roles: [], tenant },
      });
      const waiting = async () =>
        (await h.agents.chain(handle.workflowId)).steps.some(
          (s) => s.type === 'thinking' && s.purpose === 'rate_limit',
        );
      for (let i = 0; i < 200 && !(await waiting()); i++) await new Promise((r) => setTimeout(r, 100));
      const started = Date.now();
      await handle.signal(cancelSignal, { reason: 'enough', by: 'alice' });
      return { result: await handle.result(), ms: Date.now() - started };
    });
    expect(result.terminationReason).toBe('cancelled');
    expect(rateNotes(result)).toHaveLength(1);
    expect(ms).toBeLessThan(30_000);
  });
});
