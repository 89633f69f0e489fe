import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AgentInput, type Plan } from '../../../src/domain';
import { createAgentWorker } from '../../../src/worker';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-reuse-'));
let code: string;
beforeAll(async () => {
  ({ code } = await bundleWorkflowCode({
    workflowsPath: path.join(__dirname, 'plan-cache-probe.ts'),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
  }));
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const made: Plan = {
  tasks: [
    {
      id: 't1',
      description: 'Find the report',
      dependencies: [],
      requiredTools: ['search'],
      status: 'completed',
      result: 'found',
    },
    {
      id: 't2',
      description: 'Summarise it',
      dependencies: ['t1'],
      requiredTools: [],
      status: 'failed',
      error: 'too long',
    },
  ],
  source: 'model',
  version: 2,
};

describe('plan reuse (cache.plans) through reusePlan and storePlan', () => {
  it(
    'a run with a similar goal and the same tools gets the plan another run made, pending and marked cached; one lookup activity per run',
    { timeout: 120_000 },
    async () => {
      const taskQueue = `test-${randomUUID()}`;
      const worker = await createAgentWorker({
        connection: env.nativeConnection,
        namespace: inject('temporalNamespace'),
        taskQueue,
        tools: [],
        models: {},
        cacheFile: path.join(dir, 'cache.sqlite'),
        workflowBundle: { code },
        workerOptions: { maxCachedWorkflows: 0 },
      });
      const input = (extra: Record<string, unknown>) =>
        AgentInput.parse({ task: 'x', model: { provider: 'scripted', model: 'm' }, ...extra });
      const cached = input({ cache: { plans: true, ttlMs: 60_000 } });
      const probe = (workflowId: string, args: unknown[]) =>
        env.client.workflow.execute('planCacheProbe', { taskQueue, workflowId, args });
      const activitiesOf = async (workflowId: string) =>
        ((await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? []).flatMap((e) =>
          e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name] : [],
        );
      await worker.runUntil(async () => {
        const first = `planner-${randomUUID()}`;
        expect(await probe(first, [cached, 'Summarise the Q3 sales report', ['search', 'calc'], made])).toBeNull();
        expect(await activitiesOf(first)).toEqual(['lookupCachedPlan', 'storeCachedPlan']);

        const second = `planner-${randomUUID()}`;
        const reused = await probe(second, [cached, 'sales report Q3: summarise, please', ['calc', 'search']]);
        expect(reused).toMatchObject({
          plan: {
            source: 'cached',
            version: 1,
            tasks: [
              { id: 't1', status: 'pending', requiredTools: ['search'] },
              { id: 't2', status: 'pending', dependencies: ['t1'] },
            ],
          },
          hit: { kind: 'plan', fromRun: first },
        });
        expect(reused.plan.tasks[0]).not.toHaveProperty('result');
        expect(reused.plan.tasks[1]).not.toHaveProperty('error');
        expect(reused.hit.ageMs).toBeGreaterThanOrEqual(0);
        expect(await activitiesOf(second)).toEqual(['lookupCachedPlan']);

        // A goal with one word more (4 of its 5 words are the stored goal's): that plan, saying how alike.
        const near = await probe(`p-${randomUUID()}`, [
          cached,
          'Summarise the Q3 sales report quickly',
          ['search', 'calc'],
        ]);
        expect(near).toMatchObject({
          plan: { source: 'cached' },
          hit: { kind: 'plan', fromRun: first, similarity: 0.8 },
        });

        // Another tenant, other tools, or a goal with other words (another number): no plan.
        const globex = input({ cache: { plans: true, ttlMs: 60_000 }, caller: { id: 'u', tenant: 'globex' } });
        expect(
          await probe(`p-${randomUUID()}`, [globex, 'Summarise the Q3 sales report', ['search', 'calc']]),
        ).toBeNull();
        expect(await probe(`p-${randomUUID()}`, [cached, 'Summarise the Q3 sales report', ['search']])).toBeNull();
        expect(
          await probe(`p-${randomUUID()}`, [cached, 'Summarise the Q4 sales report', ['search', 'calc']]),
        ).toBeNull();

        // Plan caching off: nothing is scheduled at all.
        const off = `p-${randomUUID()}`;
        expect(await probe(off, [input({}), 'Summarise the Q3 sales report', ['search', 'calc'], made])).toBeNull();
        expect(await activitiesOf(off)).toEqual([]);

        // A fallback plan is not stored.
        const fallback = `p-${randomUUID()}`;
        await probe(fallback, [cached, 'Write a haiku', [], { ...made, source: 'template' }]);
        expect(await activitiesOf(fallback)).toEqual(['lookupCachedPlan']);
      });
    },
  );
});
