import { randomUUID } from 'node:crypto';
import { Client, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenantActivities, type TenantActivities } from '../../../src/activities/tenant-activities';
import type { TenantLimitsConfigInit } from '../../../src/domain/identity/tenant-limits';
import {
  leaseTenantTokensUpdate,
  tenantQuotaQuery,
  tenantQuotaWorkflowId,
  type TenantQuotaSnapshot,
} from '../../../src/workflows/tenant-quota/tenant-quota-messages';
import type { tenantQuotaWorkflow } from '../../../src/workflows/tenant-quota/tenant-quota-workflow';
import { useTestEnv } from '../../helpers/temporal-env';

const EventType = temporal.api.enums.v1.EventType;
const suffix = randomUUID().slice(0, 8);
const tenant = {
  concurrency: `concurrency-${suffix}`,
  burst: `burst-${suffix}`,
  tokens: `tokens-${suffix}`,
  retries: `retries-${suffix}`,
  reclaim: `reclaim-${suffix}`,
  handover: `handover-${suffix}`,
  churn: `churn-${suffix}`,
  free: `free-${suffix}`,
  upgrade: `upgrade-${suffix}`,
};
const limits: TenantLimitsConfigInit = {
  tenants: {
    [tenant.concurrency]: { maxConcurrentRuns: 2 },
    [tenant.burst]: { maxConcurrentRuns: 3 },
    [tenant.tokens]: { tokensPerHour: 1_000 },
    [tenant.retries]: { tokensPerHour: 1_000 },
    [tenant.reclaim]: { maxConcurrentRuns: 5 },
    [tenant.handover]: { maxConcurrentRuns: 3, tokensPerHour: 1_000 },
    [tenant.churn]: { maxConcurrentRuns: 3, tokensPerHour: 100_000 },
    [tenant.upgrade]: { maxConcurrentRuns: 3, tokensPerHour: 1_000, callsPerMinute: 5 },
  },
};

const env = useTestEnv();
let client: Client;
let worker: Worker;
let running: Promise<void>;
let quota: TenantActivities;
let reclaiming: TenantActivities;
const taskQueue = `tenant-quota-${suffix}`;
const started = new Set<string>();

beforeAll(async () => {
  const namespace = inject('temporalNamespace');
  // The worker's own NativeConnection powers the activities' Client, as createAgentWorker would do it.
  client = new Client({ connection: env.nativeConnection, namespace });
  // Most quotas check for closed runs rarely, so the made-up run ids of these tests keep their slots;
  // quotas started through `reclaiming` check every second.
  quota = createTenantActivities({ client, limits, taskQueue, reclaimEveryMs: 600_000 });
  reclaiming = createTenantActivities({ client, limits, taskQueue, reclaimEveryMs: 1_000 });
  worker = await Worker.create({
    connection: env.nativeConnection,
    namespace,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities: quota,
    // Every workflow task replays the whole history: a determinism bug fails the test.
    maxCachedWorkflows: 0,
  });
  running = worker.run();
});

afterAll(async () => {
  await Promise.all(
    [...started].map((id) =>
      client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined),
    ),
  );
  worker?.shutdown();
  await running;
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const run = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
function quotaOf(t: string) {
  const id = tenantQuotaWorkflowId(t);
  started.add(id);
  return client.workflow.getHandle<typeof tenantQuotaWorkflow>(id);
}
const snapshot = (t: string): Promise<TenantQuotaSnapshot> => quotaOf(t).query(tenantQuotaQuery);
async function eventTypes(workflowId: string, runId?: string): Promise<number[]> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return (history.events ?? []).map((e) => e.eventType ?? EventType.EVENT_TYPE_UNSPECIFIED);
}
const count = (types: number[], name: keyof typeof EventType) => types.filter((t) => t === EventType[name]).length;

describe('concurrent runs', () => {
  it('refuses the third run with a clear reason, frees a slot on release, and is idempotent', async () => {
    const t = tenant.concurrency;
    const [a, b, c] = [run('a'), run('b'), run('c')];
    expect(await quota.acquireTenantRun({ tenant: t, workflowId: a })).toEqual({
      granted: true,
      activeRuns: 1,
      maxConcurrentRuns: 2,
    });
    expect(await quota.acquireTenantRun({ tenant: t, workflowId: b })).toEqual({
      granted: true,
      activeRuns: 2,
      maxConcurrentRuns: 2,
    });
    // An activity retry of the same acquire: granted, no second slot.
    expect(await quota.acquireTenantRun({ tenant: t, workflowId: a })).toEqual({
      granted: true,
      activeRuns: 2,
      maxConcurrentRuns: 2,
    });
    expect(await quota.acquireTenantRun({ tenant: t, workflowId: c })).toEqual({
      granted: false,
      reason: `Tenant "${t}" is at its limit of 2 concurrent runs (2 active); start this run again when one finishes.`,
      activeRuns: 2,
      maxConcurrentRuns: 2,
    });

    expect(await quota.releaseTenantRun({ tenant: t, workflowId: a, unusedTokens: 0 })).toEqual({
      released: true,
      returnedTokens: 0,
      activeRuns: 1,
    });
    expect(await quota.releaseTenantRun({ tenant: t, workflowId: a, unusedTokens: 0 })).toEqual({
      released: false,
      returnedTokens: 0,
      activeRuns: 1,
    });
    expect(await quota.acquireTenantRun({ tenant: t, workflowId: c })).toMatchObject({ granted: true, activeRuns: 2 });
    expect((await snapshot(t)).activeRuns.map((r) => r.workflowId)).toEqual([b, c]);

    // One quota workflow, started on demand by the first update-with-start; every message is in its history.
    const types = await eventTypes(tenantQuotaWorkflowId(t));
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED')).toBe(1);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED')).toBe(7);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_TASK_FAILED')).toBe(0);
  });

  it('grants exactly the limit when many runs acquire at once', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => run(`burst${i}`));
    const results = await Promise.all(
      ids.map((workflowId) => quota.acquireTenantRun({ tenant: tenant.burst, workflowId })),
    );
    expect(results.filter((r) => r.granted)).toHaveLength(3);
    expect(
      results.filter((r) => !r.granted).every((r) => !r.granted && r.reason.includes('limit of 3 concurrent runs')),
    ).toBe(true);
    expect((await snapshot(tenant.burst)).activeRuns).toHaveLength(3);
  });

  it('leaves a tenant without limits alone: granted, no quota workflow', async () => {
    expect(await quota.acquireTenantRun({ tenant: tenant.free, workflowId: run('x') })).toEqual({
      granted: true,
      activeRuns: 0,
    });
    expect(await quota.leaseTenantTokens({ tenant: tenant.free, workflowId: run('x'), tokens: 1e9 })).toEqual({
      granted: 1e9,
      usedThisHour: 0,
    });
    await expect(client.workflow.getHandle(tenantQuotaWorkflowId(tenant.free)).describe()).rejects.toBeInstanceOf(
      WorkflowNotFoundError,
    );
  });
});

describe('tokens per hour', () => {
  it('grants leases until spent, then 0 with resetsAt; unused tokens given back are usable again', async () => {
    const t = tenant.tokens;
    const [a, b] = [run('a'), run('b')];
    await quota.acquireTenantRun({ tenant: t, workflowId: a });
    const before = Date.now();
    const first = await quota.leaseTenantTokens({ tenant: t, workflowId: a, tokens: 600 });
    expect(first).toMatchObject({ granted: 600, usedThisHour: 600, tokensPerHour: 1_000 });
    const resetsAt = Date.parse(first.resetsAt ?? '');
    expect(resetsAt).toBeGreaterThanOrEqual(before + 3_600_000 - 5_000);
    expect(resetsAt).toBeLessThanOrEqual(Date.now() + 3_600_000 + 5_000);

    expect(await quota.leaseTenantTokens({ tenant: t, workflowId: b, tokens: 600 })).toMatchObject({
      granted: 400,
      usedThisHour: 1_000,
    });
    expect(await quota.leaseTenantTokens({ tenant: t, workflowId: b, tokens: 50 })).toEqual({
      granted: 0,
      usedThisHour: 1_000,
      tokensPerHour: 1_000,
      resetsAt: first.resetsAt,
    });

    expect(await quota.releaseTenantRun({ tenant: t, workflowId: a, unusedTokens: 250 })).toEqual({
      released: true,
      returnedTokens: 250,
      activeRuns: 0,
    });
    expect(await quota.leaseTenantTokens({ tenant: t, workflowId: b, tokens: 400 })).toMatchObject({
      granted: 250,
      usedThisHour: 1_000,
    });
    expect(await snapshot(t)).toMatchObject({ usedThisHour: 1_000, limits: { tokensPerHour: 1_000 } });
  });

  it('answers a retried lease activity with its first result instead of leasing twice', async () => {
    const t = tenant.retries;
    const agent = { workflowId: run('agent'), runId: randomUUID() };
    const attempt = (n: number) =>
      new MockActivityEnvironment({ activityId: '7', attempt: n, workflowExecution: agent }).run(
        quota.leaseTenantTokens,
        {
          tenant: t,
          workflowId: agent.workflowId,
          tokens: 300,
        },
      );
    const first = await attempt(1);
    expect(first).toMatchObject({ granted: 300, usedThisHour: 300 });
    expect(await attempt(2)).toEqual(first);
    // A different activity of the same run is a new lease.
    const other = await new MockActivityEnvironment({ activityId: '8', workflowExecution: agent }).run(
      quota.leaseTenantTokens,
      {
        tenant: t,
        workflowId: agent.workflowId,
        tokens: 300,
      },
    );
    expect(other).toMatchObject({ granted: 300, usedThisHour: 600 });
    expect((await snapshot(t)).usedThisHour).toBe(600);
  });

  it('rejects malformed messages in the validator, outside history, and the activity does not retry them', async () => {
    const t = tenant.retries;
    const handle = quotaOf(t);
    const bad = handle.executeUpdate(leaseTenantTokensUpdate, { args: [{ workflowId: 'x', tokens: -5, limits: {} }] });
    await expect(bad).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
    const failure = await quota.leaseTenantTokens({ tenant: t, workflowId: 'x', tokens: 1.5 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'TenantQuotaRequestRejected', nonRetryable: true });
    const types = await eventTypes(handle.workflowId);
    expect(count(types, 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED')).toBe(2);
    expect((await snapshot(t)).usedThisHour).toBe(600);
  });
});

describe('durability', () => {
  it('reclaims the slots of runs that were terminated or no longer exist, and keeps running ones', async () => {
    const t = tenant.reclaim;
    // Stand-in agent runs: any long-running workflow will do; this bundle has the quota workflow.
    const [victim, survivor] = [run('victim'), run('survivor')];
    for (const id of [victim, survivor]) {
      started.add(id);
      await client.workflow.start('tenantQuotaWorkflow', { taskQueue, workflowId: id, args: [{ tenant: id }] });
    }
    const ghost = run('ghost');
    for (const id of [victim, survivor, ghost])
      expect(await reclaiming.acquireTenantRun({ tenant: t, workflowId: id })).toMatchObject({ granted: true });
    await client.workflow.getHandle(victim).terminate('simulating a killed run');

    const deadline = Date.now() + 20_000;
    let active: string[] = [];
    while (Date.now() < deadline) {
      active = (await snapshot(t)).activeRuns.map((r) => r.workflowId);
      if (active.length === 1) break;
      await wait(250);
    }
    expect(active).toEqual([survivor]);
    expect(await reclaiming.findClosedRuns([victim, survivor, ghost])).toEqual([victim, ghost]);
    const types = await eventTypes(tenantQuotaWorkflowId(t));
    expect(count(types, 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED')).toBeGreaterThanOrEqual(1);
  });

  it("continues from a version-1 quota's carried state (before the rate windows) and adds the windows to it", async () => {
    const t = tenant.upgrade;
    const handle = quotaOf(t);
    const a = run('a');
    const now = Date.now();
    // What a quota of the previous version handed over at continue-as-new.
    const v1 = {
      schemaVersion: 1,
      tenant: t,
      limits: { maxConcurrentRuns: 3, tokensPerHour: 1_000 },
      activeRuns: [{ workflowId: a, since: now }],
      leases: [{ workflowId: a, tokens: 400, at: now }],
    };
    await client.workflow.start('tenantQuotaWorkflow', {
      taskQueue,
      workflowId: handle.workflowId,
      args: [{ tenant: t, continueAsNewAfter: 2, reclaimEveryMs: 600_000, carried: v1 }],
    });
    expect(await snapshot(t)).toMatchObject({ activeRuns: [{ workflowId: a }], usedThisHour: 400, windowEntries: 0 });
    expect(await quota.leaseTenantTokens({ tenant: t, workflowId: a, tokens: 100, calls: 5 })).toMatchObject({
      granted: 100,
      usedThisHour: 500,
      calls: 5,
      callsPerMinute: 5,
    });
    // The second update hands over: the next run carries version 2, with the calls counted.
    expect(await quota.leaseTenantTokens({ tenant: t, workflowId: a, tokens: 0, calls: 1 })).toMatchObject({
      calls: 0,
      callsThisMinute: 5,
    });
    await wait(500);
    expect(await snapshot(t)).toMatchObject({ usedThisHour: 500, callsThisMinute: 5, handledThisRun: 0 });
  });

  it('carries slots and the token window through continue-as-new', async () => {
    const t = tenant.handover;
    const handle = quotaOf(t);
    const first = await client.workflow.start('tenantQuotaWorkflow', {
      taskQueue,
      workflowId: handle.workflowId,
      args: [{ tenant: t, continueAsNewAfter: 3, reclaimEveryMs: 60_000 }],
    });
    const [a, b, c] = [run('a'), run('b'), run('c')];
    await quota.acquireTenantRun({ tenant: t, workflowId: a });
    await quota.acquireTenantRun({ tenant: t, workflowId: b });
    await quota.leaseTenantTokens({ tenant: t, workflowId: a, tokens: 300 });
    // The first run has handed over by now; these land on later runs.
    expect(await quota.acquireTenantRun({ tenant: t, workflowId: b })).toEqual({
      granted: true,
      activeRuns: 2,
      maxConcurrentRuns: 3,
    });
    expect(await quota.leaseTenantTokens({ tenant: t, workflowId: b, tokens: 500 })).toMatchObject({
      granted: 500,
      usedThisHour: 800,
    });
    expect(await quota.releaseTenantRun({ tenant: t, workflowId: a, unusedTokens: 100 })).toMatchObject({
      released: true,
      returnedTokens: 100,
    });
    expect(await quota.acquireTenantRun({ tenant: t, workflowId: c })).toMatchObject({ granted: true, activeRuns: 2 });
    expect(await quota.leaseTenantTokens({ tenant: t, workflowId: c, tokens: 1_000 })).toMatchObject({
      granted: 300,
      usedThisHour: 1_000,
    });

    const firstTypes = await eventTypes(handle.workflowId, first.firstExecutionRunId);
    expect(count(firstTypes, 'EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW')).toBe(1);
    const latest = await handle.describe();
    expect(latest.runId).not.toBe(first.firstExecutionRunId);
    const now = await snapshot(t);
    expect(now.activeRuns.map((r) => r.workflowId)).toEqual([b, c]);
    expect(now).toMatchObject({ usedThisHour: 1_000, limits: { maxConcurrentRuns: 3, tokensPerHour: 1_000 } });
    expect(now.handledThisRun).toBeLessThan(3);
  });

  it('replays deterministically while messages race handovers, the reclaim timer and its activity', async () => {
    const t = tenant.churn;
    // Started without a message, like a run after continue-as-new with no slots: its first workflow
    // task issues no command, the case where the SDK batches jobs differently on replay.
    const handle = quotaOf(t);
    await client.workflow.start('tenantQuotaWorkflow', {
      taskQueue,
      workflowId: handle.workflowId,
      args: [{ tenant: t, continueAsNewAfter: 10, reclaimEveryMs: 1_000 }],
    });
    await wait(200);
    const ids = Array.from({ length: 12 }, (_, i) => run(`churn${i}`));
    let granted = 0;
    for (let i = 0; i < ids.length; i += 3) {
      await Promise.all(
        ids.slice(i, i + 3).map(async (id, j) => {
          // Each run frees its predecessor's slot first, so all of them fit under the limit of 3.
          const previous = ids[i + j - 3];
          if (previous) await quota.releaseTenantRun({ tenant: t, workflowId: previous, unusedTokens: 0 });
          expect(await quota.acquireTenantRun({ tenant: t, workflowId: id })).toMatchObject({ granted: true });
          const lease = await quota.leaseTenantTokens({ tenant: t, workflowId: id, tokens: 10 });
          granted += lease.granted;
        }),
      );
      await wait(100 + (i % 2) * 150);
    }
    // The ids are not real workflows: the 1 s check (an activity) finds them closed and drops their slots.
    const deadline = Date.now() + 15_000;
    while ((await snapshot(t)).activeRuns.length > 0 && Date.now() < deadline) await wait(200);
    expect(await snapshot(t)).toMatchObject({ activeRuns: [], usedThisHour: 120 });
    expect(granted).toBe(120);

    const runs: number[][] = [];
    for await (const r of client.workflow.list({ query: `WorkflowId = '${handle.workflowId}'` }))
      runs.push(await eventTypes(r.workflowId, r.runId));
    expect(runs.length).toBeGreaterThan(2);
    expect(runs.map((types) => count(types, 'EVENT_TYPE_WORKFLOW_TASK_FAILED'))).toEqual(runs.map(() => 0));
    expect(runs.some((types) => count(types, 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED') > 0)).toBe(true);
  });
});
